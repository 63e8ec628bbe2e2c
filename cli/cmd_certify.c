/* tilediff certify | report merge | selftest */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "campaign.h"
#include "certify.h"
#include "common.h"
#include "diff.h"
#include "jobs.h"
#include "sample.h"

static void jnum(FILE *f, double x) {
    if (isnan(x)) fputs("null", f);
    else if (isinf(x)) fputs(x > 0 ? "\"inf\"" : "\"-inf\"", f);
    else fprintf(f, "%.17g", x);
}

static int mkdir_p(const char *dir) {
    char b[4096];
    snprintf(b, sizeof b, "%s", dir);
    for (char *p = b + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(b, 0777) && errno != EEXIST) return -1;
            *p = '/';
        }
    return (mkdir(b, 0777) && errno != EEXIST) ? -1 : 0;
}

static void classes_json(FILE *f, uint64_t got, uint64_t declared) {
    fputs(",\"classes_covered\":[", f);
    int first = 1;
    for (int b = 0; b < TD_BC_COUNT; b++)
        if (got & (1ull << b)) fprintf(f, "%s\"%s\"", first ? "" : ",", td_bclass_name(b)), first = 0;
    fputs("],\"classes_missed\":[", f);
    first = 1;
    for (int b = 0; b < TD_BC_COUNT; b++)
        if ((declared & (1ull << b)) && !(got & (1ull << b)))
            fprintf(f, "%s\"%s\"", first ? "" : ",", td_bclass_name(b)), first = 0;
    fputs("]", f);
}

static void lane_json(FILE *f, const td_kernel *kern, const td_lane_report *l) {
    const td_contract *k = kern->k;
    td_fmt of = k->regions[l->region].fmt;
    char g[64], where[160];
    if (of == TD_I64) snprintf(g, sizeof g, "%" PRId64, td_decode_i64(l->got_bits));
    else td_format_value(of, l->got_bits, g, sizeof g);
    snprintf(where, sizeof where, "%s[%" PRIu64 "] pid=(%u,%u,%u) j=%" PRIu64, k->regions[l->region].name, l->off,
             l->lane.pid[0], l->lane.pid[1], l->lane.pid[2], l->lane.j);
    fprintf(f, "{\"class\":\"%s\",\"where\":", td_vclass_name(l->cls));
    td_json_escape(f, where);
    fprintf(f, ",\"got\":");
    td_json_escape(f, g);
    fprintf(f, ",\"expected\":");
    td_json_escape(f, l->ref_exact);
    fprintf(f, ",\"expected_before_cast\":");
    if (l->ref_precast[0]) td_json_escape(f, l->ref_precast);
    else fputs("null", f);
    fprintf(f, ",\"tolerance\":");
    jnum(f, l->tol);
    fprintf(f, ",\"tolerance_probabilistic\":");
    jnum(f, l->tol_p);
    fprintf(f, ",\"error\":");
    jnum(f, l->err);
    fprintf(f, ",\"error_ulps\":");
    jnum(f, l->err_ulps);
    fprintf(f, ",\"err_over_tol\":");
    jnum(f, l->err_over_tol);
    fprintf(f, ",\"terms\":[");
    for (int t = 0; t < l->nterms; t++) {
        fprintf(f, "%s{\"op\":", t ? "," : "");
        td_json_escape(f, l->terms[t].op);
        fprintf(f, ",\"local\":");
        jnum(f, l->terms[t].local);
        fprintf(f, ",\"bound\":");
        jnum(f, l->terms[t].ek);
        fputc('}', f);
    }
    fputs("]}", f);
}

static void contract_head(FILE *f, const td_contract *k, const char *variant) {
    fprintf(f, "{\"id\":");
    td_json_escape(f, k->id);
    fprintf(f, ",\"file\":");
    td_json_escape(f, k->file);
    fprintf(f, ",\"family\":");
    td_json_escape(f, k->family);
    fprintf(f, ",\"kernel\":");
    if (variant) td_json_escape(f, variant);
    else fputs("null", f);
}

static void not_covered_json(FILE *f, const td_contract *k, const char *msg) {
    contract_head(f, k, NULL);
    fprintf(f, ",\"status\":\"not-covered\",\"cases\":0,\"lanes\":0,\"disagreements\":0,\"warns\":0,"
               "\"worst_err_over_tol\":null,\"worst_ulps\":null,\"seconds\":0,\"hist\":[0,0,0,0,0,0,0,0,0],"
               "\"classes_covered\":[],\"classes_missed\":[],\"findings\":[],\"worst_lanes\":[],\"message\":");
    td_json_escape(f, msg);
    fputc('}', f);
}

/* A finding's reproducer: written under artifacts/, named in the report by a path
 * relative to the report directory. */
static int save_repro(const char *outdir, const td_kernel *kern, const uint8_t *b, size_t n, char *rel, size_t rlen,
                      char *cmd, size_t clen, const char *libarg) {
    char adir[4096], path[4400];
    snprintf(adir, sizeof adir, "%s/artifacts", outdir);
    if (td_artifact_write(adir, kern, b, n, path, sizeof path) != 0) return -1;
    const char *base = strrchr(path, '/');
    snprintf(rel, rlen, "artifacts/%.4000s", base ? base + 1 : path);
    char abs[4096];
    if (!realpath(path, abs)) snprintf(abs, sizeof abs, "%.4000s", path);
    snprintf(cmd, clen, "tilediff repro%s%s%s %s", libarg ? " --kernels " : "", libarg ? libarg : "",
             kern->abi->backend == TD_ABI_CUDA ? " --backend cuda" : "", abs);
    return 0;
}

static void campaign_json(FILE *f, const td_kernel *kern, const td_campaign *c, const char *outdir,
                          const char *libarg, int strict, const char *extra) {
    const td_contract *k = kern->k;
    contract_head(f, k, kern->abi->variant);
    char why[512] = ""; /* mostly unbounded lanes: not checked (td_stats_unchecked) */
    int nc = c->cases && c->st.cases_not_covered == c->cases; /* the backend ran no case */
    if (nc) snprintf(why, sizeof why, "%s", c->not_covered_msg);
    const char *status = c->harness_error                                    ? "harness-error"
                         : c->nf || (strict && c->st.lanes_warn)             ? "failed"
                         : nc                                                ? "not-covered"
                         : td_stats_unchecked(&c->st, why, sizeof why) ? "not-checked"
                                                                             : "passed";
    fprintf(f, ",\"status\":\"%s\",\"cases\":%" PRIu64 ",\"lanes\":%" PRIu64 ",\"disagreements\":%" PRIu64
               ",\"warns\":%" PRIu64 ",\"lanes_mpfr\":%" PRIu64 ",\"lanes_unbounded\":%" PRIu64
               ",\"lanes_undefined\":%" PRIu64,
            status, c->cases, c->st.lanes, c->st.cases_with_finding, c->st.lanes_warn, c->st.lanes_mpfr,
            c->st.lanes_unbounded, c->st.lanes_undefined);
    if (why[0]) fprintf(f, ",\"reason\":"), td_json_escape(f, why);
    fprintf(f, ",\"worst_err_over_tol\":");
    jnum(f, c->st.worst_err_over_tol);
    fprintf(f, ",\"worst_ulps\":");
    jnum(f, c->st.worst_ulps);
    fprintf(f, ",\"seconds\":%.3f,\"policy\":\"%s\",\"math_model\":\"%s\",\"hist\":[", c->seconds,
            k->sv == TD_SV_IEEE ? "ieee" : "real", kern->math->name);
    for (int i = 0; i < 9; i++) fprintf(f, "%s%" PRIu64, i ? "," : "", c->st.hist[i]);
    fputs("]", f);
    classes_json(f, c->st.classes, k->classes);
    td_campaign_accuracy_json(f, c);
    fputs(",\"findings\":[", f);
    for (int i = 0; i < c->nf; i++) {
        const td_finding *x = &c->f[i];
        char rel[4400] = "", cmd[8800] = "";
        if (x->bytes) save_repro(outdir, kern, x->bytes, x->size, rel, sizeof rel, cmd, sizeof cmd, libarg);
        fprintf(f, "%s{\"class\":\"%s\",\"region\":", i ? "," : "", td_vclass_name(x->key.cls));
        td_json_escape(f, k->regions[x->key.region].name);
        fprintf(f, ",\"lane_class\":\"%s\",\"lane_in_tile\":", td_lclass_name(x->key.lc));
        if (x->key.rel >= 0) fprintf(f, "%" PRId64, x->key.rel);
        else fputs("null", f);
        fprintf(f, ",\"count\":%" PRIu64 ",\"first_case\":%" PRIu64 ",\"reproducer\":", x->count, x->first_case);
        td_json_escape(f, rel);
        fprintf(f, ",\"repro\":");
        td_json_escape(f, cmd);
        fprintf(f, ",\"summary\":");
        td_json_escape(f, x->summary);
        if (x->has_worst) {
            fprintf(f, ",\"worst_lane\":");
            lane_json(f, kern, &x->worst);
        }
        fputc('}', f);
    }
    fputs("],\"worst_lanes\":[", f);
    for (int i = 0; i < c->nworst; i++) {
        if (i) fputc(',', f);
        lane_json(f, kern, &c->worst[i]);
    }
    fprintf(f, "]%s,\"message\":", extra);
    td_json_escape(f, c->harness_msg);
    fputc('}', f);
}

