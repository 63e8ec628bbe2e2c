/* tilediff list | run | repro | explain */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "campaign.h"
#include "certify.h"
#include "common.h"
#include "emit_python.h"
#include "jobs.h"

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
    int shown = 0, wid = 8; /* the id column as wide as the longest id */
    for (int i = 0; i < td_contract_count(); i++)
        if ((int)strlen(td_contract_at(i)->id) > wid) wid = (int)strlen(td_contract_at(i)->id);
    printf("%-*s %-24s %-13s %-22s %s\n", wid, "CONTRACT", "KERNEL FILE", "FAMILY", "DTYPES", "BACKENDS");
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
                if (sets[b].kernels[j].k == k && sets[b].kernels[j].abi->mutant && !td_kernel_large_only(&sets[b].kernels[j]))
                    nmut[b]++;
        }
        printf("%-*s %-24s %-13s %-22s %s", wid, k->id, k->file, k->family, dt, be[0] ? be : "-");
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
            printf("    offsets beyond 2^31: %s\n", k->far ? "far cases (every 16th case; sparse, a few MiB)"
                                                         : "not reached (no far cases)");
            if (k->large)
                printf("    more than 2^31 elements: large tier (run/certify --large; every 16th case, gigabytes of "
                       "address space)\n");
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
    int strict; /* --strict: a WARN lane fails the run (exit 1) */
    unsigned timeout;
    const char *artifacts;
    int max_print;
    int jobs; /* --jobs: processes that run cases at once */
    int large; /* --large: the large tier's cases too (contracts/gen_large.h) */
} run_opts;

/* --lane-dump: err, tolerance and the output's half-ulp of every checked lane, one
 * line each (bench/tightness.sh reads them) */
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

/* The root causes a run found (td_same_root): one entry each, with a count. */
#define RUN_MAX_ROOTS 256
typedef struct run_root {
    td_fkey key;
    uint64_t count, first_case;
    char path[4400]; /* the first case's reproducer ("" when none was written) */
} run_root;

typedef struct run_state {
    td_stats st;
    uint64_t finding_cases, other_roots; /* cases whose root did not fit in `roots` */
    int printed, nroots;
    run_root roots[RUN_MAX_ROOTS];
    char not_covered[512]; /* the first "not covered on this backend: ..." */
} run_state;

/* "case 17 (seed 1)" and the exact replay command, or why there is none. */
static void print_case_line(td_cli *cli, const run_opts *o, uint64_t i, const char *path) {
    char cmd[9000];
    if (path[0]) {
        td_cli_repro_cmd(cli, path, cmd, sizeof cmd);
        printf("  case %" PRIu64 " (seed %" PRIu64 "), reproducer %s\n  repro: %s\n", i, o->seed, path, cmd);
    } else
        printf("  case %" PRIu64 " (seed %" PRIu64 "); no reproducer written (%s)\n", i, o->seed,
               o->artifacts ? "writing it failed" : "--no-artifacts");
}

/* What the output needs of one case.  Computed where the case ran (in this process,
 * or in a --jobs worker that sends it through a pipe) and applied in case order by
 * run_apply, so that the output does not depend on --jobs. */
typedef struct run_out {
    int rc;                 /* td_run_bytes's */
    td_stats st;
    td_fkey key;            /* the finding's root (rc == TD_RUN_FINDING) */
    int art_failed;         /* its reproducer could not be written */
    char msg[512];
    char path[4400];        /* its reproducer ("" when none) */
    size_t textlen;         /* the case's report (a finding, or warnings), rendered */
} run_out;

/* Runs case i; fills *out and the rendered report *text (malloc'ed, may be NULL).  A
 * finding case's reproducer is written here (every finding case keeps one, as the
 * fuzz triage expects). */
static void run_case(td_ctx *cx, const td_kernel *kern, const run_opts *o, uint64_t i, run_out *out, char **text) {
    uint8_t b[64];
    td_campaign_case_bytes_tier(kern->k, o->seed, i, o->large, b, sizeof b);
    td_case_result r;
    td_watchdog_arm(o->timeout, o->artifacts, kern, b, sizeof b);
    int rc = td_run_bytes(cx, kern, b, sizeof b, &r);
    td_watchdog_disarm();
    memset(out, 0, sizeof *out);
    out->rc = rc;
    out->st = r.st;
    snprintf(out->msg, sizeof out->msg, "%.500s", r.msg);
    if (rc == TD_RUN_FINDING) {
        if (o->artifacts && td_artifact_write(o->artifacts, kern, b, sizeof b, out->path, sizeof out->path) != 0)
            out->path[0] = 0, out->art_failed = 1;
        if (td_finding_key(kern, b, sizeof b, &r, &out->key) != 0) out->key = (td_fkey){.cls = r.worst, .rel = -1};
    }
    *text = NULL;
    size_t len = 0;
    /* --strict shows a WARN case as a finding, even with --quiet */
    int shown = rc == TD_RUN_FINDING || (rc == TD_RUN_OK && r.st.lanes_warn && (o->strict || !o->quiet));
    FILE *f = shown ? open_memstream(text, &len) : NULL;
    if (f) {
        if (o->json) td_report_json(f, kern, &r, out->path[0] ? out->path : NULL);
        else td_report_text(f, kern, &r);
        fclose(f);
    }
    out->textlen = *text ? len : 0;
    td_result_free(&r);
}

/* Counts a finding of root `key` at case i; returns its root when it is new, else
 * NULL (a known root, or a new one beyond the table). */
