/* tilediff diff --kernels OLD --kernels NEW: two versions of a kernel library on the
 * same cases (same seed, same bytes, so the same decoded inputs), compared lane by lane.
 *
 * Per contract: the verdict of each version, the lanes whose value changed bit for
 * bit and whether each moved closer to or farther from the exact reference, the
 * err/tol quantiles of both, an accuracy regression by the paired test of
 * engine/accuracy.h (cases as the unit; per case the mean err/tol over its changed
 * lanes), and the findings NEW makes that OLD does not make on the same case, with a
 * reproducer and the commands that replay it against either version.  Each contract
 * runs in a child process, so a kernel that crashes or hangs is a finding of the
 * version that did it, not the end of the run. */
#include <errno.h>
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

#include "accuracy.h"
#include "campaign.h"
#include "certify.h"
#include "common.h"
#include "diff.h"

void td_regress_defaults(td_regress_opts *o) {
    o->alpha = TD_REGRESS_ALPHA;
    o->min_growth = TD_REGRESS_MIN_GROWTH;
}

int td_regress_arg(const char *cmd, int argc, char **argv, int *i, td_regress_opts *o) {
    const char *a = argv[*i];
    int alpha = !strcmp(a, "--alpha"), growth = !strcmp(a, "--min-growth");
    if (!alpha && !growth) return 0;
    double v;
    if (*i + 1 >= argc || td_parse_double(argv[*i + 1], &v) || (alpha && !(v > 0 && v < 1)) ||
        (growth && !(v >= 1 && isfinite(v)))) {
        fprintf(stderr, "tilediff %s: %s needs %s\n", cmd, a,
                alpha ? "a significance level in (0, 1)" : "a growth factor >= 1 (1.25: 25 % larger err/tol)");
        return -1;
    }
    if (alpha) o->alpha = v;
    else o->min_growth = v;
    (*i)++;
    return 1;
}

/* ---- one contract, in the child ---- */

typedef struct lane_rec {
    uint64_t gen; /* the case that recorded it: a lane OLD never reached in this case is not compared */
    uint64_t bits;
    double got, err, eot;
    int checked;
} lane_rec;

typedef struct side_acc {
    td_stats st;
    td_qsketch q;
} side_acc;

typedef struct dstate {
    int pass; /* 0: OLD runs (lanes recorded), 1: NEW runs (lanes compared), -1: nothing observed */
    int same_ref;
    lane_rec *rec;
    size_t cap;
    int oom;
    uint64_t gen;
    double case_old, case_new; /* sums of err/tol over this case's changed lanes */
    uint64_t case_changed;
    uint64_t compared, changed, closer, farther, equal;
    side_acc side[2];
} dstate;

static void observe(void *user, const td_lane_obs *o) {
    dstate *s = user;
    if (s->pass < 0) return;
    if (o->checked) td_qs_add(&s->side[s->pass].q, o->err_over_tol);
    if (s->pass == 0) {
        if (o->index >= s->cap) {
            size_t cap = s->cap ? 2 * s->cap : 1024;
            while (cap <= o->index) cap *= 2;
            lane_rec *r = realloc(s->rec, cap * sizeof *r);
            if (!r) {
                s->oom = 1;
                return;
            }
            s->rec = r;
            s->cap = cap;
        }
        s->rec[o->index] = (lane_rec){s->gen, o->got_bits, o->got, o->err, o->err_over_tol, o->checked};
        return;
    }
    if (o->index >= s->cap || s->rec[o->index].gen != s->gen) return; /* OLD's launch failed */
    const lane_rec *r = &s->rec[o->index];
    s->compared++;
    if (r->bits == o->got_bits) return;
    s->changed++;
    /* with the same cast profiles both versions have one reference: ask it which value
     * is closer (exactly, see td_lane_obs_closer); else each version's own error */
    int c = s->same_ref ? td_lane_obs_closer(o, r->got, o->got)
                        : (r->err < o->err ? -1 : r->err > o->err ? 1 : 0);
    if (c < 0) s->farther++;
    else if (c > 0) s->closer++;
    else s->equal++;
    if (r->checked && o->checked && isfinite(r->eot) && isfinite(o->err_over_tol)) {
        s->case_old += r->eot;
        s->case_new += o->err_over_tol;
        s->case_changed++;
    }
}

typedef struct nfind {
    td_fkey key;
    uint64_t count, first_case;
    uint8_t bytes[64];
} nfind;