/* The parent's account of a child that died: a crash (signal) or a hang (killed at
 * the deadline) during case `idx`, with that case as the reproducer. */
static void death_json(FILE *f, const td_kernel *kern, int crashed, int sig, uint64_t idx, uint64_t seed, int large,
                       double seconds, double stall, const char *outdir, const char *libarg) {
    uint8_t b[64];
    td_campaign_case_bytes_tier(kern->k, seed, idx, large, b, sizeof b);
    char rel[4400] = "", cmd[8800] = "", summary[512];
    save_repro(outdir, kern, b, sizeof b, rel, sizeof rel, cmd, sizeof cmd, libarg);
    if (crashed)
        snprintf(summary, sizeof summary, "crash: the kernel process died of signal %d (%s) during case %" PRIu64, sig,
                 strsignal(sig), idx);
    else
        snprintf(summary, sizeof summary,
                 "hang: no progress for %.0f s (no case finished, no program instance began); case %" PRIu64
                 " was running", stall, idx);
    contract_head(f, kern->k, kern->abi->variant);
    fprintf(f, ",\"status\":\"%s\",\"cases\":%" PRIu64 ",\"lanes\":0,\"disagreements\":1,\"warns\":0,"
               "\"worst_err_over_tol\":null,\"worst_ulps\":null,\"seconds\":%.3f,\"hist\":[0,0,0,0,0,0,0,0,0],"
               "\"classes_covered\":[],\"classes_missed\":[],\"findings\":[{\"class\":\"%s\",\"region\":null,"
               "\"lane_class\":\"region\",\"count\":1,\"first_case\":%" PRIu64 ",\"reproducer\":",
            crashed ? "crashed" : "timeout", idx + 1, seconds, crashed ? "crash" : "hang", idx);
    td_json_escape(f, rel);
    fprintf(f, ",\"repro\":");
    td_json_escape(f, cmd);
    fprintf(f, ",\"summary\":");
    td_json_escape(f, summary);
    fprintf(f, "}],\"worst_lanes\":[],\"message\":");
    td_json_escape(f, summary);
    fputc('}', f);
}

typedef struct shared_progress {
    volatile uint64_t case_index;
    volatile uint64_t findings;
    volatile uint64_t beats; /* the kernel library's progress inside a launch (td_kernels_set_progress) */
} shared_progress;

/* What every row's campaign needs: the CLI state, the campaign options and where the
 * results go. */
typedef struct cert_env {
    td_cli *cli;
    td_campaign_opts co;
    const char *outdir;
    const char *libarg;     /* the library as `repro --kernels` must name it, or NULL */
    int progress, total;
    int strict;             /* --strict: a WARN lane fails its row */
    int production;         /* --shape production: each case at its family's production shape */
    const td_shape *dims;   /* --shape-dims: that shape instead of the table's (NULL: the table's) */
    td_sample_opts sample;  /* which lanes the oracle judges at a production shape */
} cert_env;

/* ,"shape":...,"sampling":{...} of a production-shape row: what was checked and what
 * that guarantees, for the report. */
static void production_json(const td_contract *k, const td_shape *s, const td_sample_opts *o,
                            const td_sample_info *si, char *buf, size_t n) {
    char desc[256], text[2048];
    td_shape_describe(k, s, desc, sizeof desc);
    td_sample_describe(si, o, text, sizeof text);
    FILE *f = fmemopen(buf, n, "w");
    if (!f) return;
    fprintf(f, ",\"shape\":");
    td_json_escape(f, desc);
    fprintf(f, ",\"sampling\":{\"lanes\":%" PRIu64 ",\"judged\":%" PRIu64 ",\"programs\":%" PRIu64
               ",\"full_programs\":%" PRIu64 ",\"edge_programs\":%" PRIu64 ",\"edge_lanes\":%" PRIu64
               ",\"interior\":%" PRIu64 ",\"interior_of\":%" PRIu64 ",\"text\":",
            si->lanes, si->judged, si->programs, si->full_programs, si->edge_programs, si->edge_lanes, si->interior,
            si->rest);
    td_json_escape(f, text);
    fputc('}', f);
    if (fclose(f) != 0) buf[0] = 0; /* too long: no field rather than a broken row */
}

/* The child: runs the campaign and writes its JSON to `path`; exits 0 passed,
 * 1 finding, 3 harness error. */
static void run_child(const cert_env *env, const td_campaign_opts *co, const td_kernel *kern, shared_progress *sp,
                      const char *path) {
    td_ctx_opts o = {.max_reports = 4, .large = co->large};
    td_ctx *cx = td_cli_ctx(env->cli, &o);
    if (!cx) _exit(3);
    td_campaign c;
    td_campaign_opts opts = *co;
    opts.progress = sp ? &sp->case_index : NULL;
    td_kernels_set_progress(sp ? &sp->beats : NULL);
    td_shape shape = {{0}};
    char desc[256], extra[4096] = "";
    if (env->production) {
        if (env->dims) shape = *env->dims;
        else td_shape_production(kern->k, env->cli->backend == TD_ABI_CUDA, &shape, desc, sizeof desc);
        td_ctx_set_shape(cx, &shape);
        td_ctx_set_sample(cx, &env->sample);
        opts.minimize = 0; /* each replay is a production launch; the case itself is the reproducer */
    }
    int rc = td_campaign_run(cx, kern, &opts, &c);
    if (env->production) production_json(kern->k, &shape, &env->sample, td_ctx_sampled(cx), extra, sizeof extra);
    FILE *f = fopen(path, "w");
    if (!f) _exit(3);
    campaign_json(f, kern, &c, env->outdir, env->libarg, env->strict, extra);
    int bad = fclose(f) != 0;
    if (env->strict && c.st.lanes_warn && rc == TD_RUN_OK) rc = TD_RUN_FINDING; /* --strict */
    td_campaign_free(&c);
    td_ctx_free(cx);
    _exit(bad ? 3 : rc == TD_RUN_HARNESS_ERROR ? 3 : rc == TD_RUN_FINDING ? 1 : 0);
}

/* Appends the JSON row of a child that ended (status from waitpid, `killed` at its
 * deadline) to `out`.  Returns 0 passed, 1 failed (finding/crash/hang), 3 harness error. */
static int row_result(const cert_env *env, const td_kernel *kern, const char *path, int status, int killed,
                      uint64_t inflight, uint64_t seed, double seconds, double stall, FILE *out) {
    if (killed || WIFSIGNALED(status)) {
        death_json(out, kern, !killed, killed ? 0 : WTERMSIG(status), inflight, seed, env->co.large, seconds, stall,
                   env->outdir,
                   env->libarg);
        unlink(path);
        return 1;
    }
    char err[512];
    char *text = td_read_file(path, NULL, err, sizeof err);
    unlink(path);
    if (!text) {
        fprintf(stderr, "tilediff certify: %s [%s]: the campaign wrote no result (%s)\n", kern->k->id,
                kern->abi->variant, err);
        return 3;
    }
    fputs(text, out);
    free(text);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 3;
    return code == 0 ? 0 : code == 1 ? 1 : 3;
}

