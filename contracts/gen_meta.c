/* Metadata generators (see gen_meta.h): the index patterns real bugs need. */
#include "gen_meta.h"

#include <math.h>
#include <stdlib.h>

/* Fisher-Yates prefix: the first n entries of a random permutation of [0, cap), drawn
 * without materialising cap entries when cap is large (rejection on a small table). */
static void random_injection(td_rng *r, int64_t *out, int64_t n, int64_t cap) {
    if (cap <= 4 * n + 64) {
        int64_t *perm = malloc((size_t)cap * sizeof *perm);
        if (!perm) { /* out of memory: consecutive slots are still an injection */
            for (int64_t i = 0; i < n; i++) out[i] = i;
            return;
        }
        for (int64_t i = 0; i < cap; i++) perm[i] = i;
        for (int64_t i = 0; i < n; i++) {
            int64_t j = i + (int64_t)td_rng_below(r, (uint64_t)(cap - i));
            int64_t t = perm[i];
            perm[i] = perm[j], perm[j] = t;
            out[i] = perm[i];
        }
        free(perm);
        return;
    }
    for (int64_t i = 0; i < n; i++) { /* sparse: cap > 4n, so a retry succeeds with p > 3/4 */
        int64_t v;
        int dup;
        do {
            v = (int64_t)td_rng_below(r, (uint64_t)cap);
            dup = 0;
            for (int64_t k = 0; k < i && !dup; k++) dup = out[k] == v;
        } while (dup);
        out[i] = v;
    }
}

static void mark_first_last(const int64_t *v, int64_t n, int64_t cap, uint64_t *classes) {
    int lo = 0, hi = 0;
    for (int64_t i = 0; i < n; i++) lo |= v[i] == 0, hi |= v[i] == cap - 1;
    if (lo && hi) *classes |= TD_BC(TD_BC_IDX_FIRST_LAST);
}

/* moves the slot equal to want to position at (swapping), or overwrites position at with
 * want when it is absent (keeping injectivity: want replaces the value it displaces) */
static void plant(int64_t *v, int64_t n, int64_t at, int64_t want) {
    for (int64_t i = 0; i < n; i++)
        if (v[i] == want) {
            v[i] = v[at];
            v[at] = want;
            return;
        }
    v[at] = want;
}

void td_gen_slots(td_producer *p, td_rng *r, int64_t *out, int64_t n, int64_t cap, uint64_t *classes) {
    static const unsigned w[] = {3, 2, 2, 3};
    if (n <= 0) return;
    switch (td_prod_pick(p, w, 4)) {
    case 0: random_injection(r, out, n, cap); break;
    case 1: for (int64_t i = 0; i < n; i++) out[i] = i; break;             /* from the first slot */
    case 2: for (int64_t i = 0; i < n; i++) out[i] = cap - n + i; break;   /* to the last slot */
    default:
        random_injection(r, out, n, cap);
        if (n >= 2) plant(out, n, 0, 0), plant(out, n, n - 1, cap - 1);
        else out[0] = td_rng_below(r, 2) ? cap - 1 : 0;
        break;
    }
    if (n == cap) *classes |= TD_BC(TD_BC_IDX_PERMUTATION);
    mark_first_last(out, n, cap, classes);
}

