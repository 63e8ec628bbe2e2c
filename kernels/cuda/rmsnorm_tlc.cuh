/* CUDA programs shared by the RMS-norm and L2-norm kernels: the same Triton programs as
 * kernels/host/rmsnorm_tl.h, one CUDA block per program id.  A thread owns the tile
 * lanes j = threadIdx.x + k * blockDim.x; a lane's sum of squares is folded in a
 * register over the column blocks in the Triton loop's order, tl.sum is
 * reduce_tlc.cuh's pairwise tree (the host's tl_sum bit for bit), and every operation
 * that feeds another rounding is an _rn intrinsic so that nvcc does not contract it
 * into an FMA.  Math: __fsqrt_rn and __fdiv_rn are IEEE; tl.math.rsqrt is rsqrtf (the
 * "cuda" math model's rsqrt, 2 ulp, libdevice's __nv_rsqrtf); libdevice.pow(x, 2) is
 * __fmul_rn(x, x) (what __nv_powif(x, 2) computes: repeated squaring, 1.0f * (x * x)).
 * Triton's own lowering of tl.sqrt and of the binary32 `/` may pick the approximate PTX
 * instructions (sqrt.approx, div.full); their error needs the "cuda-approx" math model,
 * which the oracle does not model yet, so this port uses the IEEE operations that the
 * "cuda" model describes. */
#ifndef TD_RMSNORM_TLC_CUH
#define TD_RMSNORM_TLC_CUH

#include "reduce_tlc.cuh"

/* loads and stores through an element format (binary32, binary16, bfloat16; narrow
 * stores round to nearest even, overflow to inf: Triton's conversions) */
__device__ inline float rn_ld(const void *p, uint32_t fmt, int64_t i) {
    if (fmt == TD_ABI_F16) return __half2float(((const __half *)p)[i]);
    if (fmt == TD_ABI_BF16) return __bfloat162float(((const __nv_bfloat16 *)p)[i]);
    return ((const float *)p)[i];
}
__device__ inline void rn_st(void *p, uint32_t fmt, int64_t i, float v) {
    if (fmt == TD_ABI_F16) ((__half *)p)[i] = __float2half_rn(v);
    else if (fmt == TD_ABI_BF16) ((__nv_bfloat16 *)p)[i] = __float2bfloat16_rn(v);
    else ((float *)p)[i] = v;
}
__device__ inline float rn_f16(float v) { return __half2float(__float2half_rn(v)); }

/* Dynamic shared memory beyond the default 48 KiB needs the kernel's opt-in. */
template <typename K> static inline int rn_smem(const td_abi_launch *L, K kernel, size_t bytes) {
    if (bytes > 48 * 1024 &&
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes) != cudaSuccess)
        return tlc_check(L, "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
    return 0;
}

/* ---- rmsnorm_triton (rsqrt form) / rmsnorm_implementation (division form) ----
 * grid (batch, M); shared memory: the B-lane var tile. */
static __global__ void rn_stream_kernel(const void *x, const void *w, void *o, uint32_t fx, uint32_t fw, uint32_t fo,
                                        int64_t sxb, int64_t sxm, int64_t sxk, int64_t srw, int64_t sob, int64_t som,
                                        int64_t sok, int64_t N, int64_t B, float eps, int div_form) {
    RTLC_SMEM(smem);
    float *var = (float *)smem;
    int64_t p0 = blockIdx.x, p1 = blockIdx.y;
    int64_t offs_m = p0 * sxb + p1 * sxm;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        float s = 0.0f; /* tl.zeros */
        for (int64_t start = 0; start < N; start += B) {
            int64_t n = start + j;
            float xv = n < N ? rn_ld(x, fx, offs_m + n * sxk) : 0.0f;
            s = __fadd_rn(s, __fmul_rn(xv, xv)); /* var += pow(x, 2) */
        }
        var[j] = s;
    }
    float v = __fdiv_rn(rtlc_tree_sum(var, B), (float)N);
    float inv = div_form ? __fsqrt_rn(__fadd_rn(v, eps)) : rsqrtf(__fadd_rn(v, eps));
    for (int64_t n = threadIdx.x; n < N; n += blockDim.x) {
        float wv = rn_ld(w, fw, n * srw), xv = rn_ld(x, fx, offs_m + n * sxk);
        float xn = div_form ? __fdiv_rn(xv, inv) : __fmul_rn(xv, inv);
        rn_st(o, fo, p0 * sob + p1 * som + n * sok, __fmul_rn(xn, wv));
    }
}

