/* matmul4_kernel (GPTQ int4 GEMM; matmul_dequantize and matmul_dequantize_int4) on the
 * CPU, shared by the ports and their mutants: grouped order (pid_m = first_pid_m +
 * pid % group_size_m), A's rows masked by offs_am < M (other 0), per K block the packed
 * words at offs_k // 8 (+ BK // 8 per block), the scales and zero points of group row
 * NO_GROUPS ? 0 : k // (groupsize // BK), the scaled zero point zeros * scales, the
 * weight b * scales - zeros in binary32, tl.dot (binary32 products, the BK lanes summed
 * by a pairwise tree) added to the binary32 accumulator, the masked store of the
 * accumulator.
 * Parameters: M N K sam sak sbk sbn scm scn ssg ssn szg szn groupsize NO_GROUPS BM BN BK
 * GM.  Regions: a, c, scales (binary32), b, zeros (int32). */
#ifndef TD_G4_TL_H
#define TD_G4_TL_H

#include "tl.h"

enum { G4_M, G4_N, G4_K, G4_SAM, G4_SAK, G4_SBK, G4_SBN, G4_SCM, G4_SCN, G4_SSG, G4_SSN, G4_SZG, G4_SZN, G4_GS,
       G4_NOG, G4_BM, G4_BN, G4_BK, G4_GM };
enum { G4_RA, G4_RC, G4_RS, G4_RB, G4_RZ };

typedef struct g4_bugs {
    int nibbles_swapped; /* shift (7 - k % 8)*4 */
    int zp_unscaled;     /* b * scales - zeros: the zero point not multiplied by the scale */
    int group_blockidx;  /* group row k // groupsize with k the K-block index (the // BK lost) */
    int a_off_i32;       /* offs_am[:, None] * stride_am formed in int32 (wraps beyond 2^31) */
} g4_bugs;

/* the dequantized weight column of K block kb, lane e (group row g) */
static inline float g4_weight(const td_abi_launch *L, const g4_bugs *bug, int64_t kb, int64_t e, int64_t g,
                              int64_t col) {
    int64_t BK = TL_I(L, G4_BK);
    int32_t b = (int32_t)tl_load_int(L, G4_RB, (e / 8 + kb * (BK / 8)) * TL_I(L, G4_SBK) + col * TL_I(L, G4_SBN));
    int32_t z = (int32_t)tl_load_int(L, G4_RZ, g * TL_I(L, G4_SZG) + col / 8 * TL_I(L, G4_SZN));
    float s = tl_load(L, G4_RS, g * TL_I(L, G4_SSG) + col * TL_I(L, G4_SSN));
    int32_t q = (b >> (bug->nibbles_swapped ? (7 - e % 8) * 4 : (e % 8) * 4)) & 0xF;
    int32_t zq = (z >> ((col % 8) * 4)) & 0xF;
    float zs = bug->zp_unscaled ? (float)zq : (float)zq * s;
    return (float)q * s - zs;
}

static inline int g4_run(const td_abi_launch *L, const g4_bugs *bug) {
    int64_t M = TL_I(L, G4_M), N = TL_I(L, G4_N), K = TL_I(L, G4_K), BM = TL_I(L, G4_BM), BN = TL_I(L, G4_BN);
    int64_t BK = TL_I(L, G4_BK), GM = TL_I(L, G4_GM), gs = TL_I(L, G4_GS), nog = TL_I(L, G4_NOG);
    int64_t nm = (M + BM - 1) / BM, nn = (N + BN - 1) / BN, nig = GM * nn, T = (K + BK - 1) / BK;
    float *prod;
    TL_ALLOC(L, prod, BK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t fpm = pid / nig * GM, gsm = nm - fpm < GM ? nm - fpm : GM;
        int64_t pm = fpm + (int64_t)pid % gsm, pn = ((int64_t)pid % nig) / gsm;
        for (int64_t i = 0; i < BM; i++)
            for (int64_t j = 0; j < BN; j++) {
                int64_t row = pm * BM + i, col = pn * BN + j;
                int64_t arow = bug->a_off_i32 ? tl_i32(row * tl_i32(TL_I(L, G4_SAM))) : row * TL_I(L, G4_SAM);
                if (bug->a_off_i32 && row < M && tl_fault(L, G4_RA, arow, K, TL_I(L, G4_SAK), pid)) {
                    free(prod);
                    return 1;
                }
                float acc = 0.0f;
                for (int64_t kb = 0; kb < T; kb++) {
                    int64_t g = nog ? 0 : bug->group_blockidx ? kb / gs : kb / (gs / BK);
                    for (int64_t e = 0; e < BK; e++) {
                        float a = row < M ? tl_load(L, G4_RA, arow + (kb * BK + e) * TL_I(L, G4_SAK))
                                          : 0.0f;
                        prod[e] = a * g4_weight(L, bug, kb, e, g, col);
                    }
                    acc = acc + tl_sum(prod, BK);
                }
                if (row < M && col < N)
                    tl_store(L, G4_RC, TL_I(L, G4_SCM) * row + TL_I(L, G4_SCN) * col, acc, tl_f32());
            }
    }
    free(prod);
    return 0;
}

#endif /* TD_G4_TL_H */