static run_root *record_root(run_state *s, const td_fkey *key, uint64_t i) {
    for (int k = 0; k < s->nroots; k++)
        if (td_same_root(&s->roots[k].key, key)) return s->roots[k].count++, NULL;
    if (s->nroots == RUN_MAX_ROOTS) {
        s->other_roots++;
        return NULL;
    }
    run_root *x = &s->roots[s->nroots++];
    *x = (run_root){.key = *key, .count = 1, .first_case = i};
    return x;
}

/* Applies case i's outcome to the run's state and output: a new root cause is
 * reported in full with its case index and replay command, a known one only counted;
 * the first few cases with warnings are shown.  Returns 1 when the run must stop. */
static int run_apply(td_cli *cli, const td_kernel *kern, const run_opts *o, run_state *s, uint64_t i,
                     const run_out *c, const char *text, int *status) {
    td_stats_merge(&s->st, &c->st);
    if (c->st.cases_not_covered && !s->not_covered[0]) snprintf(s->not_covered, sizeof s->not_covered, "%s", c->msg);
    if (c->rc == TD_RUN_HARNESS_ERROR) {
        fprintf(stderr, "tilediff %s: %s: internal error on case %" PRIu64 ": %s\n", cli->cmd, kern->k->id, i, c->msg);
        *status = TD_EXIT_INTERNAL;
        return 1;
    }
    if (c->rc == TD_RUN_FINDING) {
        *status = TD_EXIT_FINDING;
        s->finding_cases++;
        if (c->art_failed) fprintf(stderr, "tilediff %s: could not write the reproducer to %s\n", cli->cmd, o->artifacts);
        run_root *x = record_root(s, &c->key, i);
        if (!x) return 0;
        snprintf(x->path, sizeof x->path, "%s", c->path);
        if (text) fputs(text, stdout);
        if (!o->json) print_case_line(cli, o, i, x->path);
    } else if (c->st.lanes_warn && o->strict) {
        /* --strict: a WARN is a finding (reported and exit 1; no reproducer: a WARN
         * lane's err is within the rigorous bound) */
        *status = TD_EXIT_FINDING;
        s->finding_cases++;
        if (s->printed < o->max_print) {
            if (text) fputs(text, stdout);
            if (!o->json) printf("  case %" PRIu64 " (seed %" PRIu64 "), a WARN under --strict\n", i, o->seed);
            s->printed++;
        }
    } else if (c->st.lanes_warn && !o->quiet && s->printed < o->max_print) {
        if (text) fputs(text, stdout);
        if (!o->json) printf("  case %" PRIu64 " (seed %" PRIu64 ")\n", i, o->seed);
        s->printed++;
    }
    return 0;
}

/* a crash or a hang: the whole case's, of no region */
static int root_is_death(const td_fkey *k) { return k->cls == TD_VC_CRASH || k->cls == TD_VC_HANG; }

static void root_json(td_cli *cli, const td_kernel *kern, const run_root *x, int first) {
    char cmd[9000] = "", region[300] = "null";
    if (x->path[0]) td_cli_repro_cmd(cli, x->path, cmd, sizeof cmd);
    if (!root_is_death(&x->key)) snprintf(region, sizeof region, "\"%s\"", kern->k->regions[x->key.region].name);
    printf("%s{\"class\":\"%s\",\"region\":%s,\"lane_in_tile\":", first ? "" : ",", td_vclass_name(x->key.cls),
           region);
    if (x->key.rel >= 0) printf("%" PRId64, x->key.rel);
    else printf("null");
    printf(",\"count\":%" PRIu64 ",\"first_case\":%" PRIu64 ",\"repro\":", x->count, x->first_case);
    td_json_escape(stdout, cmd);
    printf("}");
}

static void summary_json(td_cli *cli, const td_kernel *kern, const run_state *s) {
    char b1[40], b2[40];
    const td_stats *st = &s->st;
    printf("{\"summary\":true,\"contract\":\"%s\",\"kernel\":\"%s\",\"backend\":\"%s\",\"cases\":%" PRIu64
           ",\"lanes\":%" PRIu64 ",\"disagreeing_cases\":%" PRIu64 ",\"warns\":%" PRIu64
           ",\"worst_err_over_tol\":%s,\"worst_ulps\":%s,\"lanes_mpfr\":%" PRIu64 ",\"lanes_unbounded\":%" PRIu64
           ",\"lanes_undefined\":%" PRIu64 ",\"findings\":[",
           kern->k->id, kern->abi->variant, kern->abi->backend == TD_ABI_CUDA ? "cuda" : "host", st->cases, st->lanes,
           s->finding_cases, st->lanes_warn, jnum(st->worst_err_over_tol, b1), jnum(st->worst_ulps, b2), st->lanes_mpfr,
           st->lanes_unbounded, st->lanes_undefined);
    for (int k = 0; k < s->nroots; k++) root_json(cli, kern, &s->roots[k], !k);
    printf("]}\n");
}