static void iso_now(char *b, size_t n) {
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(b, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Counts over the report's rows.  A row is one kernel of one contract (or one
 * not-covered contract); `contracts` and `covered` count distinct ids, the rest rows. */
typedef struct summary {
    double contracts, covered, kernels, passed, failed, not_covered, cases, lanes, warns, not_checked;
} summary;

/* 1 when row i's id appears in an earlier row with (want_covered: a covered) status. */
static int seen_before(const td_json *rows, size_t i, int want_covered) {
    const char *id = td_json_str(&rows->kids[i], "id", "");
    for (size_t p = 0; p < i; p++)
        if (!strcmp(td_json_str(&rows->kids[p], "id", ""), id) &&
            (!want_covered || strcmp(td_json_str(&rows->kids[p], "status", ""), "not-covered")))
            return 1;
    return 0;
}

static summary summarize(const char *contracts_json) {
    summary s = {0};
    size_t l = strlen(contracts_json);
    char *doc = malloc(l + 16), err[256];
    if (!doc) return s;
    snprintf(doc, l + 16, "[%s]", contracts_json);
    td_json *j = td_json_parse(doc, err, sizeof err);
    free(doc);
    for (size_t i = 0; j && i < j->n; i++) {
        const td_json *c = &j->kids[i];
        const char *st = td_json_str(c, "status", "");
        s.contracts += !seen_before(j, i, 0);
        if (!strcmp(st, "not-covered")) s.not_covered++;
        else {
            s.covered += !seen_before(j, i, 1);
            s.kernels++;
            if (!strcmp(st, "passed")) s.passed++;
            else if (!strcmp(st, "not-checked")) s.not_checked++;
            else s.failed++;
        }
        s.cases += td_json_num(c, "cases", 0);
        s.lanes += td_json_num(c, "lanes", 0);
        s.warns += td_json_num(c, "warns", 0);
    }
    td_json_free(j);
    return s;
}

/* report.json = header + summary + contracts (the contracts array text as given). */
static char *assemble(const char *library, const char *backend, const char *started, double seconds, uint64_t seed,
                      const char *budget, int shard_k, int shard_n, const char *contracts_json) {
    summary s = summarize(contracts_json);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    fprintf(f, "{\"schema\":\"%s\",\"version\":%d,\"tool\":\"tilediff %s\",\"library\":", TD_REPORT_SCHEMA,
            TD_REPORT_VERSION, TD_VERSION);
    td_json_escape(f, library);
    fprintf(f, ",\"backend\":\"%s\",\"started\":\"%s\",\"seconds\":%.3f,\"seed\":%" PRIu64 ",\"budget\":", backend,
            started, seconds, seed);
    td_json_escape(f, budget);
    fprintf(f, ",\"shard\":{\"k\":%d,\"n\":%d},\"summary\":{\"contracts\":%.0f,\"covered\":%.0f,\"kernels\":%.0f,"
               "\"passed\":%.0f,\"failed\":%.0f,\"not_checked\":%.0f,\"not_covered\":%.0f,\"cases\":%.0f,\"lanes\":%.0f,"
               "\"warns\":%.0f},\n\"contracts\":[\n%s\n]}\n",
            shard_k, shard_n, s.contracts, s.covered, s.kernels, s.passed, s.failed, s.not_checked, s.not_covered, s.cases,
            s.lanes, s.warns, contracts_json);
    fclose(f);
    return buf;
}

/* ---- certify ---- */
#define CERT_MAX_KPAT 64
/* Under --budget, each kernel runs at least this many cases, past its share of the time
 * if its cases are slow: a share of 0.1 s certified some kernels on one or two cases,
 * and a kernel whose only cases happened to leave every lane unbounded (a fully masked
 * softmax row) came out "not-checked".  Generators mostly pick each property (a mask
 * kind, a shape class) with probability >= 1/4; eight cases draw a given one of them
 * with probability 1 - (3/4)^8 > 0.9.  Not under --shape production or --large, whose
 * cases take seconds to minutes each. */
#define CERT_MIN_CASES 8

typedef struct cert_opts {
    td_cli cli;
    const char *pattern, *outdir;
    const char *kpat[CERT_MAX_KPAT]; /* --kernel VARIANT|GLOB, repeatable */
    int nkpat;
    double budget, timeout;
    uint64_t cases, seed;
    int shard_k, shard_n, budget_given, seed_given;
    int jobs;           /* --jobs: rows run at once */
    int production;     /* --shape production */
    td_shape dims;      /* --shape-dims */
    int have_dims;
    td_sample_opts sample; /* --sample-lanes, --sample-programs */
    td_baseline_run bx; /* --baseline, --alpha, --min-growth (cli/baseline.c) */
    int strict;         /* --strict: a WARN fails the row (status "failed", exit 1) */
    int large;          /* --large: the large tier's cases too (contracts/gen_large.h) */
} cert_opts;

/* One row of the report: one kernel of one contract, or a contract not covered. */
typedef struct cert_row {
    const td_contract *k;
    const td_kernel *kern; /* NULL: not covered */
    double seconds;        /* its share of the time budget */
} cert_row;

static int bad_value(const char *opt, const char *what, const char *v) {
    fprintf(stderr, "tilediff certify: %s needs %s, not '%s'\n", opt, what, v);
    return TD_EXIT_USAGE;
}

/* The options that take a number; returns -1 when `a` is none of them. */
static int parse_number_opt(cert_opts *o, const char *a, const char *v) {
    if (!strcmp(a, "--budget")) {
        o->budget_given = 1;
        return td_parse_double(v, &o->budget) || !(o->budget > 0) ? bad_value(a, "seconds > 0", v) : 0;
    }
    if (!strcmp(a, "--cases"))
        return td_parse_u64(v, &o->cases) || !o->cases ? bad_value(a, "a positive integer", v) : 0;
    if (!strcmp(a, "--seed")) {
        o->seed_given = 1;
        return td_parse_u64(v, &o->seed) ? bad_value(a, "a non-negative integer", v) : 0;
    }
    if (!strcmp(a, "--jobs")) return td_jobs_parse("certify", v, &o->jobs) ? TD_EXIT_USAGE : 0;
    if (!strcmp(a, "--sample-lanes"))
        return td_parse_u64(v, &o->sample.interior) ? bad_value(a, "a number of lanes", v) : 0;
    if (!strcmp(a, "--sample-programs")) {
        uint64_t x;
        if (td_parse_u64(v, &x) || x > 1000) return bad_value(a, "a number of programs up to 1000", v);
        o->sample.random_programs = (int)x;
        return 0;
    }
    if (!strcmp(a, "--shape-dims")) {
        int got = sscanf(v, "%" SCNd64 ",%" SCNd64 ",%" SCNd64 ",%" SCNd64 ",%" SCNd64 ",%" SCNd64, &o->dims.d[0],
                         &o->dims.d[1], &o->dims.d[2], &o->dims.d[3], &o->dims.d[4], &o->dims.d[5]);
        for (int i = 0; i < got; i++)
            if (o->dims.d[i] <= 0 || o->dims.d[i] > ((int64_t)1 << 31)) got = -1;
        if (got < 5) return bad_value(a, "5 or 6 positive sizes (docs/production-shapes.md)", v);
        o->have_dims = o->production = 1;
        return 0;
    }
    if (!strcmp(a, "--timeout"))
        return td_parse_double(v, &o->timeout) || !(o->timeout > 0) ? bad_value(a, "seconds > 0", v) : 0;
    if (!strcmp(a, "--shard"))
        return sscanf(v, "%d/%d", &o->shard_k, &o->shard_n) != 2 || o->shard_n < 1 || o->shard_k < 1 ||
                       o->shard_k > o->shard_n
                   ? bad_value(a, "K/N with 1 <= K <= N", v)
                   : 0;
    return -1;
}

/* The options that take a name; returns -1 when `a` is none of them. */
static int parse_name_opt(cert_opts *o, const char *a, const char *v) {
    if (!strcmp(a, "--kernels")) o->cli.kernels = v;
    else if (!strcmp(a, "--backend")) return td_cli_backend(&o->cli, v) ? TD_EXIT_USAGE : 0;
    else if (!strcmp(a, "--against")) return td_cli_against(&o->cli, v) ? TD_EXIT_USAGE : 0;
    else if (!strcmp(a, "--contracts")) o->pattern = v;
    else if (!strcmp(a, "--shape")) {
        if (strcmp(v, "production")) return bad_value(a, "'production'", v);
        o->production = 1;
    }
    else if (!strcmp(a, "--out")) o->outdir = v;
    else if (!strcmp(a, "--kernel")) {
        if (o->nkpat == CERT_MAX_KPAT) return bad_value(a, "at most 64 patterns", v);
        o->kpat[o->nkpat++] = v;
    } else
        return -1;
    return 0;
}

static int takes_value(const char *a) {
    static const char *const v[] = {"--budget",  "--cases",   "--seed",      "--timeout", "--shard", "--jobs",
                                    "--kernels", "--backend", "--contracts", "--out",     "--kernel", "--against",
                                    "--shape",   "--shape-dims", "--sample-lanes", "--sample-programs"};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!strcmp(a, v[i])) return 1;
    return 0;
}