void td_gen_indices(td_producer *p, td_rng *r, int64_t *out, int64_t n, int64_t cap, uint64_t *classes) {
    static const unsigned w[] = {3, 1, 2, 3};
    if (n <= 0 || cap <= 0) return;
    int pat = td_prod_pick(p, w, 4);
    int64_t distinct = 1 + (int64_t)td_rng_below(r, 3), base = (int64_t)td_rng_below(r, (uint64_t)cap);
    for (int64_t i = 0; i < n; i++) {
        switch (pat) {
        case 1: out[i] = base; break;
        case 2: out[i] = (base + (int64_t)td_rng_below(r, (uint64_t)distinct)) % cap; break;
        default: out[i] = (int64_t)td_rng_below(r, (uint64_t)cap); break;
        }
    }
    if (pat == 3) {
        out[td_rng_below(r, (uint64_t)n)] = 0;
        out[td_rng_below(r, (uint64_t)n)] = cap - 1;
    }
    mark_first_last(out, n, cap, classes);
    for (int64_t i = 1; i < n && !(*classes & TD_BC(TD_BC_IDX_REPEATS)); i++)
        for (int64_t k = 0; k < i; k++)
            if (out[k] == out[i]) {
                *classes |= TD_BC(TD_BC_IDX_REPEATS);
                break;
            }
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

int64_t td_gen_ragged(td_producer *p, td_rng *r, int64_t *lens, int64_t *starts, int nb, int64_t min_len,
                      int64_t max_len, int64_t block, uint64_t *classes) {
    static const unsigned w[] = {2, 2, 2, 2, 2, 1, 4};
    starts[0] = 0;
    for (int b = 0; b < nb; b++) {
        int64_t L;
        switch (td_prod_pick(p, w, 7)) {
        case 0: L = 0; break;
        case 1: L = 1; break;
        case 2: L = block - 1; break;
        case 3: L = block; break;
        case 4: L = block + 1; break;
        case 5: L = max_len; break;
        default: L = min_len + (int64_t)td_rng_below(r, (uint64_t)(max_len - min_len + 1)); break;
        }
        L = clamp64(L, min_len, max_len);
        if (L == 0) *classes |= TD_BC(TD_BC_SEQ_EMPTY);
        if (L == 1) *classes |= TD_BC(TD_BC_SEQ_SINGLE);
        if (block > 0 && L > 0 && (L == block - 1 || L == block || L == block + 1))
            *classes |= TD_BC(TD_BC_SEQ_BLOCK_EDGE);
        lens[b] = L;
        starts[b + 1] = starts[b] + L;
    }
    if (nb > 0 && lens[nb - 1] > 0) *classes |= TD_BC(TD_BC_SEQ_ENDS_AT_END);
    return starts[nb];
}

void td_gen_positions(td_producer *p, td_rng *r, int64_t *out, int64_t n, int64_t max_pos, int nonmonotone_ok,
                      uint64_t *classes) {
    static const unsigned w[] = {2, 2, 2, 3};
    if (n <= 0) return;
    int pat = td_prod_pick(p, w, nonmonotone_ok ? 4 : 3);
    int64_t span = max_pos - (n - 1) >= 0 ? max_pos - (n - 1) : 0, off;
    switch (pat) {
    case 0: off = 0; break;                                       /* 0 .. n-1 */
    case 1: off = span; break;                                    /* ends at max_pos */
    case 2: off = (int64_t)td_rng_below(r, (uint64_t)span + 1); break;
    default: off = -1; break;                                     /* random, non-monotone */
    }
    for (int64_t i = 0; i < n; i++)
        out[i] = off >= 0 ? clamp64(off + i, 0, max_pos) : (int64_t)td_rng_below(r, (uint64_t)max_pos + 1);
    if (off < 0) {
        out[td_rng_below(r, (uint64_t)n)] = 0;
        out[td_rng_below(r, (uint64_t)n)] = max_pos;
    }
    int lo = 0, hi = 0, down = 0;
    for (int64_t i = 0; i < n; i++) lo |= out[i] == 0, hi |= out[i] == max_pos, down |= i && out[i] < out[i - 1];
    if (lo && hi) *classes |= TD_BC(TD_BC_POS_EXTREME);
    if (down) *classes |= TD_BC(TD_BC_POS_NONMONOTONE);
}

void td_gen_rotary_table(td_producer *p, const int64_t *pos, int64_t n, int64_t half, double *cos_out,
                         double *sin_out) {
    static const double bases[] = {10000.0, 500000.0, 100.0};
    static const unsigned w[] = {3, 2, 1};
    double base = bases[td_prod_pick(p, w, 3)];
    for (int64_t i = 0; i < half; i++) {
        double theta = pow(base, -(double)i / (double)half);
        for (int64_t t = 0; t < n; t++) {
            double a = (double)pos[t] * theta;
            /* volatile: GCC 12's SLP vectorizer may drop a (double)(float) rounding when it
             * pairs two such stores (contracts/attn_common.h, at_f32) */
            volatile float cf = (float)cos(a), sf = (float)sin(a);
            cos_out[t * half + i] = cf;
            sin_out[t * half + i] = sf;
        }
    }
}

void td_gen_adapters(td_producer *p, td_rng *r, int64_t *out, int64_t n, int64_t n_adapters, int none_ok,
                     uint64_t *classes) {
    static const unsigned w[] = {2, 3, 2};
    if (n <= 0) return;
    int pat = td_prod_pick(p, w, none_ok ? 3 : 2);
    int64_t one = (int64_t)td_rng_below(r, (uint64_t)n_adapters);
    for (int64_t i = 0; i < n; i++) {
        out[i] = pat == 0 ? one : (int64_t)td_rng_below(r, (uint64_t)n_adapters);
        if (pat == 2 && td_rng_below(r, 3) == 0) out[i] = -1;
    }
    if (pat == 2) {
        out[td_rng_below(r, (uint64_t)n)] = -1;
        *classes |= TD_BC(TD_BC_ADAPTER_NONE);
    }
}

void td_gen_mask(td_producer *p, td_rng *r, uint8_t *out, int64_t n, uint64_t *classes) {
    static const unsigned w[] = {1, 1, 1, 1, 4};
    if (n <= 0) return;
    int pat = td_prod_pick(p, w, 5);
    uint64_t density = 1 + td_rng_below(r, 7); /* in eighths */
    for (int64_t i = 0; i < n; i++) {
        switch (pat) {
        case 0: out[i] = 0; break;
        case 1: out[i] = 1; break;
        case 2: out[i] = (uint8_t)(i & 1); break;
        case 3: out[i] = i == n - 1; break;
        default: out[i] = td_rng_below(r, 8) < density; break;
        }
    }
    if (pat < 4) *classes |= TD_BC(TD_BC_MASK_PATTERN);
}

int64_t td_gen_layout(td_producer *p, int k, const int64_t *n, int64_t *stride, int unit_inner, uint64_t *classes) {
    int ord[4] = {0, 1, 2, 3}; /* ord[0] outermost; default: the logical order (contiguous) */
    if (k > 4) k = 4;
    if (td_prod_u32(p, 0, 2) == 0) /* any other nesting: a Fisher-Yates shuffle from the bytes */
        for (int i = k - 1; i > 0; i--) {
            int j = (int)td_prod_u32(p, 0, (uint32_t)i), t = ord[i];
            ord[i] = ord[j], ord[j] = t;
        }
    int64_t st = (unit_inner || td_prod_u32(p, 0, 5)) ? 1 : 2;
    if (st > 1) *classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
    for (int t = k - 1; t >= 0; t--) {
        int d = ord[t];
        stride[d] = st;
        int64_t pad = td_prod_u32(p, 0, 3) == 0 ? (int64_t)td_prod_u32(p, 1, 3) : 0;
        if (pad && t > 0) *classes |= TD_BC(TD_BC_STRIDE_GT_ROW);
        st = st * n[d] + pad;
    }
    int64_t span = 1;
    for (int d = 0; d < k; d++) span += (n[d] - 1) * stride[d];
    return span;
}