static void summary_text(td_cli *cli, const td_kernel *kern, const run_state *s) {
    const td_stats *st = &s->st;
    char et[64];
    td_errtol_str(st->worst_err_over_tol, NAN, et, sizeof et);
    printf("%s [%s/%s]: %" PRIu64 " cases, %" PRIu64 " lanes, %" PRIu64 " disagreeing cases, %" PRIu64
           " warns, worst err/tol %s, worst %.3g ulp, %" PRIu64 " lanes needed MPFR\n",
           kern->k->id, kern->abi->variant, kern->abi->backend == TD_ABI_CUDA ? "cuda" : "host", st->cases, st->lanes,
           s->finding_cases, st->lanes_warn, et, st->worst_ulps, st->lanes_mpfr);
    if (st->lanes_unbounded || st->lanes_overflow_ok)
        printf("  %" PRIu64 " lanes unbounded (no finite bound: not checked), %" PRIu64
               " lanes accepted by a special-value rule (an admissible inf/NaN, or max finite against inf)\n",
               st->lanes_unbounded, st->lanes_overflow_ok);
    if (st->lanes_undefined)
        printf("  %" PRIu64 " lanes where the spec is undefined (e.g. a fully masked row's 0/0): any outcome "
               "accepted\n",
               st->lanes_undefined);
    if (st->lanes_sampled_out)
        printf("  %" PRIu64 " lanes of the large tier's launches were not judged (outside its windows: the first, last"
               " and 2^31-boundary programs or row-blocks and a few sampled ones)\n",
               st->lanes_sampled_out);
    char why[256];
    if (st->cases_not_covered)
        printf("  %" PRIu64 " of %" PRIu64 " cases %s\n", st->cases_not_covered, st->cases, s->not_covered);
    else if (td_stats_unchecked(st, why, sizeof why))
        printf("  not checked: %s\n", why);
    if (s->nroots)
        printf("  %d distinct finding%s (same contract, class, region and first bad lane in the tile):\n", s->nroots,
               s->nroots > 1 ? "s" : "");
    for (int k = 0; k < s->nroots; k++) {
        const run_root *x = &s->roots[k];
        char cmd[9000] = "", lane[48] = "";
        if (x->path[0]) td_cli_repro_cmd(cli, x->path, cmd, sizeof cmd);
        if (x->key.rel >= 0) snprintf(lane, sizeof lane, ", lane %" PRId64 " of the tile", x->key.rel);
        printf("    %s%s%s%s: %" PRIu64 " case%s, first case %" PRIu64 "%s%s\n", td_vclass_name(x->key.cls),
               root_is_death(&x->key) ? "" : " in ", root_is_death(&x->key) ? "" : kern->k->regions[x->key.region].name,
               lane, x->count, x->count > 1 ? "s" : "", x->first_case,
               cmd[0] ? "; repro: " : "", cmd);
    }
    if (s->other_roots) printf("    and %" PRIu64 " cases of further root causes\n", s->other_roots);
}

/* Every case runs in a worker process, so that a kernel that crashes (a segfault or an
 * abort in a plugin, a Triton kernel that reads far out of bounds) or hangs takes only
 * its worker with it: the parent reports that case as a finding, with its reproducer,
 * and goes on with the next case; the findings already made are kept.  --jobs N: worker
 * w of n runs cases from + w, from + w + n, ... and sends each case's run_out and report
 * through its own pipe; the parent reads case i from worker (i - from) % n, so it
 * applies the outcomes in case order and the output does not depend on --jobs.  Each
 * worker has a copy of the parent's state (fork): the decode, the kernel and the oracle
 * are the same in every process. */

/* What a worker shares with the parent: whether it is inside the kernel's launch (a
 * death there is the kernel's; anywhere else tilediff's own) and the progress its
 * watchdog reads (launches that returned; the Triton bridge's program instances). */
typedef struct run_shared {
    volatile int in_kernel;
    volatile uint64_t beats;
} run_shared;

static run_shared *rw_self;       /* in a worker: its own slot */
static td_abi_launch_fn rw_inner; /* in a worker: the kernel's launch */

static int rw_launch(const td_abi_launch *L) {
    rw_self->in_kernel = 1;
    int rc = rw_inner(L);
    rw_self->in_kernel = 0;
    rw_self->beats++;
    return rc;
}

static int write_all(int fd, const void *p, size_t n) {
    for (const char *c = p; n;) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        c += w, n -= (size_t)w;
    }
    return 0;
}

static int read_all(int fd, void *p, size_t n) {
    for (char *c = p; n;) {
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        c += r, n -= (size_t)r;
    }
    return 0;
}

static void run_worker(td_ctx *cx, const td_kernel *kern, const run_opts *o, uint64_t from, uint64_t w, uint64_t n,
                       run_shared *sh, int fd) {
    /* the kernel with its launch routed through rw_launch; a v1 record ends before
     * `declares` and is copied only that far */
    td_abi_kernel wrapped;
    memset(&wrapped, 0, sizeof wrapped);
    memcpy(&wrapped, kern->abi, kern->abi_version >= 2 ? sizeof wrapped : offsetof(td_abi_kernel, declares));
    rw_self = sh;
    rw_inner = kern->abi->launch;
    wrapped.launch = rw_launch;
    td_kernel wk = *kern;
    wk.abi = &wrapped;
    td_kernels_set_progress(&sh->beats);
    td_watchdog_progress(&sh->beats);
    td_watchdog_quiet(1);
    for (uint64_t i = from + w; i < o->cases; i += n) {
        run_out c;
        char *text;
        run_case(cx, &wk, o, i, &c, &text);
        fflush(NULL); /* a --lane-dump's lines, before a later case can kill this worker */
        int bad = write_all(fd, &c, sizeof c) || (c.textlen && write_all(fd, text, c.textlen));
        free(text);
        if (bad || c.rc == TD_RUN_HARNESS_ERROR) break; /* the run stops at a harness error */
    }
    _exit(0);
}