/* Returns 0, or the exit status of a usage error (with its message printed). */
static int parse_certify(int argc, char **argv, cert_opts *o) {
    for (int i = 1; i < argc; i++) { /* every option but --strict takes a value */
        const char *a = argv[i];
        if (!strcmp(a, "--strict") || !strcmp(a, "--large")) {
            *(a[2] == 's' ? &o->strict : &o->large) = 1;
            continue;
        }
        int brc = td_baseline_arg(&o->bx, argc, argv, &i); /* --baseline, --alpha, --min-growth */
        if (brc < 0) return TD_EXIT_USAGE;
        if (brc > 0) continue;
        if (!takes_value(a)) {
            fprintf(stderr, "tilediff certify: unknown argument '%s' (tilediff certify --help)\n", a);
            return TD_EXIT_USAGE;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "tilediff certify: %s needs a value\n", a);
            return TD_EXIT_USAGE;
        }
        const char *v = argv[++i];
        int r = parse_number_opt(o, a, v);
        if (r < 0) r = parse_name_opt(o, a, v);
        if (r) return r;
    }
    if (o->budget_given && o->cases) {
        fprintf(stderr, "tilediff certify: give --budget or --cases, not both\n");
        return TD_EXIT_USAGE;
    }
    if (td_baseline_prepare(&o->bx, &o->seed, o->seed_given) != 0) return TD_EXIT_USAGE;
    int matched = 0;
    for (int i = 0; i < td_contract_count(); i++) matched += td_match(o->pattern, td_contract_at(i)->id);
    if (!matched) {
        fprintf(stderr, "tilediff certify: no contract matches '%s' (tilediff list shows the contracts)\n", o->pattern);
        return TD_EXIT_USAGE;
    }
    return 0;
}

/* Which kernels certify runs: with --kernel, every variant (mutant or not) one of the
 * patterns matches; without, every kernel that claims to meet its contract. */
static int kernel_wanted(const cert_opts *o, const td_kernel *kn) {
    if ((int)kn->abi->backend != o->cli.backend) return 0;
    if (!o->nkpat) return kn->abi->mutant == NULL;
    for (int i = 0; i < o->nkpat; i++) /* the name itself first: "tuned[BLOCK=64]" is no bracket glob */
        if (!strcmp(o->kpat[i], kn->abi->variant) || fnmatch(o->kpat[i], kn->abi->variant, 0) == 0) return 1;
    return 0;
}

static int push_row(cert_row **rows, int *n, int *cap, cert_row r) {
    if (*n == *cap) {
        int nc = *cap ? 2 * *cap : 64;
        cert_row *p = realloc(*rows, (size_t)nc * sizeof *p);
        if (!p) return -1;
        *rows = p;
        *cap = nc;
    }
    (*rows)[(*n)++] = r;
    return 0;
}

/* --shape production certifies the contracts that have a production shape generator
 * and a shape for their family (or --shape-dims). */
static int has_production_shape(const cert_opts *o, const td_contract *k) {
    td_shape s;
    char d[256];
    return k->gen_shape && (o->have_dims || td_shape_production(k, o->cli.backend == TD_ABI_CUDA, &s, d, sizeof d) == 0);
}

/* --shape production: one case per kernel unless told otherwise (each is a production
 * launch); some selected contract must have a production shape.  0 or an exit status. */
static int production_prepare(cert_opts *o) {
    if (!o->production) return 0;
    if (!o->cases && !o->budget_given) o->cases = 1;
    for (int i = 0; i < td_contract_count(); i++)
        if (td_match(o->pattern, td_contract_at(i)->id) && has_production_shape(o, td_contract_at(i))) return 0;
    fprintf(stderr, "tilediff certify: no contract matching '%s' has a production shape (docs/production-shapes.md "
                    "lists them)\n", o->pattern);
    return TD_EXIT_USAGE;
}

/* This shard's rows: each contract's wanted kernels, or one not-covered row.  The
 * time budget is split evenly between the covered contracts, and a contract's share
 * evenly between its kernels, so adding alternatives to one contract neither steals
 * time from the others nor makes the run longer.  Returns the row count, or -1. */
static int select_rows(cert_opts *o, cert_row **rows, int *ncov) {
    int n = 0, cap = 0;
    *rows = NULL;
    *ncov = 0;
    for (int i = 0, m = 0; i < td_contract_count(); i++) {
        const td_contract *k = td_contract_at(i);
        if (!td_match(o->pattern, k->id) || (o->production && !has_production_shape(o, k)) ||
            m++ % o->shard_n != o->shard_k - 1)
            continue;
        int first = n;
        for (int j = 0; j < o->cli.set.n; j++) {
            const td_kernel *kn = &o->cli.set.kernels[j];
            if (kn->k != k || !kernel_wanted(o, kn)) continue;
            if (!(kn = td_cli_as(&o->cli, kn, 1))) break; /* no intent spec: not covered */
            if (push_row(rows, &n, &cap, (cert_row){k, kn, 0})) return -1;
        }
        if (n == first && push_row(rows, &n, &cap, (cert_row){k, NULL, 0})) return -1;
        *ncov += n > first && (*rows)[first].kern;
    }
    for (int i = 0; i < n; i++) {
        int nk = 0;
        for (int j = 0; j < n; j++) nk += (*rows)[j].k == (*rows)[i].k;
        (*rows)[i].seconds = o->cases || !(*rows)[i].kern ? 0 : o->budget / *ncov / nk;
    }
    return n;
}

static void not_covered_row(FILE *f, const cert_opts *o, const td_contract *k) {
    char msg[512];
    if (o->cli.against_intent && !k->intent)
        snprintf(msg, sizeof msg, "--against intent: the contract has no intent spec (tilediff audit -v)");
    else if (!o->nkpat) snprintf(msg, sizeof msg, "the kernel library implements no kernel for this contract");
    else {
        int w = snprintf(msg, sizeof msg, "the kernel library has no kernel for this contract matching --kernel");
        for (int i = 0; i < o->nkpat && w > 0 && (size_t)w < sizeof msg; i++)
            w += snprintf(msg + w, sizeof msg - (size_t)w, " %s", o->kpat[i]);
    }
    not_covered_json(f, k, msg);
}

/* certify's rows as td_jobs tasks: each covered row's campaign runs in a child of its
 * own that writes its JSON to a file of its own; the rows are appended to the report
 * in row order, so the report does not depend on --jobs. */
typedef struct cert_pool {
    const cert_opts *o;
    const cert_env *env;
    const cert_row *rows;
    FILE *cf;
    shared_progress *sp;  /* per row, shared with its child: the case in flight */
    td_campaign_opts *co; /* per row: its campaign (a baseline may give it its own cases) */
    double *t0, *deadline;
    /* progress per row: the last (case, beats) seen and when it changed; the deadline
     * counts time without progress (cert_overdue) */
    uint64_t *seen_case, *seen_beats;
    double *tprog;
    long parent;          /* names the rows' files */
    int worst, started, written;
} cert_pool;

static void row_path(const cert_pool *p, int i, char *b, size_t n) {
    snprintf(b, n, "%s/.contract.%ld.%d.json", p->env->outdir, p->parent, i);
}

