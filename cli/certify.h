/* certify: the release gate.  Report files (schema in docs/report-schema.md). */
#ifndef TD_CERTIFY_H
#define TD_CERTIFY_H

#include <stdio.h>

#include "json.h"

#define TD_REPORT_SCHEMA "tilediff-certify-report"
#define TD_REPORT_VERSION 1

/* Renders report.md / report.html / junit.xml from a parsed report.json.
 * Each returns 0, or -1 with errno set by stdio. */
int td_render_md(FILE *f, const td_json *report);
int td_render_html(FILE *f, const td_json *report);
int td_render_junit(FILE *f, const td_json *report);
/* Prints the summary table (stdout of certify and report merge). */
void td_render_table(FILE *f, const td_json *report);
/* Writes DIR/report.{json,md,html} and DIR/junit.xml from the JSON text, each under a
 * temporary name renamed into place.  Returns 0, or -1 with a message. */
int td_write_reports(const char *dir, const char *json_text, char *err, size_t errlen);
/* JSON string escaping for writers */
void td_json_escape(FILE *f, const char *s);

#endif