/* Case i's outcome from its worker; -1 when the worker ended without sending it. */
static int run_recv(int fd, run_out *c, char **text) {
    *text = NULL;
    if (read_all(fd, c, sizeof *c) != 0) return -1;
    if (!c->textlen) return 0;
    if (c->textlen > ((size_t)1 << 30) || !(*text = malloc(c->textlen + 1))) return -1;
    if (read_all(fd, *text, c->textlen) != 0) {
        free(*text);
        *text = NULL;
        return -1;
    }
    (*text)[c->textlen] = 0;
    return 0;
}

/* Ends the workers still running (their cases are not needed any more). */
static void run_stop(int n, pid_t *pid, const int *fd) {
    for (int w = 0; w < n; w++) {
        if (fd[w] >= 0) close(fd[w]);
        if (pid[w] <= 0) continue; /* reaped already */
        kill(pid[w], SIGKILL);
        while (waitpid(pid[w], NULL, 0) < 0 && errno == EINTR) {}
        pid[w] = 0;
    }
}

/* Starts n workers from case `from`; returns n, or 0 (none left running) when a pipe
 * or fork failed. */
static int run_start(td_ctx *cx, const td_kernel *kern, const run_opts *o, uint64_t from, int n, pid_t *pid, int *fd,
                     run_shared *sh) {
    fflush(NULL); /* a worker must not write its parent's buffered output again */
    for (int w = 0; w < n; w++) {
        int p[2];
        memset((void *)&sh[w], 0, sizeof sh[w]);
        if (pipe(p) != 0) {
            run_stop(w, pid, fd);
            return 0;
        }
        if ((pid[w] = fork()) < 0) {
            close(p[0]), close(p[1]);
            run_stop(w, pid, fd);
            return 0;
        }
        if (pid[w] == 0) {
            for (int v = 0; v < w; v++) close(fd[v]);
            close(p[0]);
            run_worker(cx, kern, o, from, (uint64_t)w, (uint64_t)n, &sh[w], p[1]);
        }
        close(p[1]);
        fd[w] = p[0];
    }
    return n;
}

/* Cases from..cases-1 in this process (no worker could be started); returns the case
 * the run stopped at. */
static uint64_t run_here(td_cli *cli, td_ctx *cx, const td_kernel *kern, const run_opts *o, run_state *s,
                         uint64_t from, int *status) {
    for (uint64_t i = from; i < o->cases; i++) {
        run_out c;
        char *text;
        run_case(cx, kern, o, i, &c, &text);
        int stop = run_apply(cli, kern, o, s, i, &c, text, status);
        free(text);
        if (stop) return i;
    }
    return o->cases;
}

/* A worker that ended before it sent case `at`: its wait status, and whether it was
 * inside the kernel's launch. */
typedef struct run_death {
    int dead, status, in_kernel;
    uint64_t at;
} run_death;

/* Cases from.. through `jobs` workers while they deliver; returns the first case not
 * applied (o->cases when all were, or when the run stopped).  A worker that dies
 * fills *d with the case it died in. */
static uint64_t run_workers(td_cli *cli, td_ctx *cx, const td_kernel *kern, const run_opts *o, run_state *s,
                            uint64_t from, int jobs, int *status, run_death *d) {
    pid_t *pid = calloc((size_t)jobs, sizeof *pid);
    int *fd = calloc((size_t)jobs, sizeof *fd);
    size_t shn = (size_t)jobs * sizeof(run_shared);
    run_shared *sh = mmap(NULL, shn, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int n = pid && fd && sh != MAP_FAILED ? run_start(cx, kern, o, from, jobs, pid, fd, sh) : 0;
    if (!n)
        fprintf(stderr, "tilediff %s: cannot start a worker process (%s); the cases run in this process, where a "
                        "crash of the kernel ends tilediff\n", cli->cmd, strerror(errno));
    uint64_t i = from;
    for (; n && i < o->cases; i++) {
        int w = (int)((i - from) % (uint64_t)n);
        run_out c;
        char *text;
        if (run_recv(fd[w], &c, &text) != 0) { /* worker w died during case i */
            close(fd[w]); /* (a worker still writing, when its report was unreadable, gets EPIPE) */
            fd[w] = -1;
            int st = 0;
            while (waitpid(pid[w], &st, 0) < 0 && errno == EINTR) {}
            pid[w] = 0;
            *d = (run_death){.dead = 1, .status = st, .in_kernel = sh[w].in_kernel, .at = i};
            break;
        }
        int stop = run_apply(cli, kern, o, s, i, &c, text, status);
        free(text);
        if (stop) {
            i = o->cases;
            break;
        }
    }
    if (n) run_stop(n, pid, fd);
    if (sh != MAP_FAILED) munmap(sh, shn);
    free(pid);
    free(fd);
    return i;
}

/* Case d->at ended its worker.  A death inside the kernel's launch is the kernel's
 * finding: a crash (signal, or an exit: a sanitizer's report), or a hang (its watchdog);
 * anywhere else it is tilediff's own failure (exit 3).  The finding is reported like
 * any other, with the case written as its reproducer.  Returns 1 when this kernel's
 * run stops: after a hang (every later case would wait out --timeout too) or an
 * internal error. */
static int run_died(td_cli *cli, const td_kernel *kern, const run_opts *o, run_state *s, const run_death *d,
                    int *status) {
    int hang = WIFEXITED(d->status) && WEXITSTATUS(d->status) == TD_WATCHDOG_EXIT;
    char how[200];
    if (hang) snprintf(how, sizeof how, "the kernel made no progress for %us (--timeout)", o->timeout);
    else if (WIFSIGNALED(d->status))
        snprintf(how, sizeof how, "the process died of signal %d (%s)", WTERMSIG(d->status), strsignal(WTERMSIG(d->status)));
    else
        snprintf(how, sizeof how, "the process exited with status %d (a sanitizer's report, or an exit() call)",
                 WIFEXITED(d->status) ? WEXITSTATUS(d->status) : -1);
    if (!d->in_kernel) {
        fprintf(stderr, "tilediff %s: %s: internal error on case %" PRIu64 ": %s outside the kernel's launch\n", cli->cmd,
                kern->k->id, d->at, how);
        *status = TD_EXIT_INTERNAL;
        return 1;
    }
    td_case_result r;
    memset(&r, 0, sizeof r);
    r.finding = 1;
    r.worst = hang ? TD_VC_HANG : TD_VC_CRASH;
    snprintf(r.desc, sizeof r.desc, "case %" PRIu64 " of seed %" PRIu64 " (the reproducer replays it)", d->at, o->seed);
    snprintf(r.msg, sizeof r.msg, "%s: %s during case %" PRIu64, hang ? "hang" : "crash", how, d->at);
    r.st.cases = r.st.cases_with_finding = r.st.findings[r.worst] = 1;
    run_out c = {.rc = TD_RUN_FINDING, .st = r.st, .key = {.cls = r.worst, .rel = -1}};
    snprintf(c.msg, sizeof c.msg, "%s", r.msg);
    uint8_t b[64];
    td_campaign_case_bytes(kern->k, o->seed, d->at, b, sizeof b);
    if (o->artifacts && td_artifact_write(o->artifacts, kern, b, sizeof b, c.path, sizeof c.path) != 0)
        c.path[0] = 0, c.art_failed = 1;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        if (o->json) td_report_json(f, kern, &r, c.path[0] ? c.path : NULL);
        else td_report_text(f, kern, &r);
        fclose(f);
    }
    run_apply(cli, kern, o, s, d->at, &c, text, status);
    free(text);
    if (hang && !o->json) printf("  %s [%s]: the run stops at its hang (later cases would wait out --timeout too)\n",
                                 kern->k->id, kern->abi->variant);
    return hang;
}

