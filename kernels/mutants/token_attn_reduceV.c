/* token_attn_reduceV mutants. */
#include "../host/attn2_tl.h"

enum { P_SRTB, P_SRTS, P_SPH, P_SPBS, P_SVBS, P_SVH, P_SVD, P_SOBS, P_SOH, P_SOD, P_KVG, P_BD, P_BN, P_T, NP };
enum { R_PROB, R_V, R_OUT, R_REQ, R_REQIDX, R_START, R_SEQLEN, NR };

/* mode 0: the KV head is the query head (kv_group_num ignored: GQA broken);
 * mode 1: the loads drop their masks (the loop assumes seqlen % BLOCK_N == 0), so the
 *         last block's tail reads the next tokens' P and slots;
 * mode 2: P's offset cur_head * stride_ph + (start + n) * stride_pbs formed in int32
 *         (Triton's type for pids, loaded starts and strides below 2^31): past 2^31
 *         elements it wraps (tl_i32) to an illegal address (tl_fault) or another head. */
static int token_att2_bug(const td_abi_launch *L, int mode) {
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
            int64_t kvh = mode == 0 ? h : h / TL_I(L, P_KVG);
            int64_t seqlen = tl_load_int(L, R_SEQLEN, b), start = tl_load_int(L, R_START, b);
            int64_t req = tl_load_int(L, R_REQIDX, b);
            for (int64_t d = 0; d < BD; d++) acc[d] = 0;
            for (int64_t s0 = 0; s0 < seqlen; s0 += BN) {
                for (int64_t j = 0; j < BN; j++) {
                    int live = mode == 1 || s0 + j < seqlen;
                    int64_t po = h * TL_I(L, P_SPH) + (start + s0 + j) * TL_I(L, P_SPBS);
                    if (mode == 2 && live) {
                        po = tl_i32(h * tl_i32(TL_I(L, P_SPH)) + (start + s0 + j) * tl_i32(TL_I(L, P_SPBS)));
                        if (tl_fault(L, R_PROB, po, 1, 1, b)) {
                            free(acc), free(pv), free(prod), free(vloc);
                            return 1;
                        }
                    }
                    pv[j] = live ? tl_load(L, R_PROB, po) : 0.0f;
                    vloc[j] = live ? tl_load_int(L, R_REQ, req * TL_I(L, P_SRTB) + (s0 + j) * TL_I(L, P_SRTS)) : 0;
                }
                for (int64_t d = 0; d < BD; d++) {
                    for (int64_t j = 0; j < BN; j++) {
                        int64_t vo = vloc[j] * TL_I(L, P_SVBS) + kvh * TL_I(L, P_SVH) + d * TL_I(L, P_SVD);
                        int live = mode == 1 || s0 + j < seqlen;
                        /* stay inside V: a wrong head past the tensor reads its last row */
                        if (vo >= (int64_t)TL_LEN(L, R_V)) vo = (int64_t)TL_LEN(L, R_V) - 1;
                        prod[j] = pv[j] * (live ? tl_load(L, R_V, vo) : 0.0f);
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
static int gqa_head(const td_abi_launch *L) { return token_att2_bug(L, 0); }
static int tail_unmasked(const td_abi_launch *L) { return token_att2_bug(L, 1); }
static int offset_int32(const td_abi_launch *L) { return token_att2_bug(L, 2); }

TD_KERNEL(td_m_tarv_gqa) = {"token_attn_reduceV.token_attn_reducev_output_summary_general", "mut_gqa_head",
                            TD_ABI_HOST, NULL, NULL, "cur_kv_head = cur_head: the GQA group is ignored", NP - 1, NR,
                            gqa_head, NULL};
TD_KERNEL(td_m_tarv_tail) = {"token_attn_reduceV.token_attn_reducev_output_summary_general", "mut_tail_unmasked",
                             TD_ABI_HOST, NULL, NULL, "P and slot loads unmasked: the last block's tail is summed",
                             NP - 1, NR, tail_unmasked, NULL};
TD_KERNEL(td_m_tarv_io_gqa) = {"token_attn_reduceV.token_attn_reducev_io_correctness", "mut_gqa_head", TD_ABI_HOST,
                               "store=fp16:rne:inf", NULL, "cur_kv_head = cur_head: the GQA group is ignored", NP, NR,
                               gqa_head, NULL};
TD_KERNEL(td_m_tarv_io_tail) = {"token_attn_reduceV.token_attn_reducev_io_correctness", "mut_tail_unmasked",
                                TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                "P and slot loads unmasked: the last block's tail is summed", NP, NR, tail_unmasked, NULL};
TD_KERNEL(td_m_tarv_int32) = {"token_attn_reduceV.token_attn_reducev_output_summary_general", "mut_offset_int32",
                              TD_ABI_HOST, NULL, NULL,
                              "P's offset cur_head * stride_ph + (start + n) * stride_pbs formed in int32 (wraps "
                              "beyond 2^31 elements)",
                              NP - 1, NR, offset_int32, NULL};
TD_KERNEL(td_m_tarv_io_int32) = {"token_attn_reduceV.token_attn_reducev_io_correctness", "mut_offset_int32",
                                 TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                 "P's offset cur_head * stride_ph + (start + n) * stride_pbs formed in int32 (wraps "
                                 "beyond 2^31 elements)",
                                 NP, NR, offset_int32, NULL};
