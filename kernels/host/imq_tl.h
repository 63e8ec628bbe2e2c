/* int8_matmul_quantization's two kernels on the CPU, shared by the ports and their
 * mutants.
 * quantize_int8_perrow_kernel: program pid owns rows (pid*BM + r) % M; pass 1 keeps the
 * running row max a_max = max(a_max, tl.max(|fpa|, axis=1)) over the K blocks (masked
 * lanes load 0), seeded 0; a_scale = a_max / 127 in binary32; pass 2 reloads the blocks
 * and stores (fpa / a_scale).to(tl.int8) (truncation, saturating; NaN -> 0) under the K
 * mask; then the unmasked fp16 store of a_scale at pid*BM*stride_asm + r.
 * Parameters: M K sfm sfk sam sak sasm BM BK numKBlocks.  Regions: fpa (binary32), a
 * (int8), as (fp16).
 * matmul_kernel (SPLIT_K = 1): grouped order pid_m = first_pid_m + pid % group_size_m,
 * rows / columns at % M / % N, the int32 accumulator of int8 tl.dot steps (K loads
 * masked), acc.to(float32) * a_scale * b_scale, the masked fp16 store.
 * Parameters: M N K sam sak sasm sbk sbn sbsn scm scn BM BN BK GM numKBlocks.
 * Regions: A (int8), as (fp16), B (int8), bs (binary32), C (fp16). */
#ifndef TD_IMQ_TL_H
#define TD_IMQ_TL_H

#include "tl.h"

enum { IQ_M, IQ_K, IQ_SFM, IQ_SFK, IQ_SAM, IQ_SAK, IQ_SASM, IQ_BM, IQ_BK, IQ_NKB };
enum { IQ_RFPA, IQ_RA, IQ_RAS };

typedef struct imq_qbugs {
    int half_even;  /* round half to even (llrint) where .to(tl.int8) truncates */
    int no_abs;     /* the row max of fpa, not of |fpa| */
    int unmasked;   /* pass 1 loads the whole block: lanes past K read the row's padding / next row */
    int fpa_off_i32; /* offs_am[:, None] * stride_fpam formed in int32 (wraps beyond 2^31 elements) */
} imq_qbugs;

static inline float imq_f16(float x) {
    td_profile p = {TD_F16, TD_RNE, TD_OVF_INF, false};
    return (float)td_decode(TD_F16, td_encode_f32(p, x));
}

/* pass 1 of one row: the running max over the K blocks */
static inline int64_t imq_fpa_row(const td_abi_launch *L, const imq_qbugs *bug, int64_t row) {
    return bug->fpa_off_i32 ? tl_i32(row * tl_i32(TL_I(L, IQ_SFM))) : row * TL_I(L, IQ_SFM);
}

static inline int imq_rowmax(const td_abi_launch *L, const imq_qbugs *bug, int64_t row, float *tile, uint32_t pid) {
    int64_t K = TL_I(L, IQ_K), BK = TL_I(L, IQ_BK), T = TL_I(L, IQ_NKB), base = imq_fpa_row(L, bug, row);
    if (bug->fpa_off_i32 && tl_fault(L, IQ_RFPA, base, K, TL_I(L, IQ_SFK), pid)) return -1;
    float a_max = 0.0f;
    for (int64_t t = 0; t < T; t++) {
        for (int64_t e = 0; e < BK; e++) {
            int64_t k = t * BK + e, off = base + k * TL_I(L, IQ_SFK);
            float x = 0.0f;
            if (k < K) x = tl_load(L, IQ_RFPA, off);
            else if (bug->unmasked) {
                if (tl_fault(L, IQ_RFPA, off, 1, 1, pid)) return -1;
                x = tl_load(L, IQ_RFPA, off);
            }
            tile[e] = bug->no_abs ? x : fabsf(x);
        }
        float bm = tl_max(tile, BK);
        a_max = a_max > bm ? a_max : bm;
    }
    tile[0] = a_max;
    return 0;
}