/* Runs one kernel over `cases` random cases; returns the worst exit status. */
static int run_kernel(td_cli *cli, td_ctx *cx, const td_kernel *kern, const run_opts *o, td_stats *tot) {
    int status = TD_EXIT_OK;
    run_state *s = calloc(1, sizeof *s);
    if (!s) return TD_EXIT_INTERNAL;
    for (uint64_t from = 0; from < o->cases;) {
        uint64_t left = o->cases - from;
        int jobs = (uint64_t)o->jobs < left ? o->jobs : (int)left;
        run_death d = {0};
        uint64_t next = run_workers(cli, cx, kern, o, s, from, jobs, &status, &d);
        if (!d.dead) { /* all applied, or stopped; or no worker started: the rest here */
            run_here(cli, cx, kern, o, s, next, &status);
            break;
        }
        if (run_died(cli, kern, o, s, &d, &status)) break;
        from = d.at + 1;
    }
    if (o->json) summary_json(cli, kern, s);
    else summary_text(cli, kern, s);
    if (tot) td_stats_merge(tot, &s->st);
    free(s);
    fflush(stdout);
    return status;
}

typedef struct run_args {
    td_cli cli;
    run_opts o;
    const char *pattern;
    const char *lane_dump; /* --lane-dump FILE */
    int all_variants;
} run_args;

static int run_bad(const char *opt, const char *what, const char *v) {
    fprintf(stderr, "tilediff run: %s needs %s, not '%s'\n", opt, what, v);
    return TD_EXIT_USAGE;
}

static int run_takes_value(const char *a) {
    static const char *const v[] = {"--backend", "--kernel",  "--kernels",  "--artifacts",
                                    "--cases",   "--seed",    "--timeout", "--lane-dump", "--against",
                                    "--jobs"};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!strcmp(a, v[i])) return 1;
    return 0;
}

/* An option of run_takes_value with its value; 0 or an exit status. */
static int parse_run_value(run_args *r, const char *a, const char *v) {
    uint64_t t;
    if (!strcmp(a, "--backend")) return td_cli_backend(&r->cli, v) ? TD_EXIT_USAGE : 0;
    if (!strcmp(a, "--against")) return td_cli_against(&r->cli, v) ? TD_EXIT_USAGE : 0;
    if (!strcmp(a, "--kernel")) r->cli.variant = v;
    else if (!strcmp(a, "--kernels")) r->cli.kernels = v;
    else if (!strcmp(a, "--artifacts")) r->o.artifacts = v;
    else if (!strcmp(a, "--lane-dump")) r->lane_dump = v;
    else if (!strcmp(a, "--jobs")) return td_jobs_parse("run", v, &r->o.jobs) ? TD_EXIT_USAGE : 0;
    else if (!strcmp(a, "--cases")) return td_parse_u64(v, &r->o.cases) ? run_bad(a, "a non-negative integer", v) : 0;
    else if (!strcmp(a, "--seed")) return td_parse_u64(v, &r->o.seed) ? run_bad(a, "a non-negative integer", v) : 0;
    else if (!strcmp(a, "--timeout")) {
        if (td_parse_u64(v, &t) || t > 86400) return run_bad(a, "seconds", v);
        r->o.timeout = (unsigned)t;
    }
    return 0;
}

/* The options without a value; 0 when `a` is none of them. */
static int parse_run_flag(run_args *r, const char *a) {
    if (!strcmp(a, "--no-artifacts")) r->o.artifacts = NULL;
    else if (!strcmp(a, "--json")) r->o.json = 1;
    else if (!strcmp(a, "--mpfr-all")) r->o.mpfr_all = 1;
    else if (!strcmp(a, "--all-variants")) r->all_variants = 1;
    else if (!strcmp(a, "--quiet")) r->o.quiet = 1;
    else if (!strcmp(a, "--strict")) r->o.strict = 1;
    else if (!strcmp(a, "--large")) r->o.large = 1;
    else return 0;
    return 1;
}

