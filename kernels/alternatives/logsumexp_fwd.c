/* Alternatives for logsumexp_fwd.logsumexp_fwd_kernel_correctness (one partial LSE per
 * block: z[i_n * cdiv(D, B) + i_d] = log sum_j exp(s * x_j) over the block's active
 * lanes j < w = min(B, D - i_d*B), s = scale when HAS_SCALE).
 *
 *   alt_online4   single pass over the block in chunks of 4: y_j = x_j * scale, a
 *                 running max m and a running sum rescaled by exp(m_old - m_new), then
 *                 log(sum) + m.  Admissible: the online normaliser (the issue's
 *                 "single-pass online logsumexp").
 *   alt_ex2approx_lg2  two passes; exp as the ex2.approx.f32 model after the binary32
 *                 multiply by log2 e; the exps summed left to right; log(sum) as
 *                 log2f(sum) * ln 2 (both roundings binary32: the lg2-based log of
 *                 fast-math code, with the host's accurate log2f in place of lg2.approx).
 * A block with no active lane (i_d * B >= D) stores what the Triton program does there:
 * log(0) + (-inf) of its all -inf tile, evaluated as -inf - -inf = NaN.
 * Parameters: D, B, HAS_SCALE, scale.  Regions: x, z. */
#include "alt_a_softmax.h"

enum { P_D, P_B, P_HAS_SCALE, P_SCALE };
enum { R_X, R_Z };

static int lse_blocks(const td_abi_launch *L, int online) {
    int64_t D = TL_I(L, P_D), B = TL_I(L, P_B), ND = (D + B - 1) / B;
    int has_scale = TL_I(L, P_HAS_SCALE) != 0;
    float scale = TL_R(L, P_SCALE);
    float *y;
    TL_ALLOC(L, y, B);
    for (uint32_t in = 0; in < L->grid[0]; in++)
        for (uint32_t id = 0; id < L->grid[1]; id++) {
            int64_t lo = (int64_t)id * B, w = D - lo < B ? D - lo : B;
            float z;
            if (w <= 0) {
                float ninf = -INFINITY;
                z = ninf - ninf; /* the all-masked tile's max shift: NaN, as the Triton program */
            } else {
                for (int64_t j = 0; j < w; j++) {
                    y[j] = tl_load(L, R_X, (int64_t)in * D + lo + j);
                    if (has_scale) y[j] = y[j] * scale;
                }
                float m, s;
                if (online) {
                    aa_online_ms(y, w, 4, expf, &m, &s);
                    z = logf(s) + m;
                } else {
                    m = aa_max_seq(y, w);
                    s = 0.0f;
                    for (int64_t j = 0; j < w; j++) s = s + aa_exp_approx(y[j] - m);
                    z = log2f(s) * AA_LN2 + m;
                }
            }
            tl_store(L, R_Z, (int64_t)in * ND + id, z, tl_f32());
        }
    free(y);
    return 0;
}

static int lse_online(const td_abi_launch *L) { return lse_blocks(L, 1); }
static int lse_ex2(const td_abi_launch *L) { return lse_blocks(L, 0); }

TD_KERNEL(td_a_logsumexp_online4) = {"logsumexp_fwd.logsumexp_fwd_kernel_correctness", "alt_online4", TD_ABI_HOST,
                                     NULL, NULL, NULL, 4, 2, lse_online, NULL};
TD_KERNEL(td_a_logsumexp_ex2approx_lg2) = {"logsumexp_fwd.logsumexp_fwd_kernel_correctness", "alt_ex2approx_lg2",
                                           TD_ABI_HOST, NULL, NULL, NULL, 4, 2, lse_ex2, NULL};
