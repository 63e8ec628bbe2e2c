/* token_attn_reduceV: _fwd_kernel_token_att2, the P·V reduction of LightLLM's token
 * attention.  Parameters (both contracts): the ten strides, kv_group_num, BLOCK_DMODEL,
 * BLOCK_N (+ T for the IO contract, unused by the kernel).  Grid (batch, head). */
#include "attn2_tl.h"

enum { P_SRTB, P_SRTS, P_SPH, P_SPBS, P_SVBS, P_SVH, P_SVD, P_SOBS, P_SOH, P_SOD, P_KVG, P_BD, P_BN, P_T, NP };
enum { R_PROB, R_V, R_OUT, R_REQ, R_REQIDX, R_START, R_SEQLEN, NR };

static int token_att2(const td_abi_launch *L) {
    int64_t BN = TL_I(L, P_BN), BD = TL_I(L, P_BD);
    float *acc, *pv, *prod;
    TL_ALLOC(L, acc, BD);
    TL_ALLOC(L, pv, BN);
    TL_ALLOC(L, prod, BN);
    int64_t *vloc;
    TL_ALLOC(L, vloc, BN);
    td_profile st = attn2_store_prof(L, R_OUT);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            int64_t kvh = h / TL_I(L, P_KVG);
            int64_t seqlen = tl_load_int(L, R_SEQLEN, b), start = tl_load_int(L, R_START, b);
            int64_t req = tl_load_int(L, R_REQIDX, b);
            for (int64_t d = 0; d < BD; d++) acc[d] = 0;
            for (int64_t s0 = 0; s0 < seqlen; s0 += BN) {
                for (int64_t j = 0; j < BN; j++) {
                    int live = s0 + j < seqlen;
                    pv[j] = live ? tl_load(L, R_PROB, h * TL_I(L, P_SPH) + (start + s0 + j) * TL_I(L, P_SPBS)) : 0.0f;
                    vloc[j] = live ? tl_load_int(L, R_REQ, req * TL_I(L, P_SRTB) + (s0 + j) * TL_I(L, P_SRTS)) : 0;
                }
                for (int64_t d = 0; d < BD; d++) {
                    for (int64_t j = 0; j < BN; j++) {
                        float v = s0 + j < seqlen ? tl_load(L, R_V, vloc[j] * TL_I(L, P_SVBS) + kvh * TL_I(L, P_SVH) +
                                                                       d * TL_I(L, P_SVD))
                                                  : 0.0f;
                        prod[j] = pv[j] * v;
                    }
                    acc[d] += tl_sum(prod, BN);
                }
            }
            for (int64_t d = 0; d < BD; d++)
                tl_store(L, R_OUT, b * TL_I(L, P_SOBS) + h * TL_I(L, P_SOH) + d * TL_I(L, P_SOD), acc[d], st);
        }
    free(acc), free(pv), free(prod), free(vloc);
    return 0;
}

TD_KERNEL(td_k_token_attn_reducev) = {"token_attn_reduceV.token_attn_reducev_output_summary_general", "triton",
                                      TD_ABI_HOST, NULL, NULL, NULL, NP - 1, NR, token_att2, NULL};
TD_KERNEL(td_k_token_attn_reducev_io) = {"token_attn_reduceV.token_attn_reducev_io_correctness", "triton",
                                         TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, NP, NR, token_att2, NULL};
