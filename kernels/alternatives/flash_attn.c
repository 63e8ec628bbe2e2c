/* Alternatives for flash_attn (_fwd_kernel: O = softmax2(q' K^T) V and L = m + log2 l per
 * row, q' = (q * RN(sm_scale * 1.44269504)).to(fp16), base-2 scores s_n = q' . k_n, over
 * the keys n < SEQLEN (causal: n <= row, the loop running to (pid0 + 1) * BLOCK_M);
 * every tile row of every program is written, at base(pid1) + row * DIM):
 *   alt_kv3_rev_ex2    blocks of 3 keys whatever BLOCK_N is, right to left, exp2 as the
 *                      ex2.approx model; P to fp16 at the running max; out = acc * (1/l).
 *   alt_rowsum_fp16_p  the port with the row sum over the fp16 P (was the mutant
 *                      mut_rowsum_fp16_p): the same fp16 weights the dot takes; under
 *                      hfp16 (R.round .fp16 = id) that rounding is the identity, and its
 *                      size (u16 per weight, at a scale every KV blocking puts elsewhere)
 *                      is that of the P rounding itself (attn_online_common.h).
 * Parameters: genuine IS_CAUSAL sm_scale stride_q_head SEQLEN BLOCK_M DIM BLOCK_N ...;
 * python cases sm_scale stride_q_head SEQLEN BLOCK_M DIM BLOCK_N ...; IO sm_scale sqbs
 * skbs svbs sobs BS HEAD SEQLEN BLOCK_M DIM BLOCK_N stride_q_head.  Regions Q, K, V
 * (fp16), L (fp32), O (fp16). */
#include "../host/attn_online_tl.h"
#include "alt_a_attn.h"

enum { RA_Q, RA_K, RA_V, RA_L, RA_O };

typedef struct faa_geo {
    int causal;
    float sm;
    int64_t sqh, seq, bm, dim;
} faa_geo;

static faa_geo faa_get(const td_abi_launch *L, int layout) {
    if (layout == FA_LAY_GENUINE)
        return (faa_geo){(int)TL_I(L, 0), TL_R(L, 1), TL_I(L, 2), TL_I(L, 3), TL_I(L, 4), TL_I(L, 5)};
    if (layout == FA_LAY_IO) return (faa_geo){0, TL_R(L, 0), TL_I(L, 11), TL_I(L, 7), TL_I(L, 8), TL_I(L, 9)};
    return (faa_geo){layout == FA_LAY_CASE1, TL_R(L, 0), TL_I(L, 1), TL_I(L, 2), TL_I(L, 3), TL_I(L, 4)};
}

static int faa_run(const td_abi_launch *L, int layout) {
    const faa_geo g = faa_get(L, layout);
    const int64_t D = g.dim, C = 3;
    const float qks = g.sm * 1.44269504f;
    const int64_t nmax = g.causal ? (int64_t)L->grid[0] * g.bm : g.seq;
    float *s, *v, *o, *p, *q;
    uint8_t *keep;
    TL_ALLOC(L, keep, nmax);
    s = calloc((size_t)(nmax + nmax * D + 2 * D + C), sizeof *s);
    if (!s) {
        free(keep);
        snprintf(L->err, L->errlen, "out of memory");
        return 1;
    }
    v = s + nmax, o = v + nmax * D, q = o + D, p = q + D;
    for (uint32_t p1 = 0; p1 < L->grid[1]; p1++) {
        const int64_t base = (int64_t)p1 * g.sqh;
        for (int64_t n = 0; n < nmax; n++)
            for (int64_t d = 0; d < D; d++) v[n * D + d] = tl_load(L, RA_V, base + n * D + d);
        for (int64_t row = 0; row < (int64_t)L->grid[0] * g.bm; row++) {
            const int64_t hi = g.causal ? (row / g.bm + 1) * g.bm : g.seq;
            for (int64_t d = 0; d < D; d++) q[d] = aat_f16(tl_load(L, RA_Q, base + row * D + d) * qks);
            for (int64_t n = 0; n < hi; n++) {
                float dot = 0.0f;
                for (int64_t e = 0; e < D; e++) dot = fmaf(q[e], tl_load(L, RA_K, base + n * D + e), dot);
                s[n] = dot;
                keep[n] = (uint8_t)(!g.causal || n <= row);
            }
            aat_row R = {hi, s, keep, C, 1, 1, 0, alt_ex2_approx};
            float m, l;
            aat_row_run2(&R, v, D, o, p, &m, &l);
            tl_store(L, RA_L, (int64_t)p1 * g.seq + row, m + log2f(l), tl_f32());
            for (int64_t d = 0; d < D; d++) tl_store(L, RA_O, base + row * D + d, o[d], alt_f16());
        }
    }
    free(s), free(keep);
    return 0;
}

static int gen3(const td_abi_launch *L) { return faa_run(L, FA_LAY_GENUINE); }
static int c13(const td_abi_launch *L) { return faa_run(L, FA_LAY_CASE1); }
static int c23(const td_abi_launch *L) { return faa_run(L, FA_LAY_CASE2); }
static int io3(const td_abi_launch *L) { return faa_run(L, FA_LAY_IO); }
static int gen_rs16(const td_abi_launch *L) { return td_hk_flash_attn(L, FA_LAY_GENUINE, FA_MUT_ROWSUM_P16); }
static int io_rs16(const td_abi_launch *L) { return td_hk_flash_attn(L, FA_LAY_IO, FA_MUT_ROWSUM_P16); }

#define FA_CASTS "q=fp16:rne:inf;p=fp16:rne:inf;store=fp16:rne:inf"
#define ID_OUT "flash_attn.flash_attn_genuine_output_compute_correct_general"
#define ID_L "flash_attn.flash_attn_genuine_l_compute_correct_general"
#define ID_C1 "flash_attn.flash_attn_python_case1_genuine_compute_correct_general"
#define ID_C2 "flash_attn.flash_attn_python_case2_genuine_compute_correct_general"
#define ID_IO "flash_attn.flash_attn_io_correctness"
TD_KERNEL(td_a_fa_out_kv3) = {ID_OUT, "alt_kv3_rev_ex2", TD_ABI_HOST, NULL, NULL, NULL, 15, 5, gen3, NULL};
TD_KERNEL(td_a_fa_l_kv3) = {ID_L, "alt_kv3_rev_ex2", TD_ABI_HOST, NULL, NULL, NULL, 15, 5, gen3, NULL};
TD_KERNEL(td_a_fa_c1_kv3) = {ID_C1, "alt_kv3_rev_ex2", TD_ABI_HOST, NULL, NULL, NULL, 14, 5, c13, NULL};
TD_KERNEL(td_a_fa_c2_kv3) = {ID_C2, "alt_kv3_rev_ex2", TD_ABI_HOST, NULL, NULL, NULL, 14, 5, c23, NULL};
TD_KERNEL(td_a_fa_io_kv3) = {ID_IO, "alt_kv3_rev_ex2", TD_ABI_HOST, NULL, NULL, NULL, 12, 5, io3, NULL};
TD_KERNEL(td_a_fa_out_rs16) = {ID_OUT, "alt_rowsum_fp16_p", TD_ABI_HOST, FA_CASTS, NULL, NULL, 15, 5, gen_rs16, NULL};
TD_KERNEL(td_a_fa_io_rs16) = {ID_IO, "alt_rowsum_fp16_p", TD_ABI_HOST, FA_CASTS, NULL, NULL, 12, 5, io_rs16, NULL};
