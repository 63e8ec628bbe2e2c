/* matmul_dequant_int4's dequantize_kernel on the CPU, shared by the port and its
 * mutants: program (k_block, n_block), the [BK, BN] tile under mask = n_mask & k_mask
 * (other 0), the int32 words of b at (k // 8, n) and of b_zp at (k // group_size,
 * n // 8), the scale at (k // group_size, n), `((b >> (k % 8)*4) & 0xF) - ((zp >>
 * (n % 8)*4) & 0xF)` (arithmetic shifts of int32, masked), times the scale in binary32,
 * the masked store.
 * Parameters: K N group_size sbk sbn sbsk sbsn sbzpk sbzpn sfpbk sfpbn BK BN.
 * Regions: b (int32), b_scale (binary32), b_zp (int32), fp_b (binary32). */
#ifndef TD_MDI4_TL_H
#define TD_MDI4_TL_H

#include "tl.h"

enum { MDI4_K, MDI4_N, MDI4_GS, MDI4_SBK, MDI4_SBN, MDI4_SBSK, MDI4_SBSN, MDI4_SBZK, MDI4_SBZN, MDI4_SFK, MDI4_SFN,
       MDI4_BK, MDI4_BN };
enum { MDI4_RB, MDI4_RS, MDI4_RZ, MDI4_RF };

typedef struct mdi4_bugs {
    int nibbles_swapped; /* shift (7 - k % 8)*4: the high nibble taken first */
    int zp_after_scale;  /* q * scale - zp: the zero point subtracted after scaling */
    int group8;          /* scale and zero point indexed by k // 8 (the packing factor) */
    int b_off_i32;       /* b_offs = (offs_k // 8) * stride_bk + ... formed in int32 (wraps beyond 2^31) */
} mdi4_bugs;

static inline int64_t mdi4_boff(const td_abi_launch *L, const mdi4_bugs *bug, int64_t k, int64_t n) {
    int64_t o = k / 8 * TL_I(L, MDI4_SBK) + n * TL_I(L, MDI4_SBN);
    return bug->b_off_i32 ? tl_i32(k / 8 * tl_i32(TL_I(L, MDI4_SBK)) + n * TL_I(L, MDI4_SBN)) : o;
}

static inline float mdi4_value(const td_abi_launch *L, const mdi4_bugs *bug, int64_t k, int64_t n) {
    int64_t g = bug->group8 ? k / 8 : k / TL_I(L, MDI4_GS);
    int32_t b = ((const int32_t *)TL_BASE(L, MDI4_RB))[mdi4_boff(L, bug, k, n)];
    int32_t z = ((const int32_t *)TL_BASE(L, MDI4_RZ))[g * TL_I(L, MDI4_SBZK) + n / 8 * TL_I(L, MDI4_SBZN)];
    float s = ((const float *)TL_BASE(L, MDI4_RS))[g * TL_I(L, MDI4_SBSK) + n * TL_I(L, MDI4_SBSN)];
    int64_t bs = bug->nibbles_swapped ? (7 - k % 8) * 4 : (k % 8) * 4;
    int32_t qb = (b >> bs) & 0xF, qz = (z >> ((n % 8) * 4)) & 0xF; /* >> of int32: arithmetic, as Triton's */
    if (bug->zp_after_scale) return (float)qb * s - (float)qz;
    return (float)(qb - qz) * s;
}

static inline int mdi4_run(const td_abi_launch *L, const mdi4_bugs *bug) {
    int64_t K = TL_I(L, MDI4_K), N = TL_I(L, MDI4_N), BK = TL_I(L, MDI4_BK), BN = TL_I(L, MDI4_BN);
    if (bug->group8) { /* the wrong group index may pass the scale / zero point rows */
        int64_t gr = (K - 1) / 8, nl = N - 1;
        if (tl_fault(L, MDI4_RS, gr * TL_I(L, MDI4_SBSK) + nl * TL_I(L, MDI4_SBSN), 1, 1, 0) ||
            tl_fault(L, MDI4_RZ, gr * TL_I(L, MDI4_SBZK) + nl / 8 * TL_I(L, MDI4_SBZN), 1, 1, 0))
            return 1;
    }
    for (uint32_t p1 = 0; p1 < L->grid[1]; p1++)
        for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
            for (int64_t i = 0; i < BK; i++)
                for (int64_t j = 0; j < BN; j++) {
                    int64_t k = p0 * BK + i, n = p1 * BN + j;
                    if (!(k < K && n < N)) continue;
                    if (bug->b_off_i32 && tl_fault(L, MDI4_RB, mdi4_boff(L, bug, k, n), 1, 1, p0)) return 1;
                    ((float *)TL_BASE(L, MDI4_RF))[k * TL_I(L, MDI4_SFK) + n * TL_I(L, MDI4_SFN)] =
                        mdi4_value(L, bug, k, n);
                }
    return 0;
}

#endif /* TD_MDI4_TL_H */
