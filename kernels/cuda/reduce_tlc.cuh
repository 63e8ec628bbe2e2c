/* CUDA helpers shared by the reduction and loss kernels: Triton's tile reductions as
 * the same pairwise trees the host kernels use (tl_sum / tl_max / rtl_argmax), in
 * shared memory, and the cross-entropy forward program that cross_entropy1,
 * cross_entropy2 and cross_entropy_ops share.  Arithmetic that feeds another rounding
 * uses the _rn intrinsics so that nvcc does not contract it into an FMA: the port
 * rounds where the Triton program (and the error model) rounds. */
#ifndef TD_REDUCE_TLC_CUH
#define TD_REDUCE_TLC_CUH

#include <math.h>

#include "tlc.cuh"

/* Dynamic shared memory of a block, 8-byte aligned. */
#define RTLC_SMEM(name) extern __shared__ double name[]

/* tl.sum over a tile of B lanes (a power of two) held in shared memory: level w adds
 * lane i + w into lane i for every i that is a multiple of 2w, which is the host's
 * recursive halving tree (tl_sum) bit for bit.  Every thread of the block calls it;
 * the tile is destroyed and the sum returned to every thread. */
__device__ inline float rtlc_tree_sum(float *s, int64_t B) {
    for (int64_t w = 1; w < B; w *= 2) {
        __syncthreads();
        for (int64_t i = (int64_t)threadIdx.x * 2 * w; i < B; i += (int64_t)blockDim.x * 2 * w)
            s[i] = __fadd_rn(s[i], s[i + w]);
    }
    __syncthreads();
    float r = s[0];
    __syncthreads();
    return r;
}

/* tl.max the same way (the host's tl_max combine: a > b ? a : b). */
__device__ inline float rtlc_tree_max(float *s, int64_t B) {
    for (int64_t w = 1; w < B; w *= 2) {
        __syncthreads();
        for (int64_t i = (int64_t)threadIdx.x * 2 * w; i < B; i += (int64_t)blockDim.x * 2 * w)
            s[i] = s[i] > s[i + w] ? s[i] : s[i + w];
    }
    __syncthreads();
    float r = s[0];
    __syncthreads();
    return r;
}

/* tl.max(..., return_indices=True, tie_break_left) / tl.argmax: the left operand
 * wins unless the right one is strictly greater, so the first maximum is kept.
 * Indices are tile positions; the value and index are returned to every thread. */
__device__ inline float rtlc_tree_argmax(float *s, int *si, int64_t B, int *idx) {
    for (int64_t w = 1; w < B; w *= 2) {
        __syncthreads();
        for (int64_t i = (int64_t)threadIdx.x * 2 * w; i < B; i += (int64_t)blockDim.x * 2 * w)
            if (s[i + w] > s[i]) {
                s[i] = s[i + w];
                si[i] = si[i + w];
            }
    }
    __syncthreads();
    float r = s[0];
    *idx = si[0];
    __syncthreads();
    return r;
}

/* ---- cross_entropy_fwd_kernel (flash-attention's cross entropy) ---- */
typedef struct rtlc_ce_layout {
    int p_smoothing, p_logit_scale, p_lss, p_ignored, p_total, p_csi, p_ncols, p_nrows, p_stride, p_block,
        p_has_smoothing, p_split;
    int r_loss, r_lse, r_zloss, r_logits, r_labels; /* p_logit_scale, r_zloss: -1 when absent */
} rtlc_ce_layout;

