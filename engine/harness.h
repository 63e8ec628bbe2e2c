/* The generic harness: bytes -> case -> preconditions -> launch -> oracle -> lane
 * verdicts.  Shared by the CLI (run, repro, certify, selftest, explain), the fuzz
 * targets (libFuzzer, AFL++, plain replay) and the tests. */
#ifndef TD_HARNESS_H
#define TD_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "contract.h"
#include "kernel_abi.h"
#include "loader.h"

/* Verdict classes of one lane (or of the whole case for launch-level problems). */
typedef enum td_vclass {
    TD_VC_PASS = 0,
    TD_VC_WARN,        /* beyond the probabilistic bound, within the worst-case bound */
    TD_VC_FAIL,        /* beyond the worst-case bound */
    TD_VC_NONFINITE,   /* non-finite where finite was due, or the reverse (per the policy) */
    TD_VC_UNWRITTEN,   /* a lane of the write set never written */
    TD_VC_OUTSIDE,     /* a cell outside the write set modified */
    TD_VC_GUARD,       /* a guard zone around a region written */
    TD_VC_INPUT,       /* a read-only region modified */
    TD_VC_LAUNCH,      /* the launch returned an error */
    TD_VC_CRASH,       /* the kernel crashed (signal) */
    TD_VC_HANG,        /* the kernel did not return within the watchdog */
    TD_VC_UNBOUNDED,   /* not checked: the model has no finite bound for the lane (counted, not a finding) */
    TD_VC_COUNT
} td_vclass;
const char *td_vclass_name(td_vclass v);
/* true for the classes that make a case a finding (everything but PASS, WARN, UNBOUNDED) */
int td_vclass_is_finding(td_vclass v);

#define TD_MAX_TERMS 24
typedef struct td_term {
    char op[32];
    double prop, local, ek;
    int n;
} td_term;

/* One kind of step (op name) of a lane's trace: how many, their local errors' sum and
 * the largest (explain's and repro's "by kind" lines). */
typedef struct td_term_kind {
    char op[32];
    int n;
    double sum, max;
} td_term_kind;
#define TD_MAX_TERM_KINDS 12

typedef struct td_lane_report {
    td_vclass cls;
    td_olane lane;
    int has_lane;       /* 0 for region-level reports (guard, outside, input) */
    uint32_t region;
    uint64_t off;
    uint64_t got_bits;
    double got;
    double ref;             /* reference (after the casts), rounded to binary64 */
    char ref_exact[80];     /* reference as MPFR prints it (20 significant digits) */
    char ref_precast[80];   /* exact value before the last cast, if the spec casts */
    double tol, tol_p;      /* worst-case and probabilistic bounds */
    double err;             /* |got - ref| */
    double err_ulps;        /* (got - ref) / ulp of the output format at ref */
    double err_over_tol;
    uint32_t lane_flags;
    int nterms;
    td_term terms[TD_MAX_TERMS];
    /* the whole trace, summarised as explain summarises it: steps, kinds, total */
    int nsteps;
    double local_sum, bound_last;
    int nkinds;
    td_term_kind kinds[TD_MAX_TERM_KINDS];
    char note[160];
} td_lane_report;

typedef struct td_stats {
    /* lanes: judged lanes; lanes_unbounded: those of them with no finite bound (class
     * TD_VC_UNBOUNDED: not checked); lanes_overflow_ok: lanes a special-value rule
     * accepted (an admissible inf or NaN, or the largest finite value against an
     * infinite reference); lanes_undefined: lanes whose spec value is undefined on their
     * inputs (TD_SH_UNDEF: a fully masked softmax row's 0/0), accepted unmeasured */
    uint64_t cases, lanes, lanes_mpfr, lanes_unbounded, lanes_overflow_ok, lanes_warn;
    uint64_t lanes_undefined;
    uint64_t lanes_sampled_out; /* production shapes: written lanes the oracle's sample left out */
    uint64_t findings[TD_VC_COUNT]; /* lanes (or regions) per class */
    uint64_t cases_with_finding;
    uint64_t cases_not_covered; /* launches that returned TD_ABI_NOT_COVERED */
    double worst_err_over_tol;  /* among checked lanes (PASS and WARN and FAIL) */
    double worst_ulps;
    uint64_t classes;           /* boundary classes covered */
    double t_decode, t_kernel, t_oracle, t_compare; /* seconds */
    /* histogram of err/tol over decades: [0] exactly 0, [1] < 1e-6, [2..7] decades up to [0.1, 1], [8] > 1 */
    uint64_t hist[9];
} td_stats;
void td_stats_merge(td_stats *into, const td_stats *s);
/* The bin of td_stats.hist that err/tol value eot counts in (floor(log10(eot)) + 8,
 * clamped as the comment on hist says). */
int td_err_tol_bin(double eot);
/* A contract whose judged lanes are mostly (> 50%) unbounded was not checked: its
 * lanes passed no finite bound.  Returns 1 and the reason in `why` (may be NULL) then,
 * else 0. */