static pid_t cert_start(void *ctx, int i) {
    cert_pool *p = ctx;
    if (!p->rows[i].kern) return 0;
    p->started++;
    td_campaign_opts co = p->env->co, cob; /* with a baseline: its cases of this contract */
    co.seconds = p->rows[i].seconds;
    p->co[i] = *td_baseline_opts(&p->o->bx, p->rows[i].k->id, &co, &cob);
    /* a production launch (and its host-side decode) may take many minutes */
    p->deadline[i] = p->o->timeout > 0             ? p->o->timeout
                     : p->co[i].seconds > 0        ? 3 * p->co[i].seconds + 30
                     : p->o->production            ? 3600
                                                   : 600;
    /* each large case runs its kernel over 2^31+ elements: seconds, many under a sanitizer */
    if (p->o->large && p->rows[i].k->large && !(p->o->timeout > 0))
        p->deadline[i] += 300.0 * (double)(p->co[i].max_cases ? p->co[i].max_cases / TD_FAR_EVERY + 1 : 1);
    p->t0[i] = p->tprog[i] = td_cli_now();
    p->seen_case[i] = p->seen_beats[i] = 0;
    char path[4400];
    row_path(p, i, path, sizeof path);
    pid_t pid = fork();
    if (pid == 0) run_child(p->env, &p->co[i], p->rows[i].kern, &p->sp[i], path);
    if (pid < 0) fprintf(stderr, "tilediff certify: fork failed: %s\n", strerror(errno));
    return pid;
}

static int cert_overdue(void *ctx, int i, int oldest) {
    cert_pool *p = ctx;
    if (oldest && p->env->progress)
        fprintf(stderr, "\r\033[K[%d/%d] %s [%s]: case %" PRIu64, p->started, p->env->total, p->rows[i].k->id,
                p->rows[i].kern->abi->variant, p->sp[i].case_index + 1);
    /* A row is hung when it makes no progress for its deadline: no case finished and,
     * inside a launch, no progress the kernel library reports (the Triton bridge: a
     * program instance began).  Not its total time: a correct kernel that is slow per
     * launch (the interpreter's ~1-3 ms per program instance times a large grid) keeps
     * making progress, and the campaign stops starting cases at its share anyway. */
    double t = td_cli_now();
    uint64_t c = p->sp[i].case_index, b = p->sp[i].beats;
    if (c != p->seen_case[i] || b != p->seen_beats[i]) {
        p->seen_case[i] = c;
        p->seen_beats[i] = b;
        p->tprog[i] = t;
    }
    return t - p->tprog[i] > p->deadline[i];
}

static void cert_done(void *ctx, int i, int status, int killed, double seconds) {
    cert_pool *p = ctx;
    const cert_row *r = &p->rows[i];
    if (r->kern && status == -1) { /* the fork failed (said): no row, a harness error */
        p->worst = 3;
        return;
    }
    if (p->written++) fputs(",\n", p->cf);
    if (!r->kern) {
        not_covered_row(p->cf, p->o, r->k);
        return;
    }
    char path[4400];
    row_path(p, i, path, sizeof path);
    int x = row_result(p->env, r->kern, path, status, killed, p->sp[i].case_index, p->co[i].seed, seconds,
                       p->deadline[i], p->cf);
    if (x > p->worst) p->worst = x;
}

/* Runs every row into the contracts array text, `jobs` at a time; returns the worst
 * row status. */
static int run_rows(const cert_opts *o, const cert_env *env, const cert_row *rows, int n, FILE *cf) {
    size_t nn = n > 0 ? (size_t)n : 1;
    cert_pool p = {.o = o, .env = env, .rows = rows, .cf = cf, .parent = (long)getpid(),
                   .co = calloc(nn, sizeof *p.co), .t0 = calloc(nn, sizeof *p.t0),
                   .deadline = calloc(nn, sizeof *p.deadline), .seen_case = calloc(nn, sizeof *p.seen_case),
                   .seen_beats = calloc(nn, sizeof *p.seen_beats), .tprog = calloc(nn, sizeof *p.tprog)};
    p.sp = mmap(NULL, nn * sizeof *p.sp, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p.sp == MAP_FAILED || !p.co || !p.t0 || !p.deadline || !p.seen_case || !p.seen_beats || !p.tprog) {
        fprintf(stderr, "tilediff certify: out of memory\n");
        p.worst = 3;
    } else {
        const td_jobs_ops ops = {cert_start, cert_overdue, cert_done};
        td_jobs_run(n, o->jobs, &ops, &p);
    }
    if (p.sp != MAP_FAILED) munmap(p.sp, nn * sizeof *p.sp);
    free(p.co);
    free(p.t0);
    free(p.deadline);
    free(p.seen_case);
    free(p.seen_beats);
    free(p.tprog);
    if (env->progress) fprintf(stderr, "\r\033[K");
    return p.worst;
}

/* Writes the four reports and prints the table; returns the exit status. */
static int finish(cert_opts *o, const char *started, double t0, const char *budget_str, const char *rows_json,
                  int worst, int ncov) {
    const td_abi_table *t = o->cli.set.table;
    char *report = assemble(t && t->library ? t->library : "?", o->cli.backend == TD_ABI_CUDA ? "cuda" : "host",
                            started, td_cli_now() - t0, o->seed, budget_str, o->shard_k, o->shard_n, rows_json);
    int bstatus = td_baseline_finish(&o->bx, &report); /* 0, 1 gate failed, 2 refused */
    char err[1024];
    if (!report || td_write_reports(o->outdir, report, err, sizeof err) != 0) {
        fprintf(stderr, "tilediff certify: writing the reports failed: %s\n", report ? err : "out of memory");
        free(report);
        return TD_EXIT_INTERNAL;
    }
    td_json *j = td_json_parse(report, err, sizeof err);
    if (j) td_render_table(stdout, j);
    td_json_free(j);
    free(report);
    char abs[4096];
    if (!realpath(o->outdir, abs)) snprintf(abs, sizeof abs, "%s", o->outdir);
    printf("report: %s/report.html (also report.json, report.md, junit.xml)\n", abs);
    if (!ncov) {
        /* a release gate must not turn green on a library that was never exercised */
        fprintf(stderr, "tilediff certify: nothing was certified: the kernel library covers none of the selected "
                        "contracts%s (tilediff list shows the contracts, --kernels names the library)\n",
                o->nkpat ? " with a kernel matching --kernel" : "");
        return TD_EXIT_USAGE;
    }
    int status = worst == 3 ? TD_EXIT_INTERNAL : worst == 1 ? TD_EXIT_FINDING : TD_EXIT_OK;
    return bstatus == 2 || (bstatus == 1 && status == TD_EXIT_OK) ? bstatus : status;
}

/* Opens the library and the output folder; 0 or an exit status. */
static int certify_open(cert_opts *o) {
    int rc = td_cli_open(&o->cli);
    if (rc) return rc;
    if (mkdir_p(o->outdir) != 0) {
        fprintf(stderr, "tilediff certify: cannot create %s: %s\n", o->outdir, strerror(errno));
        td_cli_close(&o->cli);
        return TD_EXIT_USAGE;
    }
    return 0;
}

/* the campaign's floor of cases (CERT_MIN_CASES): only a time budget has one */
static uint64_t cert_min_cases(const cert_opts *o) { return o->cases || o->production || o->large ? 0 : CERT_MIN_CASES; }

int td_cmd_certify(int argc, char **argv) {
    cert_opts o = {.cli = {.cmd = "certify", .backend = TD_ABI_HOST}, .pattern = "all",
                   .outdir = "tilediff-certify", .budget = 60, .seed = 1, .shard_k = 1, .shard_n = 1,
                   .jobs = td_jobs_default(),
                   .sample = {.random_programs = TD_SAMPLE_RANDOM_PROGRAMS, .interior = TD_SAMPLE_INTERIOR}};
    int rc = parse_certify(argc, argv, &o);
    if (rc || (rc = production_prepare(&o)) || (rc = certify_open(&o))) return rc;
    cert_row *rows;
    int ncov, n = select_rows(&o, &rows, &ncov);
    if (n < 0) {
        fprintf(stderr, "tilediff certify: out of memory\n");
        td_cli_close(&o.cli);
        return TD_EXIT_INTERNAL;
    }
    char budget_str[160], started[64], libabs[4096] = "";
    if (o.cases)
        snprintf(budget_str, sizeof budget_str, "%" PRIu64 " cases per kernel%s", o.cases,
                 o.production ? " at production shape, the oracle on a stratified lane sample" : "");
    else {
        char floor[64] = "";
        if (cert_min_cases(&o)) snprintf(floor, sizeof floor, ", at least %" PRIu64 " cases a kernel", cert_min_cases(&o));
        snprintf(budget_str, sizeof budget_str, "%g s budget (%.2f s per covered contract, split between its kernels%s)",
                 o.budget, ncov ? o.budget / ncov : 0, floor);
    }
    if (o.cli.kernels && !realpath(o.cli.kernels, libabs)) snprintf(libabs, sizeof libabs, "%s", o.cli.kernels);
    if (o.large && (rc = td_cli_large_statement(&o.cli, o.pattern))) {
        free(rows);
        td_cli_close(&o.cli);
        return rc;
    }
    cert_env env = {.cli = &o.cli,
                    .co = {.seed = o.seed, .max_cases = o.cases, .min_cases = cert_min_cases(&o), .minimize = 1,
                           .large = o.large},
                    .outdir = o.outdir,
                    .libarg = o.cli.kernels ? libabs : NULL, .progress = isatty(2), .strict = o.strict,
                    .production = o.production, .dims = o.have_dims ? &o.dims : NULL, .sample = o.sample};
    env.sample.seed = o.seed;
    for (int i = 0; i < n; i++) env.total += rows[i].kern != NULL;
    iso_now(started, sizeof started);
    double t0 = td_cli_now();
    char *cbuf = NULL;
    size_t clen = 0;
    FILE *cf = open_memstream(&cbuf, &clen);
    int worst = cf ? run_rows(&o, &env, rows, n, cf) : 3;
    if (cf) fclose(cf);
    int status = finish(&o, started, t0, budget_str, cbuf ? cbuf : "", worst, ncov);
    free(cbuf);
    free(rows);
    td_cli_close(&o.cli);
    return status;
}

