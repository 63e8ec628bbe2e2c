/* kldiv_ops: Liger's _kldiv_kernel_forward (reduction = 'none') and _kldiv_kernel_backward,
 * one program per row, the column loop `for i in range(0, n_cols, BLOCK_SIZE)` as written.
 * Backward parameters: target_stride, new_grads_stride, n_cols, BLOCK_SIZE (regions
 * target_ptr, new_grads_ptr); forward: y_stride, gt_stride, loss_stride, n_cols,
 * BLOCK_SIZE[, eps] (regions y_ptr, gt_ptr, loss_ptr). */
#include "tl.h"

enum { PB_TSTRIDE, PB_GSTRIDE, PB_NCOLS, PB_BLOCK };
enum { RB_T, RB_G };
enum { PF_YSTRIDE, PF_GTSTRIDE, PF_LSTRIDE, PF_NCOLS, PF_BLOCK, PF_EPS };
enum { RF_Y, RF_GT, RF_LOSS };

static int kldiv_forward(const td_abi_launch *L, int log_target) {
    int64_t ys = TL_I(L, PF_YSTRIDE), gs = TL_I(L, PF_GTSTRIDE), ls = TL_I(L, PF_LSTRIDE);
    int64_t n_cols = TL_I(L, PF_NCOLS), B = TL_I(L, PF_BLOCK);
    float eps = log_target ? 0.0f : TL_R(L, PF_EPS);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t i = 0; i < n_cols; i += B)
            for (int64_t j = 0; j < B; j++) {
                int64_t off = i + j;
                if (!(off < n_cols)) continue; /* mask = offsets < n_cols */
                float y = tl_load(L, RF_Y, (int64_t)pid * ys + off), y_true = tl_load(L, RF_GT, (int64_t)pid * gs + off);
                float loss = log_target ? expf(y_true) * (y_true - y) : y_true * (logf(fmaxf(y_true, eps)) - y);
                tl_store(L, RF_LOSS, (int64_t)pid * ls + off, loss, tl_f32());
            }
    return 0;
}

static int kldiv_backward(const td_abi_launch *L, int log_target) {
    int64_t ts = TL_I(L, PB_TSTRIDE), gs = TL_I(L, PB_GSTRIDE), n_cols = TL_I(L, PB_NCOLS), B = TL_I(L, PB_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t i = 0; i < n_cols; i += B)
            for (int64_t j = 0; j < B; j++) {
                int64_t off = i + j;
                if (!(off < n_cols)) continue;
                float t = tl_load(L, RB_T, (int64_t)pid * ts + off);
                float res = log_target ? -expf(t) : t * -1.0f;
                tl_store(L, RB_G, (int64_t)pid * gs + off, res, tl_f32());
            }
    return 0;
}

static int fwd_default(const td_abi_launch *L) { return kldiv_forward(L, 0); }
static int fwd_log(const td_abi_launch *L) { return kldiv_forward(L, 1); }
static int bwd_default(const td_abi_launch *L) { return kldiv_backward(L, 0); }
static int bwd_log(const td_abi_launch *L) { return kldiv_backward(L, 1); }

TD_KERNEL(td_k_kldiv_ops_bwd_default_cc) = {"kldiv_ops.kldiv_backward_default_compute_correct", "triton", TD_ABI_HOST,
                                            NULL, "libm", NULL, 4, 2, bwd_default, NULL};
TD_KERNEL(td_k_kldiv_ops_bwd_default_io) = {"kldiv_ops.kldiv_backward_default_correctness", "triton", TD_ABI_HOST,
                                            NULL, "libm", NULL, 4, 2, bwd_default, NULL};
TD_KERNEL(td_k_kldiv_ops_bwd_log_cc) = {"kldiv_ops.kldiv_backward_log_target_compute_correct", "triton", TD_ABI_HOST,
                                        NULL, "libm", NULL, 4, 2, bwd_log, NULL};
TD_KERNEL(td_k_kldiv_ops_bwd_log_io) = {"kldiv_ops.kldiv_backward_log_target_correctness", "triton", TD_ABI_HOST,
                                        NULL, "libm", NULL, 4, 2, bwd_log, NULL};
TD_KERNEL(td_k_kldiv_ops_fwd_default_cc) = {"kldiv_ops.kldiv_forward_default_none_compute_correct", "triton",
                                            TD_ABI_HOST, NULL, "libm", NULL, 6, 3, fwd_default, NULL};
TD_KERNEL(td_k_kldiv_ops_fwd_default_io) = {"kldiv_ops.kldiv_forward_default_none_correctness", "triton",
                                            TD_ABI_HOST, NULL, "libm", NULL, 6, 3, fwd_default, NULL};
TD_KERNEL(td_k_kldiv_ops_fwd_log_cc) = {"kldiv_ops.kldiv_forward_log_target_none_compute_correct", "triton",
                                        TD_ABI_HOST, NULL, "libm", NULL, 5, 3, fwd_log, NULL};
TD_KERNEL(td_k_kldiv_ops_fwd_log_io) = {"kldiv_ops.kldiv_forward_log_target_none_correctness", "triton", TD_ABI_HOST,
                                        NULL, "libm", NULL, 5, 3, fwd_log, NULL};
