#include "json.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *s, *p;
    char *err;
    size_t errlen;
    int depth;
} P;

static int fail(P *p, const char *what) {
    int line = 1, col = 1;
    for (const char *q = p->s; q < p->p; q++) {
        if (*q == '\n') line++, col = 1;
        else col++;
    }
    snprintf(p->err, p->errlen, "JSON error at line %d column %d: %s", line, col, what);
    return -1;
}

static void ws(P *p) {
    while (*p->p && isspace((unsigned char)*p->p)) p->p++;
}

static td_json *add_kid(td_json *j) {
    if (j->n == j->cap) {
        size_t cap = j->cap ? 2 * j->cap : 8;
        td_json *k = realloc(j->kids, cap * sizeof *k);
        if (!k) return NULL;
        j->kids = k;
        j->cap = cap;
    }
    td_json *k = &j->kids[j->n++];
    memset(k, 0, sizeof *k);
    return k;
}

static int parse_string(P *p, char **out) {
    if (*p->p != '"') return fail(p, "expected a string");
    p->p++;
    size_t cap = 32, n = 0;
    char *b = malloc(cap);
    if (!b) return fail(p, "out of memory");
    while (*p->p && *p->p != '"') {
        char c = *p->p++;
        if (c == '\\') {
            char e = *p->p++;
            switch (e) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u': {
                unsigned v = 0;
                for (int i = 0; i < 4; i++) {
                    char h = *p->p++;
                    if (!isxdigit((unsigned char)h)) {
                        free(b);
                        return fail(p, "bad \\u escape");
                    }
                    v = v * 16 + (unsigned)(isdigit((unsigned char)h) ? h - '0' : (tolower((unsigned char)h) - 'a' + 10));
                }
                c = v < 0x80 ? (char)v : '?'; /* our reports only escape control characters */
                break;
            }
            case 0: free(b); return fail(p, "unterminated string");
            default: c = e;
            }
        }
        if (n + 2 > cap) {
            char *nb = realloc(b, cap *= 2);
            if (!nb) {
                free(b);
                return fail(p, "out of memory");
            }
            b = nb;
        }
        b[n++] = c;
    }
    if (*p->p != '"') {
        free(b);
        return fail(p, "unterminated string");
    }
    p->p++;
    b[n] = 0;
    *out = b;
    return 0;
}

static int parse_value(P *p, td_json *j) {
    ws(p);
    if (++p->depth > 64) return fail(p, "nested too deeply");
    int rc = 0;
    if (*p->p == '{') {
        j->t = TD_JOBJ;
        p->p++;
        ws(p);
        if (*p->p == '}') p->p++;
        else
            for (;;) {
                ws(p);
                td_json *k = add_kid(j);
                if (!k) return fail(p, "out of memory");
                if (parse_string(p, &k->key)) return -1;
                ws(p);
                if (*p->p != ':') return fail(p, "expected ':'");
                p->p++;
                if (parse_value(p, k)) return -1;
                ws(p);
                if (*p->p == ',') { p->p++; continue; }
                if (*p->p == '}') { p->p++; break; }
                return fail(p, "expected ',' or '}'");
            }
    } else if (*p->p == '[') {
        j->t = TD_JARR;
        p->p++;
        ws(p);
        if (*p->p == ']') p->p++;
        else
            for (;;) {
                td_json *k = add_kid(j);
                if (!k) return fail(p, "out of memory");
                if (parse_value(p, k)) return -1;
                ws(p);
                if (*p->p == ',') { p->p++; continue; }
                if (*p->p == ']') { p->p++; break; }
                return fail(p, "expected ',' or ']'");
            }
    } else if (*p->p == '"') {
        j->t = TD_JSTR;
        rc = parse_string(p, &j->str);
    } else if (!strncmp(p->p, "true", 4)) {
        j->t = TD_JBOOL, j->num = 1, p->p += 4;
    } else if (!strncmp(p->p, "false", 5)) {
        j->t = TD_JBOOL, j->num = 0, p->p += 5;
    } else if (!strncmp(p->p, "null", 4)) {
        j->t = TD_JNULL, p->p += 4;
    } else {
        char *end;
        errno = 0;
        j->num = strtod(p->p, &end);
        if (end == p->p || !(isdigit((unsigned char)*p->p) || *p->p == '-')) return fail(p, "expected a value");
        j->t = TD_JNUM;
        p->p = end;
    }
    p->depth--;
    return rc;
}

td_json *td_json_parse(const char *text, char *err, size_t errlen) {
    P p = {text, text, err, errlen, 0};
    td_json *j = calloc(1, sizeof *j);
    if (!j) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (parse_value(&p, j)) {
        td_json_free(j);
        return NULL;
    }
    ws(&p);
    if (*p.p) {
        fail(&p, "trailing characters");
        td_json_free(j);
        return NULL;
    }
    return j;
}

static void free_kids(td_json *j) {
    for (size_t i = 0; i < j->n; i++) free_kids(&j->kids[i]);
    free(j->kids);
    free(j->str);
    free(j->key);
}

void td_json_free(td_json *j) {
    if (!j) return;
    free_kids(j);
    free(j);
}

const td_json *td_json_get(const td_json *o, const char *key) {
    if (!o || o->t != TD_JOBJ) return NULL;
    for (size_t i = 0; i < o->n; i++)
        if (!strcmp(o->kids[i].key, key)) return &o->kids[i];
    return NULL;
}

double td_json_num(const td_json *o, const char *key, double d) {
    const td_json *j = td_json_get(o, key);
    if (!j) return d;
    if (j->t == TD_JNUM || j->t == TD_JBOOL) return j->num;
    if (j->t == TD_JSTR && !strcmp(j->str, "inf")) return INFINITY;
    if (j->t == TD_JSTR && !strcmp(j->str, "-inf")) return -INFINITY;
    if (j->t == TD_JNULL) return NAN;
    return d;
}

const char *td_json_str(const td_json *o, const char *key, const char *d) {
    const td_json *j = td_json_get(o, key);
    return j && j->t == TD_JSTR ? j->str : d;
}

char *td_read_file(const char *path, size_t *len, char *err, size_t errlen) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    while (b) {
        size_t r = fread(b + n, 1, cap - n, f);
        n += r;
        if (n < cap) break;
        char *nb = realloc(b, 2 * cap + 1);
        if (!nb) {
            free(b);
            b = NULL;
            break;
        }
        b = nb;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!b || bad) {
        free(b);
        snprintf(err, errlen, "%s: %s", path, bad ? "read error" : "out of memory");
        return NULL;
    }
    b[n] = 0;
    if (len) *len = n;
    return b;
}

static void write_str(FILE *f, const char *s) {
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

void td_json_write(FILE *f, const td_json *j) {
    switch (j->t) {
    case TD_JNULL: fputs("null", f); break;
    case TD_JBOOL: fputs(j->num ? "true" : "false", f); break;
    case TD_JNUM: fprintf(f, "%.17g", j->num); break;
    case TD_JSTR: write_str(f, j->str); break;
    case TD_JARR:
    case TD_JOBJ:
        fputc(j->t == TD_JARR ? '[' : '{', f);
        for (size_t i = 0; i < j->n; i++) {
            if (i) fputc(',', f);
            if (j->t == TD_JOBJ) {
                write_str(f, j->kids[i].key);
                fputc(':', f);
            }
            td_json_write(f, &j->kids[i]);
        }
        fputc(j->t == TD_JARR ? ']' : '}', f);
        break;
    }
}
