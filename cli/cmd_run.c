/* tilediff list | run | repro | explain */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "emit_python.h"

#define NEED_ARG()                                                                                           \
    do {                                                                                                     \
        if (i + 1 >= argc) {                                                                                 \
            fprintf(stderr, "tilediff %s: %s needs a value\n", argv[0], argv[i]);                            \
            return TD_EXIT_USAGE;                                                                            \
        }                                                                                                    \
    } while (0)

static void fmt_list(const td_contract *k, char *buf, size_t n) {
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < k->nregions && o < n; i++) {
        const char *nm = td_fmt_get(k->regions[i].fmt)->name;
        if (strstr(buf, nm)) continue;
        int w = snprintf(buf + o, n - o, "%s%s", o ? "," : "", nm);
        if (w > 0) o += (size_t)w;
    }
}

int td_cmd_list(int argc, char **argv) {
    const char *family = NULL;
    int verbose = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--family")) {
            NEED_ARG();
            family = argv[++i];
        } else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose"))
            verbose = 1;
        else {
            fprintf(stderr, "tilediff list: unknown argument '%s'\n", argv[i]);
            return TD_EXIT_USAGE;
        }
    }
    /* which backends have kernels: load what is there, quietly */
    td_kernel_set sets[2];
    int have[2] = {0, 0};
    for (int b = 0; b < 2; b++) {
        char path[4096], err[512];
        if (td_builtin_library_path(b, path, sizeof path) == 0 && td_kernels_open(path, &sets[b], err, sizeof err) == 0)
            have[b] = 1;
    }
    int shown = 0;
    printf("%-62s %-24s %-13s %-22s %s\n", "CONTRACT", "KERNEL FILE", "FAMILY", "DTYPES", "BACKENDS");
    for (int i = 0; i < td_contract_count(); i++) {
        const td_contract *k = td_contract_at(i);
        if (family && strcmp(family, k->family)) continue;
        char dt[64], be[64] = "";
        fmt_list(k, dt, sizeof dt);
        int nmut[2] = {0, 0};
        for (int b = 0; b < 2; b++) {
            if (!have[b]) continue;
            if (td_kernels_find(&sets[b], k->id, NULL, b)) strcat(be, b ? "cuda " : "host ");
            for (int j = 0; j < sets[b].n; j++)
                if (sets[b].kernels[j].k == k && sets[b].kernels[j].abi->mutant) nmut[b]++;
        }
        printf("%-62s %-24s %-13s %-22s %s", k->id, k->file, k->family, dt, be[0] ? be : "-");
        /* mutants per backend: the host ones are what selftest and the regression corpus cover */
        if (nmut[0]) printf("(%d mutants)", nmut[0]);
        if (nmut[1]) printf("%s(%d cuda mutants)", nmut[0] ? " " : "", nmut[1]);
        printf("\n");
        if (verbose) {
            printf("    io class: %s (%s)\n    spec: %s\n    params:", k->io_class, k->kind, k->formula);
            for (int p = 0; p < k->nparams; p++)
                printf(" %s:%s", k->params[p].name,
                       k->params[p].kind == TD_P_REAL ? "real" : k->params[p].kind == TD_P_BOOL ? "bool" : "int");
            printf("\n    regions:");
            for (int r = 0; r < k->nregions; r++)
                printf(" %s:%s:%s", k->regions[r].name, td_fmt_get(k->regions[r].fmt)->name,
                       k->regions[r].role == TD_R_IN      ? "in"
                       : k->regions[r].role == TD_R_OUT   ? "out"
                       : k->regions[r].role == TD_R_INOUT ? "inout"
                       : k->regions[r].role == TD_R_SCRATCH ? "scratch"
                                                          : "meta");
            printf("\n");
            for (int c = 0; c < k->ncasts; c++)
                printf("    cast %s: %s (%s)\n", k->casts[c].slot, k->casts[c].dflt, k->casts[c].where);
            printf("    policy: %s; %s\n    error model: %s\n", k->sv == TD_SV_IEEE ? "ieee" : "real",
                   k->sv_note ? k->sv_note : "", k->error_model ? k->error_model : "");
        }
        shown++;
    }
    for (int b = 0; b < 2; b++)
        if (have[b]) td_kernels_close(&sets[b]);
    if (family && !shown) {
        fprintf(stderr, "tilediff list: no contract of family '%s'\n", family);
        return TD_EXIT_USAGE;
    }
    return TD_EXIT_OK;
}

