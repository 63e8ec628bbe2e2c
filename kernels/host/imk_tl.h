/* int8_matmul_kernel's program on the CPU, shared by the port (kernels/host) and its
 * mutants (kernels/mutants): the tutorial's grouped pid order, offs_am % M and
 * offs_bn % N, `for i in range(4)` over the 2-bit fields with b_ptrs reset per field and
 * a_ptrs advancing across both loops, the masked loads (other = 0), `.to(tl.int8)` on
 * A, `(b & (3 << 2i)) >> 2i` then `- 1`, `tl.dot(..., out_dtype=tl.int32)` added to an
 * int32 accumulator (two's complement: wraps), and the masked int32 store.
 * Parameters: M N K sam sak sbk sbn scm scn BM BN BK GM numKBlocks.
 * Regions: A (int32), B (uint8), C (int32). */
#ifndef TD_IMK_TL_H
#define TD_IMK_TL_H

#include "tl.h"

enum { IMK_M, IMK_N, IMK_K, IMK_SAM, IMK_SAK, IMK_SBK, IMK_SBN, IMK_SCM, IMK_SCN, IMK_BM, IMK_BN, IMK_BK, IMK_GM };
enum { IMK_RA, IMK_RB, IMK_RC };

/* The bugs the mutants switch on (all 0: the port). */
typedef struct imk_bugs {
    int field_unshifted; /* b & (3 << 2i) without the >> 2i */
    int a_reset;         /* a_ptrs reset per field like b_ptrs (A column j*BK + kk) */
    int acc_f32;         /* accumulator tl.zeros(dtype=tl.float32), stored as int32 (truncation) */
    int acc_i16;         /* accumulator int16 (wraps at 2^16) */
    int a_off_i32;       /* offs_am[:, None] * stride_am formed in int32 (wraps beyond 2^31) */
} imk_bugs;

static inline int64_t imk_cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* tl.dot of one program's [BM, BK] x [BK, BN] step, added into acc / accf. */
static inline void imk_step(const td_abi_launch *L, const imk_bugs *bug, int64_t pm, int64_t pn, int64_t f,
                            int64_t j, int64_t T, uint32_t *acc, float *accf) {
    int64_t M = TL_I(L, IMK_M), N = TL_I(L, IMK_N), K = TL_I(L, IMK_K), BM = TL_I(L, IMK_BM);
    int64_t BN = TL_I(L, IMK_BN), BK = TL_I(L, IMK_BK), k = f * T + j;
    int64_t acol = (bug->a_reset ? j : k) * BK;
    const int32_t *A = TL_BASE(L, IMK_RA);
    const uint8_t *B = TL_BASE(L, IMK_RB);
    for (int64_t r = 0; r < BM; r++)
        for (int64_t q = 0; q < BN; q++) {
            int64_t am = (pm * BM + r) % M, bn = (pn * BN + q) % N;
            int64_t arow = bug->a_off_i32 ? tl_i32(am * tl_i32(TL_I(L, IMK_SAM))) : am * TL_I(L, IMK_SAM);
            uint32_t dot = 0;
            for (int64_t e = 0; e < BK; e++) {
                int32_t a = e < K - k * BK ? (int8_t)A[arow + (acol + e) * TL_I(L, IMK_SAK)] : 0;
                uint32_t b = e < K ? B[(j * BK + e) * TL_I(L, IMK_SBK) + bn * TL_I(L, IMK_SBN)] : 0;
                uint32_t fld = b & (3u << (2 * f));
                int32_t w = (int32_t)(bug->field_unshifted ? fld : fld >> (2 * f)) - 1;
                dot += (uint32_t)(a * w);
            }
            if (bug->acc_f32) accf[r * BN + q] += (float)(int32_t)dot;
            else if (bug->acc_i16) acc[r * BN + q] = (uint16_t)(acc[r * BN + q] + dot);
            else acc[r * BN + q] += dot;
        }
}

static inline void imk_store(const td_abi_launch *L, const imk_bugs *bug, int64_t pm, int64_t pn,
                             const uint32_t *acc, const float *accf) {
    int64_t M = TL_I(L, IMK_M), N = TL_I(L, IMK_N), BM = TL_I(L, IMK_BM), BN = TL_I(L, IMK_BN);
    int32_t *C = TL_BASE(L, IMK_RC);
    for (int64_t r = 0; r < BM; r++)
        for (int64_t q = 0; q < BN; q++) {
            int64_t row = pm * BM + r, col = pn * BN + q;
            if (!(row < M && col < N)) continue;
            int32_t v = bug->acc_f32 ? (int32_t)accf[r * BN + q]
                      : bug->acc_i16 ? (int16_t)(uint16_t)acc[r * BN + q] : (int32_t)acc[r * BN + q];
            C[row * TL_I(L, IMK_SCM) + col * TL_I(L, IMK_SCN)] = v;
        }
}

static inline int imk_run(const td_abi_launch *L, const imk_bugs *bug) {
    int64_t M = TL_I(L, IMK_M), N = TL_I(L, IMK_N), K = TL_I(L, IMK_K), BM = TL_I(L, IMK_BM);
    int64_t BN = TL_I(L, IMK_BN), BK = TL_I(L, IMK_BK), GM = TL_I(L, IMK_GM);
    int64_t T = imk_cdiv(K / 4, BK); /* the kernel's own trip count tl.cdiv(K // 4, BLOCK_SIZE_K) */
    int64_t nm = imk_cdiv(M, BM), nn = imk_cdiv(N, BN), nig = GM * nn;
    uint32_t *acc;
    float *accf;
    TL_ALLOC(L, acc, BM * BN);
    accf = calloc((size_t)(BM * BN), sizeof *accf);
    if (!accf) {
        free(acc);
        snprintf(L->err, L->errlen, "out of memory for a tile");
        return 1;
    }
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t gid = pid / nig, fpm = gid * GM, gsm = nm - fpm < GM ? nm - fpm : GM;
        int64_t pm = fpm + ((int64_t)pid % nig) % gsm, pn = ((int64_t)pid % nig) / gsm;
        for (int64_t r = 0; r < BM && bug->a_off_i32; r++) { /* the program's A rows, before any load */
            int64_t off = tl_i32((pm * BM + r) % M * tl_i32(TL_I(L, IMK_SAM)));
            if (!tl_fault(L, IMK_RA, off, K, TL_I(L, IMK_SAK), pid)) continue;
            free(acc);
            free(accf);
            return 1;
        }
        memset(acc, 0, (size_t)(BM * BN) * sizeof *acc);
        memset(accf, 0, (size_t)(BM * BN) * sizeof *accf);
        for (int64_t f = 0; f < 4; f++)
            for (int64_t j = 0; j < T; j++) imk_step(L, bug, pm, pn, f, j, T, acc, accf);
        imk_store(L, bug, pm, pn, acc, accf);
    }
    free(acc);
    free(accf);
    return 0;
}

#endif /* TD_IMK_TL_H */
