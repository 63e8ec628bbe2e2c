/* Host programs shared by the RMS-norm and L2-norm kernels and their mutants: each
 * Triton program once, with a `bug` switch that the mutants set (RN_OK for the
 * faithful port).  Program by program in grid order, BLOCK-lane binary32 tiles with
 * masks, tl_sum's pairwise tree for tl.sum, stores through the output's format.
 * Only tl.h and rounding.h: a kernel does not know the oracle.
 *
 * Math as the host backend provides it: sqrtf and the division are correctly rounded;
 * tl.math.rsqrt is 1.0f / sqrtf(x) (the "libm" math model's rsqrt, 1.491 ulp measured);
 * libdevice.pow(x, 2) is x * x (libdevice's __nv_powif(x, 2) is repeated squaring,
 * 1.0f * (x * x): the same correctly rounded square). */
#ifndef TD_RMSNORM_TL_H
#define TD_RMSNORM_TL_H

#include "tl.h"

enum {
    RN_OK = 0,
    RN_BUG_TAIL_DROPPED,      /* the variance loop stops at N // BLOCK * BLOCK: the tail block is not summed */
    RN_BUG_F16_ACC,           /* the sum-of-squares tile is binary16 (every partial sum rounded to fp16) */
    RN_BUG_NO_EPS,            /* rsqrt / sqrt of the variance without eps */
    RN_BUG_EPS_OUTSIDE,       /* eps added outside the square root: sqrt(var) + eps */
    RN_BUG_PADDED_COUNT,      /* the variance divided by the padded BLOCK count instead of N */
    RN_BUG_N_MINUS_1,         /* the variance divided by N - 1 */
    RN_BUG_MASK_OFF_BY_ONE,   /* cols <= N: one column past the row read and stored */
    RN_BUG_F16_BEFORE_W,      /* x_hat rounded to binary16 before the weight multiply */
    RN_BUG_W_STRIDE,          /* the weights read with the wrong column stride */
    RN_BUG_GEMMA_PLAIN,       /* the Gemma kernel scales by w instead of (1 + w) */
    RN_BUG_R_STRIDE,          /* r stored at r + row_idx: r_row_stride ignored */
    RN_BUG_L2_MEAN,           /* the L2 norm divides the sum of squares by N (an RMS) */
    RN_BUG_BWD_NO_QINV,       /* the backward drops the 1 / (var + eps) factor */
    RN_BUG_BWD_NO_RSTD,       /* the backward drops the rstd factor of the correction term */
    RN_BUG_NORM_TAIL_DROPPED, /* the normalise loop stops at N // BLOCK * BLOCK: the tail is never stored */
    RN_BUG_OFFSET_I32         /* pid * x_stride_r formed in int32 (wraps beyond 2^31 elements) */
};

/* binary32 -> binary16 (RNE, overflow to inf) -> binary32 */
static inline float rn_f16(float v) {
    td_profile p = {TD_F16, TD_RNE, TD_OVF_INF, false};
    return (float)td_decode(TD_F16, td_encode_f32(p, v));
}
/* tl.math.rsqrt on the host */
static inline float rn_rsqrt(float x) { return 1.0f / sqrtf(x); }
/* the store profile of a region: Triton's fp32 -> narrow conversion, round to nearest even */
static inline td_profile rn_store(const td_abi_launch *L, int reg) {
    td_profile p = {TL_FMT(L, reg), TD_RNE, TD_OVF_INF, false};
    return p;
}

/* ---- rmsnorm_triton (rsqrt form) and rmsnorm_implementation (division form) ----
 * params: sxb, sxm, sxk, srw, sob, som, sok, N, B, eps; regions: x, w, out; grid (batch, M). */
enum { RN_S_SXB, RN_S_SXM, RN_S_SXK, RN_S_SRW, RN_S_SOB, RN_S_SOM, RN_S_SOK, RN_S_N, RN_S_B, RN_S_EPS };
enum { RN_S_X, RN_S_W, RN_S_O };

