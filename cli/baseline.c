/* certify --baseline: the comparison of tilediff diff against a stored certify report
 * of the previous release, with no need for its kernel library.  A report records per
 * contract the err/tol quantiles, the mean err/tol of every case and a digest of the
 * decoded cases (campaign.h); a baseline is only compared with a run of the same
 * tilediff version on the same cases (seed, case count, contract set and the digest of
 * what the cases decoded to), because quantiles over other cases say nothing paired. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "accuracy.h"
#include "campaign.h"
#include "certify.h"
#include "diff.h"

struct td_baseline {
    td_json *j;
    char path[4096];
};

void td_campaign_accuracy_json(FILE *f, const td_campaign *c) {
    fprintf(f, ",\"cases_digest\":\"%016" PRIx64 "\",\"err_over_tol\":{", c->cases_digest);
    td_qs_json(f, &c->eot);
    fprintf(f, ",\"lanes\":%" PRIu64 "},\"case_eot\":[", c->eot.n);
    for (size_t i = 0; i < c->case_eot.n; i++) {
        if (i) fputc(',', f);
        td_acc_jnum(f, c->case_eot.v[i], 1);
    }
    fputc(']', f);
}

static const td_json *find_contract(const td_json *report, const char *id) {
    const td_json *cs = td_json_get(report, "contracts");
    for (size_t i = 0; cs && i < cs->n; i++)
        if (!strcmp(td_json_str(&cs->kids[i], "id", ""), id)) return &cs->kids[i];
    return NULL;
}

/* The row of `report` that pairs with `row`: a contract has one row per kernel, so the
 * same id and kernel; else (a renamed variant, a not-covered row) the id's first row. */
static const td_json *find_row(const td_json *report, const td_json *row) {
    const char *id = td_json_str(row, "id", ""), *kern = td_json_str(row, "kernel", NULL);
    const td_json *cs = td_json_get(report, "contracts");
    for (size_t i = 0; kern && cs && i < cs->n; i++) {
        const char *k = td_json_str(&cs->kids[i], "kernel", NULL);
        if (k && !strcmp(k, kern) && !strcmp(td_json_str(&cs->kids[i], "id", ""), id)) return &cs->kids[i];
    }
    return find_contract(report, id);
}

