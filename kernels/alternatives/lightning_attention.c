/* lightning_attention, alternative: the quadratic (parallel) form, no blocking.
 *
 * alt_quadratic: the same outputs as _fwd_kernel (Out, and the staged KVOut / OInter of
 * block m) for every (off_bh, off_e), evaluated as the attention-like form a reference
 * implementation writes: Out[t, c] = sum_{s <= t} (q_t . k_s) v_s[c] with the scores
 * summed over d from the last channel down and the rows from t down, FMA throughout;
 * KVOut the running k^T v sum in row order (fmaf), OInter q . KVPrev by fmaf over a.
 * Admissible: the contract's bound holds for any nesting, block size and order.
 *
 * alt_grad_colmajor: the backward's gradient store (Out = GradPre on the rows < n of
 * each [BLOCK, WIDTH] tile) walked column-major, as a kernel holding the tile
 * transposed ([WIDTH, BLOCK], the row mask broadcast along each column) stores it, the
 * offsets formed in 64 bits.  Admissible: a copy in any lane order. */
#include "tl.h"

enum { P_B, P_H, P_N, P_D, P_E, P_BLOCK, P_NUMBLOCK, P_BM, P_M };
enum { R_Q, R_K, R_V, R_OUT, R_DO, R_DQ, R_DK, R_DV, R_KVPREV, R_KTRANS, R_VTILE, R_KVOUT, R_OINTER };

static int quadratic(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), d = TL_I(L, P_D), e = TL_I(L, P_E), B = TL_I(L, P_BLOCK), BM = TL_I(L, P_BM);
    int64_t P = TL_I(L, P_M) * B, NE = L->grid[1], N = P + B < n ? P + B : n;
    float *kv;
    TL_ALLOC(L, kv, 2 * d * BM + 2 * n * d + n * BM);
    float *prev = kv + d * BM, *q = prev + d * BM, *k = q + n * d, *v = k + n * d; /* the program's rows */
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++) {
            int64_t qo = (int64_t)p0 * n * d, vo = (int64_t)p0 * n * e + p1 * BM, g = (int64_t)p0 * NE + p1;
            for (int64_t x = 0; x < n * d; x++) q[x] = tl_load(L, R_Q, qo + x), k[x] = tl_load(L, R_K, qo + x);
            for (int64_t x = 0; x < n * BM; x++) v[x] = tl_load(L, R_V, vo + (x / BM) * e + x % BM);
            for (int64_t t = 0; t < n; t++)
                for (int64_t c = 0; c < BM; c++) {
                    float o = 0.0f;
                    for (int64_t s = t; s >= 0; s--) {
                        float sc = 0.0f;
                        for (int64_t a = d - 1; a >= 0; a--) sc = fmaf(q[t * d + a], k[s * d + a], sc);
                        o = fmaf(sc, v[s * BM + c], o);
                    }
                    tl_store(L, R_OUT, vo + t * e + c, o, tl_f32());
                }
            for (int64_t a = 0; a < d; a++)
                for (int64_t c = 0; c < BM; c++) {
                    float acc = 0.0f;
                    for (int64_t s = 0; s < N; s++) {
                        if (s == P) prev[a * BM + c] = acc;
                        acc = fmaf(k[s * d + a], v[s * BM + c], acc);
                    }
                    if (N == P) prev[a * BM + c] = acc;
                    kv[a * BM + c] = acc;
                    tl_store(L, R_KVOUT, g * d * BM + a * BM + c, acc, tl_f32());
                }
            for (int64_t r = 0; r < B; r++)
                for (int64_t c = 0; c < BM; c++) {
                    float o = 0.0f;
                    for (int64_t a = 0; a < d && P + r < n; a++) o = fmaf(q[(P + r) * d + a], prev[a * BM + c], o);
                    tl_store(L, R_OINTER, g * B * BM + r * BM + c, o, tl_f32());
                }
        }
    free(kv);
    return 0;
}

TD_KERNEL(td_a_la_summary) = {"lightning_attention.lightning_attention_output_summary_general", "alt_quadratic",
                              TD_ABI_HOST, NULL, NULL, NULL, 9, 13, quadratic, NULL};

/* gradStore: params n width BLOCK WIDTH; regions GradPre Out */
static int grad_colmajor(const td_abi_launch *L) {
    int64_t n = TL_I(L, 0), width = TL_I(L, 1), BLOCK = TL_I(L, 2), WIDTH = TL_I(L, 3);
    for (int64_t p1 = (int64_t)L->grid[1] - 1; p1 >= 0; p1--) /* the row blocks last first */
        for (int64_t p0 = 0; p0 < (int64_t)L->grid[0]; p0++) {
            int64_t r1 = n - p1 * BLOCK < BLOCK ? n - p1 * BLOCK : BLOCK; /* mask: p1*BLOCK + r < n */
            for (int64_t c = 0; c < WIDTH; c++)
                for (int64_t r = 0; r < r1; r++) {
                    int64_t off = (p0 * n + p1 * BLOCK + r) * width + c;
                    tl_store(L, 1, off, tl_load(L, 0, off), tl_f32());
                }
        }
    return 0;
}

TD_KERNEL(td_a_la_grad) = {"lightning_attention.lightning_attention_bwd_grad_store_io_correctness", "alt_grad_colmajor",
                           TD_ABI_HOST, NULL, NULL, NULL, 4, 2, grad_colmajor, NULL};
