/* A small JSON reader for tilediff's own report files (report merge, child results).
 * DOM style: td_json_parse() builds a tree; lookups by key and index. */
#ifndef TD_JSON_H
#define TD_JSON_H

#include <stddef.h>
#include <stdio.h>

typedef enum { TD_JNULL, TD_JBOOL, TD_JNUM, TD_JSTR, TD_JARR, TD_JOBJ } td_jtype;

typedef struct td_json {
    td_jtype t;
    double num;     /* JNUM, JBOOL (0/1) */
    char *str;      /* JSTR */
    char *key;      /* member name when inside an object */
    struct td_json *kids;
    size_t n, cap;
} td_json;

/* Parses text (NUL-terminated).  NULL with a message (line and column) on error. */
td_json *td_json_parse(const char *text, char *err, size_t errlen);
void td_json_free(td_json *j);
const td_json *td_json_get(const td_json *obj, const char *key); /* NULL if absent */
double td_json_num(const td_json *obj, const char *key, double dflt); /* "inf" strings read as inf */
const char *td_json_str(const td_json *obj, const char *key, const char *dflt);
/* Writes a value back as JSON (numbers round-trip with %.17g). */
void td_json_write(FILE *f, const td_json *j);
/* Reads a whole file; NULL with a message. */
char *td_read_file(const char *path, size_t *len, char *err, size_t errlen);

#endif
