/* int4_matmul's matmul_kernel on the CPU (SPLIT_K = 1), shared by the port and its
 * mutants: grouped order (pid_m = first_pid_m + pid % group_size_m), rows / columns
 * loaded at % M / % N, per BK step the packed words at (offs_k // 8), the scales and
 * zero points at ((offs_k + k*BK) // group_size), the weight ((q - zp) * bs) in
 * binary32, `tl.dot` (binary32 products, the BK lanes summed by a pairwise tree) added
 * to the binary32 accumulator, the masked store.
 * Parameters: M N K sam sak sbk sbn scm scn sbsk sbsn sbzpk sbzpn group_size BM BN BK GM
 * numKBlocks.  Regions: a, c, bs (binary32), b, bzp (int32). */
#ifndef TD_I4MM_TL_H
#define TD_I4MM_TL_H

#include "tl.h"

enum { I4_M, I4_N, I4_K, I4_SAM, I4_SAK, I4_SBK, I4_SBN, I4_SCM, I4_SCN, I4_SBSK, I4_SBSN, I4_SBZK, I4_SBZN, I4_GS,
       I4_BM, I4_BN, I4_BK, I4_GM };
enum { I4_RA, I4_RC, I4_RBS, I4_RB, I4_RBZP };

typedef struct i4_bugs {
    int nibbles_swapped; /* shift (7 - k % 8)*4 */
    int zp_after_scale;  /* q * bs - zp */
    int group_no_adv;    /* scale / zero-point rows from offs_k // group_size (the + k*BK dropped) */
    int a_off_i32;       /* offs_am[:, None] * stride_am formed in int32 (wraps beyond 2^31) */
} i4_bugs;

static inline float i4_weight(const td_abi_launch *L, const i4_bugs *bug, int64_t k, int64_t kg, int64_t col) {
    int64_t g = kg / TL_I(L, I4_GS);
    int32_t b = ((const int32_t *)TL_BASE(L, I4_RB))[k / 8 * TL_I(L, I4_SBK) + col * TL_I(L, I4_SBN)];
    int32_t z = ((const int32_t *)TL_BASE(L, I4_RBZP))[g * TL_I(L, I4_SBZK) + col / 8 * TL_I(L, I4_SBZN)];
    float s = ((const float *)TL_BASE(L, I4_RBS))[g * TL_I(L, I4_SBSK) + col * TL_I(L, I4_SBSN)];
    int32_t q = (b >> (bug->nibbles_swapped ? (7 - k % 8) * 4 : (k % 8) * 4)) & 0xF;
    int32_t zq = (z >> ((col % 8) * 4)) & 0xF;
    return bug->zp_after_scale ? (float)q * s - (float)zq : (float)(q - zq) * s;
}

static inline int i4_run(const td_abi_launch *L, const i4_bugs *bug) {
    int64_t M = TL_I(L, I4_M), N = TL_I(L, I4_N), K = TL_I(L, I4_K), BM = TL_I(L, I4_BM), BN = TL_I(L, I4_BN);
    int64_t BK = TL_I(L, I4_BK), GM = TL_I(L, I4_GM), nm = (M + BM - 1) / BM, nn = (N + BN - 1) / BN;
    int64_t nig = GM * nn, T = (K + BK - 1) / BK;
    float *prod;
    TL_ALLOC(L, prod, BK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t fpm = pid / nig * GM, gsm = nm - fpm < GM ? nm - fpm : GM;
        int64_t pm = fpm + (int64_t)pid % gsm, pn = ((int64_t)pid % nig) / gsm;
        for (int64_t i = 0; i < BM; i++)
            for (int64_t j = 0; j < BN; j++) {
                int64_t row = pm * BM + i, col = pn * BN + j, ar = row % M, bc = col % N;
                int64_t aoff = bug->a_off_i32 ? tl_i32(ar * tl_i32(TL_I(L, I4_SAM))) : ar * TL_I(L, I4_SAM);
                if (bug->a_off_i32 && tl_fault(L, I4_RA, aoff, K, TL_I(L, I4_SAK), pid)) {
                    free(prod);
                    return 1;
                }
                float acc = 0.0f;
                for (int64_t t = 0; t < T; t++) {
                    for (int64_t e = 0; e < BK; e++) {
                        int64_t k = t * BK + e, kg = bug->group_no_adv ? e : k;
                        float a = ((const float *)TL_BASE(L, I4_RA))[aoff + k * TL_I(L, I4_SAK)];
                        prod[e] = a * i4_weight(L, bug, k, kg, bc);
                    }
                    acc = acc + tl_sum(prod, BK);
                }
                if (row < M && col < N)
                    ((float *)TL_BASE(L, I4_RC))[TL_I(L, I4_SCM) * row + TL_I(L, I4_SCN) * col] = acc;
            }
    }
    free(prod);
    return 0;
}

#endif /* TD_I4MM_TL_H */
