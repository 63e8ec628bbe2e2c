/* Campaigns: many cases of one kernel, findings deduplicated, reproducers minimised.
 * Used by `certify`, `selftest` and `ci/fuzz.sh`'s triage. */
#ifndef TD_CAMPAIGN_H
#define TD_CAMPAIGN_H

#include "accuracy.h"
#include "harness.h"

/* Where a bad lane sits in its launch: a finding's "lane class". */
typedef enum td_lclass {
    TD_LC_REGION = 0, /* no lane: a region-level finding (guard zone, outside write set, input) */
    TD_LC_INTERIOR,   /* a full tile of a program that is neither first nor last */
    TD_LC_FIRST,      /* the first program */
    TD_LC_LAST,       /* the last program (the tail tile) */
    TD_LC_SINGLE,     /* the only program */
    TD_LC_COUNT
} td_lclass;
const char *td_lclass_name(td_lclass c);
td_lclass td_lane_class(const td_case_result *r, const td_lane_report *l, const uint32_t grid[3]);

/* The identity of a finding.  Its root cause, by which a campaign deduplicates, is
 * (contract, verdict class, output region, first bad lane relative to its program's
 * tile): one bug seen in the interior, the first and the last program is one finding.
 * The minimiser keeps the coarser (class, region, lane class), which a shrinking case
 * can hold while its tile shape changes. */
typedef struct td_fkey {
    td_vclass cls;
    uint32_t region;
    td_lclass lc;
    int64_t rel; /* the smallest lane index j inside the tile among the reported lanes of
                  * this class and region; -1 for a region-level finding */
} td_fkey;
/* 1 when two keys name the same root cause. */
int td_same_root(const td_fkey *a, const td_fkey *b);
/* The key of a case's worst report (the first report; reports are sorted worst first). */
int td_finding_key(const td_kernel *kern, const uint8_t *data, size_t size, const td_case_result *r, td_fkey *key);

typedef struct td_finding {
    td_fkey key;
    uint64_t count;          /* cases that hit this key */
    uint64_t first_case;     /* case index of the first hit (seed, index reproduce it) */
    uint8_t *bytes;          /* the minimised reproducer */
    size_t size;
    char summary[512];       /* one line */
    td_lane_report worst;    /* the worst lane of the minimised case */
    int has_worst;
} td_finding;

typedef struct td_campaign {
    const td_kernel *kern;
    td_stats st;
    uint64_t cases;
    double seconds;
    td_finding *f;
    int nf, capf;
    int harness_error;
    char harness_msg[512];
    char not_covered_msg[512]; /* the first "not covered on this backend: ..." */
    /* the worst lanes over the campaign (for the reports), worst first */
    td_lane_report worst[8];
    int nworst;
    /* for release comparisons (certify --baseline): err/tol of every checked lane, the
     * mean err/tol of each case (NaN for a case with no checked lane), and a digest of
     * the decoded cases in order */
    td_qsketch eot;
    td_scores case_eot;
    uint64_t cases_digest;
} td_campaign;

typedef struct td_campaign_opts {
    uint64_t seed;
    uint64_t max_cases;      /* 0: no case limit */
    double seconds;          /* 0: no time limit */
    uint64_t min_cases;      /* the time limit stops the campaign only after this many cases */
    int minimize;            /* minimise each new finding's reproducer */
    int stop_at_first;       /* selftest: stop at the first finding */
    int large;               /* --large: the large tier's cases too (td_campaign_case_bytes_tier) */
    volatile uint64_t *progress; /* if set, the index of the case in flight (for crash attribution) */
} td_campaign_opts;

/* Runs the campaign; returns TD_RUN_OK, TD_RUN_FINDING or TD_RUN_HARNESS_ERROR. */
int td_campaign_run(td_ctx *cx, const td_kernel *kern, const td_campaign_opts *o, td_campaign *out);
void td_campaign_free(td_campaign *c);

/* Shrinks `data` while the case keeps the same finding key (same contract, verdict
 * class, output region and lane class; `rel` may change).  Deterministic: the same input always gives
 * the same output.  Returns 0 and the result in *out / *outn (malloc'ed), or -1 when
 * the input is not a finding. */
int td_minimize(td_ctx *cx, const td_kernel *kern, const uint8_t *data, size_t size, uint8_t **out, size_t *outn,
                int max_runs);

#endif