static inline int imq_quantize(const td_abi_launch *L, const imq_qbugs *bug) {
    int64_t M = TL_I(L, IQ_M), K = TL_I(L, IQ_K), BM = TL_I(L, IQ_BM), BK = TL_I(L, IQ_BK), T = TL_I(L, IQ_NKB);
    td_profile st = {TD_I8, bug->half_even ? TD_RNE : TD_RTZ, TD_OVF_SAT, false};
    td_profile sc = {TD_F16, TD_RNE, TD_OVF_INF, false};
    float *tile;
    TL_ALLOC(L, tile, BK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t r = 0; r < BM; r++) {
            int64_t row = ((int64_t)pid * BM + r) % M;
            if (imq_rowmax(L, bug, row, tile, pid)) {
                free(tile);
                return 1;
            }
            float a_scale = tile[0] / 127.0f;
            for (int64_t k = 0; k < T * BK && k < K; k++) {
                float x = tl_load(L, IQ_RFPA, imq_fpa_row(L, bug, row) + k * TL_I(L, IQ_SFK));
                tl_store(L, IQ_RA, row * TL_I(L, IQ_SAM) + k * TL_I(L, IQ_SAK), x / a_scale, st);
            }
            tl_store(L, IQ_RAS, (int64_t)pid * BM * TL_I(L, IQ_SASM) + r, a_scale, sc);
        }
    free(tile);
    return 0;
}

enum { IM_M, IM_N, IM_K, IM_SAM, IM_SAK, IM_SASM, IM_SBK, IM_SBN, IM_SBSN, IM_SCM, IM_SCN, IM_BM, IM_BN, IM_BK,
       IM_GM, IM_NKB };
enum { IM_RA, IM_RAS, IM_RB, IM_RBS, IM_RC };

typedef struct imq_mbugs {
    int scale_per_col; /* a_scale loaded at offs_bn (the column) instead of offs_am */
    int no_sign_ext;   /* B's int8 bytes read as unsigned (the sign extension missing) */
    int a_off_i32;     /* offs_am[:, None] * stride_am formed in int32 (wraps beyond 2^31) */
} imq_mbugs;

/* the int32 dot of one output over the K blocks (wrapping int32 adds, as the hardware);
 * aoff: the A offset of the lane's row */
static inline int32_t imq_dot(const td_abi_launch *L, const imq_mbugs *bug, int64_t aoff, int64_t bc) {
    int64_t K = TL_I(L, IM_K), BK = TL_I(L, IM_BK), T = TL_I(L, IM_NKB);
    uint32_t acc = 0;
    for (int64_t t = 0; t < T; t++)
        for (int64_t e = 0; e < BK; e++) {
            int64_t k = t * BK + e;
            if (k >= K) continue; /* masked: other = 0 */
            int32_t a = (int32_t)tl_load_int(L, IM_RA, aoff + k * TL_I(L, IM_SAK));
            int32_t b = (int32_t)tl_load_int(L, IM_RB, k * TL_I(L, IM_SBK) + bc * TL_I(L, IM_SBN));
            if (bug->no_sign_ext) b &= 0xff;
            acc += (uint32_t)(a * b);
        }
    return (int32_t)acc;
}

static inline int imq_matmul(const td_abi_launch *L, const imq_mbugs *bug) {
    int64_t M = TL_I(L, IM_M), N = TL_I(L, IM_N), BM = TL_I(L, IM_BM), BN = TL_I(L, IM_BN), GM = TL_I(L, IM_GM);
    int64_t nm = (M + BM - 1) / BM, nn = (N + BN - 1) / BN, nig = GM * nn;
    td_profile st = {TD_F16, TD_RNE, TD_OVF_INF, false};
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t fpm = pid / nig * GM, gsm = nm - fpm < GM ? nm - fpm : GM;
        int64_t pm = fpm + (int64_t)pid % gsm, pn = ((int64_t)pid % nig) / gsm;
        for (int64_t i = 0; i < BM; i++)
            for (int64_t j = 0; j < BN; j++) {
                int64_t row = pm * BM + i, col = pn * BN + j, ar = row % M, bc = col % N;
                if (!(row < M && col < N)) continue; /* the masked store (the lane's value unused) */
                int64_t aso = (bug->scale_per_col ? bc : ar) * TL_I(L, IM_SASM);
                if (tl_fault(L, IM_RAS, aso, 1, 1, pid)) return 1;
                float as = tl_load(L, IM_RAS, aso), bs = tl_load(L, IM_RBS, bc * TL_I(L, IM_SBSN));
                int64_t aoff = bug->a_off_i32 ? tl_i32(ar * tl_i32(TL_I(L, IM_SAM))) : ar * TL_I(L, IM_SAM);
                if (bug->a_off_i32 && tl_fault(L, IM_RA, aoff, TL_I(L, IM_K), TL_I(L, IM_SAK), pid)) return 1;
                float acc = (float)imq_dot(L, bug, aoff, bc);
                tl_store(L, IM_RC, TL_I(L, IM_SCM) * row + TL_I(L, IM_SCN) * col, acc * as * bs, st);
            }
    }
    return 0;
}

#endif /* TD_IMQ_TL_H */
