/* Alternatives for token_attn_mistral (LightLLM's Mistral decode P·V stage over the
 * sliding window: Out[b, h, d] = sum_{n < att_seqlen} P[h, att_start + n] *
 * V[Req_to_tokens[req, ws + n], h / kv_group_num, d], ws = max(seqlen - sw, 0)).
 *
 *   alt_split4_backward  the window walked from its last token to its first, the
 *                 products accumulated into four interleaved partial sums (n mod 4)
 *                 combined as (s0 + s1) + (s2 + s3), no BLOCK_N tiles; programs with
 *                 heads outermost.  Admissible: any summation order and split.
 * Parameters: the ten strides, kv_group_num, sliding_window, BLOCK_DMODEL, BLOCK_N
 * (+ T for io).  Regions: Prob, V, Out, Req_to_tokens, B_req_idx, B_Start_Loc,
 * B_Seqlen, B_Att_Start_Loc, B_Att_Seqlen. */
#include "tl.h"

enum { P_SRTB, P_SRTS, P_SPH, P_SPBS, P_SVBS, P_SVH, P_SVD, P_SOBS, P_SOH, P_SOD, P_KVG, P_SW, P_BD, P_BN, P_T };
enum { R_PROB, R_V, R_OUT, R_REQ, R_REQIDX, R_START, R_SEQLEN, R_ASTART, R_ASEQLEN };

static float tam_lane(const td_abi_launch *L, int64_t b, int64_t h, int64_t d) {
    int64_t len = tl_load_int(L, R_SEQLEN, b), att = tl_load_int(L, R_ASEQLEN, b), ast = tl_load_int(L, R_ASTART, b);
    int64_t req = tl_load_int(L, R_REQIDX, b), ws = len > TL_I(L, P_SW) ? len - TL_I(L, P_SW) : 0;
    int64_t kvh = h / TL_I(L, P_KVG);
    float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int64_t n = att - 1; n >= 0; n--) {
        float p = tl_load(L, R_PROB, h * TL_I(L, P_SPH) + (ast + n) * TL_I(L, P_SPBS));
        int64_t loc = tl_load_int(L, R_REQ, req * TL_I(L, P_SRTB) + (ws + n) * TL_I(L, P_SRTS));
        float v = tl_load(L, R_V, loc * TL_I(L, P_SVBS) + kvh * TL_I(L, P_SVH) + d * TL_I(L, P_SVD));
        s[n % 4] = s[n % 4] + p * v;
    }
    return (s[0] + s[1]) + (s[2] + s[3]);
}

static int tam_split(const td_abi_launch *L) {
    td_profile st = {TL_FMT(L, R_OUT), TD_RNE, TD_OVF_INF, false};
    for (uint32_t h = 0; h < L->grid[1]; h++)
        for (uint32_t b = 0; b < L->grid[0]; b++)
            for (int64_t d = 0; d < TL_I(L, P_BD); d++)
                tl_store(L, R_OUT, b * TL_I(L, P_SOBS) + h * TL_I(L, P_SOH) + d * TL_I(L, P_SOD), tam_lane(L, b, h, d),
                         st);
    return 0;
}

TD_KERNEL(td_a_token_attn_mistral_split) = {"token_attn_mistral.token_attn_mistral_output_summary_general",
                                            "alt_split4_backward", TD_ABI_HOST, NULL, NULL, NULL, 14, 9, tam_split,
                                            NULL};
TD_KERNEL(td_a_token_attn_mistral_io_split) = {"token_attn_mistral.token_attn_mistral_io_correctness",
                                               "alt_split4_backward", TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL,
                                               15, 9, tam_split, NULL};
