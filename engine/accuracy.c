/* Accuracy statistics: err/tol sketches and the paired test (see accuracy.h). */
#include "accuracy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void td_qs_add(td_qsketch *q, double x) {
    if (isnan(x)) return;
    q->n++;
    if (x > q->max || q->n == 1) q->max = x;
    if (x <= 0) {
        q->zero++;
        return;
    }
    if (!isfinite(x)) {
        q->above++;
        return;
    }
    double l = log2(x);
    if (l < TD_QS_LO) q->below++;
    else if (l >= TD_QS_HI) q->above++;
    else {
        long b = (long)floor((l - TD_QS_LO) * TD_QS_SUB);
        if (b >= TD_QS_BINS) b = TD_QS_BINS - 1; /* l just below HI rounded up */
        q->bin[b]++;
    }
}

void td_qs_merge(td_qsketch *a, const td_qsketch *q) {
    if (!q->n) return;
    if (!a->n || q->max > a->max) a->max = q->max;
    a->n += q->n;
    a->zero += q->zero;
    a->below += q->below;
    a->above += q->above;
    for (int i = 0; i < TD_QS_BINS; i++) a->bin[i] += q->bin[i];
}

double td_qs_quantile(const td_qsketch *q, double p) {
    if (!q->n) return NAN;
    if (p >= 1) return q->max;
    /* the smallest value with at least ceil(p n) values at or below it */
    uint64_t rank = (uint64_t)ceil(p * (double)q->n);
    if (rank < 1) rank = 1;
    uint64_t seen = q->zero;
    if (seen >= rank) return 0;
    seen += q->below;
    if (seen >= rank) return ldexp(1.0, TD_QS_LO);
    for (int i = 0; i < TD_QS_BINS; i++) {
        seen += q->bin[i];
        if (seen >= rank) {
            double mid = exp2(TD_QS_LO + (i + 0.5) / TD_QS_SUB);
            return mid < q->max ? mid : q->max;
        }
    }
    return q->max;
}

int td_scores_push(td_scores *s, double x) {
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        double *v = realloc(s->v, cap * sizeof *v);
        if (!v) return -1;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = x;
    return 0;
}

void td_scores_free(td_scores *s) {
    free(s->v);
    memset(s, 0, sizeof *s);
}

typedef struct dpair {
    double d, ratio;
    double rank;
} dpair;

static int by_absd(const void *a, const void *b) {
    double x = fabs(((const dpair *)a)->d), y = fabs(((const dpair *)b)->d);
    return x < y ? -1 : x > y;
}
static int by_ratio(const void *a, const void *b) {
    double x = ((const dpair *)a)->ratio, y = ((const dpair *)b)->ratio;
    return x < y ? -1 : x > y;
}

/* P(W+ >= w) under H0 for the given (doubled, integer) ranks: each pair's sign is a
 * fair coin, so count the subsets of ranks by their sum. */
static double exact_upper(const dpair *v, size_t n, double w_plus) {
    long total = 0;
    for (size_t i = 0; i < n; i++) total += lround(2 * v[i].rank);
    double *cnt = calloc((size_t)total + 1, sizeof *cnt);
    if (!cnt) return NAN;
    cnt[0] = 1;
    long reach = 0;
    for (size_t i = 0; i < n; i++) {
        long r = lround(2 * v[i].rank);
        for (long s = reach; s >= 0; s--)
            if (cnt[s] != 0) cnt[s + r] += cnt[s];
        reach += r;
    }
    long obs = lround(2 * w_plus);
    double up = 0;
    for (long s = obs; s <= total; s++) up += cnt[s];
    free(cnt);
    return ldexp(up, -(int)n);
}

/* Average ranks of |d| (ties share their mean rank); returns sum over tie groups of t^3 - t. */
static double rank_pairs(dpair *v, size_t n) {
    qsort(v, n, sizeof *v, by_absd);
    double ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && fabs(v[j + 1].d) == fabs(v[i].d)) j++;
        double r = (double)(i + j + 2) / 2, t = (double)(j - i + 1);
        for (size_t k = i; k <= j; k++) v[k].rank = r;
        ties += t * t * t - t;
        i = j + 1;
    }
    return ties;
}

int td_paired_test(const double *old, const double *nw, size_t n, double alpha, double min_growth, td_paired *out) {
    memset(out, 0, sizeof *out);
    out->pairs = n;
    out->alpha = alpha;
    out->min_growth = min_growth;
    out->p = 1;
    out->growth = NAN;
    dpair *v = malloc((n ? n : 1) * sizeof *v);
    if (!v) return -1;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(old[i]) || !isfinite(nw[i]) || nw[i] == old[i]) continue;
        v[m].d = nw[i] - old[i];
        v[m].ratio = old[i] > 0 ? nw[i] / old[i] : INFINITY; /* old exact, new not: unbounded growth */
        if (nw[i] > old[i]) out->worse++;
        else out->better++;
        m++;
    }
    out->used = m;
    if (m) {
        double ties = rank_pairs(v, m);
        for (size_t i = 0; i < m; i++)
            if (v[i].d > 0) out->w_plus += v[i].rank;
        if (m <= 60) {
            out->p = exact_upper(v, m, out->w_plus);
            out->exact = 1;
        } else {
            double mu = (double)m * (double)(m + 1) / 4;
            double var = (double)m * (double)(m + 1) * (double)(2 * m + 1) / 24 - ties / 48;
            double z = var > 0 ? (out->w_plus - mu - 0.5) / sqrt(var) : 0;
            out->p = 0.5 * erfc(z / sqrt(2.0));
        }
        qsort(v, m, sizeof *v, by_ratio);
        out->growth = m % 2 ? v[m / 2].ratio : (v[m / 2 - 1].ratio + v[m / 2].ratio) / 2;
    }
    free(v);
    out->regression = out->used && out->p < alpha && out->growth >= min_growth;
    return 0;
}

void td_acc_jnum(FILE *f, double x, int short_form) {
    if (isnan(x)) fputs("null", f);
    else if (isinf(x)) fputs(x > 0 ? "\"inf\"" : "\"-inf\"", f);
    else fprintf(f, short_form ? "%.6g" : "%.17g", x);
}

void td_qs_json(FILE *f, const td_qsketch *q) {
    fputs("\"median\":", f);
    td_acc_jnum(f, td_qs_quantile(q, 0.5), 1);
    fputs(",\"p99\":", f);
    td_acc_jnum(f, td_qs_quantile(q, 0.99), 1);
    fputs(",\"max\":", f);
    td_acc_jnum(f, q->n ? q->max : NAN, 0);
}