/* Copies every regular file of src into dst (a shard's artifacts/); a missing src is fine.
 * -1 (reported) when a file cannot be copied: a merged report must not name a
 * reproducer that is not there. */
static int copy_dir_files(const char *src, const char *dst) {
    DIR *d = opendir(src);
    if (!d) return 0;
    int bad = mkdir_p(dst) != 0;
    struct dirent *e;
    while (!bad && (e = readdir(d))) {
        char from[4500], to[4500], err[512];
        snprintf(from, sizeof from, "%s/%s", src, e->d_name);
        snprintf(to, sizeof to, "%s/%s", dst, e->d_name);
        struct stat sb;
        if (e->d_name[0] == '.' || stat(from, &sb) || !S_ISREG(sb.st_mode)) continue;
        size_t n = 0;
        char *data = td_read_file(from, &n, err, sizeof err);
        FILE *f = data ? fopen(to, "wb") : NULL;
        bad = !f || (n && fwrite(data, 1, n, f) != n);
        bad |= f && fclose(f) != 0;
        if (bad) fprintf(stderr, "tilediff report merge: cannot copy %s to %s\n", from, to);
        free(data);
    }
    closedir(d);
    return bad ? -1 : 0;
}

/* What the merged report takes from its first shard, and the sum of the shards' times. */
typedef struct {
    char library[512], backend[32], started[64];
    double seconds, seed;
    int nshards; /* read so far */
    int ncontracts;
} merge_meta;

/* Reads dir/report.json, copies its artifacts into out and appends its contracts to cf. */
static int merge_shard(const char *dir, const char *out, FILE *cf, merge_meta *m) {
    char path[4096], err[512];
    snprintf(path, sizeof path, "%s/report.json", dir);
    char *text = td_read_file(path, NULL, err, sizeof err);
    if (!text) {
        fprintf(stderr, "tilediff report merge: %s\n", err);
        return TD_EXIT_USAGE;
    }
    td_json *j = td_json_parse(text, err, sizeof err);
    free(text);
    if (!j || strcmp(td_json_str(j, "schema", ""), TD_REPORT_SCHEMA) || td_json_num(j, "version", 0) != TD_REPORT_VERSION) {
        fprintf(stderr, "tilediff report merge: %s: not a tilediff certify report v%d%s%s\n", path, TD_REPORT_VERSION,
                j ? "" : ": ", j ? "" : err);
        td_json_free(j);
        return TD_EXIT_USAGE;
    }
    if (m->nshards++ == 0) {
        snprintf(m->library, sizeof m->library, "%s", td_json_str(j, "library", "?"));
        snprintf(m->backend, sizeof m->backend, "%s", td_json_str(j, "backend", "host"));
        snprintf(m->started, sizeof m->started, "%s", td_json_str(j, "started", ""));
        m->seed = td_json_num(j, "seed", 0);
    }
    m->seconds += td_json_num(j, "seconds", 0);
    /* the shard's artifacts, so that the contracts' paths (artifacts/...) stay valid */
    char sa[4200], oa[4200];
    snprintf(sa, sizeof sa, "%s/artifacts", dir);
    snprintf(oa, sizeof oa, "%s/artifacts", out);
    int status = copy_dir_files(sa, oa) ? TD_EXIT_USAGE : TD_EXIT_OK;
    const td_json *cs = td_json_get(j, "contracts");
    for (size_t i = 0; cs && i < cs->n; i++) {
        if (m->ncontracts++) fputs(",\n", cf);
        td_json_write(cf, &cs->kids[i]);
    }
    td_json_free(j);
    return status;
}

/* Writes the merged report into out, prints its table; 1 when a contract failed. */
static int merge_write(const char *out, const merge_meta *m, const char *contracts) {
    char *report = assemble(m->library, m->backend, m->started, m->seconds, (uint64_t)m->seed, "merged shards", 1, 1,
                            contracts);
    char err[1024];
    if (!report || td_write_reports(out, report, err, sizeof err) != 0) {
        fprintf(stderr, "tilediff report merge: %s\n", report ? err : "out of memory");
        free(report);
        return -1;
    }
    td_json *j = td_json_parse(report, err, sizeof err);
    if (j) td_render_table(stdout, j);
    int failed = j && td_json_num(td_json_get(j, "summary"), "failed", 0) > 0;
    td_json_free(j);
    free(report);
    printf("report: %s/report.html\n", out);
    return failed;
}

/* tilediff report merge DIR... --out DIR */
int td_cmd_report(int argc, char **argv) {
    const char *out = NULL, *dirs[1024];
    int nd = 0;
    for (int i = 2; argc >= 2 && !strcmp(argv[1], "merge") && i < argc; i++) {
        if (!strcmp(argv[i], "--out")) {
            NEED_ARG();
            out = argv[++i];
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "tilediff report merge: unknown option '%s'\n", argv[i]);
            return TD_EXIT_USAGE;
        } else if (nd < 1024)
            dirs[nd++] = argv[i];
    }
    if (!out || !nd) {
        fprintf(stderr, "usage: tilediff report merge DIR... --out DIR\n");
        return TD_EXIT_USAGE;
    }
    if (mkdir_p(out) != 0) {
        fprintf(stderr, "tilediff report merge: cannot create %s: %s\n", out, strerror(errno));
        return TD_EXIT_USAGE;
    }
    char *cbuf = NULL;
    size_t clen = 0;
    FILE *cf = open_memstream(&cbuf, &clen);
    if (!cf) return TD_EXIT_INTERNAL;
    merge_meta m = {.library = "?", .backend = "host"};
    int status = TD_EXIT_OK;
    for (int d = 0; d < nd; d++)
        if (merge_shard(dirs[d], out, cf, &m)) status = TD_EXIT_USAGE;
    fclose(cf);
    int failed = merge_write(out, &m, cbuf ? cbuf : "");
    free(cbuf);
    if (failed < 0) return TD_EXIT_INTERNAL;
    if (status == TD_EXIT_OK && failed) status = TD_EXIT_FINDING;
    return status;
}

/* ---- selftest: the checker's own mutation test ----
 *
 * Two halves with the same case budget per kernel: the kill matrix (every seeded mutant
 * must be flagged) and the false-alarm matrix (every correct kernel, the ports and the
 * alternatives of kernels/alternatives/, must pass; a flag there is a false alarm).
 * Each kernel runs in a child process.  A launch trampoline records in shared memory
 * whether the child is inside the kernel's own code, so that a death (signal, exit) or
 * a hang is blamed on the kernel only when it happened there: a mutant is killed by a
 * crash or a hang only if the crash is its own; tilediff dying outside the kernel (an
 * abort() of the harness, an oracle crash) is a harness bug, exit 3, and kills nothing. */
typedef struct st_result {
    volatile int done, killed, harness_error;
    volatile int in_kernel;       /* 1 while the child runs the kernel's launch function */
    volatile double launch_t0;    /* when the launch in flight began */
    volatile uint64_t launches;   /* launches that returned */
    volatile uint64_t cases, findings;
    volatile double seconds;
    volatile int cls;
    char msg[256];
} st_result;