/* Returns 0, or the exit status of a usage error (with its message printed). */
static int parse_run(int argc, char **argv, run_args *r) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (parse_run_flag(r, a)) continue;
        if (run_takes_value(a)) {
            if (i + 1 >= argc) {
                fprintf(stderr, "tilediff run: %s needs a value\n", a);
                return TD_EXIT_USAGE;
            }
            int rc = parse_run_value(r, a, argv[++i]);
            if (rc) return rc;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "tilediff run: unknown option '%s'\n", a);
            return TD_EXIT_USAGE;
        } else if (!r->pattern)
            r->pattern = a;
        else {
            fprintf(stderr, "tilediff run: one CONTRACT (or glob) only; '%s' is extra\n", a);
            return TD_EXIT_USAGE;
        }
    }
    if (!r->pattern) {
        fprintf(stderr, "usage: tilediff run CONTRACT|GLOB [options]   (tilediff run --help lists them)\n");
        return TD_EXIT_USAGE;
    }
    return 0;
}

/* Runs every kernel the pattern selects; returns the worst exit status. */
static int run_matched(run_args *r, td_ctx *cx, int matched, td_stats *tot, int *ran) {
    int status = TD_EXIT_OK;
    for (int i = 0; i < td_contract_count() && status != TD_EXIT_INTERNAL; i++) {
        const td_contract *k = td_contract_at(i);
        if (!td_match(r->pattern, k->id)) continue;
        for (int j = 0; r->all_variants && j < r->cli.set.n; j++) {
            const td_kernel *kern = &r->cli.set.kernels[j];
            if (strcmp(kern->k->id, k->id) || (int)kern->abi->backend != r->cli.backend) continue;
            if (!(kern = td_cli_as(&r->cli, kern, 0))) return TD_EXIT_USAGE;
            int s = run_kernel(&r->cli, cx, kern, &r->o, tot);
            if (s > status) status = s;
            (*ran)++;
        }
        if (r->all_variants) continue;
        const td_kernel *kern = td_cli_kernel(&r->cli, k, matched > 1);
        if (!kern) {
            if (matched > 1) printf("%s: not implemented by this kernel library (not covered)\n", k->id);
            else status = TD_EXIT_USAGE;
            continue;
        }
        int s = run_kernel(&r->cli, cx, kern, &r->o, tot);
        if (s > status) status = s;
        (*ran)++;
    }
    return status;
}

int td_cmd_run(int argc, char **argv) {
    run_args r = {.cli = {.cmd = "run", .backend = TD_ABI_HOST},
                  .o = {.cases = 200, .seed = 1, .max_print = 3, .artifacts = "tilediff-artifacts",
                        .jobs = td_jobs_default()}};
    int rc = parse_run(argc, argv, &r);
    if (rc) return rc;
    int matched = 0;
    for (int i = 0; i < td_contract_count(); i++) matched += td_match(r.pattern, td_contract_at(i)->id);
    if (!matched) {
        fprintf(stderr, "tilediff run: unknown contract '%s' (tilediff list shows the contracts)\n", r.pattern);
        return TD_EXIT_USAGE;
    }
    if ((rc = td_cli_open(&r.cli))) return rc;
    if (r.o.large && (rc = td_cli_large_statement(&r.cli, r.pattern))) {
        td_cli_close(&r.cli);
        return rc;
    }
    td_ctx_opts co = {.mpfr_all = r.o.mpfr_all, .large = r.o.large};
    FILE *dump = NULL;
    if (r.lane_dump && !(dump = fopen(r.lane_dump, "w"))) {
        fprintf(stderr, "tilediff run: --lane-dump %s: %s\n", r.lane_dump, strerror(errno));
        td_cli_close(&r.cli);
        return TD_EXIT_USAGE;
    }
    td_ctx *cx = td_cli_ctx(&r.cli, &co);
    if (!cx) {
        if (dump) fclose(dump);
        td_cli_close(&r.cli);
        return TD_EXIT_INTERNAL;
    }
    if (dump) td_ctx_set_lane_observer(cx, dump_lane, dump);
    if (dump) r.o.jobs = 1; /* the dump is one file, written lane by lane in case order */
    int ran = 0;
    td_stats tot;
    memset(&tot, 0, sizeof tot);
    int status = run_matched(&r, cx, matched, &tot, &ran);
    char total_et[64];
    td_errtol_str(tot.worst_err_over_tol, NAN, total_et, sizeof total_et);
    if (ran > 1 && !r.o.json)
        printf("total: %d kernels, %" PRIu64 " cases, %" PRIu64 " lanes, %" PRIu64 " disagreeing cases, worst err/tol %s\n",
               ran, tot.cases, tot.lanes, tot.cases_with_finding, total_et);
    td_ctx_free(cx);
    td_cli_close(&r.cli);
    if (dump && fclose(dump) != 0) {
        fprintf(stderr, "tilediff run: --lane-dump %s: %s\n", r.lane_dump, strerror(errno));
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
    return td_cli_as(cli, kern, 0);
}

typedef struct repro_args {
    td_cli cli;
    const char *contract; /* --contract: for raw inputs, and overrides an artifact's */
    const char *emit_py;  /* --emit-python SCRIPT.py */
    int json, mpfr_all, backend_given;
    const char *files[4096];
    int nfiles;
} repro_args;

/* The option at argv[*i] (advancing past its value); 0, or an exit status. */
static int parse_repro_opt(repro_args *r, int argc, char **argv, int *i) {
    const char *a = argv[*i];
    if (!strcmp(a, "--json")) r->json = 1;
    else if (!strcmp(a, "--mpfr-all")) r->mpfr_all = 1;
    else if (strcmp(a, "--backend") && strcmp(a, "--kernel") && strcmp(a, "--kernels") && strcmp(a, "--contract") &&
             strcmp(a, "--emit-python") && strcmp(a, "--against")) {
        fprintf(stderr, "tilediff repro: unknown option '%s'\n", a);
        return TD_EXIT_USAGE;
    } else if (*i + 1 >= argc) {
        fprintf(stderr, "tilediff repro: %s needs a value\n", a);
        return TD_EXIT_USAGE;
    } else {
        const char *v = argv[++*i];
        if (!strcmp(a, "--backend")) {
            if (td_cli_backend(&r->cli, v)) return TD_EXIT_USAGE;
            r->backend_given = 1;
        } else if (!strcmp(a, "--against")) {
            if (td_cli_against(&r->cli, v)) return TD_EXIT_USAGE;
        } else if (!strcmp(a, "--kernel")) r->cli.variant = v;
        else if (!strcmp(a, "--kernels")) r->cli.kernels = v;
        else if (!strcmp(a, "--emit-python")) r->emit_py = v;
        else r->contract = v;
    }
    return 0;
}

static int parse_repro(int argc, char **argv, repro_args *r) {
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1]) {
            int rc = parse_repro_opt(r, argc, argv, &i);
            if (rc) return rc;
        } else if (r->nfiles < 4096)
            r->files[r->nfiles++] = argv[i];
    }
    if (!r->nfiles) {
        fprintf(stderr, "usage: tilediff repro FILE... [options]   (tilediff repro --help lists them)\n");
        return TD_EXIT_USAGE;
    }
    if (r->contract && !td_contract_find(r->contract)) {
        fprintf(stderr, "tilediff repro: unknown contract '%s' (tilediff list shows the contracts)\n", r->contract);
        return TD_EXIT_USAGE;
    }
    return 0;
}

