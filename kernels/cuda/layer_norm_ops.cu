/* layer_norm_ops on CUDA: the proof slices of the forward / backward kernels, one block
 * per row, launched in the same order as the host's (no slice reads what an earlier
 * one wrote); tl.sum as the host's pairwise tree (layernorm_tlc.cuh). */
#include "layernorm_tlc.cuh"

enum { FP_SY, FP_N, FP_BLOCK };
enum { FP_VALUEPRE, FP_MEANPRE, FP_RSTDPRE, FP_Y, FP_MEAN, FP_RSTD };
enum { FR_VALUEPRE, FR_RSTDPRE, FR_Y, FR_RSTD };
enum { FX_SRES, FX_SY, FX_N, FX_BLOCK };
enum { FX_RESPRE, FX_VALUEPRE, FX_MEANPRE, FX_RSTDPRE, FX_RESOUT, FX_Y, FX_MEAN, FX_RSTD };
enum { BP_SXHAT, BP_SDY, BP_SX, BP_SDX, BP_N, BP_BLOCK };
enum { BR_X, BR_XHAT, BR_W, BR_DY, BR_RSTD, BR_C1, BR_DX, BR_DW };
enum { BB_X, BB_XHAT, BB_W, BB_DY, BB_DX, BB_DW, BB_DB, BB_MEAN, BB_RSTD, BB_C1, BB_C2 };
enum { BA_SDX, BA_SDRES, BA_SDRESIN, BA_N, BA_BLOCK };
enum { BA_DXBASE, BA_DRES, BA_DX, BA_DRESIN };
enum { SS_MEANPRE, SS_MEAN, SS_RSTDPRE, SS_RSTD };

#define F(L, k) TLC_PTR(L, k, float)
#define CF(L, k) TLC_PTR(L, k, const float)
#define STREAM(L) ((cudaStream_t)(L)->stream)

static __global__ void row_vector_store(const float *pre, float *out, int64_t stride, int64_t n, int64_t B) {
    int64_t row = blockIdx.x;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
        if (j < n) out[row * stride + j] = pre[row * stride + j];
}
static __global__ void scalar_store(const float *pre, float *out) {
    if (threadIdx.x == 0) out[blockIdx.x] = pre[blockIdx.x];
}

static int fwd_plain(const td_abi_launch *L) {
    int64_t B = TLC_I(L, FP_BLOCK);
    row_vector_store<<<tlc_grid(L), tlc_threads(B), 0, STREAM(L)>>>(CF(L, FP_VALUEPRE), F(L, FP_Y), TLC_I(L, FP_SY),
                                                                    TLC_I(L, FP_N), B);
    scalar_store<<<tlc_grid(L), 32, 0, STREAM(L)>>>(CF(L, FP_MEANPRE), F(L, FP_MEAN));
    scalar_store<<<tlc_grid(L), 32, 0, STREAM(L)>>>(CF(L, FP_RSTDPRE), F(L, FP_RSTD));
    return tlc_check(L, "layer_norm_ops fwd store slices");
}
static int fwd_rms(const td_abi_launch *L) {
    int64_t B = TLC_I(L, FP_BLOCK);
    row_vector_store<<<tlc_grid(L), tlc_threads(B), 0, STREAM(L)>>>(CF(L, FR_VALUEPRE), F(L, FR_Y), TLC_I(L, FP_SY),
                                                                    TLC_I(L, FP_N), B);
    scalar_store<<<tlc_grid(L), 32, 0, STREAM(L)>>>(CF(L, FR_RSTDPRE), F(L, FR_RSTD));
    return tlc_check(L, "layer_norm_ops fwd rms store slices");
}
static int fwd_residual(const td_abi_launch *L) {
    int64_t B = TLC_I(L, FX_BLOCK), n = TLC_I(L, FX_N);
    row_vector_store<<<tlc_grid(L), tlc_threads(B), 0, STREAM(L)>>>(CF(L, FX_RESPRE), F(L, FX_RESOUT),
                                                                    TLC_I(L, FX_SRES), n, B);
    row_vector_store<<<tlc_grid(L), tlc_threads(B), 0, STREAM(L)>>>(CF(L, FX_VALUEPRE), F(L, FX_Y), TLC_I(L, FX_SY),
                                                                    n, B);
    scalar_store<<<tlc_grid(L), 32, 0, STREAM(L)>>>(CF(L, FX_MEANPRE), F(L, FX_MEAN));
    scalar_store<<<tlc_grid(L), 32, 0, STREAM(L)>>>(CF(L, FX_RSTDPRE), F(L, FX_RSTD));
    return tlc_check(L, "layer_norm_ops fwd residual store slices");
}
static int scalar_stores(const td_abi_launch *L) {
    scalar_store<<<tlc_grid(L), 32, 0, STREAM(L)>>>(CF(L, SS_MEANPRE), F(L, SS_MEAN));
    scalar_store<<<tlc_grid(L), 32, 0, STREAM(L)>>>(CF(L, SS_RSTDPRE), F(L, SS_RSTD));
    return tlc_check(L, "layer_norm_ops scalar store slices");
}