/* The child's trampoline around the kernel under test (one kernel per child). */
static st_result *st_shared;
static td_abi_launch_fn st_inner;
static int st_fault_harness; /* test hook (TD_SELFTEST_FAULT=harness-abort), see st_launch */

static int st_launch(const td_abi_launch *L) {
    st_shared->launch_t0 = td_cli_now();
    st_shared->in_kernel = 1;
    int rc = st_inner(L);
    st_shared->in_kernel = 0;
    st_shared->launches++;
    /* Fault injection for tests/selftest_test.sh: the harness itself dies, outside the
     * kernel, after a launch that returned.  selftest must call that a harness bug. */
    if (st_fault_harness) abort();
    return rc;
}

/* The parent's account of a child that did not finish: whose fault it was. */
static void st_blame(st_result *res, int sig, int hang) {
    if (res->in_kernel) {
        res->killed = 1;
        res->cls = hang ? TD_VC_HANG : TD_VC_CRASH;
        return;
    }
    res->killed = 0;
    res->harness_error = 1;
    if (hang) snprintf(res->msg, sizeof res->msg, "tilediff ran past the deadline outside the kernel");
    else if (sig)
        snprintf(res->msg, sizeof res->msg, "tilediff died of signal %d (%s) outside the kernel", sig, strsignal(sig));
    else snprintf(res->msg, sizeof res->msg, "tilediff's campaign process exited without a result");
}

static void st_child(td_cli *cli, const td_kernel *kern, const td_campaign_opts *co, st_result *res) {
    /* the kernel with its launch routed through the trampoline; a v1 record ends
     * before `declares` and is copied only that far */
    td_abi_kernel wrapped;
    memset(&wrapped, 0, sizeof wrapped);
    memcpy(&wrapped, kern->abi, kern->abi_version >= 2 ? sizeof wrapped : offsetof(td_abi_kernel, declares));
    st_shared = res;
    st_inner = kern->abi->launch;
    const char *fault = getenv("TD_SELFTEST_FAULT");
    st_fault_harness = fault && !strcmp(fault, "harness-abort");
    wrapped.launch = st_launch;
    td_kernel wk = *kern;
    wk.abi = &wrapped;
    td_ctx_opts o = {.max_reports = 1};
    td_ctx *cx = td_cli_ctx(cli, &o);
    td_campaign c;
    int rc = cx ? td_campaign_run(cx, &wk, co, &c) : TD_RUN_HARNESS_ERROR;
    res->cases = cx ? c.cases : 0;
    res->seconds = cx ? c.seconds : 0;
    res->killed = rc == TD_RUN_FINDING;
    res->harness_error = rc == TD_RUN_HARNESS_ERROR;
    res->findings = cx ? c.st.cases_with_finding : 0;
    if (cx && c.nf) res->cls = c.f[0].key.cls;
    if (cx && c.harness_error) snprintf(res->msg, sizeof res->msg, "%.250s", c.harness_msg);
    if (!cx) snprintf(res->msg, sizeof res->msg, "no harness context");
    if (cx) td_campaign_free(&c);
    td_ctx_free(cx);
    res->done = 1;
    _exit(0);
}

/* The kinds of kernel a selftest runs (--only). */
enum { ST_MUTANTS = 1, ST_PORTS = 2, ST_ALTERNATIVES = 4 };

typedef struct st_opts {
    double budget, launch_limit;
    uint64_t max_cases, seed;
    const char *pattern;
    int jobs;       /* --jobs: kernels run at once */
    unsigned kinds; /* --only: ST_* bits */
} st_opts;

/* The selftest's tallies. */
typedef struct st_tally {
    int mutants, alive, mut_internal, correct, alternatives, alarms, alt_alarms, internal;
} st_tally;

/* One half of the selftest as td_jobs tasks: kernel i's campaign runs in a child with
 * its own shared result; `deadline` bounds a whole campaign and `launch_limit` one
 * launch (a kernel stuck longer is a hang). */
typedef struct st_pool {
    td_cli *cli;
    td_campaign_opts co;  /* the half's campaign (its seed) */
    const td_kernel **ks; /* the half's kernels, in the order of its table */
    st_result *res;       /* per kernel, shared with its child */
    double *t0;
    double deadline, launch_limit;
    void (*line)(struct st_pool *p, int i); /* prints kernel i's row and counts it */
    const st_opts *o;
    st_tally *t;
} st_pool;

static pid_t st_start(void *ctx, int i) {
    st_pool *p = ctx;
    st_result *res = &p->res[i];
    memset((void *)res, 0, sizeof *res);
    p->t0[i] = td_cli_now();
    pid_t pid = fork();
    if (pid == 0) st_child(p->cli, p->ks[i], &p->co, res);
    if (pid < 0) {
        res->harness_error = 1;
        snprintf(res->msg, sizeof res->msg, "fork failed: %s", strerror(errno));
    }
    return pid;
}

static int st_overdue(void *ctx, int i, int oldest) {
    (void)oldest;
    st_pool *p = ctx;
    double t = td_cli_now();
    int stuck = p->res[i].in_kernel && t - p->res[i].launch_t0 > p->launch_limit;
    return stuck || t - p->t0[i] > p->deadline;
}

static void st_done(void *ctx, int i, int status, int killed, double seconds) {
    st_pool *p = ctx;
    st_result *res = &p->res[i];
    if (killed) {
        st_blame(res, 0, 1);
        res->seconds = seconds;
    } else if (status != -1 && !res->done) {
        st_blame(res, WIFSIGNALED(status) ? WTERMSIG(status) : 0, 0);
        res->seconds = seconds;
    }
    p->line(p, i);
    fflush(stdout);
}

/* Runs the half's n kernels, `jobs` at a time; their rows print in table order. */
static void st_run_half(st_pool *p, int n, int jobs) {
    size_t nn = n > 0 ? (size_t)n : 1;
    p->t0 = calloc(nn, sizeof *p->t0);
    p->res = mmap(NULL, nn * sizeof *p->res, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p->res == MAP_FAILED || !p->t0) {
        fprintf(stderr, "tilediff selftest: out of memory\n");
        p->t->internal++;
    } else {
        const td_jobs_ops ops = {st_start, st_overdue, st_done};
        td_jobs_run(n, jobs, &ops, p);
    }
    if (p->res != MAP_FAILED) munmap((void *)p->res, nn * sizeof *p->res);
    free(p->t0);
}

#define TD_SELFTEST_MIN_CASES 200

/* A correct kernel written differently from the port (kernels/alternatives/). */
static int st_is_alternative(const td_kernel *k) { return !strncmp(k->abi->variant, "alt_", 4); }

static const char *st_verdict(const st_result *r, char *b, size_t n) {
    if (r->harness_error) snprintf(b, n, "HARNESS ERROR: %s", r->msg);
    else if (r->killed) snprintf(b, n, "FLAGGED (%s): false alarm", td_vclass_name((td_vclass)r->cls));
    else snprintf(b, n, "clean");
    return b;
}


/* --only KIND[,KIND...]: the rows of the matrices to run, e.g. "mutants,alternatives"
 * where the ports are checked elsewhere (CI's test_contracts). */
static int st_parse_kinds(const char *v, unsigned *kinds) {
    static const char *const names[] = {"mutants", "ports", "alternatives"};
    *kinds = 0;
    for (const char *p = v; *p;) {
        size_t n = strcspn(p, ",");
        unsigned bit = 0;
        for (unsigned j = 0; j < 3; j++)
            if (n == strlen(names[j]) && !strncmp(p, names[j], n)) bit = 1u << j;
        if (!bit) {
            fprintf(stderr, "tilediff selftest: --only takes mutants, ports, alternatives (comma-separated), not '%s'\n", v);
            return TD_EXIT_USAGE;
        }
        *kinds |= bit;
        p += n + (p[n] == ',');
    }
    if (!*kinds) fprintf(stderr, "tilediff selftest: --only needs at least one kind\n");
    return *kinds ? 0 : TD_EXIT_USAGE;
}