static inline int rn_stream_program(const td_abi_launch *L, int div_form, int bug) {
    int64_t sxb = TL_I(L, RN_S_SXB), sxm = TL_I(L, RN_S_SXM), sxk = TL_I(L, RN_S_SXK), srw = TL_I(L, RN_S_SRW);
    int64_t sob = TL_I(L, RN_S_SOB), som = TL_I(L, RN_S_SOM), sok = TL_I(L, RN_S_SOK);
    int64_t N = TL_I(L, RN_S_N), B = TL_I(L, RN_S_B);
    float eps = TL_R(L, RN_S_EPS);
    td_profile store = rn_store(L, RN_S_O);
    float *var;
    TL_ALLOC(L, var, B);
    int64_t var_end = bug == RN_BUG_TAIL_DROPPED ? N / B * B : N;
    int64_t out_end = bug == RN_BUG_NORM_TAIL_DROPPED ? N / B * B : N;
    for (uint32_t p0 = 0; p0 < L->grid[0]; p0++)
        for (uint32_t p1 = 0; p1 < L->grid[1]; p1++) {
            int64_t offs_m = (int64_t)p0 * sxb + (int64_t)p1 * sxm;
            if (bug == RN_BUG_OFFSET_I32) {
                offs_m = tl_i32(tl_i32((int64_t)p0 * tl_i32(sxb)) + tl_i32((int64_t)p1 * tl_i32(sxm)));
                if (tl_fault(L, RN_S_X, offs_m, N, sxk, p0)) {
                    free(var);
                    return 1;
                }
            }
            memset(var, 0, (size_t)B * sizeof *var); /* tl.zeros((BLOCK_N_SIZE,), tl.float32) */
            for (int64_t start = 0; start < var_end; start += B)
                for (int64_t j = 0; j < B; j++) {
                    int64_t n = start + j;
                    float x = n < N ? tl_load(L, RN_S_X, offs_m + n * sxk) : 0.0f; /* other=0. */
                    float s = var[j] + x * x;                                     /* var += pow(x, 2) */
                    var[j] = bug == RN_BUG_F16_ACC ? rn_f16(s) : s;
                }
            float v = tl_sum(var, B) / (float)N; /* tl.sum(var, axis=0) / N_SIZE */
            float inv; /* rstd (rsqrt form) or std (division form) */
            if (div_form)
                inv = bug == RN_BUG_EPS_OUTSIDE ? sqrtf(v) + eps : bug == RN_BUG_NO_EPS ? sqrtf(v) : sqrtf(v + eps);
            else
                inv = bug == RN_BUG_NO_EPS ? rn_rsqrt(v) : bug == RN_BUG_EPS_OUTSIDE ? rn_rsqrt(v) + eps
                                                                                   : rn_rsqrt(v + eps);
            for (int64_t start = 0; start < out_end; start += B)
                for (int64_t j = 0; j < B; j++) {
                    int64_t n = start + j;
                    if (n >= N) continue; /* x_ptr_mask */
                    float w = tl_load(L, RN_S_W, n * srw);
                    float x = tl_load(L, RN_S_X, offs_m + n * sxk);
                    float xn = div_form ? x / inv : x * inv; /* x_new = x / std | x_hat = x * rstd */
                    tl_store(L, RN_S_O, (int64_t)p0 * sob + (int64_t)p1 * som + n * sok, xn * w, store);
                }
        }
    free(var);
    return 0;
}

/* ---- rmsnorm_fused (rms_norm_fwd_fused) and rmsnorm_fused_llama (_rms_norm_fwd_fused) ----
 * params: stride, N, BLOCK_SIZE, eps; regions: X, Y, W; grid (M,).  The Llama variant
 * stores y.to(tl.float16). */
enum { RN_F_STRIDE, RN_F_N, RN_F_B, RN_F_EPS };
enum { RN_F_X, RN_F_Y, RN_F_W };

/* RN_BUG_OFFSET_I32 of a kernel with one row stride for all its regions: the row's
 * offset row * stride formed in int32 (tl_i32); 1 (the launch failed, as on a device)
 * when it wraps outside region reg's `n` elements from it. */
