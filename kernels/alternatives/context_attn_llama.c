/* Alternatives for context_attn_llama (alt_ctx_pc.h): LightLLM's prefill attention with a
 * prompt cache, K/V rows gathered through Req_to_tokens; base-2 weights (the host folds
 * log2 e into sm_scale, the kernel takes exp2).  The port runs FlashAttention-2 over KV
 * blocks of BLOCK_N with exp2f and one division acc / l; these:
 *   alt_kv2_rev_ex2   blocks of 2 keys from the last block to the first (the running max
 *                     moves at other keys, so P is cast to fp16 at other scales), exp2 as
 *                     PTX ex2.approx (a few ulps: the "any" math model's cuda member),
 *                     each q.k an FMA chain, out = acc * (1/l).
 *   alt_twopass_exp2  one block holding the whole causal row: the row max first, then
 *                     every weight 2^(s_j - max) and its fp16 P at the final max (the
 *                     two-pass softmax, no rescaling at all), exp2f, acc * (1/l).
 *   alt_kv4_ftz_divfull  the kernel's math as compiled Triton runs it on NVIDIA (the
 *                     "triton" member of the "any" math model): tl.exp2 as
 *                     ex2.approx.ftz.f32 (2 ulp, subnormal results flushed to 0), acc / l as
 *                     div.full.f32 (2 ulp), over blocks of 4 keys left to right, P cast to
 *                     fp16 at the running max, the P.V products added onto acc * alpha in
 *                     order (tl.dot(p, v, acc * alpha)), l = l * alpha + the block's sum.
 * All are admissible: the contract fixes the real value sum_j 2^(s_j) V_j / sum_j 2^(s_j)
 * with P cast to fp16 kernel-side at whatever scale the blocking gives it.
 * Parameters: sm_scale, the fourteen strides, H, BLOCK_DMODEL, BLOCK_M, BLOCK_N (+ NT). */
#include <float.h>

#include "alt_ctx_pc.h"

enum { NP = 20, NR = 9 };
static int kv2(const td_abi_launch *L) {
    acp_alt A = {&ctxpc_llama, 0, 2, 1, alt_ex2_approx};
    return acp_run(L, &A);
}
/* C = INT32_MAX: every causal row (at most B_Seqlen keys) is one block */
static int twopass(const td_abi_launch *L) {
    acp_alt A = {&ctxpc_llama, 0, INT32_MAX, 0, exp2f};
    return acp_run(L, &A);
}

/* ex2.approx.ftz.f32: the 2-ulp model, subnormal results flushed to zero */
static float cal_ex2_ftz(float t) {
    float r = alt_ex2_approx(t);
    return fabsf(r) < FLT_MIN ? 0.0f : r;
}

/* one causal row (n keys, scores s, values v) into o: blocks of 4, ftz exp2, div.full */
static void cal_row_ftz(int64_t n, const float *s, const float *v, int64_t dm, float *o) {
    float m = -INFINITY, l = 0.0f, p[4];
    for (int64_t d = 0; d < dm; d++) o[d] = 0.0f;
    for (int64_t lo = 0; lo < n; lo += 4) {
        int64_t hi = lo + 4 < n ? lo + 4 : n;
        float mn = m, ls = 0.0f;
        for (int64_t j = lo; j < hi; j++) mn = s[j] > mn ? s[j] : mn;
        float alpha = m == -INFINITY ? 0.0f : cal_ex2_ftz(m - mn);
        for (int64_t j = lo; j < hi; j++) p[j - lo] = cal_ex2_ftz(s[j] - mn), ls = ls + p[j - lo];
        l = l * alpha + ls;
        for (int64_t d = 0; d < dm; d++) {
            float a = o[d] * alpha;
            for (int64_t j = lo; j < hi; j++) a = fmaf(aat_f16(p[j - lo]), v[j * dm + d], a);
            o[d] = a;
        }
        m = mn;
    }
    for (int64_t d = 0; d < dm; d++) o[d] = alt_div_full(o[d], l);
}

static int ftz(const td_abi_launch *L) {
    acp_alt A = {&ctxpc_llama, 0, 4, 0, cal_ex2_ftz};
    int64_t BD = TL_I(L, CP_BD), H = TL_I(L, CP_H), nb = (int64_t)L->grid[1] / H, nmax = 0;
    for (int64_t b = 0; b < nb; b++) nmax = tl_load_int(L, CR_SEQLEN, b) > nmax ? tl_load_int(L, CR_SEQLEN, b) : nmax;
    float *s;
    TL_ALLOC(L, s, nmax + nmax * BD + BD + 1);
    float *v = s + nmax, *o = v + nmax * BD;
    for (int64_t b = 0; b < nb; b++) {
        int64_t start = tl_load_int(L, CR_START, b), plen = tl_load_int(L, ctxpc_llama.r_plen, b);
        int64_t nq = tl_load_int(L, CR_SEQLEN, b) - plen;
        for (int64_t h = 0; h < H; h++)
            for (int64_t gi = 0; gi < nq && gi < (int64_t)L->grid[0] * TL_I(L, CP_BM); gi++) {
                acp_scores(L, &A, b, h, gi, gi + plen + 1, BD, s, v);
                cal_row_ftz(gi + plen + 1, s, v, BD, o);
                for (int64_t d = 0; d < BD; d++)
                    tl_store(L, CR_OUT, (start + gi) * TL_I(L, CP_SOBS) + h * TL_I(L, CP_SOH) + d * TL_I(L, CP_SOD),
                             o[d], alt_f16());
            }
    }
    free(s);
    return 0;
}

#define G "context_attn_llama.context_attn_llama_surface_compute_correct_general"
#define IO "context_attn_llama.context_attn_llama_io_correctness"
TD_KERNEL(td_a_ctx_llama_kv2) = {G, "alt_kv2_rev_ex2", TD_ABI_HOST, NULL, NULL, NULL, NP - 1, NR, kv2, NULL};
TD_KERNEL(td_a_ctx_llama_2p) = {G, "alt_twopass_exp2", TD_ABI_HOST, NULL, NULL, NULL, NP - 1, NR, twopass, NULL};
TD_KERNEL(td_a_ctx_llama_io_kv2) = {IO, "alt_kv2_rev_ex2", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, NP, NR, kv2,
                                    NULL};
TD_KERNEL(td_a_ctx_llama_io_2p) = {IO, "alt_twopass_exp2", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, NP, NR,
                                   twopass, NULL};
TD_KERNEL(td_a_ctx_llama_ftz) = {G, "alt_kv4_ftz_divfull", TD_ABI_HOST, NULL, NULL, NULL, NP - 1, NR, ftz, NULL};
TD_KERNEL(td_a_ctx_llama_io_ftz) = {IO, "alt_kv4_ftz_divfull", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, NP, NR,
                                    ftz, NULL};
