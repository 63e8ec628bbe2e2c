/* rbe_triton: rotary embedding of interleaved (real, imag) pairs, frequencies computed in
 * the kernel (get_freq_multi_tokens inlined), shared by the host kernel (bug 0) and the
 * mutants.  Program (pid_batch, pid): pid_m = pid / cdiv(K, BSK), pid_n = pid % cdiv(K,
 * BSK); lane (i, jj): row = pid_m*BSM + i, col = pid_n*BSK + 2*jj; real = x[.. col] (row < M,
 * col < K), imag = x[.. col + 1] (row < M, col + 1 < K; else 0); freqs = (col % DIM) / DIM in
 * binary32, powf(THETA, freqs), f = (start + row) / that; the two outputs stored at col
 * and col + 1 under the same masks. */
#ifndef TD_RBE_TRITON_TRANSFORM_TL_H
#define TD_RBE_TRITON_TRANSFORM_TL_H

#include <math.h>

#include "tl.h"

enum { RBE_M, RBE_K, RBE_SXB, RBE_SXM, RBE_SXN, RBE_SOB, RBE_SOM, RBE_SON, RBE_START, RBE_THETA, RBE_DIM, RBE_BSM,
       RBE_BSK };
enum { RBE_X, RBE_OUT };
enum { RBE_BUG_SIGN = 1, RBE_BUG_HALF_SPLIT, RBE_BUG_NO_START, RBE_BUG_COS_SIN,
       RBE_BUG_OFFSET_I32 /* pid_batch * stride_x_batch + stride_x_m * offs_m formed in int32 */ };

/* 0, or 1 when the lane faults (an int32 offset outside X: RBE_BUG_OFFSET_I32) */
static inline int rbe_lane(const td_abi_launch *L, uint32_t b, int64_t row, int64_t col, int bug) {
    int64_t M = TL_I(L, RBE_M), K = TL_I(L, RBE_K), dim = TL_I(L, RBE_DIM);
    int64_t xo = b * TL_I(L, RBE_SXB) + row * TL_I(L, RBE_SXM), oo = b * TL_I(L, RBE_SOB) + row * TL_I(L, RBE_SOM);
    int64_t cr = col, ci = col + 1;
    if (bug == RBE_BUG_HALF_SPLIT) cr = col / 2, ci = col / 2 + K / 2; /* pairs (j, j + K/2) read from interleaved data */
    int live_r = row < M && col < K, live_i = row < M && col + 1 < K;
    if (bug == RBE_BUG_OFFSET_I32) {
        xo = tl_i32(tl_i32((int64_t)b * tl_i32(TL_I(L, RBE_SXB))) + row * TL_I(L, RBE_SXM));
        if (live_r && tl_fault(L, RBE_X, xo + cr * TL_I(L, RBE_SXN), 1, 1, b)) return 1;
    }
    float re = live_r ? tl_load(L, RBE_X, xo + cr * TL_I(L, RBE_SXN)) : 0.0f;
    float im = live_i ? tl_load(L, RBE_X, xo + ci * TL_I(L, RBE_SXN)) : 0.0f;
    float fr = (float)(col % dim) / (float)dim;
    float p = powf(TL_R(L, RBE_THETA), fr);
    float f = (float)((bug == RBE_BUG_NO_START ? 0 : TL_I(L, RBE_START)) + row) / p;
    float cs = cosf(f), sn = sinf(f);
    if (bug == RBE_BUG_COS_SIN) {
        float t = cs;
        cs = sn, sn = t;
    }
    float o_re = re * cs - im * sn, o_im = re * sn + im * cs;
    if (bug == RBE_BUG_SIGN) o_re = re * cs + im * sn, o_im = im * cs - re * sn;
    if (live_r) tl_store(L, RBE_OUT, oo + col * TL_I(L, RBE_SON), o_re, tl_f32());
    if (live_i) tl_store(L, RBE_OUT, oo + col * TL_I(L, RBE_SON) + 1, o_im, tl_f32());
    return 0;
}

static inline int rbe_program(const td_abi_launch *L, int bug) {
    int64_t K = TL_I(L, RBE_K), BSM = TL_I(L, RBE_BSM), BSK = TL_I(L, RBE_BSK), gk = (K + BSK - 1) / BSK;
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (uint32_t pid = 0; pid < L->grid[1]; pid++)
            for (int64_t i = 0; i < BSM; i++)
                for (int64_t jj = 0; jj < BSK / 2; jj++)
                    if (rbe_lane(L, b, (pid / gk) * BSM + i, (pid % gk) * BSK + 2 * jj, bug)) return 1;
    return 0;
}

#endif
