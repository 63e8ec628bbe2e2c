/* matmul_dequantize's matmul_kernel on the CPU (SPLIT_K = 1), shared by the port and
 * its mutants: grouped order (pid_m = first_pid_m + pid % group_size_m), rows / columns
 * loaded at % M / % N, per BK step the packed words at offs_k // 8, the scale and zero
 * point rows at (offs_k + k*BK) // group_size, the weight ((q - zp) * bs).to(fp16), the
 * dot of a.to(fp16) and the weight (binary32 products of fp16 values, the BK lanes
 * summed by a pairwise tree) added to the binary32 accumulator, the masked store of
 * accumulator.to(fp16).
 * Parameters: M N K sam sak sbk sbn scm scn sbsk sbsn sbzpk sbzpn group_size BM BN BK GM
 * numKBlocks.  Regions: a, c, bs (fp16), b, bzp (int32). */
#ifndef TD_MDQ_TL_H
#define TD_MDQ_TL_H

#include "tl.h"

enum { MDQ_M, MDQ_N, MDQ_K, MDQ_SAM, MDQ_SAK, MDQ_SBK, MDQ_SBN, MDQ_SCM, MDQ_SCN, MDQ_SBSK, MDQ_SBSN, MDQ_SBZK,
       MDQ_SBZN, MDQ_GS, MDQ_BM, MDQ_BN, MDQ_BK, MDQ_GM };
enum { MDQ_RA, MDQ_RC, MDQ_RBS, MDQ_RB, MDQ_RBZP };

typedef struct mdq_bugs {
    int nibbles_swapped; /* shift (7 - k % 8)*4 */
    int zp_after_scale;  /* q * bs - zp */
    int group_no_adv;    /* scale / zero-point rows from offs_k // group_size (the + k*BK dropped) */
    int acc_f16;         /* the accumulator kept in fp16 (rounded after every step) */
    int a_off_i32;       /* offs_am[:, None] * stride_am formed in int32 (wraps beyond 2^31) */
} mdq_bugs;

static inline td_profile mdq_f16(void) {
    td_profile p = {TD_F16, TD_RNE, TD_OVF_INF, false};
    return p;
}
static inline float mdq_to_f16(float x) { return (float)td_decode(TD_F16, td_encode_f32(mdq_f16(), x)); }

static inline float mdq_weight(const td_abi_launch *L, const mdq_bugs *bug, int64_t k, int64_t kg, int64_t col) {
    int64_t g = kg / TL_I(L, MDQ_GS);
    int32_t b = (int32_t)tl_load_int(L, MDQ_RB, k / 8 * TL_I(L, MDQ_SBK) + col * TL_I(L, MDQ_SBN));
    int32_t z = (int32_t)tl_load_int(L, MDQ_RBZP, g * TL_I(L, MDQ_SBZK) + col / 8 * TL_I(L, MDQ_SBZN));
    float s = tl_load(L, MDQ_RBS, g * TL_I(L, MDQ_SBSK) + col * TL_I(L, MDQ_SBSN));
    int32_t q = (b >> (bug->nibbles_swapped ? (7 - k % 8) * 4 : (k % 8) * 4)) & 0xF;
    int32_t zq = (z >> ((col % 8) * 4)) & 0xF;
    return mdq_to_f16(bug->zp_after_scale ? (float)q * s - (float)zq : (float)(q - zq) * s);
}

static inline int mdq_run(const td_abi_launch *L, const mdq_bugs *bug) {
    int64_t M = TL_I(L, MDQ_M), N = TL_I(L, MDQ_N), K = TL_I(L, MDQ_K), BM = TL_I(L, MDQ_BM), BN = TL_I(L, MDQ_BN);
    int64_t BK = TL_I(L, MDQ_BK), GM = TL_I(L, MDQ_GM), nm = (M + BM - 1) / BM, nn = (N + BN - 1) / BN;
    int64_t nig = GM * nn, T = (K + BK - 1) / BK;
    float *prod;
    TL_ALLOC(L, prod, BK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t fpm = pid / nig * GM, gsm = nm - fpm < GM ? nm - fpm : GM;
        int64_t pm = fpm + (int64_t)pid % gsm, pn = ((int64_t)pid % nig) / gsm;
        for (int64_t i = 0; i < BM; i++)
            for (int64_t j = 0; j < BN; j++) {
                int64_t row = pm * BM + i, col = pn * BN + j, ar = row % M, bc = col % N;
                int64_t arow = bug->a_off_i32 ? tl_i32(ar * tl_i32(TL_I(L, MDQ_SAM))) : ar * TL_I(L, MDQ_SAM);
                if (bug->a_off_i32 && tl_fault(L, MDQ_RA, arow, K, TL_I(L, MDQ_SAK), pid)) {
                    free(prod);
                    return 1;
                }
                float acc = 0.0f;
                for (int64_t t = 0; t < T; t++) {
                    for (int64_t e = 0; e < BK; e++) {
                        int64_t k = t * BK + e, kg = bug->group_no_adv ? e : k;
                        float a = tl_load(L, MDQ_RA, arow + k * TL_I(L, MDQ_SAK));
                        prod[e] = a * mdq_weight(L, bug, k, kg, bc);
                    }
                    acc = acc + tl_sum(prod, BK);
                    if (bug->acc_f16) acc = mdq_to_f16(acc);
                }
                if (row < M && col < N)
                    tl_store(L, MDQ_RC, TL_I(L, MDQ_SCM) * row + TL_I(L, MDQ_SCN) * col, acc, mdq_f16());
            }
    }
    free(prod);
    return 0;
}

#endif /* TD_MDQ_TL_H */