typedef struct dresult {
    dstate s;
    td_scores sc_old, sc_new;
    uint64_t cases, digest;
    nfind nf[16];
    int nnf;
    uint64_t fixed_cases; /* cases where OLD made a finding and NEW none */
    int harness_error;
    char msg[600];
    double seconds;
} dresult;

typedef struct progress {
    volatile uint64_t case_index;
    volatile int side;
} progress;

static int same_casts(const td_kernel *a, const td_kernel *b) {
    for (int i = 0; i < a->k->ncasts; i++) {
        td_profile x = a->casts[i], y = b->casts[i];
        if (x.fmt != y.fmt || x.rnd != y.rnd || x.ovf != y.ovf || x.ftz != y.ftz) return 0;
    }
    return 1;
}

static int same_key(td_fkey a, td_fkey b) { return a.cls == b.cls && a.region == b.region && a.lc == b.lc; }

/* NEW's finding on this case, unless OLD makes the same one on it */
static void note_findings(dresult *d, const td_kernel *knew, const uint8_t *b, uint64_t i, const td_case_result *ro,
                          const td_case_result *rn) {
    if (ro->finding && !rn->finding) d->fixed_cases++;
    td_fkey kn, ko;
    if (!rn->finding || td_finding_key(knew, b, 64, rn, &kn) != 0) return;
    if (ro->finding && td_finding_key(knew, b, 64, ro, &ko) == 0 && same_key(ko, kn)) return;
    for (int k = 0; k < d->nnf; k++)
        if (same_key(d->nf[k].key, kn)) {
            d->nf[k].count++;
            return;
        }
    if (d->nnf == (int)(sizeof d->nf / sizeof d->nf[0])) return;
    nfind *f = &d->nf[d->nnf++];
    f->key = kn;
    f->count = 1;
    f->first_case = i;
    memcpy(f->bytes, b, 64);
}

/* Runs one case on both versions; 0, or -1 on a harness error (message in d->msg). */
static int diff_case(td_ctx *cx, const td_kernel *ko, const td_kernel *kn, uint64_t seed, uint64_t i, dresult *d,
                     progress *pg) {
    uint8_t b[64];
    td_campaign_case_bytes(ko->k, seed, i, b, sizeof b);
    td_case_result ro, rn;
    dstate *s = &d->s;
    s->case_old = s->case_new = 0;
    s->case_changed = 0;
    s->gen = i + 1;
    s->pass = 0;
    if (pg) pg->side = 0;
    int xo = td_run_bytes(cx, ko, b, sizeof b, &ro);
    s->pass = 1;
    if (pg) pg->side = 1;
    int xn = xo == TD_RUN_HARNESS_ERROR ? TD_RUN_HARNESS_ERROR : td_run_bytes(cx, kn, b, sizeof b, &rn);
    s->pass = -1;
    int rc = 0;
    int differ = xo != TD_RUN_HARNESS_ERROR && xn != TD_RUN_HARNESS_ERROR && ro.case_digest != rn.case_digest;
    if (xo == TD_RUN_HARNESS_ERROR || xn == TD_RUN_HARNESS_ERROR || s->oom || differ) {
        snprintf(d->msg, sizeof d->msg, "case %" PRIu64 ": %.500s", i,
                 s->oom                     ? "out of memory"
                 : differ                   ? "harness bug: the same bytes decoded to different cases"
                 : xo == TD_RUN_HARNESS_ERROR ? ro.msg
                                              : rn.msg);
        rc = -1;
    } else {
        d->cases++;
        for (int k = 0; k < 8; k++) d->digest = (d->digest ^ ((ro.case_digest >> (8 * k)) & 0xff)) * 0x100000001b3ull;
        td_stats_merge(&s->side[0].st, &ro.st);
        td_stats_merge(&s->side[1].st, &rn.st);
        if (s->case_changed) {
            td_scores_push(&d->sc_old, s->case_old / (double)s->case_changed);
            td_scores_push(&d->sc_new, s->case_new / (double)s->case_changed);
        }
        note_findings(d, kn, b, i, &ro, &rn);
    }
    td_result_free(&ro);
    if (xo != TD_RUN_HARNESS_ERROR) td_result_free(&rn);
    return rc;
}

typedef struct dconf {
    const td_kernel *k[2];
    uint64_t seed, max_cases;
    double seconds;
    const char *outdir;
    const char *lib[2];  /* absolute paths for the repro commands (NULL: built-in) */
    td_regress_opts ro;
} dconf;

