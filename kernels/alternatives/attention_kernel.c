/* Alternatives for attention_kernel (_fwd_kernel_aligned with a relative-position bias):
 * per query row r = pid0 * BLOCK_M + i of head program pid1,
 *     out[r, d] = sum_n 2^(s_n) V[n, d] / sum_n 2^(s_n) over the keys n < BLOCK_N * nB,
 *     s_n = q' . k_n + RN16(RN16(b0 + b1) * RN16(1.44269504)),  q' = RN16(q * RN(sm_scale *
 *     1.44269504)), b0 = B0[row, n / BLOCK_N], b1 = B0[row, (n % BLOCK_N) % BIAS_LAST_SIZE
 *     + BIAS_LAST_SIZE]
 * (the fp16 roundings of the score are the kernel's per-key arithmetic, the same in every
 * blocking; BLOCK_N enters the bias's indexing, part of the contract).  The online softmax
 * over the keys then runs in another blocking (alt_a_attn.h):
 *   alt_kv3_rev_ex2   blocks of 3 keys, right to left, exp2 as the ex2.approx model, the
 *                     score dots as FMA chains, P to fp16 at the running max, acc * (1/l).
 * Parameters: sm_scale, stride_qh, stride_kh, stride_b0h, BLOCK_M, BLOCK_N, HEAD,
 * BIAS_LAST_SIZE, stride_b0m, nB.  Regions Q, K, V, B0, Out. */
#include "../host/attn2_tl.h"
#include "alt_a_attn.h"

enum { AK_SM, AK_SQH, AK_SKH, AK_SB0H, AK_BM, AK_BN, AK_HD, AK_BLS, AK_SB0M, AK_NB, AK_NP };
enum { AK_Q, AK_K, AK_V, AK_B0, AK_OUT, AK_NR };

static int ak_run(const td_abi_launch *L) {
    const int64_t BM = TL_I(L, AK_BM), BN = TL_I(L, AK_BN), D = TL_I(L, AK_HD), BLS = TL_I(L, AK_BLS);
    const int64_t N = BN * TL_I(L, AK_NB), sb0m = TL_I(L, AK_SB0M), C = 3;
    const float qks = TL_R(L, AK_SM) * 1.44269504f, c16 = attn2_rn16(1.44269504f);
    float *s, *v, *o, *p, *q;
    TL_ALLOC(L, s, N + N * D + 2 * D + C);
    v = s + N, o = v + N * D, q = o + D, p = q + D;
    for (uint32_t h = 0; h < L->grid[1]; h++) {
        const int64_t qo = h * TL_I(L, AK_SQH), kvo = h * TL_I(L, AK_SKH), bo = h * TL_I(L, AK_SB0H);
        for (int64_t n = 0; n < N; n++)
            for (int64_t d = 0; d < D; d++) v[n * D + d] = tl_load(L, AK_V, kvo + n * D + d);
        for (int64_t r = 0; r < (int64_t)L->grid[0] * BM; r++) {
            for (int64_t d = 0; d < D; d++) q[d] = attn2_rn16(tl_load(L, AK_Q, qo + r * D + d) * qks);
            for (int64_t n = 0; n < N; n++) {
                float dot = 0.0f;
                for (int64_t d = 0; d < D; d++) dot = fmaf(q[d], tl_load(L, AK_K, kvo + d + n * D), dot);
                float b0 = tl_load(L, AK_B0, bo + r * sb0m + n / BN);
                float b1 = tl_load(L, AK_B0, bo + r * sb0m + (n % BN) % BLS + BLS);
                s[n] = dot + attn2_hmul(attn2_hadd(b0, b1), c16);
            }
            aat_row R = {N, s, NULL, C, 1, 1, 0, alt_ex2_approx};
            aat_row_run(&R, v, D, o, p);
            for (int64_t d = 0; d < D; d++) tl_store(L, AK_OUT, qo + r * D + d, o[d], attn2_store_prof(L, AK_OUT));
        }
    }
    free(s);
    return 0;
}

TD_KERNEL(td_a_ak_kv3) = {"attention_kernel.attention_kernel_genuine_output_compute_correct_general",
                          "alt_kv3_rev_ex2", TD_ABI_HOST, NULL, NULL, NULL, AK_NP, AK_NR, ak_run, NULL};
TD_KERNEL(td_a_ak_io_kv3) = {"attention_kernel.attention_kernel_io_correctness", "alt_kv3_rev_ex2", TD_ABI_HOST,
                             NULL, NULL, NULL, AK_NP, AK_NR, ak_run, NULL};
