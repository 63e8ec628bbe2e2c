/* kldiv_ops on CUDA: _kldiv_kernel_forward (reduction = 'none') and _kldiv_kernel_backward,
 * one block per row, the column loop over BLOCK_SIZE tiles as in the Triton program. */
#include "tlc.cuh"

enum { PB_TSTRIDE, PB_GSTRIDE, PB_NCOLS, PB_BLOCK };
enum { RB_T, RB_G };
enum { PF_YSTRIDE, PF_GTSTRIDE, PF_LSTRIDE, PF_NCOLS, PF_BLOCK, PF_EPS };
enum { RF_Y, RF_GT, RF_LOSS };

__global__ void kldiv_forward(const float *y_ptr, int64_t ys, const float *gt_ptr, int64_t gs, float *loss_ptr,
                              int64_t ls, int64_t n_cols, float eps, int64_t B, int log_target) {
    int64_t pid = blockIdx.x;
    for (int64_t i = 0; i < n_cols; i += B)
        for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
            int64_t off = i + j;
            if (off >= n_cols) continue;
            float y = y_ptr[pid * ys + off], y_true = gt_ptr[pid * gs + off];
            float loss = log_target ? __fmul_rn(expf(y_true), __fsub_rn(y_true, y))
                                    : __fmul_rn(y_true, __fsub_rn(logf(fmaxf(y_true, eps)), y));
            loss_ptr[pid * ls + off] = loss;
        }
}

__global__ void kldiv_backward(const float *t_ptr, int64_t ts, float *g_ptr, int64_t gs, int64_t n_cols, int64_t B,
                               int log_target) {
    int64_t pid = blockIdx.x;
    for (int64_t i = 0; i < n_cols; i += B)
        for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
            int64_t off = i + j;
            if (off >= n_cols) continue;
            float t = t_ptr[pid * ts + off];
            g_ptr[pid * gs + off] = log_target ? -expf(t) : t * -1.0f;
        }
}

static int forward(const td_abi_launch *L, int log_target) {
    int64_t B = TLC_I(L, PF_BLOCK);
    kldiv_forward<<<dim3(L->grid[0]), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, RF_Y, const float), TLC_I(L, PF_YSTRIDE), TLC_PTR(L, RF_GT, const float), TLC_I(L, PF_GTSTRIDE),
        TLC_PTR(L, RF_LOSS, float), TLC_I(L, PF_LSTRIDE), TLC_I(L, PF_NCOLS), log_target ? 0.0f : TLC_R(L, PF_EPS), B,
        log_target);
    return tlc_check(L, "_kldiv_kernel_forward");
}
static int backward(const td_abi_launch *L, int log_target) {
    int64_t B = TLC_I(L, PB_BLOCK);
    kldiv_backward<<<dim3(L->grid[0]), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, RB_T, const float), TLC_I(L, PB_TSTRIDE), TLC_PTR(L, RB_G, float), TLC_I(L, PB_GSTRIDE),
        TLC_I(L, PB_NCOLS), B, log_target);
    return tlc_check(L, "_kldiv_kernel_backward");
}
static int fwd_default(const td_abi_launch *L) { return forward(L, 0); }
static int fwd_log(const td_abi_launch *L) { return forward(L, 1); }
static int bwd_default(const td_abi_launch *L) { return backward(L, 0); }
static int bwd_log(const td_abi_launch *L) { return backward(L, 1); }

TD_KERNEL(td_kc_kldiv_ops_bwd_default_cc) = {"kldiv_ops.kldiv_backward_default_compute_correct", "triton",
                                             TD_ABI_CUDA, NULL, NULL, NULL, 4, 2, bwd_default, NULL};
TD_KERNEL(td_kc_kldiv_ops_bwd_default_io) = {"kldiv_ops.kldiv_backward_default_correctness", "triton", TD_ABI_CUDA,
                                             NULL, NULL, NULL, 4, 2, bwd_default, NULL};
TD_KERNEL(td_kc_kldiv_ops_bwd_log_cc) = {"kldiv_ops.kldiv_backward_log_target_compute_correct", "triton",
                                         TD_ABI_CUDA, NULL, NULL, NULL, 4, 2, bwd_log, NULL};
TD_KERNEL(td_kc_kldiv_ops_bwd_log_io) = {"kldiv_ops.kldiv_backward_log_target_correctness", "triton", TD_ABI_CUDA,
                                         NULL, NULL, NULL, 4, 2, bwd_log, NULL};
TD_KERNEL(td_kc_kldiv_ops_fwd_default_cc) = {"kldiv_ops.kldiv_forward_default_none_compute_correct", "triton",
                                             TD_ABI_CUDA, NULL, NULL, NULL, 6, 3, fwd_default, NULL};
TD_KERNEL(td_kc_kldiv_ops_fwd_default_io) = {"kldiv_ops.kldiv_forward_default_none_correctness", "triton",
                                             TD_ABI_CUDA, NULL, NULL, NULL, 6, 3, fwd_default, NULL};
TD_KERNEL(td_kc_kldiv_ops_fwd_log_cc) = {"kldiv_ops.kldiv_forward_log_target_none_compute_correct", "triton",
                                         TD_ABI_CUDA, NULL, NULL, NULL, 5, 3, fwd_log, NULL};
TD_KERNEL(td_kc_kldiv_ops_fwd_log_io) = {"kldiv_ops.kldiv_forward_log_target_none_correctness", "triton",
                                         TD_ABI_CUDA, NULL, NULL, NULL, 5, 3, fwd_log, NULL};