td_baseline *td_baseline_load(const char *path, char *err, size_t errlen) {
    char e[512];
    char *text = td_read_file(path, NULL, e, sizeof e);
    if (!text) {
        snprintf(err, errlen, "baseline %s: %s", path, e);
        return NULL;
    }
    td_json *j = td_json_parse(text, e, sizeof e);
    free(text);
    const char *why = NULL;
    char tool[160];
    snprintf(tool, sizeof tool, "tilediff %s", TD_VERSION);
    if (!j) why = e;
    else if (strcmp(td_json_str(j, "schema", ""), TD_REPORT_SCHEMA) || td_json_num(j, "version", 0) != TD_REPORT_VERSION)
        why = "not a tilediff certify report (schema " TD_REPORT_SCHEMA ")";
    else if (strcmp(td_json_str(j, "tool", ""), tool))
        why = "made with another tilediff version; its cases and tolerances are not this version's";
    if (!why) {
        const td_json *cs = td_json_get(j, "contracts");
        for (size_t i = 0; cs && i < cs->n && !why; i++) {
            const char *st = td_json_str(&cs->kids[i], "status", "");
            if ((!strcmp(st, "passed") || !strcmp(st, "failed")) && !td_json_get(&cs->kids[i], "cases_digest"))
                why = "it records no digest of its cases (made before baselines existed)";
        }
    }
    if (why) {
        if (j && strstr(why, "version"))
            snprintf(err, errlen, "baseline %s refused: %s (baseline: %s, this: %s)", path, why,
                     td_json_str(j, "tool", "?"), tool);
        else
            snprintf(err, errlen, "baseline %s refused: %s", path, why);
        td_json_free(j);
        return NULL;
    }
    td_baseline *b = calloc(1, sizeof *b);
    if (!b) {
        td_json_free(j);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    b->j = j;
    snprintf(b->path, sizeof b->path, "%s", path);
    return b;
}

void td_baseline_free(td_baseline *b) {
    if (!b) return;
    td_json_free(b->j);
    free(b);
}

unsigned long long td_baseline_seed(const td_baseline *b) { return (unsigned long long)td_json_num(b->j, "seed", 0); }

unsigned long long td_baseline_cases(const td_baseline *b, const char *id) {
    const td_json *c = find_contract(b->j, id);
    if (!c || !strcmp(td_json_str(c, "status", ""), "not-covered")) return 0;
    return (unsigned long long)td_json_num(c, "cases", 0);
}

/* The same cases: contract sets equal, and per contract the case count and digest. */
static int same_cases(const td_json *old, const td_json *nw, char *err, size_t errlen) {
    const td_json *oc = td_json_get(old, "contracts"), *nc = td_json_get(nw, "contracts");
    if (td_json_num(old, "seed", -1) != td_json_num(nw, "seed", -2)) {
        snprintf(err, errlen, "the baseline ran seed %.0f, this run seed %.0f", td_json_num(old, "seed", -1),
                 td_json_num(nw, "seed", -2));
        return -1;
    }
    for (int pass = 0; pass < 2; pass++) {
        const td_json *a = pass ? nc : oc, *other = pass ? old : nw;
        for (size_t i = 0; a && i < a->n; i++)
            if (!find_contract(other, td_json_str(&a->kids[i], "id", ""))) {
                snprintf(err, errlen, "contract %s is in %s only (the contract sets differ: use the baseline's "
                                      "--contracts)", td_json_str(&a->kids[i], "id", "?"), pass ? "this run" : "the baseline");
                return -1;
            }
    }
    for (size_t i = 0; nc && i < nc->n; i++) {
        const td_json *n = &nc->kids[i], *o = find_row(old, n);
        const char *dn = td_json_str(n, "cases_digest", NULL), *dold = td_json_str(o, "cases_digest", NULL);
        if (!dn || !dold) continue; /* a crash or hang on either side: no digest, the verdicts still compare */
        if (td_json_num(n, "cases", 0) != td_json_num(o, "cases", 0) || strcmp(dn, dold)) {
            snprintf(err, errlen, "contract %s: the baseline ran %.0f cases (digest %s), this run %.0f (digest %s): "
                                  "other cases (another generator build?)",
                     td_json_str(n, "id", "?"), td_json_num(o, "cases", 0), dold, td_json_num(n, "cases", 0), dn);
            return -1;
        }
    }
    return 0;
}

static void side_json(FILE *f, const td_json *c) {
    const td_json *q = td_json_get(c, "err_over_tol");
    fprintf(f, "{\"kernel\":");
    td_json_escape(f, td_json_str(c, "kernel", "?"));
    fprintf(f, ",\"status\":");
    td_json_escape(f, td_json_str(c, "status", "?"));
    fprintf(f, ",\"cases\":%.0f,\"lanes\":%.0f,\"disagreements\":%.0f,\"median\":", td_json_num(c, "cases", 0),
            td_json_num(c, "lanes", 0), td_json_num(c, "disagreements", 0));
    td_acc_jnum(f, q ? td_json_num(q, "median", NAN) : NAN, 1);
    fputs(",\"p99\":", f);
    td_acc_jnum(f, q ? td_json_num(q, "p99", NAN) : NAN, 1);
    fputs(",\"max\":", f);
    td_acc_jnum(f, q ? td_json_num(q, "max", NAN) : NAN, 0);
    fputc('}', f);
}

/* per-case scores of a report contract (NaN for null) */
static double *scores(const td_json *c, size_t *n) {
    const td_json *a = td_json_get(c, "case_eot");
    *n = a && a->t == TD_JARR ? a->n : 0;
    double *v = malloc((*n ? *n : 1) * sizeof *v);
    for (size_t i = 0; v && i < *n; i++) v[i] = a->kids[i].t == TD_JNUM ? a->kids[i].num : NAN;
    return v;
}

static int has_key(const td_json *findings, const td_json *x) {
    for (size_t i = 0; findings && i < findings->n; i++) {
        const td_json *y = &findings->kids[i];
        if (!strcmp(td_json_str(x, "class", ""), td_json_str(y, "class", "")) &&
            !strcmp(td_json_str(x, "region", ""), td_json_str(y, "region", "")) &&
            !strcmp(td_json_str(x, "lane_class", ""), td_json_str(y, "lane_class", "")))
            return 1;
    }
    return 0;
}

/* findings of the new report whose (class, region, lane class) the baseline never had */
static int new_findings_json(FILE *f, const td_json *o, const td_json *n) {
    const td_json *of = td_json_get(o, "findings"), *nf = td_json_get(n, "findings");
    int k = 0;
    fputs(",\"new_findings\":[", f);
    for (size_t i = 0; nf && i < nf->n; i++) {
        const td_json *x = &nf->kids[i];
        if (has_key(of, x)) continue;
        fprintf(f, "%s{\"class\":", k++ ? "," : "");
        td_json_escape(f, td_json_str(x, "class", "?"));
        fputs(",\"region\":", f);
        td_json_escape(f, td_json_str(x, "region", "-"));
        fputs(",\"lane_class\":", f);
        td_json_escape(f, td_json_str(x, "lane_class", "?"));
        fprintf(f, ",\"count\":%.0f,\"first_case\":%.0f,\"reproducer\":", td_json_num(x, "count", 0),
                td_json_num(x, "first_case", 0));
        td_json_escape(f, td_json_str(x, "reproducer", ""));
        fputs(",\"repro_new\":", f);
        td_json_escape(f, td_json_str(x, "repro", ""));
        fputs(",\"repro_old\":null}", f); /* the baseline's library is not at hand */
    }
    fputc(']', f);
    return k;
}

static int passed(const td_json *c) { return !strcmp(td_json_str(c, "status", ""), "passed"); }

/* One contract's change entry; returns 1 when it fails the gate. */
static int change_json(FILE *f, const td_json *o, const td_json *n, const td_regress_opts *ro) {
    size_t no, nn;
    double *so = scores(o, &no), *sn = scores(n, &nn);
    td_paired p;
    td_paired_test(so, sn, so && sn ? (no < nn ? no : nn) : 0, ro->alpha, ro->min_growth, &p);
    free(so);
    free(sn);
    fprintf(f, "{\"id\":");
    td_json_escape(f, td_json_str(n, "id", "?"));
    fputs(",\"family\":", f);
    td_json_escape(f, td_json_str(n, "family", "?"));
    char *body = NULL;
    size_t bl = 0;
    FILE *b = open_memstream(&body, &bl);
    int nf = b ? new_findings_json(b, o, n) : 0;
    if (b) fclose(b);
    int vo = passed(o), vn = passed(n);
    int covered = strcmp(td_json_str(n, "status", ""), "not-covered") && strcmp(td_json_str(o, "status", ""), "not-covered");
    const char *ch = !covered ? "not-compared" : vo && !vn ? "verdict-change" : !vo && vn ? "fixed" : nf ? "new-findings"
                   : p.regression ? "regression" : p.used ? "changed" : "unchanged";
    fprintf(f, ",\"change\":\"%s\",\"cases\":%.0f,\"old\":", ch, td_json_num(n, "cases", 0));
    side_json(f, o);
    fputs(",\"new\":", f);
    side_json(f, n);
    fputs(",\"verdict_change\":", f);
    if (covered && vo != vn) fprintf(f, "\"%s -> %s\"", td_json_str(o, "status", "?"), td_json_str(n, "status", "?"));
    else fputs("null", f);
    fprintf(f, ",\"paired\":{\"unit\":\"case\",\"score\":\"mean err/tol over the case's lanes\",\"pairs\":%" PRIu64
               ",\"used\":%" PRIu64 ",\"worse\":%" PRIu64 ",\"better\":%" PRIu64 ",\"p\":",
            p.pairs, p.used, p.worse, p.better);
    td_acc_jnum(f, p.p, 1);
    fprintf(f, ",\"exact\":%s,\"growth\":", p.exact ? "true" : "false");
    td_acc_jnum(f, p.growth, 1);
    fprintf(f, ",\"alpha\":%g,\"min_growth\":%g,\"regression\":%s}", p.alpha, p.min_growth,
            p.regression ? "true" : "false");
    fputs(body ? body : ",\"new_findings\":[]", f);
    free(body);
    fputs(",\"message\":\"\"}", f);
    return covered && ((vo && !vn) || nf || p.regression);
}

int td_baseline_compare(const td_baseline *b, const char *report_json, const td_regress_opts *ro, char **out,
                        char *err, size_t errlen) {
    *out = NULL;
    td_json *nw = td_json_parse(report_json, err, errlen);
    if (!nw) return 2;
    if (same_cases(b->j, nw, err, errlen) != 0) {
        td_json_free(nw);
        return 2;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        td_json_free(nw);
        snprintf(err, errlen, "out of memory");
        return 2;
    }
    const char *end = strrchr(report_json, '}');
    fwrite(report_json, 1, (size_t)(end - report_json), f);
    fputs(",\n\"baseline\":{\"file\":", f);
    td_json_escape(f, b->path);
    fputs(",\"library\":", f);
    td_json_escape(f, td_json_str(b->j, "library", "?"));
    fputs(",\"started\":", f);
    td_json_escape(f, td_json_str(b->j, "started", "?"));
    fputs(",\"changes\":[\n", f);
    const td_json *cs = td_json_get(nw, "contracts");
    int bad = 0;
    for (size_t i = 0; cs && i < cs->n; i++) {
        if (i) fputs(",\n", f);
        bad |= change_json(f, find_row(b->j, &cs->kids[i]), &cs->kids[i], ro);
    }
    fputs("\n]}}\n", f);
    fclose(f);
    td_json_free(nw);
    *out = text;
    return bad ? 1 : 0;
}

int td_baseline_arg(td_baseline_run *b, int argc, char **argv, int *i) {
    if (!b->ro_init) {
        td_regress_defaults(&b->ro);
        b->ro_init = 1;
    }
    if (strcmp(argv[*i], "--baseline")) return td_regress_arg(argv[0], argc, argv, i, &b->ro);
    if (*i + 1 >= argc) {
        fprintf(stderr, "tilediff %s: --baseline needs a report.json of an earlier certify run\n", argv[0]);
        return -1;
    }
    b->path = argv[++*i];
    return 1;
}

int td_baseline_prepare(td_baseline_run *b, uint64_t *seed, int seed_given) {
    if (!b->path) return 0;
    char err[1400];
    b->bl = td_baseline_load(b->path, err, sizeof err);
    if (!b->bl) {
        fprintf(stderr, "tilediff certify: %s\n", err);
        return -1;
    }
    uint64_t bs = td_baseline_seed(b->bl);
    if (seed_given && *seed != bs) {
        fprintf(stderr, "tilediff certify: baseline %s refused: it ran seed %" PRIu64 ", this run asks for %" PRIu64
                        " (other cases)\n", b->path, bs, *seed);
        td_baseline_free(b->bl);
        b->bl = NULL;
        return -1;
    }
    *seed = bs;
    return 0;
}

const td_campaign_opts *td_baseline_opts(const td_baseline_run *b, const char *id, const td_campaign_opts *co,
                                         td_campaign_opts *tmp) {
    unsigned long long n = b->bl ? td_baseline_cases(b->bl, id) : 0;
    if (!n) return co;
    *tmp = *co;
    tmp->max_cases = n;
    tmp->seconds = 0;
    return tmp;
}

int td_baseline_finish(td_baseline_run *b, char **report) {
    if (!b->bl || !*report) return 0;
    char err[1400], *out = NULL;
    int rc = td_baseline_compare(b->bl, *report, &b->ro, &out, err, sizeof err);
    if (rc == 2) fprintf(stderr, "tilediff certify: baseline %s refused: %s\n", b->path, err);
    if (out) {
        free(*report);
        *report = out;
        td_json *j = td_json_parse(out, err, sizeof err);
        const td_json *bl = j ? td_json_get(j, "baseline") : NULL;
        if (bl) {
            printf("Changes since baseline %s:\n", b->path);
            td_render_changes_table(stdout, td_json_get(bl, "changes"));
            putchar('\n');
        }
        td_json_free(j);
    }
    td_baseline_free(b->bl);
    b->bl = NULL;
    return rc;
}
