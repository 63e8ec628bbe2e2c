/* int8_dequant_matmul's program on the CPU, shared by the port (kernels/host) and its
 * mutants: _int8_matmul_rowwise_dequantize with SPLIT_K = 1 and EVEN_K (unmasked K
 * loads): the grouped order pid_m = group_id*GROUP_M + pid % group_size, ram = rm % M,
 * rbn = rn % N, w_factor = state_w[rbn], x_factor = state_x[ram], an int32 accumulator
 * of int8 tl.dot steps (two's complement: wraps), `w_factor * (x_factor * (acc *
 * divfactor))` in binary32, `.to(fp16)`, then with has_bias `+ bias[rn]` (fp16 operands
 * added in binary32, rounded to fp16) and the masked fp16 store.
 * Parameters: M N K divfactor has_bias sam sak sbk sbn scm scn BM BN BK GM numKBlocks.
 * Regions: A, B (int8), C (fp16), bias (fp16), state_x, state_w (binary32). */
#ifndef TD_IDM_TL_H
#define TD_IDM_TL_H

#include "tl.h"

enum { IDM_M, IDM_N, IDM_K, IDM_DIV, IDM_HASB, IDM_SAM, IDM_SAK, IDM_SBK, IDM_SBN, IDM_SCM, IDM_SCN, IDM_BM,
       IDM_BN, IDM_BK, IDM_GM };
enum { IDM_RA, IDM_RB, IDM_RC, IDM_RBIAS, IDM_RSX, IDM_RSW };

typedef struct idm_bugs {
    int x_per_col;    /* x_factor loaded at rbn: the row scale applied per column */
    int w_per_row;    /* w_factor loaded at ram: the column scale applied per row (the states swapped) */
    int bias_always;  /* the has_bias guard dropped: the bias buffer always added */
    int a_off_i32;    /* ram[:, None] * stride_am formed in int32 (wraps beyond 2^31) */
} idm_bugs;

static inline float idm_f16(float v) {
    td_profile p = {TD_F16, TD_RNE, TD_OVF_INF, false};
    return (float)td_decode(TD_F16, td_encode_f32(p, v));
}

/* One output cell of program (pm, pn): the K loop and the epilogue's value. */
static inline float idm_cell(const td_abi_launch *L, const idm_bugs *bug, int64_t row, int64_t col) {
    int64_t M = TL_I(L, IDM_M), N = TL_I(L, IDM_N), K = TL_I(L, IDM_K), BK = TL_I(L, IDM_BK);
    int64_t ram = row % M, rbn = col % N, T = (K + BK - 1) / BK;
    const int8_t *A = TL_BASE(L, IDM_RA), *B = TL_BASE(L, IDM_RB);
    int64_t arow = bug->a_off_i32 ? tl_i32(ram * tl_i32(TL_I(L, IDM_SAM))) : ram * TL_I(L, IDM_SAM);
    uint32_t acc = 0;
    for (int64_t t = 0; t < T; t++) {
        uint32_t dot = 0;
        for (int64_t e = 0; e < BK; e++) {
            int64_t k = t * BK + e;
            dot += (uint32_t)((int32_t)A[arow + k * TL_I(L, IDM_SAK)] *
                              (int32_t)B[k * TL_I(L, IDM_SBK) + rbn * TL_I(L, IDM_SBN)]);
        }
        acc += dot;
    }
    float x = ((const float *)TL_BASE(L, IDM_RSX))[bug->x_per_col ? rbn : ram];
    float w = ((const float *)TL_BASE(L, IDM_RSW))[bug->w_per_row ? ram : rbn];
    float a = (float)(int32_t)acc;
    float v = idm_f16(w * (x * (a * TL_R(L, IDM_DIV))));
    if (TL_I(L, IDM_HASB) || bug->bias_always) v = v + tl_load(L, IDM_RBIAS, col);
    return v;
}

static inline int idm_run(const td_abi_launch *L, const idm_bugs *bug) {
    int64_t M = TL_I(L, IDM_M), N = TL_I(L, IDM_N), BM = TL_I(L, IDM_BM), BN = TL_I(L, IDM_BN);
    int64_t GM = TL_I(L, IDM_GM), nm = (M + BM - 1) / BM, nn = (N + BN - 1) / BN, width = GM * nn;
    td_profile st = {TD_F16, TD_RNE, TD_OVF_INF, false};
    if (bug->x_per_col && tl_fault(L, IDM_RSX, 0, N, 1, 0)) return 1; /* state_x read at rbn < N */
    if (bug->w_per_row && tl_fault(L, IDM_RSW, 0, M, 1, 0)) return 1; /* state_w read at ram < M */
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t gid = pid / width, gsz = nm - gid * GM < GM ? nm - gid * GM : GM;
        int64_t pm = gid * GM + (int64_t)pid % gsz, pn = ((int64_t)pid % width) / gsz;
        for (int64_t i = 0; i < BM && bug->a_off_i32; i++) { /* the program's A rows, loaded before the K loop */
            int64_t ram = (pm * BM + i) % M, off = tl_i32(ram * tl_i32(TL_I(L, IDM_SAM)));
            if (tl_fault(L, IDM_RA, off, TL_I(L, IDM_K), TL_I(L, IDM_SAK), pid)) return 1;
        }
        for (int64_t i = 0; i < BM; i++)
            for (int64_t j = 0; j < BN; j++) {
                int64_t row = pm * BM + i, col = pn * BN + j;
                if (!(row < M && col < N)) continue; /* the store mask */
                tl_store(L, IDM_RC, row * TL_I(L, IDM_SCM) + col * TL_I(L, IDM_SCN), idm_cell(L, bug, row, col), st);
            }
    }
    return 0;
}

#endif /* TD_IDM_TL_H */
