/* kldiv_triton: _kldiv_kernel_forward (reduction = 'none', no eps clamp) and
 * _kldiv_kernel_backward (gradient written into input_ptr), one program per row, the
 * column loop `for i in range(0, n_cols, BLOCK_SIZE)` as written.
 * Backward parameters: input_stride, target_stride, n_cols, BLOCK_SIZE (regions
 * input_ptr, target_ptr); forward: y_stride, gt_stride, loss_stride, n_cols, BLOCK_SIZE. */
#include "tl.h"

enum { PB_ISTRIDE, PB_TSTRIDE, PB_NCOLS, PB_BLOCK };
enum { RB_IN, RB_T };
enum { PF_YSTRIDE, PF_GTSTRIDE, PF_LSTRIDE, PF_NCOLS, PF_BLOCK };
enum { RF_Y, RF_GT, RF_LOSS };

static int kldiv_forward(const td_abi_launch *L, int log_target) {
    int64_t ys = TL_I(L, PF_YSTRIDE), gs = TL_I(L, PF_GTSTRIDE), ls = TL_I(L, PF_LSTRIDE);
    int64_t n_cols = TL_I(L, PF_NCOLS), B = TL_I(L, PF_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t i = 0; i < n_cols; i += B)
            for (int64_t j = 0; j < B; j++) {
                int64_t off = i + j;
                if (!(off < n_cols)) continue;
                float y = tl_load(L, RF_Y, (int64_t)pid * ys + off), y_true = tl_load(L, RF_GT, (int64_t)pid * gs + off);
                float loss = log_target ? expf(y_true) * (y_true - y) : y_true * (logf(y_true) - y);
                tl_store(L, RF_LOSS, (int64_t)pid * ls + off, loss, tl_f32());
            }
    return 0;
}

static int kldiv_backward(const td_abi_launch *L, int log_target) {
    int64_t is = TL_I(L, PB_ISTRIDE), ts = TL_I(L, PB_TSTRIDE), n_cols = TL_I(L, PB_NCOLS), B = TL_I(L, PB_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t i = 0; i < n_cols; i += B)
            for (int64_t j = 0; j < B; j++) {
                int64_t off = i + j;
                if (!(off < n_cols)) continue;
                float t = tl_load(L, RB_T, (int64_t)pid * ts + off);
                tl_store(L, RB_IN, (int64_t)pid * is + off, log_target ? -expf(t) : t * -1.0f, tl_f32());
            }
    return 0;
}

static int fwd_default(const td_abi_launch *L) { return kldiv_forward(L, 0); }
static int fwd_log(const td_abi_launch *L) { return kldiv_forward(L, 1); }
static int bwd_default(const td_abi_launch *L) { return kldiv_backward(L, 0); }
static int bwd_log(const td_abi_launch *L) { return kldiv_backward(L, 1); }

TD_KERNEL(td_k_kldiv_triton_bwd_default) = {"kldiv_triton.kldiv_backward_default_compute_correct", "triton",
                                            TD_ABI_HOST, NULL, "libm", NULL, 4, 2, bwd_default, NULL};
TD_KERNEL(td_k_kldiv_triton_bwd_log) = {"kldiv_triton.kldiv_backward_log_target_compute_correct", "triton",
                                        TD_ABI_HOST, NULL, "libm", NULL, 4, 2, bwd_log, NULL};
TD_KERNEL(td_k_kldiv_triton_fwd_default) = {"kldiv_triton.kldiv_forward_default_none_compute_correct", "triton",
                                            TD_ABI_HOST, NULL, "libm", NULL, 5, 3, fwd_default, NULL};
TD_KERNEL(td_k_kldiv_triton_fwd_log) = {"kldiv_triton.kldiv_forward_log_target_none_compute_correct", "triton",
                                        TD_ABI_HOST, NULL, "libm", NULL, 5, 3, fwd_log, NULL};
TD_KERNEL(td_k_kldiv_triton_fwd_stream) = {"kldiv_triton.kldiv_forward_default_none_io_correctness", "triton",
                                           TD_ABI_HOST, NULL, "libm", NULL, 5, 3, fwd_default, NULL};
