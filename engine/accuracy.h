/* Accuracy statistics for release comparisons (`tilediff diff`, `certify --baseline`):
 * a quantile sketch of err/tol over a campaign's lanes, and the paired test that tells
 * an accuracy regression from chance.
 *
 * The paired test (td_paired_test) works on CASES, not lanes.  Both versions run the
 * same cases (same seed, same bytes, so the same decoded inputs), and for each case c
 * the statistic is a per-case accuracy score S_c (the mean err/tol over the case's
 * lanes that changed, for diff; over all its lanes, for a stored baseline).  The pairs
 * (S_c old, S_c new) share everything that makes one case harder than another (shape,
 * value distribution, condition), so that variance cancels in d_c = S_c new - S_c old.
 * Cases are independent draws (their bytes come from independent seeds), which a
 * rank test needs; lanes of one case are not (they share the case's inputs, and one
 * case may hold thousands of them), so a lane-level test would overstate significance.
 * Under H0 "NEW is as accurate as OLD" the two labels are exchangeable within a case,
 * so d_c is symmetric about 0: the Wilcoxon signed-rank test (one-sided, NEW worse)
 * is exact under that null (exact distribution up to 60 non-zero pairs, normal
 * approximation with tie and continuity correction beyond).  A significant p alone is
 * not enough (with thousands of cases a negligible shift is significant), so the
 * effect size must pass a threshold too: the median over those cases of
 * S_c new / S_c old.  Both thresholds are options; defaults in TD_REGRESS_*. */
#ifndef TD_ACCURACY_H
#define TD_ACCURACY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* err/tol sketch: exact count of zeros and of the maximum, log2-spaced bins with
 * TD_QS_SUB bins per octave over [2^TD_QS_LO, 2^TD_QS_HI) (quantiles to within
 * 2^(1/TD_QS_SUB / 2) - 1 = 2.2 % relative), and counts below / above the range. */
#define TD_QS_SUB 16
#define TD_QS_LO (-80)
#define TD_QS_HI 16
#define TD_QS_BINS ((TD_QS_HI - TD_QS_LO) * TD_QS_SUB)
typedef struct td_qsketch {
    uint64_t n, zero, below, above;
    double max;
    uint64_t bin[TD_QS_BINS];
} td_qsketch;
void td_qs_add(td_qsketch *q, double x); /* x >= 0; NaN is ignored, inf counts above */
void td_qs_merge(td_qsketch *into, const td_qsketch *q);
/* the q-quantile (0 <= q <= 1), NaN when empty: 0 for zeros, the bin's geometric
 * middle otherwise, the exact maximum for q = 1 */
double td_qs_quantile(const td_qsketch *q, double p);

/* Defaults of the regression rule (diff and certify --alpha / --min-growth).  Both
 * are policy, not derived, and say so in the report:
 *  alpha 1e-4: a release gate tests ~150 contracts, so even if every one of them
 *    changed neutrally, the chance of any false alarm stays below
 *    1 - (1 - 1e-4)^150 = 1.5 %; a contract needs at least 14 cases where NEW moved to
 *    reach it (2^-14 < 1e-4 < 2^-13);
 *  min growth 1.25: the median changed case's mean err/tol grew by a quarter.  Two
 *    equally accurate versions have a median ratio of 1 (the pair is exchangeable), so
 *    this only sets how large a systematic loss must be before the gate fails; a
 *    smaller significant shift is still reported (change "bits-changed"/"changed"
 *    with its p and growth). */
#define TD_REGRESS_ALPHA 1e-4
#define TD_REGRESS_MIN_GROWTH 1.25

typedef struct td_paired {
    uint64_t pairs;      /* pairs given */
    uint64_t used;       /* pairs with d != 0 (both finite) */
    uint64_t worse, better;
    double w_plus;       /* rank sum of the pairs where NEW is worse */
    double p;            /* one-sided p-value of "NEW worse" (1 when used == 0) */
    int exact;           /* p from the exact distribution */
    double growth;       /* median of new/old over the used pairs (NaN when none) */
    double alpha, min_growth;
    int regression;      /* p < alpha and growth >= min_growth */
} td_paired;
/* old[i], new[i]: the per-case scores of the same case.  Returns 0, or -1 out of memory. */
int td_paired_test(const double *old, const double *nw, size_t n, double alpha, double min_growth, td_paired *out);

/* Per-case scores, grown on demand. */
typedef struct td_scores {
    double *v;
    size_t n, cap;
} td_scores;
int td_scores_push(td_scores *s, double x);
void td_scores_free(td_scores *s);

/* Writes "median", "p99", "max" of a sketch as JSON members (no braces). */
void td_qs_json(FILE *f, const td_qsketch *q);
/* A number for JSON: "inf", null for NaN, %.17g else (%.6g when short). */
void td_acc_jnum(FILE *f, double x, int short_form);

#endif