int td_stats_unchecked(const td_stats *st, char *why, size_t n);

typedef struct td_case_result {
    int finding;            /* 1 when the case is a finding */
    td_vclass worst;        /* most severe class met */
    char desc[1024];        /* the case, decoded */
    char msg[512];          /* launch error / harness message */
    td_stats st;            /* this case's counts */
    td_lane_report *rep;    /* detailed reports (the worst first; at most opts.max_reports) */
    int nrep, caprep;
    uint64_t nbad;          /* all bad lanes/regions, detailed or not */
    uint32_t grid[3];       /* the launch's grid */
    td_lane_report top;     /* the checked lane with the largest err/tol (pass or not) */
    int has_top;
    uint64_t case_digest;   /* FNV-1a of the decoded case (description and every region's initial bytes) */
} td_case_result;
void td_result_free(td_case_result *r);

typedef struct td_ctx_opts {
    int backend;            /* TD_ABI_HOST or TD_ABI_CUDA */
    int mpfr_all;           /* evaluate every lane in MPFR too, and check the shadow's decision */
    int max_reports;        /* detailed lane reports per case (default 16) */
    unsigned timeout_s;     /* per-case watchdog (0: none) */
    const char *artifact_dir; /* where the watchdog writes the in-flight case (may be NULL) */
    long mpfr_prec;         /* default 640 */
    int explain_full;       /* explain prints every term of a long reduction */
    /* accept inputs of the large tier (contracts/gen_large.h: 2^31+ elements, gigabytes
     * of address space, seconds of kernel time); without it such an input is refused
     * (TD_RUN_USAGE), so a fuzzer that finds the magic cannot start one */
    int large;
    /* the top lane's exact reference and bound terms (td_case_result.top) only for a case
     * with a finding: a fuzz target reports nothing else, and for a long reduction (a
     * K = 2^23 lane) they cost two more evaluations of the spec */
    int top_details_findings_only;
    /* judge every lane through the contract's per-lane spec (spec_sh), never through the
     * batched path of a contract with a run entry (td_contract.spec_sh_run): the
     * reference that path is tested against (tests/test_judge_run.c) */
    int lane_by_lane;
} td_ctx_opts;

typedef struct td_ctx td_ctx;
td_ctx *td_ctx_new(const td_ctx_opts *opts, char *err, size_t errlen);
void td_ctx_free(td_ctx *cx);
/* Runs kernels on a device: regions are staged through `dev` (NULL: host). */
struct td_backend_ops;
void td_ctx_set_backend(td_ctx *cx, const struct td_backend_ops *dev);

/* Production shapes (engine/sample.h, certify --shape production): cases decoded at
 * shape s (NULL: the bytes choose the shape), and the oracle judging the stratified
 * sample o of each case's lanes (NULL: every lane).  The pointers must outlive their
 * use.  td_ctx_sampled: what the samples checked since the last td_ctx_set_sample. */
struct td_sample_opts;
struct td_sample_info;
void td_ctx_set_shape(td_ctx *cx, const td_shape *s);
void td_ctx_set_sample(td_ctx *cx, const struct td_sample_opts *o);
const struct td_sample_info *td_ctx_sampled(const td_ctx *cx);

/* Lane observers (tilediff diff, the accuracy statistics of campaigns): called once
 * per lane of the write set, in write-set order, after its verdict.  `index` is the
 * lane's position in the sorted write set, so two kernels run on the same bytes see
 * the same index for the same lane. */
typedef struct td_lane_obs {
    size_t index;
    const td_olane *lane;
    td_vclass cls;
    uint64_t got_bits;
    double got;
    int checked;            /* 1: err and tol below are the verdict's (a PASS, WARN or FAIL lane) */
    double err, tol, err_over_tol;
    /* private to td_lane_obs_closer */
    td_ctx *cx;
    const td_kernel *kern;
    const td_case *c;
    double v, es;
} td_lane_obs;
typedef void (*td_lane_observer)(void *user, const td_lane_obs *o);
void td_ctx_set_lane_observer(td_ctx *cx, td_lane_observer fn, void *user);
/* Which of two finite values of the lane's output format lies closer to the lane's
 * exact reference: -1 a, +1 b, 0 equally close or no finite reference.  Decided by
 * the shadow where its own error bound separates the reference from the midpoint of a
 * and b, else by the MPFR reference (valid only inside the observer call). */
int td_lane_obs_closer(const td_lane_obs *o, double a, double b);

/* Harness errors (exit 3): the generator produced a case that fails a precondition,
 * a write set with a duplicate or out-of-range cell, an unknown cast slot... */
#define TD_RUN_OK 0
#define TD_RUN_FINDING 1
#define TD_RUN_USAGE 2 /* bad input (e.g. an explain lane out of range) */
#define TD_RUN_HARNESS_ERROR 3
/* Decodes `data`, runs kernel `kern` on it and checks every lane.  Returns one of
 * TD_RUN_*; on TD_RUN_HARNESS_ERROR, res->msg says what is wrong.  A launch the backend
 * cannot run (TD_ABI_NOT_COVERED) is TD_RUN_OK with res->st.cases_not_covered = 1, no
 * lane judged, and the reason in res->msg. */