/* params sxb, sxm, sxk, srw, sob, som, sok, N, B, eps; regions x, w, out */
static inline int rn_stream_launch(const td_abi_launch *L, int div_form, const char *what) {
    int64_t B = TLC_I(L, 8);
    size_t smem = (size_t)B * sizeof(float);
    if (rn_smem(L, rn_stream_kernel, smem)) return 1;
    rn_stream_kernel<<<tlc_grid(L), tlc_threads(B), smem, (cudaStream_t)L->stream>>>(
        L->regions[0].base, L->regions[1].base, L->regions[2].base, L->regions[0].fmt, L->regions[1].fmt,
        L->regions[2].fmt, TLC_I(L, 0), TLC_I(L, 1), TLC_I(L, 2), TLC_I(L, 3), TLC_I(L, 4), TLC_I(L, 5), TLC_I(L, 6),
        TLC_I(L, 7), B, TLC_R(L, 9), div_form);
    return tlc_check(L, what);
}

/* ---- rmsnorm_fused / rmsnorm_fused_llama: grid (M,); params stride, N, BLOCK_SIZE, eps;
 * regions X, Y, W; the Llama variant stores y.to(tl.float16). ---- */
static __global__ void rn_fused_kernel(const void *X, void *Y, const void *W, uint32_t fx, uint32_t fy, uint32_t fw,
                                       int64_t stride, int64_t N, int64_t B, float eps, int llama) {
    RTLC_SMEM(smem);
    float *var = (float *)smem;
    int64_t base = (int64_t)blockIdx.x * stride;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        float s = 0.0f;
        for (int64_t off = 0; off < N; off += B) {
            int64_t col = off + j;
            float xv = col < N ? rn_ld(X, fx, base + col) : 0.0f;
            s = __fadd_rn(s, __fmul_rn(xv, xv)); /* _var += x * x */
        }
        var[j] = s;
    }
    float v = __fdiv_rn(rtlc_tree_sum(var, B), (float)N);
    float rstd = __fdiv_rn(1.0f, __fsqrt_rn(__fadd_rn(v, eps)));
    for (int64_t col = threadIdx.x; col < N; col += blockDim.x) {
        float y = __fmul_rn(__fmul_rn(rn_ld(X, fx, base + col), rstd), rn_ld(W, fw, col));
        rn_st(Y, fy, base + col, llama ? rn_f16(y) : y);
    }
}

static inline int rn_fused_launch(const td_abi_launch *L, int llama, const char *what) {
    int64_t B = TLC_I(L, 2);
    size_t smem = (size_t)B * sizeof(float);
    if (rn_smem(L, rn_fused_kernel, smem)) return 1;
    rn_fused_kernel<<<tlc_grid(L), tlc_threads(B), smem, (cudaStream_t)L->stream>>>(
        L->regions[0].base, L->regions[1].base, L->regions[2].base, L->regions[0].fmt, L->regions[1].fmt,
        L->regions[2].fmt, TLC_I(L, 0), TLC_I(L, 1), B, TLC_R(L, 3), llama);
    return tlc_check(L, what);
}

/* ---- rms_norm_triton: grid (M,); params y_stride_r, y_stride_c, x_stride_r, x_stride_c,
 * N, BLOCK_SIZE, eps; regions Y, X, W (binary32). ---- */
