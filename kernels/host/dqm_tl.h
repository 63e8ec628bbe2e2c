/* dequantize_matmul's dequantize_kernel on the CPU, shared by the port and its
 * mutants: program (k_block, n_block) of the 2-D grid, the [BSK, BSN] tile, the int8
 * weight loaded under the K and N mask (other 0), the column scale under the N mask,
 * `int_b * scale_b` in binary32 and the masked binary32 store.
 * Parameters: K N stride_bk stride_bn stride_fpbk stride_fpbn BLOCK_SIZE_N BLOCK_SIZE_K.
 * Regions: b (int8), b_scale (binary32), fp_b (binary32). */
#ifndef TD_DQM_TL_H
#define TD_DQM_TL_H

#include "tl.h"

enum { DQM_K, DQM_N, DQM_SBK, DQM_SBN, DQM_SFK, DQM_SFN, DQM_BSN, DQM_BSK };
enum { DQM_RB, DQM_RS, DQM_RF };

typedef struct dqm_bugs {
    int scale_per_row;  /* bs_offs built from the K offsets: the scale indexed by row */
    int k_unmasked;     /* mask = n_mask only: the last K block's rows past K loaded and stored */
    int no_sign_ext;    /* the int8 weight read as uint8 (sign extension missing) */
    int b_off_i32;      /* b_offs formed in int32 (wraps beyond 2^31 elements) */
} dqm_bugs;

static inline int dqm_run(const td_abi_launch *L, const dqm_bugs *bug) {
    int64_t K = TL_I(L, DQM_K), N = TL_I(L, DQM_N), BSK = TL_I(L, DQM_BSK), BSN = TL_I(L, DQM_BSN);
    int64_t sbk = TL_I(L, DQM_SBK), sbn = TL_I(L, DQM_SBN), sfk = TL_I(L, DQM_SFK), sfn = TL_I(L, DQM_SFN);
    const int8_t *B = TL_BASE(L, DQM_RB);
    for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
            for (int64_t i = 0; i < BSK; i++)
                for (int64_t j = 0; j < BSN; j++) {
                    int64_t k = p0 * BSK + i, n = p1 * BSN + j, s_off = bug->scale_per_row ? k : n;
                    int n_mask = n < N, mask = (bug->k_unmasked || k < K) && n_mask;
                    if (!mask) continue;
                    int64_t bo = bug->b_off_i32 ? tl_i32(k * tl_i32(sbk) + n * sbn) : k * sbk + n * sbn;
                    if (tl_fault(L, DQM_RB, bo, 1, 1, p0) || tl_fault(L, DQM_RS, s_off, 1, 1, p0) ||
                        tl_fault(L, DQM_RF, k * sfk + n * sfn, 1, 1, p0))
                        return 1;
                    int8_t q = B[bo];
                    float int_b = bug->no_sign_ext ? (float)(uint8_t)q : (float)q;
                    float scale_b = ((const float *)TL_BASE(L, DQM_RS))[s_off];
                    ((float *)TL_BASE(L, DQM_RF))[k * sfk + n * sfn] = int_b * scale_b;
                }
    return 0;
}

#endif /* TD_DQM_TL_H */