/* The kernel that replays `file` (its header or --contract names the contract); NULL
 * with a message when there is none. */
static const td_kernel *repro_target(repro_args *r, const char *file, const char *hc, const char *hv, int hb) {
    if (hc[0] && !r->backend_given && hb != r->cli.backend)
        fprintf(stderr, "tilediff repro: %s was found on the %s backend; replaying on %s\n", file,
                hb == TD_ABI_CUDA ? "cuda" : "host", r->cli.backend == TD_ABI_CUDA ? "cuda" : "host");
    const char *cid = r->contract ? r->contract : (hc[0] ? hc : NULL);
    if (!cid) {
        fprintf(stderr, "tilediff repro: %s: a raw fuzz input names no contract: pass --contract C\n", file);
        return NULL;
    }
    const td_contract *k = td_contract_find(cid);
    if (!k) {
        fprintf(stderr, "tilediff repro: %s: unknown contract '%s'\n", file, cid);
        return NULL;
    }
    return repro_kernel(&r->cli, k, r->contract ? "" : hv);
}

/* Replays one file; returns its exit status. */
static int repro_file(repro_args *r, td_ctx *cx, const char *file) {
    uint8_t *data;
    size_t size;
    char hc[512], hv[256], err[1024];
    int hb;
    if (td_artifact_read(file, &data, &size, hc, sizeof hc, hv, sizeof hv, &hb, err, sizeof err) != 0) {
        fprintf(stderr, "tilediff repro: %s\n", err);
        return TD_EXIT_USAGE;
    }
    const td_kernel *kern = repro_target(r, file, hc, hv, hb);
    if (!kern) {
        free(data);
        return TD_EXIT_USAGE;
    }
    td_case_result res;
    int x = td_run_bytes(cx, kern, data, size, &res);
    if (x == TD_RUN_HARNESS_ERROR) fprintf(stderr, "tilediff repro: %s: internal error: %s\n", file, res.msg);
    else if (r->json) td_report_json(stdout, kern, &res, file);
    else if (x == TD_RUN_FINDING || res.nrep) {
        printf("%s:\n", file);
        td_report_text(stdout, kern, &res);
    } else
        printf("%s: %s [%s]: no disagreement (%" PRIu64 " lanes, worst err/tol %.3g)\n", file, kern->k->id,
               kern->abi->variant, res.st.lanes, res.st.worst_err_over_tol);
    int bad = 0;
    if (r->emit_py && x != TD_RUN_HARNESS_ERROR) {
        if (td_emit_python(r->emit_py, kern, data, size, &res, err, sizeof err) != 0) {
            fprintf(stderr, "tilediff repro: --emit-python: %s\n", err);
            bad = 1;
        } else
            fprintf(stderr, "tilediff repro: wrote %s (python3 %s replays the case)\n", r->emit_py, r->emit_py);
    }
    td_result_free(&res);
    free(data);
    fflush(stdout);
    return x == TD_RUN_HARNESS_ERROR ? TD_EXIT_INTERNAL
           : bad                     ? TD_EXIT_USAGE
           : x == TD_RUN_FINDING     ? TD_EXIT_FINDING
                                     : TD_EXIT_OK;
}