static __global__ void rn_rms_norm_kernel(float *Y, const float *X, const float *W, int64_t ysr, int64_t ysc,
                                          int64_t xsr, int64_t xsc, int64_t N, int64_t B, float eps) {
    RTLC_SMEM(smem);
    float *sq = (float *)smem;
    int64_t pid = blockIdx.x;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        float xv = j < N ? X[pid * xsr + j * xsc] : 0.0f;
        sq[j] = __fmul_rn(xv, xv);
    }
    float var = __fdiv_rn(rtlc_tree_sum(sq, B), (float)N);
    float rrms = __fdiv_rn(1.0f, __fsqrt_rn(__fadd_rn(var, eps)));
    for (int64_t j = threadIdx.x; j < B && j < N; j += blockDim.x)
        Y[pid * ysr + j * ysc] = __fmul_rn(__fmul_rn(X[pid * xsr + j * xsc], rrms), W[j]);
}

/* ---- fast_rms_layernorm: grid (n_rows,); regions Y, X, W, r (binary32); W at j * wsr
 * (the Gemma kernel: wsr = 1, output normed * (w + 1)). ---- */
static __global__ void rn_fast_rms_kernel(float *Y, const float *X, const float *W, float *r, int64_t ysr,
                                          int64_t xsr, int64_t wsr, int64_t rsr, int64_t n_cols, int64_t B, float eps,
                                          int gemma) {
    RTLC_SMEM(smem);
    float *sq = (float *)smem;
    int64_t row = blockIdx.x;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        float xv = j < n_cols ? X[row * xsr + j] : 0.0f;
        sq[j] = __fmul_rn(xv, xv);
    }
    float row_var = __fdiv_rn(rtlc_tree_sum(sq, B), (float)n_cols);
    float inv_var = rsqrtf(__fadd_rn(row_var, eps));
    if (threadIdx.x == 0) r[row * rsr] = inv_var;
    for (int64_t j = threadIdx.x; j < B && j < n_cols; j += blockDim.x) {
        float normed = __fmul_rn(X[row * xsr + j], inv_var), w = W[j * wsr];
        Y[row * ysr + j] = __fmul_rn(normed, gemma ? __fadd_rn(w, 1.0f) : w);
    }
}

/* ---- the L2 norms: grid (M,); params stride_x_row, N, BLOCK_N, eps (binary32) ---- */
static __global__ void rn_l2_fwd_kernel(const float *X, float *Y, int64_t stride, int64_t N, int64_t B,
                                        float eps) {
    RTLC_SMEM(smem);
    float *sq = (float *)smem;
    int64_t base = (int64_t)blockIdx.x * stride;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        float xv = j < N ? X[base + j] : 0.0f;
        sq[j] = __fmul_rn(xv, xv);
    }
    float rstd = __fdiv_rn(1.0f, __fsqrt_rn(__fadd_rn(rtlc_tree_sum(sq, B), eps)));
    for (int64_t j = threadIdx.x; j < B && j < N; j += blockDim.x) Y[base + j] = __fmul_rn(X[base + j], rstd);
}

static __global__ void rn_l2_bwd_kernel(const float *X, const float *DY, float *DX, int64_t stride, int64_t N,
                                        int64_t B, float eps) {
    RTLC_SMEM(smem);
    float *t = (float *)smem;
    int64_t base = (int64_t)blockIdx.x * stride;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        float xv = j < N ? X[base + j] : 0.0f;
        t[j] = __fmul_rn(xv, xv);
    }
    float var = rtlc_tree_sum(t, B);
    float rstd = __fdiv_rn(1.0f, __fsqrt_rn(__fadd_rn(var, eps)));
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
        t[j] = j < N ? __fmul_rn(DY[base + j], X[base + j]) : 0.0f;
    float dot = rtlc_tree_sum(t, B);
    /* dx = dy * rstd - tl.sum(dy * x) * (1 / (var + eps)) * rstd * x, left to right */
    float c = __fmul_rn(__fmul_rn(dot, __fdiv_rn(1.0f, __fadd_rn(var, eps))), rstd);
    for (int64_t j = threadIdx.x; j < B && j < N; j += blockDim.x)
        DX[base + j] = __fsub_rn(__fmul_rn(DY[base + j], rstd), __fmul_rn(c, X[base + j]));
}

#endif
