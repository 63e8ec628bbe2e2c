/* The spec half of contracts/matmul_common.h: helpers written once against the vocabulary of
 * contracts/spec.h.  A contract's spec file includes it, so it is compiled once per number
 * type with that spec (no include guard on purpose). */

/* One output lane's K loop (see the header comment): T steps of a BK-lane tile whose
 * lane e holds A[a0 + k*sak] * B[b0 + k*sbk] (k = t*BK + e) when k < K and both
 * operands are live (a0, b0 >= 0), else 0; each tile summed by a pairwise tree, the
 * tile sums added in order to `seed` (NULL: the accumulator starts at 0, so the
 * first addition is exact). */
#include "sh_dot.h" /* N(acc_add_mul) */

static inline NUM SPEC(mm_kloop)(NCX *cx, const td_case *c, int ra, int64_t a0, int64_t sak, int rb, int64_t b0,
                          int64_t sbk, int64_t K, int64_t BK, int64_t T, const NUM *seed) {
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_SEQ, 0);
    if (seed) N(acc_add)(cx, &acc, *seed);
    for (int64_t t = 0; t < T; t++) {
        NACC tile;
        N(acc_init)(cx, &tile, TD_ORDER_TREE, 0);
        for (int64_t e = 0; e < BK; e++) {
            int64_t k = t * BK + e;
            if (k < K && a0 >= 0 && b0 >= 0)
                N(acc_add_mul)(cx, &tile, N(in)(cx, c, ra, (size_t)(a0 + k * sak)), N(in)(cx, c, rb, (size_t)(b0 + k * sbk)));
            else
                N(acc_add)(cx, &tile, N(exact)(cx, 0.0)); /* a masked lane of the tile: other = 0 */
        }
        N(acc_add)(cx, &acc, N(acc_end)(cx, &tile));
    }
    return N(acc_end)(cx, &acc);
}

/* The K loop of a 2-D launch's lane (mm_writes_2d's idx). */
static inline NUM SPEC(mm_dot_2d)(NCX *cx, const td_case *c, const td_olane *l, const int *pmap, const mm_2d *d,
                                  const NUM *seed) {
    mm_shape s;
    mm_shape_get(c, pmap, &s);
    return SPEC(mm_kloop)(cx, c, d->ra, l->idx[0], s.sak, d->rb, l->idx[1], s.sbk, s.K, s.BK, s.T, seed);
}

/* leaky_relu as the Triton tutorial writes it: tl.where(x >= 0, x, 0.01 * x), the
 * literal 0.01 held in binary32 and the product rounded once. */
static inline NUM SPEC(mm_leaky)(NCX *cx, NUM x) {
    NB ge = N(cmp)(cx, x, N(exact)(cx, 0.0), 'g');
    return N(sel)(cx, ge, x, N(mul)(cx, N(lit_dec)(cx, "0.01"), x));
}


/* ---- intents (docs/intent.md) ----
 * One cell of torch.matmul(A, B) (PyTorch documentation: C[i, j] = sum_k A[i, k] B[k, j]
 * over all K), with the operands where the contract's layout puts them: row i of A at
 * a0 + k*sak, column j of B at b0 + k*sbk.  The sum is in any order (TD_ORDER_ANY): a
 * textbook GEMM may accumulate in any order; its exact value is the operation's.  The
 * caller applies any fused activation; the audit rounds once to C's format. */
static inline NUM SPEC(mm_intent_dot)(NCX *cx, const td_case *c, int ra, int64_t a0, int64_t sak, int rb, int64_t b0,
                                      int64_t sbk, int64_t K) {
    NACC acc;
    N(acc_init)(cx, &acc, TD_ORDER_ANY, 0);
    for (int64_t k = 0; k < K; k++)
        N(acc_add_mul)(cx, &acc, N(in)(cx, c, ra, (size_t)(a0 + k * sak)), N(in)(cx, c, rb, (size_t)(b0 + k * sbk)));
    return N(acc_end)(cx, &acc);
}

/* The same over a 2-D launch's lane (mm_writes_2d's idx: the A offset of its row, the B
 * offset of its column), K from the contract's shape. */
static inline NUM SPEC(mm_intent_2d)(NCX *cx, const td_case *c, const td_olane *l, const int *pmap, const mm_2d *d) {
    mm_shape s;
    mm_shape_get(c, pmap, &s);
    return SPEC(mm_intent_dot)(cx, c, d->ra, l->idx[0], s.sak, d->rb, l->idx[1], s.sbk, s.K);
}

/* torch.nn.functional.leaky_relu(x, negative_slope=0.01) (PyTorch documentation:
 * x if x >= 0 else negative_slope * x), the slope the Python float 0.01. */
static inline NUM SPEC(mm_intent_leaky)(NCX *cx, NUM x) {
    NB ge = N(cmp)(cx, x, N(exact)(cx, 0.0), 'g');
    return N(sel)(cx, ge, x, N(mul)(cx, N(exact)(cx, 0.01), x));
}