int td_run_bytes(td_ctx *cx, const td_kernel *kern, const uint8_t *data, size_t size, td_case_result *res);

/* The contract's verdict on values that come from a source instead of a launched
 * kernel: `tilediff audit` judges what a textbook implementation of a contract's intent
 * writes (engine/audit.c).  Decodes `data`, builds and checks the write set exactly as
 * td_run_bytes does, calls src->begin once with the case and its write set (a non-zero
 * return skips the case: the source cannot define it), then judges every lane the source
 * gives a value (src->value returns 0 with the value's bits in the output region's
 * format; 1 leaves the lane out).  No region checks: nothing was launched. */
typedef struct td_value_source {
    void *user;
    int (*begin)(void *user, const td_case *c, const td_wset *ws);
    int (*value)(void *user, const td_case *c, const td_olane *ol, uint64_t *bits);
} td_value_source;
int td_judge_bytes(td_ctx *cx, const td_kernel *kern, const uint8_t *data, size_t size, const td_value_source *src,
                   td_case_result *res);

/* Decodes only (for explain, corpus-stats, the generator tests). */
int td_decode_case(const td_contract *k, const uint8_t *data, size_t size, td_case *c, char *err, size_t errlen);
/* The same at production shape s (NULL: as td_decode_case); -1 when k has none. */
int td_decode_case_shape(const td_contract *k, const uint8_t *data, size_t size, const td_shape *s, td_case *c,
                         char *err, size_t errlen);

/* Explains the tolerance of one lane (index into the write set, or -1 for the first
 * lane that is not a PASS, else lane 0). Prints to f. */
int td_explain(td_ctx *cx, const td_kernel *kern, const uint8_t *data, size_t size, long lane, FILE *f);

/* Reports */
void td_report_text(FILE *f, const td_kernel *kern, const td_case_result *r);
void td_report_json(FILE *f, const td_kernel *kern, const td_case_result *r, const char *artifact);
/* err/tol for a reader: "0.37", or "1 ulp over a zero tolerance" where it is infinite. */
void td_errtol_str(double err_over_tol, double err_ulps, char *buf, size_t n);
/* The terms of a lane's bound: every step, or (not `full`, a long reduction) the steps
 * by kind, the largest few, the last few and the total. */
void td_trace_print(FILE *f, const td_trace *tr, int full);
/* The terms a finding report keeps of a lane's trace (at most `max`): every step of a
 * short trace; of a long one the same steps explain's summary shows (the largest local
 * terms and the last steps, named "#step op").  Returns how many. */
int td_trace_terms(const td_trace *tr, td_term *out, int max);
/* Fills a lane report's terms (td_trace_terms) and the summary of its whole trace
 * (steps, kinds, total), which finding reports print as explain does. */
void td_lane_terms(td_lane_report *l, const td_trace *t);
/* The kinds of step of a trace, in order of first appearance (at most `max`).  Returns
 * how many. */
int td_trace_kinds(const td_trace *tr, td_term_kind *out, int max);

/* Artifacts: a self-describing reproducer ("TDFZ1 <contract> <variant> <backend>\n" + the bytes).
 * Writes dir/<contract>.<variant>.<hash>.tdf under a temporary name and renames it.
 * Returns 0 and the path in `path`. */
int td_artifact_write(const char *dir, const td_kernel *kern, const uint8_t *data, size_t size, char *path,
                      size_t pathlen);
/* Reads a file: artifact or raw bytes.  contract/variant are filled from the header
 * when there is one (else left empty). Returns 0, or -1 with a message. */
int td_artifact_read(const char *path, uint8_t **data, size_t *size, char *contract, size_t clen, char *variant,
                     size_t vlen, int *backend, char *err, size_t errlen);
uint64_t td_fnv1a(const uint8_t *data, size_t size);
/* The bytes of case i of a campaign with seed `seed` (reproducible). */
void td_case_bytes(uint64_t seed, uint64_t i, uint8_t *out, size_t n);
/* Case i of a campaign of contract k (run, certify, selftest, diff): td_case_bytes,
 * except that every TD_FAR_EVERY-th case (i % TD_FAR_EVERY == TD_FAR_EVERY - 1) of a
 * contract with a far hook is of the far tier (contracts/gen_far.h): its offsets pass
 * 2^31 over sparse regions. */
#define TD_FAR_EVERY 16
void td_campaign_case_bytes(const td_contract *k, uint64_t seed, uint64_t i, uint8_t *out, size_t n);
/* The same with the large tier on (`--large`): case i of a contract with a large hook
 * is of the large tier (contracts/gen_large.h) when i % TD_FAR_EVERY == TD_LARGE_AT;
 * every other case is td_campaign_case_bytes's. */
#define TD_LARGE_AT 7
void td_campaign_case_bytes_tier(const td_contract *k, uint64_t seed, uint64_t i, int large, uint8_t *out, size_t n);

#endif