/* ---- backward ---- */
namespace { /* internal linkage */
struct bwd_args {
    const float *x, *xhat, *w, *dy, *mean, *rstd;
    float *dx, *dw, *db, *c1, *c2;
    int64_t sxh, sdy, sx, sdx, n, B;
};
} // namespace

/* one_row: xhat, wdy, dw (, db), c1 (, c2), dx; plain when a.mean != NULL */
static __global__ void one_row(bwd_args a) {
    extern __shared__ float sh[];
    int64_t row = blockIdx.x, B = a.B, n = a.n;
    float *p1 = sh, *p2 = sh + B;
    float mean = a.mean ? a.mean[row] : 0.0f, rstd = a.rstd[row];
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        float x = j < n ? a.x[row * a.sx + j] : 0.0f, dy = j < n ? a.dy[row * a.sdy + j] : 0.0f;
        float w = j < n ? a.w[j] : 0.0f;
        float xhat = j < n ? (a.mean ? (x - mean) * rstd : x * rstd) : 0.0f;
        p1[j] = xhat * (w * dy);
        p2[j] = w * dy;
    }
    float c1 = ln_block_sum(p1, B) / (float)n;
    float c2 = a.c2 ? ln_block_sum(p2, B) / (float)n : 0.0f;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        if (!(j < n)) continue;
        float x = a.x[row * a.sx + j], dy = a.dy[row * a.sdy + j], wdy = a.w[j] * dy;
        float xhat = a.mean ? (x - mean) * rstd : x * rstd;
        a.dx[row * a.sdx + j] = a.c2 ? (wdy - (xhat * c1 + c2)) * rstd : (wdy - xhat * c1) * rstd;
        a.dw[row * n + j] = dy * xhat;
        if (a.db) a.db[row * n + j] = dy;
    }
}

/* dx from the stored c1 (, c2) */
static __global__ void dx_from_c(bwd_args a) {
    int64_t row = blockIdx.x;
    float rstd = a.rstd[row], c1 = a.c1[row], c2 = a.c2 ? a.c2[row] : 0.0f;
    for (int64_t j = threadIdx.x; j < a.B; j += blockDim.x) {
        if (!(j < a.n)) continue;
        float xhat = a.xhat[row * a.sxh + j], wdy = a.w[j] * a.dy[row * a.sdy + j];
        a.dx[row * a.sdx + j] = a.c2 ? (wdy - (xhat * c1 + c2)) * rstd : (wdy - xhat * c1) * rstd;
    }
}

/* c1 (with_xhat) / c2 reductions */
static __global__ void reduce_c(bwd_args a, int with_xhat, float *out) {
    extern __shared__ float sh[];
    int64_t row = blockIdx.x;
    for (int64_t j = threadIdx.x; j < a.B; j += blockDim.x) {
        float w = j < a.n ? a.w[j] : 0.0f, dy = j < a.n ? a.dy[row * a.sdy + j] : 0.0f;
        float xhat = j < a.n && with_xhat ? a.xhat[row * a.sxh + j] : 0.0f;
        sh[j] = with_xhat ? xhat * (w * dy) : w * dy;
    }
    float s = ln_block_sum(sh, a.B) / (float)a.n;
    if (threadIdx.x == 0) out[row] = s;
}