static inline int rn_row_i32(const td_abi_launch *L, int bug, uint32_t row, int64_t stride, int reg, int64_t n,
                             int64_t *base) {
    if (bug != RN_BUG_OFFSET_I32) return 0;
    *base = tl_i32((int64_t)row * tl_i32(stride));
    return tl_fault(L, reg, *base, n, 1, row);
}

static inline int rn_fused_program(const td_abi_launch *L, int llama, int bug) {
    int64_t stride = TL_I(L, RN_F_STRIDE), N = TL_I(L, RN_F_N), B = TL_I(L, RN_F_B);
    float eps = TL_R(L, RN_F_EPS);
    td_profile store = rn_store(L, RN_F_Y);
    int64_t lim = bug == RN_BUG_MASK_OFF_BY_ONE ? N + 1 : N; /* cols < lim */
    float *var;
    TL_ALLOC(L, var, B);
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        int64_t base = (int64_t)row * stride; /* X += row * stride; Y += row * stride */
        if (rn_row_i32(L, bug, row, stride, RN_F_X, N, &base)) {
            free(var);
            return 1;
        }
        memset(var, 0, (size_t)B * sizeof *var);
        for (int64_t off = 0; off < N; off += B)
            for (int64_t j = 0; j < B; j++) {
                int64_t col = off + j;
                float x = col < lim ? tl_load(L, RN_F_X, base + col) : 0.0f; /* other=0.0 (and tl.where) */
                float s = var[j] + x * x;
                var[j] = bug == RN_BUG_F16_ACC ? rn_f16(s) : s;
            }
        float den = bug == RN_BUG_N_MINUS_1 ? (float)(N - 1) : (float)N;
        float v = tl_sum(var, B) / den;
        float rstd = bug == RN_BUG_EPS_OUTSIDE ? 1.0f / (sqrtf(v) + eps) : 1.0f / sqrtf(v + eps);
        for (int64_t off = 0; off < N; off += B)
            for (int64_t j = 0; j < B; j++) {
                int64_t col = off + j;
                if (col >= lim) continue; /* mask = cols < N */
                float w = tl_load(L, RN_F_W, col);
                float x_hat = tl_load(L, RN_F_X, base + col) * rstd;
                if (bug == RN_BUG_F16_BEFORE_W) x_hat = rn_f16(x_hat);
                float y = x_hat * w;
                if (llama) y = rn_f16(y); /* y.to(tl.float16) */
                tl_store(L, RN_F_Y, base + col, y, store);
            }
    }
    free(var);
    return 0;
}

/* ---- rms_norm_triton (rms_norm_kernel) ----
 * params: y_stride_r, y_stride_c, x_stride_r, x_stride_c, N, BLOCK_SIZE, eps;
 * regions: Y, X, W; grid (M,).  One tile: lanes j < BLOCK_SIZE, mask j < N. */
enum { RN_R_YSR, RN_R_YSC, RN_R_XSR, RN_R_XSC, RN_R_N, RN_R_B, RN_R_EPS };
enum { RN_R_Y, RN_R_X, RN_R_W };

static inline int rn_rms_norm_program(const td_abi_launch *L, int bug) {
    int64_t ysr = TL_I(L, RN_R_YSR), ysc = TL_I(L, RN_R_YSC), xsr = TL_I(L, RN_R_XSR), xsc = TL_I(L, RN_R_XSC);
    int64_t N = TL_I(L, RN_R_N), B = TL_I(L, RN_R_B);
    float eps = TL_R(L, RN_R_EPS);
    td_profile store = rn_store(L, RN_R_Y);
    float *x, *sq;
    TL_ALLOC(L, x, B);
    TL_ALLOC(L, sq, B);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t xb = (int64_t)pid * xsr, yb = (int64_t)pid * ysr;
        if (bug == RN_BUG_OFFSET_I32) {
            xb = tl_i32((int64_t)pid * tl_i32(xsr));
            if (tl_fault(L, RN_R_X, xb, N < B ? N : B, xsc, pid)) {
                free(x), free(sq);
                return 1;
            }
        }
        for (int64_t j = 0; j < B; j++) {
            x[j] = j < N ? tl_load(L, RN_R_X, xb + j * xsc) : 0.0f; /* other=0.0, .to(tl.float32) */
            sq[j] = x[j] * x[j];
        }
        float den = bug == RN_BUG_PADDED_COUNT ? (float)B : (float)N;
        float var = tl_sum(sq, B) / den;
        float rrms = bug == RN_BUG_NO_EPS ? 1.0f / sqrtf(var) : 1.0f / sqrtf(var + eps);
        for (int64_t j = 0; j < B && j < N; j++) {
            float w = tl_load(L, RN_R_W, j);
            /* (x * rrms).to(Y.dtype.element_ty) * w: Y is binary32, the cast is the identity */
            float y = (x[j] * rrms) * w;
            tl_store(L, RN_R_Y, yb + j * ysc, y, store);
        }
    }
    free(x);
    free(sq);
    return 0;
}

