/* softmax_reducev: the host kernel's program, shared by kernels/host/softmax_reducev.c
 * (bug 0: the Triton kernel as written) and kernels/mutants/softmax_reducev.c (one BUG_*
 * switched on each). With bug 0 every switch takes the kernel's own branch, so the correct
 * kernel runs the same operations in the same order. */
#ifndef TD_SOFTMAX_REDUCEV_TL_H
#define TD_SOFTMAX_REDUCEV_TL_H

#include "attn2_tl.h"

enum { P_MIL, P_SLH, P_SLB, P_SVBS, P_SVH, P_SVD, P_SOB, P_SOH, P_SOD, P_SB, P_SS, P_BD, P_BN, P_OTHER, P_MR, NP };
enum { R_LOGICS, R_V, R_OUT, R_BLOC, R_START, R_SEQLEN, NR };
enum { BUG_SUM_NOT_RESCALED = 1, BUG_NO_MAX = 2, BUG_OFFSET_INT32 = 3 };  /* 0: no bug */

/* Logics' element h*slh + t*slb; int32 (BUG_OFFSET_INT32): the offset as Triton's int32
 * arithmetic leaves it (pids, loaded starts and strides below 2^31 are int32), which past
 * 2^31 elements wraps (tl_i32) to an illegal address (tl_fault: *fault set). */
static inline int64_t srv_logic_off(const td_abi_launch *L, int64_t h, int64_t t, int int32, uint32_t pid,
                                    int *fault) {
    if (!int32) return h * TL_I(L, P_SLH) + t * TL_I(L, P_SLB);
    int64_t off = tl_i32(h * tl_i32(TL_I(L, P_SLH)) + t * tl_i32(TL_I(L, P_SLB)));
    if (!*fault) *fault = tl_fault(L, R_LOGICS, off, 1, 1, pid);
    return *fault ? 0 : off;
}
static inline int softmax_reducev_program(const td_abi_launch *L, int bug) {
    int64_t BN = TL_I(L, P_BN), BD = TL_I(L, P_BD), mil = TL_I(L, P_MIL);
    float *acc, *qk, *p, *pv;
    int64_t *vidx;
    TL_ALLOC(L, acc, BD);
    TL_ALLOC(L, qk, BN);
    TL_ALLOC(L, p, BN);
    TL_ALLOC(L, pv, BN);
    TL_ALLOC(L, vidx, BN);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t h = 0; h < L->grid[1]; h++) {
            int64_t seqlen = tl_load_int(L, R_SEQLEN, b), start = tl_load_int(L, R_START, b);
            int64_t off_b_loc = b * TL_I(L, P_SB) + (mil - seqlen) * TL_I(L, P_SS);
            float e_max = -INFINITY, e_sum = 0.0f;
            for (int64_t d = 0; d < BD; d++) acc[d] = 0.0f;
            for (int64_t s0 = 0; s0 < seqlen; s0 += BN) {
                int fault = 0;
                for (int64_t j = 0; j < BN; j++) {
                    int live = s0 + j < seqlen;
                    vidx[j] = live ? tl_load_int(L, R_BLOC, off_b_loc + (s0 + j) * TL_I(L, P_SS)) : TL_I(L, P_OTHER);
                    qk[j] = live ? tl_load(L, R_LOGICS,
                                           srv_logic_off(L, h, start + s0 + j, bug == BUG_OFFSET_INT32, b, &fault))
                                 : -INFINITY;
                }
                if (fault) {
                    free(acc), free(qk), free(p), free(pv), free(vidx);
                    return 1;
                }
                float m = tl_max(qk, BN);
                float n_e_max = m > e_max ? m : e_max;
                float old_scale = expf(e_max - n_e_max);
                for (int64_t j = 0; j < BN; j++) p[j] = bug == BUG_NO_MAX ? expf(qk[j]) : expf(qk[j] - n_e_max);
                /* no max subtraction means no rescaling either: plain running sums */
                int plain = bug == BUG_SUM_NOT_RESCALED || bug == BUG_NO_MAX;
                e_sum = plain ? e_sum + tl_sum(p, BN) : e_sum * old_scale + tl_sum(p, BN);
                for (int64_t d = 0; d < BD; d++) {
                    for (int64_t j = 0; j < BN; j++)
                        pv[j] = p[j] * tl_load(L, R_V, vidx[j] * TL_I(L, P_SVBS) + h * TL_I(L, P_SVH) +
                                                           d * TL_I(L, P_SVD));
                    acc[d] = (bug == BUG_NO_MAX ? acc[d] : acc[d] * old_scale) + tl_sum(pv, BN);
                }
                e_max = n_e_max;
            }
            td_profile st = attn2_store_prof(L, R_OUT);
            for (int64_t d = 0; d < BD; d++)
                tl_store(L, R_OUT, b * TL_I(L, P_SOB) + h * TL_I(L, P_SOH) + d * TL_I(L, P_SOD), acc[d] / e_sum, st);
        }
    free(acc), free(qk), free(p), free(pv), free(vidx);
    return 0;
}

#endif