typedef struct run_opts {
    uint64_t cases, seed;
    int json, mpfr_all, quiet;
    unsigned timeout;
    const char *artifacts;
    int max_print;
} run_opts;

/* --lane-dump: one line "err tol half_ulp" per checked lane (PASS, WARN or FAIL), the
 * half-ulp of the output format taken at the kernel's value (bench/tightness.sh reads it) */
static void dump_lane(void *arg, const td_lane_obs *o) {
    if (!o->checked) return;
    td_fmt f = o->c->r[o->lane->region].fmt;
    const td_fmt_info *fi = td_fmt_get(f);
    double half = !fi->is_float ? 0.5 : isfinite(o->got) ? 0.5 * td_ulp(f, o->got) : NAN;
    fprintf((FILE *)arg, "%.6g %.6g %.6g\n", o->err, o->tol, half);
}

/* a JSON number, or "inf" */
static const char *jnum(double x, char *b) {
    if (isinf(x)) snprintf(b, 40, "\"inf\"");
    else snprintf(b, 40, "%.17g", x);
    return b;
}

/* Runs one kernel over `cases` random cases; returns the worst exit status. */
static int run_kernel(td_cli *cli, td_ctx *cx, const td_kernel *kern, const run_opts *o, td_stats *tot) {
    int status = TD_EXIT_OK, printed = 0;
    td_stats st;
    memset(&st, 0, sizeof st);
    uint64_t finding_cases = 0;
    for (uint64_t i = 0; i < o->cases; i++) {
        uint8_t bytes[64];
        td_case_bytes(o->seed, i, bytes, sizeof bytes);
        td_case_result r;
        td_watchdog_arm(o->timeout, o->artifacts, kern, bytes, sizeof bytes);
        int rc = td_run_bytes(cx, kern, bytes, sizeof bytes, &r);
        td_watchdog_disarm();
        td_stats_merge(&st, &r.st);
        if (rc == TD_RUN_HARNESS_ERROR) {
            fprintf(stderr, "tilediff %s: %s: internal error on case %" PRIu64 ": %s\n", cli->cmd, kern->k->id, i, r.msg);
            td_result_free(&r);
            status = TD_EXIT_INTERNAL;
            break;
        }
        if (rc == TD_RUN_FINDING || r.st.lanes_warn) {
            char path[4400] = "";
            int saved = rc == TD_RUN_FINDING && o->artifacts &&
                        td_artifact_write(o->artifacts, kern, bytes, sizeof bytes, path, sizeof path) == 0;
            if (rc == TD_RUN_FINDING) {
                finding_cases++;
                if (status < TD_EXIT_FINDING) status = TD_EXIT_FINDING;
                if (o->artifacts && !saved)
                    fprintf(stderr, "tilediff %s: could not write the reproducer to %s\n", cli->cmd, o->artifacts);
            }
            if (printed < o->max_print && (rc == TD_RUN_FINDING || !o->quiet)) {
                if (o->json) td_report_json(stdout, kern, &r, saved ? path : NULL);
                else {
                    td_report_text(stdout, kern, &r);
                    if (saved) printf("  reproducer: %s\n  repro: tilediff repro %s\n", path, path);
                }
                printed++;
            }
        }
        td_result_free(&r);
    }
    if (o->json) {
        char b1[40], b2[40];
        printf("{\"summary\":true,\"contract\":\"%s\",\"kernel\":\"%s\",\"backend\":\"%s\",\"cases\":%" PRIu64
               ",\"lanes\":%" PRIu64 ",\"disagreeing_cases\":%" PRIu64 ",\"warns\":%" PRIu64
               ",\"worst_err_over_tol\":%s,\"worst_ulps\":%s,\"lanes_mpfr\":%" PRIu64 ",\"lanes_unbounded\":%" PRIu64
               "}\n",
               kern->k->id, kern->abi->variant, kern->abi->backend == TD_ABI_CUDA ? "cuda" : "host", st.cases, st.lanes,
               finding_cases, st.lanes_warn, jnum(st.worst_err_over_tol, b1), jnum(st.worst_ulps, b2), st.lanes_mpfr,
               st.lanes_unbounded);
    } else {
        printf("%s [%s/%s]: %" PRIu64 " cases, %" PRIu64 " lanes, %" PRIu64 " disagreeing cases, %" PRIu64
               " warns, worst err/tol %.3g, worst %.3g ulp, %" PRIu64 " lanes needed MPFR\n",
               kern->k->id, kern->abi->variant, kern->abi->backend == TD_ABI_CUDA ? "cuda" : "host", st.cases, st.lanes,
               finding_cases, st.lanes_warn, st.worst_err_over_tol, st.worst_ulps, st.lanes_mpfr);
        if (st.lanes_unbounded || st.lanes_overflow_ok)
            printf("  %" PRIu64 " lanes unbounded (no finite bound: not checked), %" PRIu64
                   " lanes accepted by a special-value rule (an admissible inf/NaN, or max finite against inf)\n",
                   st.lanes_unbounded, st.lanes_overflow_ok);
        char why[256];
        if (td_stats_unchecked(&st, why, sizeof why)) printf("  not checked: %s\n", why);
    }
    if (tot) td_stats_merge(tot, &st);
    fflush(stdout);
    return status;
}