static void side_json(FILE *f, const td_kernel *kern, const side_acc *a, uint64_t cases) {
    fprintf(f, "{\"kernel\":");
    td_json_escape(f, kern->abi->variant);
    fprintf(f, ",\"library\":");
    td_json_escape(f, kern->library ? kern->library : "?");
    fprintf(f, ",\"declares\":");
    td_json_escape(f, kern->decl.text);
    fprintf(f, ",\"status\":\"%s\",\"cases\":%" PRIu64 ",\"lanes\":%" PRIu64 ",\"disagreements\":%" PRIu64
               ",\"warns\":%" PRIu64 ",\"lanes_checked\":%" PRIu64 ",",
            a->st.cases_with_finding ? "failed" : "passed", cases, a->st.lanes, a->st.cases_with_finding,
            a->st.lanes_warn, a->q.n);
    td_qs_json(f, &a->q);
    fputc('}', f);
}

static void repro_cmd(FILE *f, const char *lib, const char *variant, const char *abs) {
    char cmd[10000];
    snprintf(cmd, sizeof cmd, "tilediff repro %s%s%s--kernel %s %s", lib ? "--kernels " : "", lib ? lib : "",
             lib ? " " : "", variant, abs);
    td_json_escape(f, cmd);
}

/* One new finding: minimised on NEW, saved, replayed on both versions. */
static void finding_json(FILE *f, td_ctx *cx, const dconf *cf, const nfind *x) {
    const td_kernel *kn = cf->k[1], *ko = cf->k[0];
    uint8_t *m = NULL;
    size_t mn = 0;
    if (td_minimize(cx, kn, x->bytes, 64, &m, &mn, 400) != 0) {
        m = malloc(64);
        if (m) memcpy(m, x->bytes, 64);
        mn = m ? 64 : 0;
    }
    char adir[4200], path[4400] = "", abs[4400] = "";
    snprintf(adir, sizeof adir, "%s/artifacts", cf->outdir);
    int saved = m && td_artifact_write(adir, kn, m, mn, path, sizeof path) == 0;
    if (saved && !realpath(path, abs)) snprintf(abs, sizeof abs, "%s", path);
    td_case_result rn, ro;
    int xn = m ? td_run_bytes(cx, kn, m, mn, &rn) : TD_RUN_HARNESS_ERROR;
    int xo = m ? td_run_bytes(cx, ko, m, mn, &ro) : TD_RUN_HARNESS_ERROR;
    fprintf(f, "{\"class\":\"%s\",\"region\":", td_vclass_name(x->key.cls));
    td_json_escape(f, kn->k->regions[x->key.region].name);
    fprintf(f, ",\"lane_class\":\"%s\",\"count\":%" PRIu64 ",\"first_case\":%" PRIu64 ",\"reproducer\":",
            td_lclass_name(x->key.lc), x->count, x->first_case);
    const char *base = strrchr(path, '/');
    char rel[4400];
    snprintf(rel, sizeof rel, "artifacts/%.4000s", base ? base + 1 : path);
    td_json_escape(f, saved ? rel : "");
    fputs(",\"repro_new\":", f);
    repro_cmd(f, cf->lib[1], kn->abi->variant, abs);
    fputs(",\"repro_old\":", f);
    repro_cmd(f, cf->lib[0], ko->abi->variant, abs);
    char line[1400];
    snprintf(line, sizeof line, "%s: %.1200s",
             xn == TD_RUN_FINDING && rn.nrep ? td_vclass_name(rn.rep[0].cls) : xn == TD_RUN_OK ? "pass" : "error",
             xn != TD_RUN_HARNESS_ERROR ? rn.desc : "");
    fputs(",\"new_on_reproducer\":", f);
    td_json_escape(f, line);
    fputs(",\"old_on_reproducer\":", f);
    td_json_escape(f, xo == TD_RUN_FINDING && ro.nrep ? td_vclass_name(ro.rep[0].cls)
                      : xo == TD_RUN_OK                ? "pass"
                                                       : "error");
    fputc('}', f);
    if (xn != TD_RUN_HARNESS_ERROR) td_result_free(&rn);
    if (xo != TD_RUN_HARNESS_ERROR) td_result_free(&ro);
    free(m);
}

/* The contract's overall change, most serious first. */
static const char *change_of(const dresult *d, const td_paired *p) {
    int fo = d->s.side[0].st.cases_with_finding > 0, fn = d->s.side[1].st.cases_with_finding > 0;
    if (d->harness_error) return "harness-error";
    if (!fo && fn) return "verdict-change";
    if (fo && !fn) return "fixed";
    if (d->nnf) return "new-findings";
    if (p->regression) return "regression";
    if (d->s.changed) return "bits-changed";
    return "unchanged";
}

