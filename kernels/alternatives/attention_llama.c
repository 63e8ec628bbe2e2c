/* Alternatives for attention_llama (triton_fa's _fwd_kernel, USE_FP8 = False): per query
 * row m < H of head program pid1 (batch pid1 / N_HEAD, head pid1 % N_HEAD),
 *     out[m, d] = sum_n e^(s_n) V[n, d] / sum_n e^(s_n),  s_n = (Q[m] . K[n]) * sm_scale,
 * over the keys the kernel visits: n < N_CTX, and causal: n + start_position <= m and n <
 * (pid0 + 1) * BLOCK_N + start_position (the kernel's loop bound).  The port normalises
 * every step (FlashAttention-1: p *= 1/l, acc *= l_prev/l); these normalise once:
 *   alt_kv3_end        blocks of 3 keys whatever BLOCK_N is, left to right, P to fp16
 *                      at the running max (unnormalised), out = acc * (1/l), expf.
 *   alt_kv1_rev_tl     one key per block, right to left, exp as Triton lowers tl.exp
 *                      (exp2 of the rounded x log2 e).
 *   alt_p_cast_before_normalise  the port with p.to(fp16) taken before p *= l_rcp (was
 *                      the mutant mut_p_cast_before_normalise): the contract (hfp16:
 *                      R.round .fp16 = id) has no P rounding at all, and the kernel's is
 *                      one fp16 rounding of the same weight at another scale (the
 *                      unnormalised p <= 1 instead of p / l), exactly what any other KV
 *                      blocking does too (attn_online_common.h, "Admissible
 *                      blockings"); it is not a bug the contract can see.
 * Parameters: sm_scale, the 16 strides of Q, K, V, Out, N_HEAD, H, N_CTX, start_position,
 * BLOCK_M, BLOCK_N, BLOCK_DMODEL, numKVBlocks.  Regions Q, K, V, Out (fp16). */
#include "../host/attn_online_tl.h"
#include "alt_a_attn.h"

enum { P_SM, P_SQ = 1, P_SK = 5, P_SV = 9, P_SO = 13, P_NHEAD = 17, P_H, P_NCTX, P_SP, P_BM, P_BN, P_BD };
enum { R_Q, R_K, R_V, R_OUT };

static int64_t al_off(const td_abi_launch *L, int st, int64_t b, int64_t h, int64_t s, int64_t d) {
    return b * TL_I(L, st) + h * TL_I(L, st + 1) + s * TL_I(L, st + 2) + d * TL_I(L, st + 3);
}

static int al_run(const td_abi_launch *L, int causal, int64_t C, int reverse, aa_expfn ex) {
    const float sm = TL_R(L, P_SM);
    const int64_t NH = TL_I(L, P_NHEAD), H = TL_I(L, P_H), N = TL_I(L, P_NCTX), SP = TL_I(L, P_SP);
    const int64_t BM = TL_I(L, P_BM), BN = TL_I(L, P_BN), D = TL_I(L, P_BD);
    float *s, *v, *o, *p;
    uint8_t *keep;
    TL_ALLOC(L, keep, N);
    s = calloc((size_t)(N + N * D + D + C), sizeof *s);
    if (!s) {
        free(keep);
        snprintf(L->err, L->errlen, "out of memory");
        return 1;
    }
    v = s + N, o = v + N * D, p = o + D;
    for (uint32_t p1 = 0; p1 < L->grid[1]; p1++) {
        const int64_t b = p1 / NH, h = p1 % NH;
        for (int64_t n = 0; n < N; n++)
            for (int64_t d = 0; d < D; d++) v[n * D + d] = tl_load(L, R_V, al_off(L, P_SV, b, h, n, d));
        for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
            for (int64_t m = (int64_t)p0 * BM; m < ((int64_t)p0 + 1) * BM && m < H; m++) {
                for (int64_t n = 0; n < N; n++) {
                    float dot = 0.0f;
                    for (int64_t e = 0; e < D; e++)
                        dot = fmaf(tl_load(L, R_Q, al_off(L, P_SQ, b, h, m, e)), tl_load(L, R_K, al_off(L, P_SK, b, h, n, e)),
                                   dot);
                    s[n] = dot * sm;
                    keep[n] = (uint8_t)(!causal || (n + SP <= m && n < ((int64_t)p0 + 1) * BN + SP));
                }
                aat_row R = {N, s, keep, C, reverse, 1, 0, ex};
                aat_row_run(&R, v, D, o, p);
                for (int64_t d = 0; d < D; d++) tl_store(L, R_OUT, al_off(L, P_SO, b, h, m, d), o[d], alt_f16());
            }
    }
    free(s), free(keep);
    return 0;
}

static int nc3(const td_abi_launch *L) { return al_run(L, 0, 3, 0, expf); }
static int c3(const td_abi_launch *L) { return al_run(L, 1, 3, 0, expf); }
static int nc1(const td_abi_launch *L) { return al_run(L, 0, 1, 1, alt_exp_via_exp2); }
static int c1(const td_abi_launch *L) { return al_run(L, 1, 1, 1, alt_exp_via_exp2); }
static int c_early(const td_abi_launch *L) { return td_hk_attention_llama(L, 1, AL_MUT_P_CAST_EARLY); }

#define ID_NC "attention_llama.attention_llama_fwd_closed_form_correct"
#define ID_C "attention_llama.attention_llama_fwd_causal_closed_form_correct"
TD_KERNEL(td_a_al_nc_kv3) = {ID_NC, "alt_kv3_end", TD_ABI_HOST, NULL, NULL, NULL, 25, 4, nc3, NULL};
TD_KERNEL(td_a_al_c_kv3) = {ID_C, "alt_kv3_end", TD_ABI_HOST, NULL, NULL, NULL, 25, 4, c3, NULL};
TD_KERNEL(td_a_al_nc_kv1) = {ID_NC, "alt_kv1_rev_tl", TD_ABI_HOST, NULL, NULL, NULL, 25, 4, nc1, NULL};
TD_KERNEL(td_a_al_c_kv1) = {ID_C, "alt_kv1_rev_tl", TD_ABI_HOST, NULL, NULL, NULL, 25, 4, c1, NULL};
TD_KERNEL(td_a_al_c_early) = {ID_C, "alt_p_cast_before_normalise", TD_ABI_HOST, "p=fp16:rne:inf;store=fp16:rne:inf", NULL,
                              NULL, 25, 4, c_early, NULL};