static int bwd(const td_abi_launch *L, int plain) {
    bwd_args a;
    a.x = CF(L, plain ? (int)BB_X : (int)BR_X);
    a.xhat = CF(L, plain ? (int)BB_XHAT : (int)BR_XHAT);
    a.w = CF(L, plain ? (int)BB_W : (int)BR_W);
    a.dy = CF(L, plain ? (int)BB_DY : (int)BR_DY);
    a.mean = plain ? CF(L, BB_MEAN) : NULL;
    a.rstd = CF(L, plain ? (int)BB_RSTD : (int)BR_RSTD);
    a.dx = F(L, plain ? (int)BB_DX : (int)BR_DX);
    a.dw = F(L, plain ? (int)BB_DW : (int)BR_DW);
    a.db = plain ? F(L, BB_DB) : NULL;
    a.c1 = F(L, plain ? (int)BB_C1 : (int)BR_C1);
    a.c2 = plain ? F(L, BB_C2) : NULL;
    a.sxh = TLC_I(L, BP_SXHAT);
    a.sdy = TLC_I(L, BP_SDY);
    a.sx = TLC_I(L, BP_SX);
    a.sdx = TLC_I(L, BP_SDX);
    a.n = TLC_I(L, BP_N);
    a.B = TLC_I(L, BP_BLOCK);
    size_t smem = ln_smem(a.B, 2);
    if (!smem) {
        snprintf(L->err, L->errlen, "BLOCK_N %lld does not fit shared memory", (long long)a.B);
        return 1;
    }
    unsigned th = tlc_threads(a.B);
    one_row<<<tlc_grid(L), th, smem, STREAM(L)>>>(a);
    dx_from_c<<<tlc_grid(L), th, 0, STREAM(L)>>>(a);
    reduce_c<<<tlc_grid(L), th, smem, STREAM(L)>>>(a, 1, a.c1);
    if (plain) reduce_c<<<tlc_grid(L), th, smem, STREAM(L)>>>(a, 0, a.c2);
    return tlc_check(L, "layer_norm_ops backward slices");
}
static int bwd_rms(const td_abi_launch *L) { return bwd(L, 0); }
static int bwd_plain(const td_abi_launch *L) { return bwd(L, 1); }

static __global__ void residual_add(const float *dxb, const float *dres, float *dx, float *dresin, int64_t sdx, int64_t sdr,
                             int64_t sdri, int64_t n, int64_t B) {
    int64_t row = blockIdx.x;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        if (!(j < n)) continue;
        float out = dxb[row * sdx + j] + dres[row * sdr + j];
        dresin[row * sdri + j] = out;
        dx[row * sdx + j] = out;
    }
}
static int bwd_residual_add(const td_abi_launch *L) {
    int64_t B = TLC_I(L, BA_BLOCK);
    residual_add<<<tlc_grid(L), tlc_threads(B), 0, STREAM(L)>>>(CF(L, BA_DXBASE), CF(L, BA_DRES), F(L, BA_DX),
                                                                F(L, BA_DRESIN), TLC_I(L, BA_SDX), TLC_I(L, BA_SDRES),
                                                                TLC_I(L, BA_SDRESIN), TLC_I(L, BA_N), B);
    return tlc_check(L, "layer_norm_ops residual-add store slice");
}

#define OPS(t) "layer_norm_ops.layer_norm_ops_" t
TD_KERNEL(td_kc_lnops_fwd_plain) = {OPS("fwd_plain_bias_all_outputs_compute_correct_general"), "triton", TD_ABI_CUDA,
                                    NULL, NULL, NULL, 3, 6, fwd_plain, NULL};
TD_KERNEL(td_kc_lnops_fwd_rms) = {OPS("fwd_rms_bias_all_outputs_compute_correct_general"), "triton", TD_ABI_CUDA, NULL,
                                  NULL, NULL, 3, 4, fwd_rms, NULL};
TD_KERNEL(td_kc_lnops_fwd_residual) = {OPS("fwd_residual_bias_all_outputs_compute_correct_general"), "triton",
                                       TD_ABI_CUDA, NULL, NULL, NULL, 4, 8, fwd_residual, NULL};
TD_KERNEL(td_kc_lnops_bwd_rms) = {OPS("bwd_rms_core_outputs_compute_correct_general"), "triton", TD_ABI_CUDA, NULL,
                                  NULL, NULL, 6, 8, bwd_rms, NULL};
TD_KERNEL(td_kc_lnops_bwd_plain) = {OPS("bwd_plain_bias_core_outputs_compute_correct_general"), "triton", TD_ABI_CUDA,
                                    NULL, NULL, NULL, 6, 11, bwd_plain, NULL};
TD_KERNEL(td_kc_lnops_bwd_residual_add) = {OPS("bwd_residual_add_all_outputs_compute_correct_general"), "triton",
                                           TD_ABI_CUDA, NULL, NULL, NULL, 5, 4, bwd_residual_add, NULL};
TD_KERNEL(td_kc_lnops_stores) = {OPS("scalar_stores_io_correctness"), "triton", TD_ABI_CUDA, NULL, NULL, NULL, 0, 4,
                                 scalar_stores, NULL};
TD_KERNEL(td_kc_lnops_stores_r) = {OPS("scalar_stores_io_correctnessR"), "triton", TD_ABI_CUDA, "store=fp32:rne:inf",
                                   NULL, NULL, 0, 4, scalar_stores, NULL};