static void paired_json(FILE *f, const td_paired *p, const char *score) {
    fprintf(f, "{\"unit\":\"case\",\"score\":\"%s\",\"pairs\":%" PRIu64 ",\"used\":%" PRIu64 ",\"worse\":%" PRIu64
               ",\"better\":%" PRIu64 ",\"w_plus\":",
            score, p->pairs, p->used, p->worse, p->better);
    td_acc_jnum(f, p->w_plus, 0);
    fputs(",\"p\":", f);
    td_acc_jnum(f, p->p, 1);
    fprintf(f, ",\"exact\":%s,\"growth\":", p->exact ? "true" : "false");
    td_acc_jnum(f, p->growth, 1);
    fputs(",\"alpha\":", f);
    td_acc_jnum(f, p->alpha, 1);
    fputs(",\"min_growth\":", f);
    td_acc_jnum(f, p->min_growth, 1);
    fprintf(f, ",\"regression\":%s}", p->regression ? "true" : "false");
}

static void contract_json(FILE *f, td_ctx *cx, const dconf *cf, dresult *d) {
    const td_contract *k = cf->k[0]->k;
    td_paired p;
    td_paired_test(d->sc_old.v, d->sc_new.v, d->sc_old.n, cf->ro.alpha, cf->ro.min_growth, &p);
    fprintf(f, "{\"id\":");
    td_json_escape(f, k->id);
    fprintf(f, ",\"family\":");
    td_json_escape(f, k->family);
    fprintf(f, ",\"change\":\"%s\",\"cases\":%" PRIu64 ",\"cases_digest\":\"%016" PRIx64 "\",\"seconds\":%.3f,\"old\":",
            change_of(d, &p), d->cases, d->digest, d->seconds);
    side_json(f, cf->k[0], &d->s.side[0], d->cases);
    fputs(",\"new\":", f);
    side_json(f, cf->k[1], &d->s.side[1], d->cases);
    int fo = d->s.side[0].st.cases_with_finding > 0, fn = d->s.side[1].st.cases_with_finding > 0;
    fprintf(f, ",\"verdict_change\":");
    if (fo != fn) fprintf(f, "\"%s\"", fn ? "passed -> failed" : "failed -> passed");
    else fputs("null", f);
    fprintf(f, ",\"same_reference\":%s,\"lanes_compared\":%" PRIu64 ",\"lanes_changed\":%" PRIu64
               ",\"closer\":%" PRIu64 ",\"farther\":%" PRIu64 ",\"equally_close\":%" PRIu64 ",\"cases_fixed\":%" PRIu64
               ",\"paired\":",
            d->s.same_ref ? "true" : "false", d->s.compared, d->s.changed, d->s.closer, d->s.farther, d->s.equal,
            d->fixed_cases);
    paired_json(f, &p, "mean err/tol over the case's changed lanes");
    fputs(",\"new_findings\":[", f);
    for (int i = 0; i < d->nnf; i++) {
        if (i) fputc(',', f);
        finding_json(f, cx, cf, &d->nf[i]);
    }
    fputs("],\"message\":", f);
    td_json_escape(f, d->msg);
    fputc('}', f);
}

/* The child: every case on both versions, then the contract's JSON into `path`. */
static int child_run(td_cli *cli, const dconf *cf, progress *pg, const char *path) {
    td_ctx_opts o = {.max_reports = 4};
    td_ctx *cx = td_cli_ctx(cli, &o);
    if (!cx) return 3;
    static dresult d; /* large (two sketches); one per child process */
    memset(&d, 0, sizeof d);
    d.digest = 0xcbf29ce484222325ull;
    d.s.pass = -1;
    d.s.same_ref = same_casts(cf->k[0], cf->k[1]);
    td_ctx_set_lane_observer(cx, observe, &d.s);
    double t0 = td_cli_now();
    for (uint64_t i = 0;; i++) {
        if (cf->max_cases && i >= cf->max_cases) break;
        if (cf->seconds > 0 && i > 0 && td_cli_now() - t0 >= cf->seconds) break;
        pg->case_index = i;
        if (diff_case(cx, cf->k[0], cf->k[1], cf->seed, i, &d, pg) != 0) {
            d.harness_error = 1;
            break;
        }
    }
    d.seconds = td_cli_now() - t0;
    td_ctx_set_lane_observer(cx, NULL, NULL); /* the minimiser's runs are not statistics */
    FILE *f = fopen(path, "w");
    if (!f) return 3;
    contract_json(f, cx, cf, &d);
    int bad = fclose(f) != 0;
    free(d.s.rec);
    td_scores_free(&d.sc_old);
    td_scores_free(&d.sc_new);
    td_ctx_free(cx);
    return bad || d.harness_error ? 3 : 0;
}