/* One block per program (row_idx, col_block_idx); shared memory: three B-lane tiles. */
template <typename LT>
__global__ void rtlc_ce_fwd_kernel(float *loss_ptr, float *lse_ptr, float *z_loss_ptr, const float *logits_ptr,
                                   const LT *labels_ptr, float smoothing, float logit_scale, int scaled,
                                   float lss, int64_t ignored, int64_t total, int64_t csi, int64_t n_cols,
                                   int64_t n_rows, int64_t stride, int64_t B, int has_smoothing, int split) {
    RTLC_SMEM(smem);
    float *zt = (float *)smem, *et = zt + B, *wt = et + B;
    int64_t row = blockIdx.x, blk = blockIdx.y;
    const float *lp = logits_ptr + row * stride;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        int64_t col = blk * B + j;
        float x = col < n_cols ? lp[col] : -INFINITY; /* other=-inf */
        float z = scaled ? __fmul_rn(x, logit_scale) : x;
        zt[j] = z;
        et[j] = z;
        wt[j] = col < n_cols ? z : 0.0f; /* tl.where(col_offsets < n_cols, logits, 0.0) */
    }
    float m = rtlc_tree_max(et, B);
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) et[j] = expf(__fsub_rn(zt[j], m));
    float s = rtlc_tree_sum(et, B);
    float sum_logits = has_smoothing ? rtlc_tree_sum(wt, B) : 0.0f;
    if (threadIdx.x != 0) return;
    float lse = __fadd_rn(logf(s), m);
    int64_t out = blk * n_rows + row;
    lse_ptr[out] = lse;
    int64_t label = (int64_t)labels_ptr[row];
    float loss, z_loss = 0.0f;
    if (label == ignored) {
        loss = 0.0f;
    } else {
        label -= csi;
        float lse_term = split ? 0.0f : lse;
        int64_t hi = (blk + 1) * B < n_cols ? (blk + 1) * B : n_cols;
        if (label >= blk * B && label < hi) {
            float g = lp[label];
            if (scaled) g = __fmul_rn(g, logit_scale);
            if (has_smoothing)
                loss = __fsub_rn(__fsub_rn(lse_term, __fdiv_rn(__fmul_rn(smoothing, sum_logits), (float)total)),
                                 __fmul_rn(__fsub_rn(1.0f, smoothing), g));
            else
                loss = __fsub_rn(lse_term, g);
        } else {
            loss = has_smoothing ? __fmul_rn(smoothing, __fsub_rn(lse_term, __fdiv_rn(sum_logits, (float)total)))
                                 : 0.0f;
        }
        if (!split) {
            z_loss = __fmul_rn(__fmul_rn(lss, lse), lse);
            loss = __fadd_rn(loss, z_loss);
        }
    }
    loss_ptr[out] = loss;
    if (z_loss_ptr && !split) z_loss_ptr[out] = z_loss;
}

static inline int rtlc_ce_launch(const td_abi_launch *L, const rtlc_ce_layout *y, const char *what) {
    int64_t B = TLC_I(L, y->p_block);
    dim3 grid(L->grid[0], L->grid[1], 1);
    size_t smem = (size_t)(3 * B) * sizeof(float);
    int scaled = y->p_logit_scale >= 0;
    float scale = scaled ? TLC_R(L, y->p_logit_scale) : 1.0f;
    float *zl = y->r_zloss >= 0 ? TLC_PTR(L, y->r_zloss, float) : NULL;
    cudaStream_t st = (cudaStream_t)L->stream;
#define RTLC_CE_ARGS(LT)                                                                                      \
    TLC_PTR(L, y->r_loss, float), TLC_PTR(L, y->r_lse, float), zl, TLC_PTR(L, y->r_logits, const float),      \
        TLC_PTR(L, y->r_labels, const LT), TLC_R(L, y->p_smoothing), scale, scaled, TLC_R(L, y->p_lss),        \
        TLC_I(L, y->p_ignored), TLC_I(L, y->p_total), TLC_I(L, y->p_csi), TLC_I(L, y->p_ncols),               \
        TLC_I(L, y->p_nrows), TLC_I(L, y->p_stride), B, (int)(TLC_I(L, y->p_has_smoothing) != 0),             \
        (int)(TLC_I(L, y->p_split) != 0)
    if (L->regions[y->r_labels].fmt == TD_ABI_I64)
        rtlc_ce_fwd_kernel<int64_t><<<grid, tlc_threads(B), smem, st>>>(RTLC_CE_ARGS(int64_t));
    else
        rtlc_ce_fwd_kernel<int32_t><<<grid, tlc_threads(B), smem, st>>>(RTLC_CE_ARGS(int32_t));
#undef RTLC_CE_ARGS
    return tlc_check(L, what);
}

#endif
