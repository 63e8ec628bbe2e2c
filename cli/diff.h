/* tilediff diff and certify --baseline: two versions of a kernel library compared on
 * the same cases (schema in docs/report-schema.md, "tilediff-diff-report"). */
#ifndef TD_CLI_DIFF_H
#define TD_CLI_DIFF_H

#include <stdint.h>
#include <stdio.h>

#include "json.h"

#define TD_DIFF_SCHEMA "tilediff-diff-report"
#define TD_DIFF_VERSION 1

/* The regression rule's options, shared by diff and certify --baseline. */
typedef struct td_regress_opts {
    double alpha, min_growth;
} td_regress_opts;
void td_regress_defaults(td_regress_opts *o);
/* Consumes argv[*i] (and its value) when it is --alpha or --min-growth: 1 consumed,
 * 0 not ours, -1 bad value (message printed). */
int td_regress_arg(const char *cmd, int argc, char **argv, int *i, td_regress_opts *o);

/* The "changes" section (one entry per compared contract, see docs/report-schema.md):
 * a Markdown table with the paired quantiles, and HTML with a paired quantile plot per
 * contract that changed. */
void td_render_changes_md(FILE *f, const td_json *changes, const char *title);
void td_render_changes_html(FILE *f, const td_json *changes, const char *title);
/* HTML text escaping */
void td_html_text(FILE *f, const char *s);
/* The terminal summary of a changes array. */
void td_render_changes_table(FILE *f, const td_json *changes);

/* certify's per-contract accuracy record: cases_digest, err_over_tol quantiles and the
 * per-case mean err/tol ("case_eot") that a later run pairs with (schema in
 * docs/report-schema.md). */
struct td_campaign;
void td_campaign_accuracy_json(FILE *f, const struct td_campaign *c);

/* certify --baseline FILE: loaded before the run (refused with exit 2 and a reason when
 * it is not a certify report of this tilediff version, or when the run's seed or case
 * counts could not match it). */
typedef struct td_baseline td_baseline;
td_baseline *td_baseline_load(const char *path, char *err, size_t errlen);
void td_baseline_free(td_baseline *b);
/* The baseline's seed; the number of cases the baseline ran for contract `id` (0 when
 * the baseline does not hold it: the contract then runs as the options say). */
unsigned long long td_baseline_seed(const td_baseline *b);
unsigned long long td_baseline_cases(const td_baseline *b, const char *id);
/* Compares a finished certify report (its JSON text) with the baseline, adds the
 * "baseline" object to it and returns the new text (malloc'ed) in *out.  Returns the
 * exit status contribution: 0 no regression, 1 a verdict changed to failed or an
 * accuracy regression, 2 the cases differ (err says why; *out is NULL). */
int td_baseline_compare(const td_baseline *b, const char *report_json, const td_regress_opts *o, char **out,
                        char *err, size_t errlen);

/* certify's hooks (cmd_certify.c): --baseline FILE, --alpha A, --min-growth G. */
typedef struct td_baseline_run {
    const char *path;
    td_baseline *bl;
    td_regress_opts ro;
    int ro_init;
} td_baseline_run;
/* 1 consumed argv[*i] (and its value), 0 not ours, -1 bad usage (message printed) */
int td_baseline_arg(td_baseline_run *b, int argc, char **argv, int *i);
/* Loads the baseline; adopts its seed unless --seed was given (a different one is
 * refused: other cases).  0, or -1 with a message (exit 2). */
int td_baseline_prepare(td_baseline_run *b, uint64_t *seed, int seed_given);
/* The campaign options of one contract: the baseline's case count for it, no time limit. */
struct td_campaign_opts;
const struct td_campaign_opts *td_baseline_opts(const td_baseline_run *b, const char *id,
                                                const struct td_campaign_opts *co, struct td_campaign_opts *tmp);
/* Compares the finished report with the baseline and replaces *report with the text
 * holding the "baseline" section.  Returns 0, 1 (gate failed) or 2 (refused: printed). */
int td_baseline_finish(td_baseline_run *b, char **report);

#endif