/* The parent's account of a child that died: the version that was running crashed or hung. */
static void death_json(FILE *f, const dconf *cf, int crashed, int sig, const progress *pg, double secs) {
    const td_kernel *kern = cf->k[pg->side ? 1 : 0];
    uint8_t b[64];
    td_campaign_case_bytes(kern->k, cf->seed, pg->case_index, b, sizeof b);
    char adir[4200], path[4400] = "", abs[4400] = "", rel[4400] = "", msg[600];
    snprintf(adir, sizeof adir, "%s/artifacts", cf->outdir);
    if (td_artifact_write(adir, kern, b, sizeof b, path, sizeof path) == 0) {
        if (!realpath(path, abs)) snprintf(abs, sizeof abs, "%s", path);
        snprintf(rel, sizeof rel, "artifacts/%.4000s", strrchr(path, '/') + 1);
    }
    snprintf(msg, sizeof msg, "%s %s during case %" PRIu64 "%s%s", pg->side ? "NEW" : "OLD",
             crashed ? "crashed" : "hung", pg->case_index, crashed ? ": signal " : "", crashed ? strsignal(sig) : "");
    fprintf(f, "{\"id\":");
    td_json_escape(f, kern->k->id);
    fprintf(f, ",\"family\":");
    td_json_escape(f, kern->k->family);
    /* the dead child's statistics are lost: only the version that died has a verdict */
    const char *st = crashed ? "crashed" : "timeout";
    fprintf(f, ",\"change\":\"%s\",\"cases\":%" PRIu64 ",\"cases_digest\":null,\"seconds\":%.3f,"
               "\"old\":{\"kernel\":\"%s\",\"status\":\"%s\"},\"new\":{\"kernel\":\"%s\",\"status\":\"%s\"},"
               "\"verdict_change\":%s,\"new_findings\":[{\"class\":\"%s\",\"region\":null,"
               "\"lane_class\":\"region\",\"count\":1,\"first_case\":%" PRIu64 ",\"reproducer\":",
            pg->side ? "verdict-change" : "old-died", pg->case_index, secs, cf->k[0]->abi->variant,
            pg->side ? "unknown" : st, cf->k[1]->abi->variant, pg->side ? st : "unknown",
            pg->side ? "\"passed -> failed\"" : "null", crashed ? "crash" : "hang", pg->case_index);
    td_json_escape(f, rel);
    fputs(",\"repro_new\":", f);
    repro_cmd(f, cf->lib[1], cf->k[1]->abi->variant, abs);
    fputs(",\"repro_old\":", f);
    repro_cmd(f, cf->lib[0], cf->k[0]->abi->variant, abs);
    fputs("}],\"message\":", f);
    td_json_escape(f, msg);
    fputc('}', f);
}

