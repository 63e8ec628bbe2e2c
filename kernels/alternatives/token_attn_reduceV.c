/* Alternatives for token_attn_reduceV (LightLLM's _fwd_kernel_token_att2, the P.V
 * reduction of token attention: Out[b, h, d] = sum_{s < seqlen_b} P[h, start_b + s] *
 * V[loc(b, s), h / kv_group_num, d], loc from the request-to-token table).
 *
 *   alt_fma_chain (summary and io)  one FMA chain over all of a request's tokens,
 *                 acc = fmaf(P_s, V_s, acc), in token order, no BLOCK_N tiles and no
 *                 per-tile tree: one thread per output lane, as a CUDA decode kernel
 *                 does; the io contract then stores through binary16 (the "one
 *                 FMA chain over all tokens before an fp16 store").  Admissible: FMA, any
 *                 summation order.
 * Parameters: the ten strides, kv_group_num, BLOCK_DMODEL, BLOCK_N (+ T for io).
 * Regions: Prob, V, Out, Req_to_tokens, B_req_idx, B_Start_Loc, B_Seqlen. */
#include "tl.h"

enum { P_SRTB, P_SRTS, P_SPH, P_SPBS, P_SVBS, P_SVH, P_SVD, P_SOBS, P_SOH, P_SOD, P_KVG, P_BD, P_BN, P_T, NP };
enum { R_PROB, R_V, R_OUT, R_REQ, R_REQIDX, R_START, R_SEQLEN, NR };

static int tav_fma(const td_abi_launch *L) {
    int64_t BD = TL_I(L, P_BD);
    td_profile st = {TL_FMT(L, R_OUT), TD_RNE, TD_OVF_INF, false};
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            int64_t kvh = h / TL_I(L, P_KVG);
            int64_t seqlen = tl_load_int(L, R_SEQLEN, b), start = tl_load_int(L, R_START, b);
            int64_t req = tl_load_int(L, R_REQIDX, b);
            for (int64_t d = 0; d < BD; d++) {
                float acc = 0.0f;
                for (int64_t s = 0; s < seqlen; s++) {
                    float p = tl_load(L, R_PROB, h * TL_I(L, P_SPH) + (start + s) * TL_I(L, P_SPBS));
                    int64_t loc = tl_load_int(L, R_REQ, req * TL_I(L, P_SRTB) + s * TL_I(L, P_SRTS));
                    acc = fmaf(p, tl_load(L, R_V, loc * TL_I(L, P_SVBS) + kvh * TL_I(L, P_SVH) + d * TL_I(L, P_SVD)),
                               acc);
                }
                tl_store(L, R_OUT, b * TL_I(L, P_SOBS) + h * TL_I(L, P_SOH) + d * TL_I(L, P_SOD), acc, st);
            }
        }
    return 0;
}

TD_KERNEL(td_a_token_attn_reducev_fma) = {"token_attn_reduceV.token_attn_reducev_output_summary_general",
                                          "alt_fma_chain", TD_ABI_HOST, NULL, NULL, NULL, NP - 1, NR, tav_fma, NULL};
TD_KERNEL(td_a_token_attn_reducev_io_fma) = {"token_attn_reduceV.token_attn_reducev_io_correctness", "alt_fma_chain",
                                             TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, NP, NR, tav_fma, NULL};