int td_cmd_repro(int argc, char **argv) {
    static repro_args r; /* 32 KiB of file names: not on the stack */
    memset(&r, 0, sizeof r);
    r.cli = (td_cli){.cmd = "repro", .backend = TD_ABI_HOST};
    int rc = parse_repro(argc, argv, &r);
    if (rc || (rc = td_cli_open(&r.cli))) return rc;
    td_ctx_opts co = {.mpfr_all = r.mpfr_all, .large = 1}; /* a reproducer of the large tier replays as it is */
    td_ctx *cx = td_cli_ctx(&r.cli, &co);
    if (!cx) {
        td_cli_close(&r.cli);
        return TD_EXIT_INTERNAL;
    }
    /* every file is replayed; the status is the gravest: internal, bad input, finding */
    int internal = 0, bad_input = 0, findings = 0;
    for (int f = 0; f < r.nfiles; f++) {
        int s = repro_file(&r, cx, r.files[f]);
        internal |= s == TD_EXIT_INTERNAL;
        bad_input |= s == TD_EXIT_USAGE;
        findings |= s == TD_EXIT_FINDING;
    }
    td_ctx_free(cx);
    td_cli_close(&r.cli);
    return internal ? TD_EXIT_INTERNAL : bad_input ? TD_EXIT_USAGE : findings ? TD_EXIT_FINDING : TD_EXIT_OK;
}

typedef struct explain_args {
    td_cli cli;
    const char *contract, *file;
    long lane; /* -1: the first bad lane, else 0 */
    int full;
} explain_args;

/* The option at argv[*i] (advancing past its value); 0, or an exit status. */
static int parse_explain_opt(explain_args *e, int argc, char **argv, int *i) {
    const char *a = argv[*i];
    if (!strcmp(a, "--full")) {
        e->full = 1;
        return 0;
    }
    if (strcmp(a, "--lane") && strcmp(a, "--backend") && strcmp(a, "--kernel") && strcmp(a, "--kernels")) {
        fprintf(stderr, "tilediff explain: unknown option '%s'\n", a);
        return TD_EXIT_USAGE;
    }
    if (*i + 1 >= argc) {
        fprintf(stderr, "tilediff explain: %s needs a value\n", a);
        return TD_EXIT_USAGE;
    }
    const char *v = argv[++*i];
    uint64_t l;
    if (!strcmp(a, "--backend")) return td_cli_backend(&e->cli, v) ? TD_EXIT_USAGE : 0;
    if (!strcmp(a, "--kernel")) e->cli.variant = v;
    else if (!strcmp(a, "--kernels")) e->cli.kernels = v;
    else if (td_parse_u64(v, &l) || l > (uint64_t)LONG_MAX) {
        fprintf(stderr, "tilediff explain: --lane needs a lane index, not '%s'\n", v);
        return TD_EXIT_USAGE;
    } else
        e->lane = (long)l;
    return 0;
}

static int parse_explain(int argc, char **argv, explain_args *e) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && a[1]) {
            int rc = parse_explain_opt(e, argc, argv, &i);
            if (rc) return rc;
        } else if (!e->contract)
            e->contract = a;
        else if (!e->file)
            e->file = a;
        else {
            fprintf(stderr, "tilediff explain: unexpected argument '%s'\n", a);
            return TD_EXIT_USAGE;
        }
    }
    if (!e->contract || !e->file) {
        fprintf(stderr, "usage: tilediff explain CONTRACT FILE [options]   (tilediff explain --help lists them)\n");
        return TD_EXIT_USAGE;
    }
    if (!td_contract_find(e->contract)) {
        fprintf(stderr, "tilediff explain: unknown contract '%s' (tilediff list shows the contracts)\n", e->contract);
        return TD_EXIT_USAGE;
    }
    return 0;
}

/* Explains the case in `data` with the library open; returns the exit status. */
static int explain_open(explain_args *e, const uint8_t *data, size_t size, const char *hv) {
    const td_kernel *kern = repro_kernel(&e->cli, td_contract_find(e->contract), hv);
    if (!kern) return TD_EXIT_USAGE;
    td_ctx_opts co = {.explain_full = e->full};
    td_ctx *cx = td_cli_ctx(&e->cli, &co);
    int x = cx ? td_explain(cx, kern, data, size, e->lane, stdout) : TD_RUN_HARNESS_ERROR;
    td_ctx_free(cx);
    return x == TD_RUN_HARNESS_ERROR ? TD_EXIT_INTERNAL : x == TD_RUN_USAGE ? TD_EXIT_USAGE
           : x == TD_RUN_FINDING     ? TD_EXIT_FINDING
                                     : TD_EXIT_OK;
}

int td_cmd_explain(int argc, char **argv) {
    explain_args e = {.cli = {.cmd = "explain", .backend = TD_ABI_HOST}, .lane = -1};
    int rc = parse_explain(argc, argv, &e);
    if (rc) return rc;
    uint8_t *data;
    size_t size;
    char hc[512], hv[256], err[1024];
    int hb;
    if (td_artifact_read(e.file, &data, &size, hc, sizeof hc, hv, sizeof hv, &hb, err, sizeof err) != 0) {
        fprintf(stderr, "tilediff explain: %s\n", err);
        return TD_EXIT_USAGE;
    }
    if (hc[0] && strcmp(hc, e.contract)) {
        fprintf(stderr, "tilediff explain: %s is a reproducer of %s, not of %s\n", e.file, hc, e.contract);
        rc = TD_EXIT_USAGE;
    } else if (!(rc = td_cli_open(&e.cli))) {
        rc = explain_open(&e, data, size, hv);
        td_cli_close(&e.cli);
    }
    free(data);
    return rc;
}