/* Runs one contract in a child; appends its JSON to `out`.  Returns 0, or 3 on a harness error. */
static int run_contract(td_cli *cli, const dconf *cf, double deadline, const char *tmpjson, FILE *out) {
    progress *pg = mmap(NULL, sizeof *pg, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (pg == MAP_FAILED) return 3;
    memset((void *)pg, 0, sizeof *pg);
    fflush(NULL);
    double t0 = td_cli_now();
    pid_t pid = fork();
    if (pid == 0) _exit(child_run(cli, cf, pg, tmpjson));
    if (pid < 0) {
        munmap(pg, sizeof *pg);
        return 3;
    }
    int st = 0, timed_out = 0;
    while (waitpid(pid, &st, WNOHANG) != pid) {
        if (td_cli_now() - t0 > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            timed_out = 1;
            break;
        }
        usleep(20000);
    }
    int rc = 0;
    if (timed_out || WIFSIGNALED(st)) {
        death_json(out, cf, !timed_out, timed_out ? 0 : WTERMSIG(st), pg, td_cli_now() - t0);
    } else {
        char err[512];
        char *text = td_read_file(tmpjson, NULL, err, sizeof err);
        if (!text) {
            fprintf(stderr, "tilediff diff: %s: the comparison wrote no result (%s)\n", cf->k[0]->k->id, err);
            rc = 3;
        } else {
            fputs(text, out);
            free(text);
            rc = WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 3;
        }
    }
    unlink(tmpjson);
    munmap(pg, sizeof *pg);
    return rc;
}

/* ---- the command ---- */

typedef struct dargs {
    const char *src[2], *variant[2], *pattern, *outdir;
    int nsrc, backend;
    double budget;
    uint64_t cases, seed;
    int budget_given;
    td_regress_opts ro;
} dargs;

static int check_args(const dargs *a);

static int parse_args(int argc, char **argv, dargs *a) {
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        int r = td_regress_arg("diff", argc, argv, &i, &a->ro);
        if (r < 0) return TD_EXIT_USAGE;
        if (r > 0) continue;
        if (!strcmp(s, "--kernels")) {
            NEED_ARG();
            if (a->nsrc == 2) {
                fprintf(stderr, "tilediff diff: --kernels is given twice (OLD, then NEW), not more\n");
                return TD_EXIT_USAGE;
            }
            a->src[a->nsrc++] = argv[++i];
        } else if (!strcmp(s, "--old-kernel") || !strcmp(s, "--new-kernel")) {
            NEED_ARG();
            a->variant[s[2] == 'n'] = argv[++i];
        } else if (!strcmp(s, "--backend")) {
            NEED_ARG();
            td_cli c = {.cmd = "diff"};
            if (td_cli_backend(&c, argv[++i])) return TD_EXIT_USAGE;
            a->backend = c.backend;
        } else if (!strcmp(s, "--contracts")) {
            NEED_ARG();
            a->pattern = argv[++i];
        } else if (!strcmp(s, "--out")) {
            NEED_ARG();
            a->outdir = argv[++i];
        } else if (!strcmp(s, "--budget")) {
            NEED_ARG();
            if (td_parse_double(argv[++i], &a->budget) || !(a->budget > 0)) {
                fprintf(stderr, "tilediff diff: --budget needs seconds > 0, not '%s'\n", argv[i]);
                return TD_EXIT_USAGE;
            }
            a->budget_given = 1;
        } else if (!strcmp(s, "--cases")) {
            NEED_ARG();
            if (td_parse_u64(argv[++i], &a->cases) || !a->cases) {
                fprintf(stderr, "tilediff diff: --cases needs a positive integer, not '%s'\n", argv[i]);
                return TD_EXIT_USAGE;
            }
        } else if (!strcmp(s, "--seed")) {
            NEED_ARG();
            if (td_parse_u64(argv[++i], &a->seed)) {
                fprintf(stderr, "tilediff diff: --seed needs an integer, not '%s'\n", argv[i]);
                return TD_EXIT_USAGE;
            }
        } else {
            fprintf(stderr, "tilediff diff: unknown argument '%s'\n", s);
            return TD_EXIT_USAGE;
        }
    }
    return check_args(a);
}