int td_cmd_run(int argc, char **argv) {
    td_cli cli = {.cmd = "run", .backend = TD_ABI_HOST};
    run_opts o = {.cases = 200, .seed = 1, .max_print = 3, .artifacts = "tilediff-artifacts"};
    const char *pattern = NULL, *lane_dump = NULL;
    int all_variants = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--backend")) {
            NEED_ARG();
            if (td_cli_backend(&cli, argv[++i])) return TD_EXIT_USAGE;
        } else if (!strcmp(a, "--kernel")) {
            NEED_ARG();
            cli.variant = argv[++i];
        } else if (!strcmp(a, "--kernels")) {
            NEED_ARG();
            cli.kernels = argv[++i];
        } else if (!strcmp(a, "--cases")) {
            NEED_ARG();
            if (td_parse_u64(argv[++i], &o.cases)) {
                fprintf(stderr, "tilediff run: --cases needs a non-negative integer, not '%s'\n", argv[i]);
                return TD_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--seed")) {
            NEED_ARG();
            if (td_parse_u64(argv[++i], &o.seed)) {
                fprintf(stderr, "tilediff run: --seed needs a non-negative integer, not '%s'\n", argv[i]);
                return TD_EXIT_USAGE;
            }
        } else if (!strcmp(a, "--timeout")) {
            NEED_ARG();
            uint64_t t;
            if (td_parse_u64(argv[++i], &t) || t > 86400) {
                fprintf(stderr, "tilediff run: --timeout needs seconds, not '%s'\n", argv[i]);
                return TD_EXIT_USAGE;
            }
            o.timeout = (unsigned)t;
        } else if (!strcmp(a, "--artifacts")) {
            NEED_ARG();
            o.artifacts = argv[++i];
        } else if (!strcmp(a, "--lane-dump")) {
            NEED_ARG();
            lane_dump = argv[++i];
        } else if (!strcmp(a, "--no-artifacts"))
            o.artifacts = NULL;
        else if (!strcmp(a, "--json"))
            o.json = 1;
        else if (!strcmp(a, "--mpfr-all"))
            o.mpfr_all = 1;
        else if (!strcmp(a, "--all-variants"))
            all_variants = 1;
        else if (!strcmp(a, "--quiet"))
            o.quiet = 1;
        else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "tilediff run: unknown option '%s'\n", a);
            return TD_EXIT_USAGE;
        } else if (!pattern)
            pattern = a;
        else {
            fprintf(stderr, "tilediff run: one CONTRACT (or glob) only; '%s' is extra\n", a);
            return TD_EXIT_USAGE;
        }
    }
    if (!pattern) {
        fprintf(stderr, "usage: tilediff run CONTRACT|GLOB [--backend host|cuda] [--kernel VARIANT] [--kernels LIB.so] "
                        "[--cases N] [--seed S] [--json] [--artifacts DIR] [--timeout S] [--mpfr-all] [--lane-dump FILE]\n");
        return TD_EXIT_USAGE;
    }
    int matched = 0;
    for (int i = 0; i < td_contract_count(); i++) matched += td_match(pattern, td_contract_at(i)->id);
    if (!matched) {
        fprintf(stderr, "tilediff run: unknown contract '%s' (tilediff list shows the contracts)\n", pattern);
        return TD_EXIT_USAGE;
    }
    int rc = td_cli_open(&cli);
    if (rc) return rc;
    td_ctx_opts co = {.mpfr_all = o.mpfr_all};
    FILE *dump = NULL;
    if (lane_dump && !(dump = fopen(lane_dump, "w"))) {
        fprintf(stderr, "tilediff run: --lane-dump %s: %s\n", lane_dump, strerror(errno));
        td_cli_close(&cli);
        return TD_EXIT_USAGE;
    }
    td_ctx *cx = td_cli_ctx(&cli, &co);
    if (!cx) {
        if (dump) fclose(dump);
        td_cli_close(&cli);
        return TD_EXIT_INTERNAL;
    }
    if (dump) td_ctx_set_lane_observer(cx, dump_lane, dump);
    int status = TD_EXIT_OK, ran = 0;
    td_stats tot;
    memset(&tot, 0, sizeof tot);
    for (int i = 0; i < td_contract_count(); i++) {
        const td_contract *k = td_contract_at(i);
        if (!td_match(pattern, k->id)) continue;
        if (all_variants) {
            for (int j = 0; j < cli.set.n; j++) {
                const td_kernel *kern = &cli.set.kernels[j];
                if (kern->k != k || (int)kern->abi->backend != cli.backend) continue;
                int s = run_kernel(&cli, cx, kern, &o, &tot);
                if (s > status) status = s;
                ran++;
            }
            continue;
        }
        const td_kernel *kern = td_cli_kernel(&cli, k, matched > 1);
        if (!kern) {
            if (matched > 1) printf("%s: not implemented by this kernel library (not covered)\n", k->id);
            else status = TD_EXIT_USAGE;
            continue;
        }
        int s = run_kernel(&cli, cx, kern, &o, &tot);
        if (s > status) status = s;
        ran++;
        if (s == TD_EXIT_INTERNAL) break;
    }
    if (ran > 1 && !o.json)
        printf("total: %d kernels, %" PRIu64 " cases, %" PRIu64 " lanes, %" PRIu64 " disagreeing cases, worst err/tol %.3g\n",
               ran, tot.cases, tot.lanes, tot.cases_with_finding, tot.worst_err_over_tol);
    td_ctx_free(cx);
    td_cli_close(&cli);
    if (dump && fclose(dump) != 0) {
        fprintf(stderr, "tilediff run: --lane-dump %s: %s\n", lane_dump, strerror(errno));
        if (status == TD_EXIT_OK) status = TD_EXIT_INTERNAL;
    }
    return status;
}