/* ---- fast_rms_layernorm: _rms_layernorm_forward and _gemma_rms_layernorm_forward ----
 * plain params: Y_row_stride, X_row_stride, W_row_stride, r_row_stride, n_cols, BLOCK_SIZE, eps;
 * Gemma params: Y_row_stride, X_row_stride, r_row_stride, n_cols, BLOCK_SIZE, eps (W read at j);
 * regions: Y, X, W, r; grid (n_rows,).  One tile; r (inv_var) stored unmasked. */
enum { RN_L_Y, RN_L_X, RN_L_W, RN_L_R };

static inline int rn_fast_rms_program(const td_abi_launch *L, int gemma, int bug) {
    int k = 0;
    int64_t ysr = TL_I(L, k++), xsr = TL_I(L, k++), wsr = gemma ? 1 : TL_I(L, k++), rsr = TL_I(L, k++);
    int64_t n_cols = TL_I(L, k++), B = TL_I(L, k++);
    float eps = TL_R(L, k);
    if (bug == RN_BUG_W_STRIDE) wsr = 1; /* W + col_offsets */
    if (bug == RN_BUG_R_STRIDE) rsr = 1; /* r + row_idx */
    td_profile ystore = rn_store(L, RN_L_Y), rstore = rn_store(L, RN_L_R);
    float *x, *sq;
    TL_ALLOC(L, x, B);
    TL_ALLOC(L, sq, B);
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        int64_t xb = (int64_t)row * xsr; /* X += row_idx * X_row_stride */
        if (bug == RN_BUG_OFFSET_I32) {
            xb = tl_i32((int64_t)row * tl_i32(xsr));
            if (tl_fault(L, RN_L_X, xb, n_cols < B ? n_cols : B, 1, row)) {
                free(x), free(sq);
                return 1;
            }
        }
        for (int64_t j = 0; j < B; j++) {
            x[j] = j < n_cols ? tl_load(L, RN_L_X, xb + j) : 0.0f; /* other=0, .to(tl.float32) */
            sq[j] = x[j] * x[j];
        }
        float row_var = tl_sum(sq, B) / (float)n_cols;
        float inv_var = bug == RN_BUG_NO_EPS ? rn_rsqrt(row_var) : rn_rsqrt(row_var + eps);
        tl_store(L, RN_L_R, (int64_t)row * rsr, inv_var, rstore); /* tl.store(r, inv_var): unmasked */
        for (int64_t j = 0; j < B && j < n_cols; j++) {
            float w = tl_load(L, RN_L_W, j * wsr);
            float normed = x[j] * inv_var; /* .to(W_row.dtype): W is binary32, the identity */
            float out = (gemma && bug != RN_BUG_GEMMA_PLAIN) ? normed * (w + 1.0f) : normed * w;
            tl_store(L, RN_L_Y, (int64_t)row * ysr + j, out, ystore);
        }
    }
    free(x);
    free(sq);
    return 0;
}

/* ---- the L2 norms: _l2_norm_fwd_1pass_kernel and _l2_norm_bwd_kernel ----
 * params: stride_x_row, N, eps, BLOCK_N (the theorems' order); regions: X, Y (forward)
 * or X, DY, DX (backward); grid (M,).  One tile: lanes j < BLOCK_N, mask j < N. */