static int check_args(const dargs *a) {
    if (a->nsrc != 2) {
        fprintf(stderr, "usage: tilediff diff --kernels OLD --kernels NEW [--old-kernel V] [--new-kernel V] "
                        "[--backend host|cuda]\n       [--contracts GLOB] [--budget S | --cases N] [--seed S] "
                        "[--out DIR] [--alpha A] [--min-growth G]\n"
                        "OLD and NEW: a kernel library (.so, or any source the loader takes) or 'builtin'\n");
        return TD_EXIT_USAGE;
    }
    if (a->budget_given && a->cases) {
        fprintf(stderr, "tilediff diff: give --budget or --cases, not both\n");
        return TD_EXIT_USAGE;
    }
    return 0;
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

static int open_side(td_cli *c, const dargs *a, int which, char *abs, size_t n) {
    c->cmd = "diff";
    c->backend = a->backend;
    c->kernels = strcmp(a->src[which], "builtin") ? a->src[which] : NULL;
    c->variant = a->variant[which];
    int rc = td_cli_open(c);
    if (rc) return rc;
    if (c->kernels && !realpath(c->kernels, abs)) snprintf(abs, n, "%s", c->kernels);
    return 0;
}

static int write_file(const char *dir, const char *name, const char *text, td_json *j,
                      void (*render)(FILE *, const td_json *)) {
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) return -1;
    if (render) render(f, j);
    else fputs(text, f);
    int bad = fflush(f) != 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

static void diff_md(FILE *f, const td_json *r) {
    fprintf(f, "# tilediff diff\n\nOLD: `%s`  \nNEW: `%s`  \nbackend %s, seed %.0f, %s, %s\n\n",
            td_json_str(r, "old", "?"), td_json_str(r, "new", "?"), td_json_str(r, "backend", "?"),
            td_json_num(r, "seed", 0), td_json_str(r, "budget", ""), td_json_str(r, "tool", ""));
    td_render_changes_md(f, td_json_get(r, "contracts"), "Changes from OLD to NEW");
}

static void diff_html(FILE *f, const td_json *r) {
    fprintf(f, "<!doctype html><html><head><meta charset=\"utf-8\"><title>tilediff diff</title>"
               "<style>body{font:14px sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid "
               "#ccc;padding:3px 6px}.bad{background:#ffebe9}.ok{background:#dafbe1}code{font-size:12px}</style>"
               "</head><body><h1>tilediff diff</h1>\n<p>OLD: <code>");
    td_html_text(f, td_json_str(r, "old", "?"));
    fputs("</code><br>NEW: <code>", f);
    td_html_text(f, td_json_str(r, "new", "?"));
    fprintf(f, "</code><br>seed %.0f, %s</p>\n", td_json_num(r, "seed", 0), td_json_str(r, "budget", ""));
    td_render_changes_html(f, td_json_get(r, "contracts"), "Changes from OLD to NEW");
    fputs("</body></html>\n", f);
}

/* Writes report.{json,md,html}, prints the table; returns the exit status. */
static int finish(const dargs *a, const char *oldname, const char *newname, const char *budget_str, const char *body,
                  int internal) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return TD_EXIT_INTERNAL;
    fprintf(f, "{\"schema\":\"%s\",\"version\":%d,\"tool\":\"tilediff %s\",\"old\":", TD_DIFF_SCHEMA,
            TD_DIFF_VERSION, TD_VERSION);
    td_json_escape(f, oldname);
    fputs(",\"new\":", f);
    td_json_escape(f, newname);
    fprintf(f, ",\"backend\":\"%s\",\"seed\":%" PRIu64 ",\"budget\":", a->backend == TD_ABI_CUDA ? "cuda" : "host",
            a->seed);
    td_json_escape(f, budget_str);
    fprintf(f, ",\"alpha\":%g,\"min_growth\":%g,\n\"contracts\":[\n%s\n]}\n", a->ro.alpha, a->ro.min_growth, body);
    fclose(f);
    char err[512];
    td_json *j = td_json_parse(text, err, sizeof err);
    int status = internal ? TD_EXIT_INTERNAL : TD_EXIT_OK;
    if (!j || write_file(a->outdir, "report.json", text, NULL, NULL) || write_file(a->outdir, "report.md", NULL, j, diff_md) ||
        write_file(a->outdir, "report.html", NULL, j, diff_html)) {
        fprintf(stderr, "tilediff diff: writing the reports in %s failed: %s\n", a->outdir, j ? strerror(errno) : err);
        status = TD_EXIT_INTERNAL;
    }
    const td_json *cs = j ? td_json_get(j, "contracts") : NULL;
    if (cs) td_render_changes_table(stdout, cs);
    for (size_t i = 0; cs && i < cs->n; i++) {
        const char *ch = td_json_str(&cs->kids[i], "change", "");
        if (status == TD_EXIT_OK && (!strcmp(ch, "verdict-change") || !strcmp(ch, "regression") ||
                                     !strcmp(ch, "new-findings")))
            status = TD_EXIT_FINDING;
    }
    printf("report: %s/report.html (also report.json, report.md)\n", a->outdir);
    td_json_free(j);
    free(text);
    return status;
}

static void uncovered_json(FILE *f, const td_contract *k, int old_has) {
    fprintf(f, "{\"id\":");
    td_json_escape(f, k->id);
    fprintf(f, ",\"family\":");
    td_json_escape(f, k->family);
    fprintf(f, ",\"change\":\"%s\",\"cases\":0,\"old\":null,\"new\":null,\"verdict_change\":null,\"new_findings\":[],"
               "\"message\":\"%s\"}",
            old_has ? "dropped" : "added",
            old_has ? "NEW implements no kernel for this contract" : "OLD implements no kernel for this contract");
}

