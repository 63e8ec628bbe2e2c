/* int_scaled_matmul's two programs on the CPU, shared by the ports (kernels/host) and
 * their mutants:
 *   matmul_kernel_with_block_pointers: grouped order (pid_m = first_pid_m + pid %
 *     GROUP_M'), A / B block pointers with boundary_check=(0, 1) (zero outside [M, K] /
 *     [K, N]), range(0, K, BK), an int32 accumulator of int8 tl.dot steps (wraps), the
 *     boundary-checked int32 store at row*scm + col*scn;
 *   scaled_matmul_kernel_with_block_pointers: the same order, ram = rm % M,
 *     rbn = rn % N, `for k in range(K, 0, -BK)` with loads masked by rk < k unless
 *     EVEN_K, then `acc * s1[idx_m]` (int32 -> binary32, one product) stored at
 *     idx_n + N*idx_m under the M/N mask.
 * Parameters: matmul (M N K sam sak sbk sbn scm scn BM BN BK GM); scaled (M N K sam sak
 * sbk sbn scm scn s1m s1n BM BN BK GM EVEN_K numKBlocks).
 * Regions: a, b (int8), c (int32 / binary32), s1 (binary32, scaled only). */
#ifndef TD_ISM_TL_H
#define TD_ISM_TL_H

#include "tl.h"

enum { ISM_M, ISM_N, ISM_K, ISM_SAM, ISM_SAK, ISM_SBK, ISM_SBN, ISM_SCM, ISM_SCN };
enum { ISM_BM_MM = 9, ISM_BN_MM, ISM_BK_MM, ISM_GM_MM };
enum { ISM_BM_SC = 11, ISM_BN_SC, ISM_BK_SC, ISM_GM_SC, ISM_EVEN };
enum { ISM_RA, ISM_RB, ISM_RC, ISM_RS1 };

typedef struct ism_bugs {
    int k_unchecked;  /* matmul: boundary_check=(0,) / scaled: the EVEN_K arm taken always (last K block unmasked) */
    int acc_f32;      /* a binary32 accumulator: inexact once partial sums pass 2^24 */
    int s1_per_col;   /* scaled: s1 loaded at idx_n (the row scale applied per column) */
    int a_off_i32;    /* scaled: ram[:, None] * stride_am formed in int32 (wraps beyond 2^31) */
} ism_bugs;

typedef struct ism_prog {
    int scaled;
    int64_t M, N, K, sam, sak, sbk, sbn, BM, BN, BK, GM;
    int even;
} ism_prog;

static inline ism_prog ism_read(const td_abi_launch *L, int scaled) {
    int o = scaled ? ISM_BM_SC : ISM_BM_MM;
    ism_prog g = {scaled,          TL_I(L, ISM_M),   TL_I(L, ISM_N),   TL_I(L, ISM_K),   TL_I(L, ISM_SAM),
                  TL_I(L, ISM_SAK), TL_I(L, ISM_SBK), TL_I(L, ISM_SBN), TL_I(L, o),       TL_I(L, o + 1),
                  TL_I(L, o + 2),  TL_I(L, o + 3),   scaled ? (int)TL_I(L, ISM_EVEN) : 0};
    return g;
}

/* One output cell's integer dot (row, col in the program's tile; the A row / B column
 * wrapped for the scaled kernel).  Returns 1 on an access outside a region (a
 * mutant's unmasked load: the device's illegal address). */
static inline int ism_cell(const td_abi_launch *L, const ism_prog *g, const ism_bugs *bug, int64_t row,
                           int64_t col, uint32_t pid, uint32_t *acc, float *accf) {
    int64_t ar = g->scaled ? row % g->M : row, bc = g->scaled ? col % g->N : col;
    int64_t T = (g->K + g->BK - 1) / g->BK, arow = bug->a_off_i32 ? tl_i32(ar * tl_i32(g->sam)) : ar * g->sam;
    const int8_t *A = TL_BASE(L, ISM_RA), *B = TL_BASE(L, ISM_RB);
    for (int64_t t = 0; t < T; t++) {
        int64_t k0 = t * g->BK, rem = g->K - k0; /* the scaled loop's k = K - t*BK */
        uint32_t dot = 0;
        for (int64_t e = 0; e < g->BK; e++) {
            int live = g->scaled ? (g->even || bug->k_unchecked || e < rem)
                                 : (ar < g->M && bc < g->N && (bug->k_unchecked || k0 + e < g->K));
            if (!live) continue; /* zero padding / other = 0 */
            int64_t ao = arow + (k0 + e) * g->sak, bo = (k0 + e) * g->sbk + bc * g->sbn;
            if (tl_fault(L, ISM_RA, ao, 1, 1, pid) || tl_fault(L, ISM_RB, bo, 1, 1, pid)) return 1;
            dot += (uint32_t)((int32_t)A[ao] * (int32_t)B[bo]);
        }
        if (bug->acc_f32) *accf += (float)(int32_t)dot;
        else *acc += dot;
    }
    return 0;
}

static inline int ism_run(const td_abi_launch *L, int scaled, const ism_bugs *bug) {
    ism_prog g = ism_read(L, scaled);
    int64_t nm = (g.M + g.BM - 1) / g.BM, nn = (g.N + g.BN - 1) / g.BN, width = g.GM * nn;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t gid = pid / width, gsz = nm - gid * g.GM < g.GM ? nm - gid * g.GM : g.GM;
        int64_t pm = gid * g.GM + (int64_t)pid % gsz, pn = ((int64_t)pid % width) / gsz;
        for (int64_t i = 0; i < g.BM; i++)
            for (int64_t j = 0; j < g.BN; j++) {
                int64_t row = pm * g.BM + i, col = pn * g.BN + j;
                if (!(row < g.M && col < g.N)) continue; /* the store's boundary check / mask */
                uint32_t acc = 0;
                float accf = 0.0f;
                if (ism_cell(L, &g, bug, row, col, pid, &acc, &accf)) return 1;
                float a = bug->acc_f32 ? accf : (float)(int32_t)acc;
                if (!scaled) {
                    int32_t v = bug->acc_f32 ? (int32_t)accf : (int32_t)acc;
                    ((int32_t *)TL_BASE(L, ISM_RC))[row * TL_I(L, ISM_SCM) + col * TL_I(L, ISM_SCN)] = v;
                    continue;
                }
                int64_t so = bug->s1_per_col ? col : row;
                if (tl_fault(L, ISM_RS1, so, 1, 1, pid)) return 1;
                ((float *)TL_BASE(L, ISM_RC))[col + g.N * row] = a * ((const float *)TL_BASE(L, ISM_RS1))[so];
            }
    }
    return 0;
}

#endif /* TD_ISM_TL_H */