static int st_parse(int argc, char **argv, td_cli *cli, st_opts *o) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--budget") || !strcmp(a, "--timeout")) {
            NEED_ARG();
            double *d = a[2] == 'b' ? &o->budget : &o->launch_limit;
            if (td_parse_double(argv[++i], d) || !(*d > 0)) {
                fprintf(stderr, "tilediff selftest: %s needs seconds > 0, not '%s'\n", a, argv[i]);
                return TD_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--cases")) {
            NEED_ARG();
            if (td_parse_u64(argv[++i], &o->max_cases) || !o->max_cases) {
                fprintf(stderr, "tilediff selftest: --cases needs a positive integer, not '%s'\n", argv[i]);
                return TD_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--seed")) {
            NEED_ARG();
            if (td_parse_u64(argv[++i], &o->seed)) {
                fprintf(stderr, "tilediff selftest: --seed needs an integer, not '%s'\n", argv[i]);
                return TD_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--contracts")) {
            NEED_ARG();
            o->pattern = argv[++i];
        } else if (!strcmp(a, "--only")) {
            NEED_ARG();
            if (st_parse_kinds(argv[++i], &o->kinds)) return TD_EXIT_USAGE;
        } else if (!strcmp(a, "--jobs")) {
            NEED_ARG();
            if (td_jobs_parse("selftest", argv[++i], &o->jobs)) return TD_EXIT_USAGE;
        } else if (!strcmp(a, "--kernels")) {
            NEED_ARG();
            cli->kernels = argv[++i];
        } else if (!strcmp(a, "--backend")) {
            NEED_ARG();
            if (td_cli_backend(cli, argv[++i])) return TD_EXIT_USAGE;
        } else {
            fprintf(stderr, "tilediff selftest: unknown argument '%s'\n", a);
            return TD_EXIT_USAGE;
        }
    }
    return 0;
}


/* A kernel of the backend, the contracts and the kinds asked for; a mutant of the large
 * tier is killed by `run --large` only (tests/test_large.c), never here. */
static int st_selected(const td_cli *cli, const td_kernel *k, const st_opts *o) {
    unsigned kind = k->abi->mutant ? ST_MUTANTS : st_is_alternative(k) ? ST_ALTERNATIVES : ST_PORTS;
    return (int)k->abi->backend == cli->backend && td_match(o->pattern, k->k->id) && (o->kinds & kind) &&
           !td_kernel_large_only(k);
}

static void st_kill_line(st_pool *p, int i) {
    const td_kernel *k = p->ks[i];
    const st_result *res = &p->res[i];
    st_tally *t = p->t;
    if (res->harness_error) t->internal++, t->mut_internal++;
    else if (!res->killed) t->alive++;
    printf("%-54s %-30s %-7s %8" PRIu64 " %9.3f  %s%s%s\n", k->k->id, k->abi->variant,
           res->harness_error ? "?" : res->killed ? "yes" : "NO", res->cases, res->seconds,
           res->killed ? td_vclass_name((td_vclass)res->cls) : "-", res->harness_error ? "  HARNESS ERROR: " : "",
           res->harness_error ? res->msg : "");
}

static void st_alarm_line(st_pool *p, int i) {
    const td_kernel *k = p->ks[i];
    const st_result *res = &p->res[i];
    int alt = st_is_alternative(k);
    char v[320];
    if (res->harness_error) p->t->internal++;
    else if (res->killed) p->t->alarms++, p->t->alt_alarms += alt;
    printf("%-54s %-18s %-11s %8" PRIu64 " %9.3f  %s\n", k->k->id, k->abi->variant, alt ? "alternative" : "port",
           res->cases, res->seconds, st_verdict(res, v, sizeof v));
}

/* The kernels of one half: the mutants (want_mutant), or the ports then the alternatives. */
static int st_list(const td_cli *cli, const st_opts *o, int want_mutant, const td_kernel **ks) {
    int n = 0;
    for (int alt = 0; alt < 2; alt++)
        for (int i = 0; i < cli->set.n; i++) {
            const td_kernel *k = &cli->set.kernels[i];
            if (!k->abi->mutant != !want_mutant || !st_selected(cli, k, o)) continue;
            if (!want_mutant && st_is_alternative(k) != alt) continue;
            if (want_mutant && alt) continue;
            ks[n++] = k;
        }
    return n;
}

static void st_kill_half(st_pool *p, const st_opts *o, const td_campaign_opts *base) {
    st_tally *t = p->t;
    printf("Kill matrix (%d mutants, at most %" PRIu64 " cases or %.2f s each, at least %" PRIu64 " cases)\n",
           t->mutants, base->max_cases, base->seconds, base->min_cases);
    printf("%-54s %-30s %-7s %8s %9s  %s\n", "CONTRACT", "MUTANT", "KILLED", "CASES", "SECONDS", "CAUGHT AS");
    p->co.seed = o->seed;
    p->line = st_kill_line;
    st_run_half(p, st_list(p->cli, o, 1, p->ks), o->jobs);
}

static void st_alarm_half(st_pool *p, const st_opts *o) {
    st_tally *t = p->t;
    printf("False-alarm matrix (%d correct kernels: %d ports, %d alternatives; the same case budget each)\n",
           t->correct, t->correct - t->alternatives, t->alternatives);
    printf("%-54s %-18s %-11s %8s %9s  %s\n", "CONTRACT", "KERNEL", "KIND", "CASES", "SECONDS", "VERDICT");
    p->co.seed = o->seed + 1000003;
    p->line = st_alarm_line;
    st_run_half(p, st_list(p->cli, o, 0, p->ks), o->jobs);
}

/* The kill matrix (every mutant must be flagged), then the false-alarm matrix (every
 * correct kernel, port or alternative, must pass with the same case budget); --only
 * leaves out a matrix or some of its rows. */
static void st_halves(td_cli *cli, const st_opts *o, const td_campaign_opts *base, st_tally *t) {
    const td_kernel **ks = calloc(cli->set.n > 0 ? (size_t)cli->set.n : 1, sizeof *ks);
    if (!ks) {
        fprintf(stderr, "tilediff selftest: out of memory\n");
        t->internal++;
        return;
    }
    st_pool p = {.cli = cli, .co = *base, .ks = ks, .deadline = base->seconds * 3 + 60,
                 .launch_limit = o->launch_limit, .o = o, .t = t, .line = st_kill_line};
    if (o->kinds & ST_MUTANTS) st_kill_half(&p, o, base);
    if ((o->kinds & ST_MUTANTS) && t->correct) printf("\n");
    if (t->correct) st_alarm_half(&p, o);
    free(ks);
}

int td_cmd_selftest(int argc, char **argv) {
    td_cli cli = {.cmd = "selftest", .backend = TD_ABI_HOST};
    st_opts o = {.budget = 120, .launch_limit = 60, .max_cases = 2000, .seed = 1, .pattern = "all",
                 .jobs = td_jobs_default(), .kinds = ST_MUTANTS | ST_PORTS | ST_ALTERNATIVES};
    int rc = st_parse(argc, argv, &cli, &o);
    if (rc) return rc;
    rc = td_cli_open(&cli);
    if (rc) return rc;
    st_tally t = {0};
    for (int i = 0; i < cli.set.n; i++) {
        const td_kernel *k = &cli.set.kernels[i];
        if (!st_selected(&cli, k, &o)) continue;
        if (k->abi->mutant) t.mutants++;
        else t.correct++, t.alternatives += st_is_alternative(k);
    }
    if (!t.mutants && (o.kinds & ST_MUTANTS)) {
        fprintf(stderr, "tilediff selftest: the kernel library has no mutants to kill\n");
        td_cli_close(&cli);
        return TD_EXIT_USAGE;
    }
    /* One budget per kernel for both halves: a mutant is declared alive, and a correct
     * kernel clean, only after at least TD_SELFTEST_MIN_CASES cases (or --cases, if
     * smaller) whatever the time slice, so neither half is judged on fewer cases. */
    td_campaign_opts base = {.max_cases = o.max_cases, .seconds = o.budget / (t.mutants + t.correct),
                             .min_cases = o.max_cases < TD_SELFTEST_MIN_CASES ? o.max_cases : TD_SELFTEST_MIN_CASES,
                             .stop_at_first = 1};
    st_halves(&cli, &o, &base, &t);
    td_cli_close(&cli);
    printf("\n%d of %d mutants killed; %d false alarms on %d correct kernels (%d of them on %d alternatives)",
           t.mutants - t.alive - t.mut_internal, t.mutants, t.alarms, t.correct, t.alt_alarms, t.alternatives);
    if (t.internal) printf("; %d harness errors (tilediff bugs, exit 3)", t.internal);
    printf("\n");
    return t.internal ? TD_EXIT_INTERNAL : (t.alive || t.alarms) ? TD_EXIT_FINDING : TD_EXIT_OK;
}