/* Every contract the pattern selects; returns the exit status. */
static int diff_all(const dargs *a, td_cli *cli, char abs[2][4096]) {
    const td_kernel *ks[2];
    int ncov = 0, nsel = 0;
    for (int i = 0; i < td_contract_count(); i++) {
        const td_contract *k = td_contract_at(i);
        if (!td_match(a->pattern, k->id)) continue;
        nsel++;
        ncov += td_cli_kernel(&cli[0], k, 1) && td_cli_kernel(&cli[1], k, 1);
    }
    if (!nsel) {
        fprintf(stderr, "tilediff diff: no contract matches '%s' (tilediff list shows the contracts)\n", a->pattern);
        return TD_EXIT_USAGE;
    }
    if (!ncov) {
        fprintf(stderr, "tilediff diff: OLD and NEW have no %s kernel for a common contract matching '%s'\n",
                a->backend == TD_ABI_CUDA ? "cuda" : "host", a->pattern);
        return TD_EXIT_USAGE;
    }
    dconf cf = {.seed = a->seed, .max_cases = a->cases, .outdir = a->outdir, .ro = a->ro};
    cf.seconds = a->cases ? 0 : a->budget / ncov;
    cf.lib[0] = cli[0].kernels ? abs[0] : NULL;
    cf.lib[1] = cli[1].kernels ? abs[1] : NULL;
    double deadline = a->cases ? 600 : 3 * cf.seconds + 60; /* as certify: a hang is a finding, not a stall */
    char budget_str[160], tmpjson[4400];
    if (a->cases) snprintf(budget_str, sizeof budget_str, "%" PRIu64 " cases per contract", a->cases);
    else snprintf(budget_str, sizeof budget_str, "%.0f s budget (%.2f s per contract)", a->budget, cf.seconds);
    snprintf(tmpjson, sizeof tmpjson, "%s/.diff.%ld.json", a->outdir, (long)getpid());
    char *body = NULL;
    size_t blen = 0;
    FILE *bf = open_memstream(&body, &blen);
    if (!bf) return TD_EXIT_INTERNAL;
    int internal = 0, first = 1;
    for (int i = 0; i < td_contract_count(); i++) {
        const td_contract *k = td_contract_at(i);
        if (!td_match(a->pattern, k->id)) continue;
        ks[0] = td_cli_kernel(&cli[0], k, 1);
        ks[1] = td_cli_kernel(&cli[1], k, 1);
        if (!ks[0] && !ks[1]) continue;
        if (!first) fputs(",\n", bf);
        first = 0;
        if (!ks[0] || !ks[1]) {
            uncovered_json(bf, k, ks[0] != NULL);
            continue;
        }
        cf.k[0] = ks[0];
        cf.k[1] = ks[1];
        if (isatty(2)) fprintf(stderr, "\r\033[K%s", k->id);
        internal |= run_contract(&cli[0], &cf, deadline, tmpjson, bf) != 0;
    }
    if (isatty(2)) fprintf(stderr, "\r\033[K");
    fclose(bf);
    const char *on = cli[0].set.table && cli[0].set.table->library ? cli[0].set.table->library : "?";
    const char *nn = cli[1].set.table && cli[1].set.table->library ? cli[1].set.table->library : "?";
    char oldname[4400], newname[4400];
    snprintf(oldname, sizeof oldname, "%.200s (%.4000s)", on, cli[0].kernels ? abs[0] : "built-in");
    snprintf(newname, sizeof newname, "%.200s (%.4000s)", nn, cli[1].kernels ? abs[1] : "built-in");
    int st = finish(a, oldname, newname, budget_str, body ? body : "", internal);
    free(body);
    return st;
}

int td_cmd_diff(int argc, char **argv) {
    dargs a = {.pattern = "all", .outdir = "tilediff-diff", .budget = 60, .seed = 1, .backend = TD_ABI_HOST};
    td_regress_defaults(&a.ro);
    int rc = parse_args(argc, argv, &a);
    if (rc) return rc;
    td_cli cli[2];
    memset(cli, 0, sizeof cli);
    char abs[2][4096] = {"", ""};
    if ((rc = open_side(&cli[0], &a, 0, abs[0], sizeof abs[0])) != 0) return rc;
    if ((rc = open_side(&cli[1], &a, 1, abs[1], sizeof abs[1])) != 0) {
        td_cli_close(&cli[0]);
        return rc;
    }
    if (mkdir_p(a.outdir) != 0) {
        fprintf(stderr, "tilediff diff: cannot create %s: %s\n", a.outdir, strerror(errno));
        td_cli_close(&cli[0]);
        td_cli_close(&cli[1]);
        return TD_EXIT_USAGE;
    }
    rc = diff_all(&a, cli, abs);
    td_cli_close(&cli[0]);
    td_cli_close(&cli[1]);
    return rc;
}