/* Picks the kernel for a reproducer: --kernel, else the artifact's variant, else the correct one. */
static const td_kernel *repro_kernel(td_cli *cli, const td_contract *k, const char *hdr_variant) {
    const char *v = cli->variant ? cli->variant : (hdr_variant[0] ? hdr_variant : NULL);
    const td_kernel *kern = td_kernels_find(&cli->set, k->id, v, cli->backend);
    if (!kern)
        fprintf(stderr, "tilediff %s: the kernel library has no %s kernel %s%s%s for %s\n", cli->cmd,
                cli->backend == TD_ABI_CUDA ? "cuda" : "host", v ? "'" : "", v ? v : "", v ? "'" : "", k->id);
    return kern;
}

int td_cmd_repro(int argc, char **argv) {
    td_cli cli = {.cmd = "repro", .backend = TD_ABI_HOST};
    const char *contract = NULL, *emit_py = NULL;
    int json = 0, mpfr_all = 0, backend_given = 0;
    const char *files[4096];
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--backend")) {
            NEED_ARG();
            if (td_cli_backend(&cli, argv[++i])) return TD_EXIT_USAGE;
            backend_given = 1;
        } else if (!strcmp(a, "--kernel")) {
            NEED_ARG();
            cli.variant = argv[++i];
        } else if (!strcmp(a, "--kernels")) {
            NEED_ARG();
            cli.kernels = argv[++i];
        } else if (!strcmp(a, "--contract")) {
            NEED_ARG();
            contract = argv[++i];
        } else if (!strcmp(a, "--emit-python")) {
            NEED_ARG();
            emit_py = argv[++i];
        } else if (!strcmp(a, "--json"))
            json = 1;
        else if (!strcmp(a, "--mpfr-all"))
            mpfr_all = 1;
        else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "tilediff repro: unknown option '%s'\n", a);
            return TD_EXIT_USAGE;
        } else if (nfiles < 4096)
            files[nfiles++] = a;
    }
    if (!nfiles) {
        fprintf(stderr, "usage: tilediff repro FILE... [--contract C] [--kernel VARIANT] [--kernels LIB.so] "
                        "[--backend host|cuda] [--json] [--emit-python SCRIPT.py]\n");
        return TD_EXIT_USAGE;
    }
    if (contract && !td_contract_find(contract)) {
        fprintf(stderr, "tilediff repro: unknown contract '%s' (tilediff list shows the contracts)\n", contract);
        return TD_EXIT_USAGE;
    }
    int rc = td_cli_open(&cli);
    if (rc) return rc;
    td_ctx_opts co = {.mpfr_all = mpfr_all};
    td_ctx *cx = td_cli_ctx(&cli, &co);
    if (!cx) {
        td_cli_close(&cli);
        return TD_EXIT_INTERNAL;
    }
    int status = TD_EXIT_OK, bad_input = 0, findings = 0, internal = 0;
    for (int f = 0; f < nfiles; f++) {
        uint8_t *data;
        size_t size;
        char hc[512], hv[256], err[1024];
        int hb;
        if (td_artifact_read(files[f], &data, &size, hc, sizeof hc, hv, sizeof hv, &hb, err, sizeof err) != 0) {
            fprintf(stderr, "tilediff repro: %s\n", err);
            bad_input = 1;
            continue;
        }
        if (hc[0] && !backend_given && hb != cli.backend) {
            fprintf(stderr, "tilediff repro: %s was found on the %s backend; replaying on %s\n", files[f],
                    hb == TD_ABI_CUDA ? "cuda" : "host", cli.backend == TD_ABI_CUDA ? "cuda" : "host");
        }
        const char *cid = contract ? contract : (hc[0] ? hc : NULL);
        if (!cid) {
            fprintf(stderr, "tilediff repro: %s: a raw fuzz input names no contract: pass --contract C\n", files[f]);
            free(data);
            bad_input = 1;
            continue;
        }
        const td_contract *k = td_contract_find(cid);
        if (!k) {
            fprintf(stderr, "tilediff repro: %s: unknown contract '%s'\n", files[f], cid);
            free(data);
            bad_input = 1;
            continue;
        }
        const td_kernel *kern = repro_kernel(&cli, k, contract ? "" : hv);
        if (!kern) {
            free(data);
            bad_input = 1;
            continue;
        }
        td_case_result r;
        int x = td_run_bytes(cx, kern, data, size, &r);
        if (x == TD_RUN_HARNESS_ERROR) {
            fprintf(stderr, "tilediff repro: %s: internal error: %s\n", files[f], r.msg);
            internal = 1;
        } else if (json) {
            td_report_json(stdout, kern, &r, files[f]);
        } else if (x == TD_RUN_FINDING || r.nrep) {
            printf("%s:\n", files[f]);
            td_report_text(stdout, kern, &r);
        } else {
            printf("%s: %s [%s]: no disagreement (%" PRIu64 " lanes, worst err/tol %.3g)\n", files[f], k->id,
                   kern->abi->variant, r.st.lanes, r.st.worst_err_over_tol);
        }
        if (x == TD_RUN_FINDING) findings = 1;
        if (emit_py && x != TD_RUN_HARNESS_ERROR) {
            if (td_emit_python(emit_py, kern, data, size, &r, err, sizeof err) != 0) {
                fprintf(stderr, "tilediff repro: --emit-python: %s\n", err);
                bad_input = 1;
            } else
                fprintf(stderr, "tilediff repro: wrote %s (python3 %s replays the case)\n", emit_py, emit_py);
        }
        td_result_free(&r);
        free(data);
        fflush(stdout);
    }
    status = internal ? TD_EXIT_INTERNAL : bad_input ? TD_EXIT_USAGE : findings ? TD_EXIT_FINDING : TD_EXIT_OK;
    td_ctx_free(cx);
    td_cli_close(&cli);
    return status;
}

