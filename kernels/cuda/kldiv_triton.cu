/* kldiv_triton on CUDA: _kldiv_kernel_forward (reduction = 'none', no eps clamp) and
 * _kldiv_kernel_backward (into input_ptr), one block per row, the column loop as written. */
#include "tlc.cuh"

enum { PB_ISTRIDE, PB_TSTRIDE, PB_NCOLS, PB_BLOCK };
enum { RB_IN, RB_T };
enum { PF_YSTRIDE, PF_GTSTRIDE, PF_LSTRIDE, PF_NCOLS, PF_BLOCK };
enum { RF_Y, RF_GT, RF_LOSS };

__global__ void kldiv_forward(const float *y_ptr, int64_t ys, const float *gt_ptr, int64_t gs, float *loss_ptr,
                              int64_t ls, int64_t n_cols, int64_t B, int log_target) {
    int64_t pid = blockIdx.x;
    for (int64_t i = 0; i < n_cols; i += B)
        for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
            int64_t off = i + j;
            if (off >= n_cols) continue;
            float y = y_ptr[pid * ys + off], y_true = gt_ptr[pid * gs + off];
            loss_ptr[pid * ls + off] = log_target ? __fmul_rn(expf(y_true), __fsub_rn(y_true, y))
                                                  : __fmul_rn(y_true, __fsub_rn(logf(y_true), y));
        }
}

__global__ void kldiv_backward(float *in_ptr, int64_t is, const float *t_ptr, int64_t ts, int64_t n_cols, int64_t B,
                               int log_target) {
    int64_t pid = blockIdx.x;
    for (int64_t i = 0; i < n_cols; i += B)
        for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
            int64_t off = i + j;
            if (off >= n_cols) continue;
            float t = t_ptr[pid * ts + off];
            in_ptr[pid * is + off] = log_target ? -expf(t) : t * -1.0f;
        }
}

static int forward(const td_abi_launch *L, int log_target) {
    int64_t B = TLC_I(L, PF_BLOCK);
    kldiv_forward<<<dim3(L->grid[0]), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, RF_Y, const float), TLC_I(L, PF_YSTRIDE), TLC_PTR(L, RF_GT, const float), TLC_I(L, PF_GTSTRIDE),
        TLC_PTR(L, RF_LOSS, float), TLC_I(L, PF_LSTRIDE), TLC_I(L, PF_NCOLS), B, log_target);
    return tlc_check(L, "_kldiv_kernel_forward");
}
static int backward(const td_abi_launch *L, int log_target) {
    int64_t B = TLC_I(L, PB_BLOCK);
    kldiv_backward<<<dim3(L->grid[0]), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, RB_IN, float), TLC_I(L, PB_ISTRIDE), TLC_PTR(L, RB_T, const float), TLC_I(L, PB_TSTRIDE),
        TLC_I(L, PB_NCOLS), B, log_target);
    return tlc_check(L, "_kldiv_kernel_backward");
}
static int fwd_default(const td_abi_launch *L) { return forward(L, 0); }
static int fwd_log(const td_abi_launch *L) { return forward(L, 1); }
static int bwd_default(const td_abi_launch *L) { return backward(L, 0); }
static int bwd_log(const td_abi_launch *L) { return backward(L, 1); }

TD_KERNEL(td_kc_kldiv_triton_bwd_default) = {"kldiv_triton.kldiv_backward_default_compute_correct", "triton",
                                             TD_ABI_CUDA, NULL, NULL, NULL, 4, 2, bwd_default, NULL};
TD_KERNEL(td_kc_kldiv_triton_bwd_log) = {"kldiv_triton.kldiv_backward_log_target_compute_correct", "triton",
                                         TD_ABI_CUDA, NULL, NULL, NULL, 4, 2, bwd_log, NULL};
TD_KERNEL(td_kc_kldiv_triton_fwd_default) = {"kldiv_triton.kldiv_forward_default_none_compute_correct", "triton",
                                             TD_ABI_CUDA, NULL, NULL, NULL, 5, 3, fwd_default, NULL};
TD_KERNEL(td_kc_kldiv_triton_fwd_log) = {"kldiv_triton.kldiv_forward_log_target_none_compute_correct", "triton",
                                         TD_ABI_CUDA, NULL, NULL, NULL, 5, 3, fwd_log, NULL};
TD_KERNEL(td_kc_kldiv_triton_fwd_stream) = {"kldiv_triton.kldiv_forward_default_none_io_correctness", "triton",
                                            TD_ABI_CUDA, NULL, NULL, NULL, 5, 3, fwd_default, NULL};