enum { RN_2_STRIDE, RN_2_N, RN_2_EPS, RN_2_B };
enum { RN_2_X, RN_2_Y };
enum { RN_2B_X, RN_2B_DY, RN_2B_DX };

static inline int rn_l2_fwd_program(const td_abi_launch *L, int bug) {
    int64_t stride = TL_I(L, RN_2_STRIDE), N = TL_I(L, RN_2_N), B = TL_I(L, RN_2_B);
    float eps = TL_R(L, RN_2_EPS);
    td_profile store = rn_store(L, RN_2_Y);
    float *x, *sq;
    TL_ALLOC(L, x, B);
    TL_ALLOC(L, sq, B);
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        int64_t base = (int64_t)row * stride;
        if (rn_row_i32(L, bug, row, stride, RN_2_X, N < B ? N : B, &base)) {
            free(x), free(sq);
            return 1;
        }
        for (int64_t j = 0; j < B; j++) {
            x[j] = j < N ? tl_load(L, RN_2_X, base + j) : 0.0f; /* other=0.0; xbar = where(cols < N, x, 0) */
            sq[j] = x[j] * x[j];
        }
        float var;
        if (bug == RN_BUG_F16_ACC) { /* the squares accumulated in a binary16 register */
            var = 0.0f;
            for (int64_t j = 0; j < B; j++) var = rn_f16(var + sq[j]);
        } else
            var = tl_sum(sq, B);
        if (bug == RN_BUG_L2_MEAN) var = var / (float)N;
        float rstd = bug == RN_BUG_EPS_OUTSIDE ? 1.0f / (sqrtf(var) + eps) : 1.0f / sqrtf(var + eps);
        for (int64_t j = 0; j < B && j < N; j++) tl_store(L, RN_2_Y, base + j, x[j] * rstd, store);
    }
    free(x);
    free(sq);
    return 0;
}

static inline int rn_l2_bwd_program(const td_abi_launch *L, int bug) {
    int64_t stride = TL_I(L, RN_2_STRIDE), N = TL_I(L, RN_2_N), B = TL_I(L, RN_2_B);
    float eps = TL_R(L, RN_2_EPS);
    td_profile store = rn_store(L, RN_2B_DX);
    int64_t lim = bug == RN_BUG_MASK_OFF_BY_ONE ? N + 1 : N;
    float *x, *dy, *t;
    TL_ALLOC(L, x, B);
    TL_ALLOC(L, dy, B);
    TL_ALLOC(L, t, B);
    for (uint32_t row = 0; row < L->grid[0]; row++) {
        int64_t base = (int64_t)row * stride; /* X, DX, DY += row * stride_x_row */
        if (rn_row_i32(L, bug, row, stride, RN_2B_X, N < B ? N : B, &base)) {
            free(x), free(dy), free(t);
            return 1;
        }
        for (int64_t j = 0; j < B; j++) {
            x[j] = j < N ? tl_load(L, RN_2B_X, base + j) : 0.0f;   /* where(cols < N, x, 0.0) */
            dy[j] = j < N ? tl_load(L, RN_2B_DY, base + j) : 0.0f; /* where(cols < N, dy, 0.0) */
            t[j] = x[j] * x[j];
        }
        float var = tl_sum(t, B);
        float rstd = 1.0f / sqrtf(var + eps);
        for (int64_t j = 0; j < B; j++) t[j] = dy[j] * x[j];
        float dot = tl_sum(t, B);
        float qinv = bug == RN_BUG_BWD_NO_QINV ? 1.0f : 1.0f / (var + eps);
        float c = dot * qinv;
        if (bug != RN_BUG_BWD_NO_RSTD) c = c * rstd;
        /* dx = dy * rstd - tl.sum(dy * x) * (1 / (var + eps)) * rstd * x, left to right */
        for (int64_t j = 0; j < B && j < lim; j++) {
            float xj = j < N ? x[j] : tl_load(L, RN_2B_X, base + j);
            float dyj = j < N ? dy[j] : tl_load(L, RN_2B_DY, base + j);
            tl_store(L, RN_2B_DX, base + j, dyj * rstd - c * xj, store);
        }
    }
    free(x);
    free(dy);
    free(t);
    return 0;
}

#endif