int td_cmd_explain(int argc, char **argv) {
    td_cli cli = {.cmd = "explain", .backend = TD_ABI_HOST};
    const char *contract = NULL, *file = NULL;
    long lane = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--lane")) {
            NEED_ARG();
            uint64_t l;
            if (td_parse_u64(argv[++i], &l) || l > (uint64_t)LONG_MAX) {
                fprintf(stderr, "tilediff explain: --lane needs a lane index, not '%s'\n", argv[i]);
                return TD_EXIT_USAGE;
            }
            lane = (long)l;
        } else if (!strcmp(a, "--backend")) {
            NEED_ARG();
            if (td_cli_backend(&cli, argv[++i])) return TD_EXIT_USAGE;
        } else if (!strcmp(a, "--kernel")) {
            NEED_ARG();
            cli.variant = argv[++i];
        } else if (!strcmp(a, "--kernels")) {
            NEED_ARG();
            cli.kernels = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "tilediff explain: unknown option '%s'\n", a);
            return TD_EXIT_USAGE;
        } else if (!contract)
            contract = a;
        else if (!file)
            file = a;
        else {
            fprintf(stderr, "tilediff explain: unexpected argument '%s'\n", a);
            return TD_EXIT_USAGE;
        }
    }
    if (!contract || !file) {
        fprintf(stderr, "usage: tilediff explain CONTRACT FILE [--lane L] [--kernel VARIANT] [--kernels LIB.so]\n");
        return TD_EXIT_USAGE;
    }
    const td_contract *k = td_contract_find(contract);
    if (!k) {
        fprintf(stderr, "tilediff explain: unknown contract '%s' (tilediff list shows the contracts)\n", contract);
        return TD_EXIT_USAGE;
    }
    uint8_t *data;
    size_t size;
    char hc[512], hv[256], err[1024];
    int hb;
    if (td_artifact_read(file, &data, &size, hc, sizeof hc, hv, sizeof hv, &hb, err, sizeof err) != 0) {
        fprintf(stderr, "tilediff explain: %s\n", err);
        return TD_EXIT_USAGE;
    }
    if (hc[0] && strcmp(hc, contract)) {
        fprintf(stderr, "tilediff explain: %s is a reproducer of %s, not of %s\n", file, hc, contract);
        free(data);
        return TD_EXIT_USAGE;
    }
    int rc = td_cli_open(&cli);
    if (rc) {
        free(data);
        return rc;
    }
    const td_kernel *kern = repro_kernel(&cli, k, hv);
    if (!kern) {
        free(data);
        td_cli_close(&cli);
        return TD_EXIT_USAGE;
    }
    td_ctx_opts co = {0};
    td_ctx *cx = td_cli_ctx(&cli, &co);
    int x = cx ? td_explain(cx, kern, data, size, lane, stdout) : TD_RUN_HARNESS_ERROR;
    td_ctx_free(cx);
    free(data);
    td_cli_close(&cli);
    return x == TD_RUN_HARNESS_ERROR ? TD_EXIT_INTERNAL : x == TD_RUN_USAGE ? TD_EXIT_USAGE
           : x == TD_RUN_FINDING     ? TD_EXIT_FINDING
                                     : TD_EXIT_OK;
}
