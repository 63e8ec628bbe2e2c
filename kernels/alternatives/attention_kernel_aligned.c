/* Alternatives for attention_kernel_aligned (_fwd_kernel_aligned: a relative-position bias,
 * one layout (stride_qh, HEAD, 1) for Q, K, V and Out): per query row r = pid0 * BLOCK_M + i
 * of head program pid1,
 *     out[r, d] = sum_n 2^(s_n) V[n, d] / sum_n 2^(s_n) over the keys n < BLOCK_N * nB,
 *     s_n = RN16(q'.k_n + RN16(b0 + b1)),  q' = RN16(q * RN(sm_scale * 1.44269504)),
 *     b0 = B0[row, n / BLOCK_N], b1 = B0[row, (n % BLOCK_N) % BIAS_LAST_SIZE + BIAS_LAST_SIZE],
 * the dot accumulated in fp16 (tl.dot(q, k, out_dtype=fp16): each partial sum rounded).
 * The score's fp16 arithmetic is the kernel's per-key evaluation, the same in every
 * blocking (the error model charges it kernel-side in that order), and BLOCK_N enters the
 * bias's indexing; the online softmax over the scores is free (alt_a_attn.h):
 *   alt_kv5_exp2     KV blocks of 5 keys left to right (not BLOCK_N: the running max moves
 *                    at other keys, P is cast to fp16 at other scales), exp2f, the P.V
 *                    products as FMA chains, out = acc * (1/l).
 *   alt_twopass_ex2  the two-pass softmax: the row's max over all N_CTX keys first, every
 *                    weight and its fp16 P at that final max (no rescaling), exp2 as the
 *                    ex2.approx model (the "any" math model's cuda member), acc * (1/l).
 *   alt_kv4_ex2ftz   KV blocks of 4 keys, exp2 as compiled Triton's tl.exp2 on NVIDIA
 *                    (ex2.approx.ftz.f32: 2 ulp, subnormal results flushed to 0; the
 *                    "triton" member of the "any" math model), acc * (1/l).
 * Parameters: sm_scale, stride_qh, stride_b0h, BLOCK_M, BLOCK_N, HEAD, BIAS_LAST_SIZE,
 * stride_b0m, nB.  Regions Q, K, V, B0, Out. */
#include <float.h>

#include "../host/attn2_tl.h"
#include "alt_a_attn.h"

enum { AKA_SM, AKA_SQH, AKA_SB0H, AKA_BM, AKA_BN, AKA_HD, AKA_BLS, AKA_SB0M, AKA_NB, AKA_NP };
enum { AKA_Q, AKA_K, AKA_V, AKA_B0, AKA_OUT, AKA_NR };

/* the scores s[0..N) of row r of head program h (offset ho) */
static void aka_scores(const td_abi_launch *L, int64_t ho, int64_t bo, int64_t r, const float *q, float *s) {
    const int64_t BN = TL_I(L, AKA_BN), D = TL_I(L, AKA_HD), BLS = TL_I(L, AKA_BLS), N = BN * TL_I(L, AKA_NB);
    const int64_t brow = bo + r * TL_I(L, AKA_SB0M);
    for (int64_t n = 0; n < N; n++) {
        float dot = 0.0f; /* fp16 accumulation: RN16 of each binary32 step */
        for (int64_t d = 0; d < D; d++) dot = attn2_rn16(dot + q[d] * tl_load(L, AKA_K, ho + n * D + d));
        float bias = attn2_hadd(tl_load(L, AKA_B0, brow + n / BN), tl_load(L, AKA_B0, brow + (n % BN) % BLS + BLS));
        s[n] = attn2_hadd(dot, bias);
    }
}

static int aka_run(const td_abi_launch *L, int64_t C, aa_expfn ex) {
    const int64_t BM = TL_I(L, AKA_BM), D = TL_I(L, AKA_HD), N = TL_I(L, AKA_BN) * TL_I(L, AKA_NB);
    const float qks = TL_R(L, AKA_SM) * 1.44269504f;
    const int64_t Cb = C < N ? C : N;
    float *s, *v, *o, *p, *q;
    TL_ALLOC(L, s, N + N * D + 2 * D + Cb);
    v = s + N, o = v + N * D, q = o + D, p = q + D;
    for (uint32_t h = 0; h < L->grid[1]; h++) {
        const int64_t ho = h * TL_I(L, AKA_SQH), bo = h * TL_I(L, AKA_SB0H);
        for (int64_t n = 0; n < N; n++)
            for (int64_t d = 0; d < D; d++) v[n * D + d] = tl_load(L, AKA_V, ho + n * D + d);
        for (int64_t r = 0; r < (int64_t)L->grid[0] * BM; r++) {
            for (int64_t d = 0; d < D; d++) q[d] = attn2_rn16(tl_load(L, AKA_Q, ho + r * D + d) * qks);
            aka_scores(L, ho, bo, r, q, s);
            aat_row R = {N, s, NULL, Cb, 0, 1, 0, ex};
            aat_row_run(&R, v, D, o, p);
            for (int64_t d = 0; d < D; d++) tl_store(L, AKA_OUT, ho + r * D + d, o[d], attn2_store_prof(L, AKA_OUT));
        }
    }
    free(s);
    return 0;
}
/* ex2.approx.ftz.f32: the 2-ulp model, subnormal results flushed to zero */
static float aka_ex2_ftz(float t) {
    float r = alt_ex2_approx(t);
    return fabsf(r) < FLT_MIN ? 0.0f : r;
}
static int kv4ftz(const td_abi_launch *L) { return aka_run(L, 4, aka_ex2_ftz); }
static int kv5(const td_abi_launch *L) { return aka_run(L, 5, exp2f); }
static int twopass(const td_abi_launch *L) { return aka_run(L, INT32_MAX, alt_ex2_approx); }

#define G "attention_kernel_aligned.attention_kernel_aligned_output_summary_general"
#define IO "attention_kernel_aligned.attention_kernel_aligned_io_correctness"
TD_KERNEL(td_a_aka_kv5) = {G, "alt_kv5_exp2", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, AKA_NP, AKA_NR, kv5, NULL};
TD_KERNEL(td_a_aka_2p) = {G, "alt_twopass_ex2", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, AKA_NP, AKA_NR, twopass,
                          NULL};
TD_KERNEL(td_a_aka_io_kv5) = {IO, "alt_kv5_exp2", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, AKA_NP, AKA_NR, kv5,
                              NULL};
TD_KERNEL(td_a_aka_io_2p) = {IO, "alt_twopass_ex2", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, AKA_NP, AKA_NR,
                             twopass, NULL};
TD_KERNEL(td_a_aka_ftz) = {G, "alt_kv4_ex2ftz", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, AKA_NP, AKA_NR, kv4ftz,
                           NULL};
TD_KERNEL(td_a_aka_io_ftz) = {IO, "alt_kv4_ex2ftz", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, AKA_NP, AKA_NR,
                              kv4ftz, NULL};
