/* kldiv_ops mutants (each bug registered for both faces of its branch). */
#include "../host/tl.h"

enum { PB_TSTRIDE, PB_GSTRIDE, PB_NCOLS, PB_BLOCK };
enum { RB_T, RB_G };
enum { PF_YSTRIDE, PF_GTSTRIDE, PF_LSTRIDE, PF_NCOLS, PF_BLOCK, PF_EPS };
enum { RF_Y, RF_GT, RF_LOSS };

/* backward: the new_grads row is addressed with target_stride (stores that would land
 * past the buffer are dropped here: on a device they fault or corrupt a neighbour) */
static int bwd_out_stride(const td_abi_launch *L) {
    int64_t ts = TL_I(L, PB_TSTRIDE), n_cols = TL_I(L, PB_NCOLS), B = TL_I(L, PB_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t i = 0; i < n_cols; i += B)
            for (int64_t j = 0; j < B && i + j < n_cols; j++) {
                int64_t at = (int64_t)pid * ts + i + j;
                if ((uint64_t)at < TL_LEN(L, RB_G))
                    tl_store(L, RB_G, at, tl_load(L, RB_T, (int64_t)pid * ts + i + j) * -1.0f, tl_f32());
            }
    return 0;
}

/* log-target backward: exp(-target) instead of -exp(target) */
static int bwd_exp_neg(const td_abi_launch *L) {
    int64_t ts = TL_I(L, PB_TSTRIDE), gs = TL_I(L, PB_GSTRIDE), n_cols = TL_I(L, PB_NCOLS), B = TL_I(L, PB_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t i = 0; i < n_cols; i += B)
            for (int64_t j = 0; j < B && i + j < n_cols; j++)
                tl_store(L, RB_G, (int64_t)pid * gs + i + j, expf(-tl_load(L, RB_T, (int64_t)pid * ts + i + j)),
                         tl_f32());
    return 0;
}

/* forward with a seeded bug: 0 = no eps clamp (log(y_true)), 1 = exp of the prediction */
static int fwd_bug(const td_abi_launch *L, int bug) {
    int64_t ys = TL_I(L, PF_YSTRIDE), gs = TL_I(L, PF_GTSTRIDE), ls = TL_I(L, PF_LSTRIDE);
    int64_t n_cols = TL_I(L, PF_NCOLS), B = TL_I(L, PF_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t i = 0; i < n_cols; i += B)
            for (int64_t j = 0; j < B && i + j < n_cols; j++) {
                int64_t off = i + j;
                float y = tl_load(L, RF_Y, (int64_t)pid * ys + off), y_true = tl_load(L, RF_GT, (int64_t)pid * gs + off);
                float loss = bug == 0 ? y_true * (logf(y_true) - y) : expf(y) * (y_true - y);
                tl_store(L, RF_LOSS, (int64_t)pid * ls + off, loss, tl_f32());
            }
    return 0;
}

/* forward with the row offsets pid * y_stride and pid * gt_stride formed in int32 (the
 * kernel without its `pid = tl.program_id(0).to(tl.int64)`): beyond 2^31 elements the
 * offset wraps, an illegal address on a GPU (tl_fault) or another row */
static int fwd_offset_int32(const td_abi_launch *L) {
    int64_t ys = TL_I(L, PF_YSTRIDE), gs = TL_I(L, PF_GTSTRIDE), ls = TL_I(L, PF_LSTRIDE);
    int64_t n_cols = TL_I(L, PF_NCOLS), B = TL_I(L, PF_BLOCK);
    float eps = TL_R(L, PF_EPS);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t yb = tl_i32((int64_t)pid * tl_i32(ys)), gb = tl_i32((int64_t)pid * tl_i32(gs));
        if (tl_fault(L, RF_Y, yb, n_cols, 1, pid) || tl_fault(L, RF_GT, gb, n_cols, 1, pid)) return 1;
        for (int64_t i = 0; i < n_cols; i += B)
            for (int64_t j = 0; j < B && i + j < n_cols; j++) {
                float y = tl_load(L, RF_Y, yb + i + j), y_true = tl_load(L, RF_GT, gb + i + j);
                tl_store(L, RF_LOSS, (int64_t)pid * ls + i + j, y_true * (logf(fmaxf(y_true, eps)) - y), tl_f32());
            }
    }
    return 0;
}
static int fwd_no_eps(const td_abi_launch *L) { return fwd_bug(L, 0); }
static int fwd_exp_pred(const td_abi_launch *L) { return fwd_bug(L, 1); }

TD_KERNEL(td_m_kldiv_ops_bwd_default_cc) = {"kldiv_ops.kldiv_backward_default_compute_correct", "mut_out_stride", TD_ABI_HOST, NULL, "libm",
    "new_grads rows addressed with target_stride", 4, 2, bwd_out_stride, NULL};
TD_KERNEL(td_m_kldiv_ops_bwd_default_io) = {"kldiv_ops.kldiv_backward_default_correctness", "mut_out_stride", TD_ABI_HOST, NULL, "libm",
    "new_grads rows addressed with target_stride", 4, 2, bwd_out_stride, NULL};
TD_KERNEL(td_m_kldiv_ops_bwd_log_cc) = {"kldiv_ops.kldiv_backward_log_target_compute_correct", "mut_exp_neg", TD_ABI_HOST, NULL, "libm",
    "exp(-target) instead of -exp(target)", 4, 2, bwd_exp_neg, NULL};
TD_KERNEL(td_m_kldiv_ops_bwd_log_io) = {"kldiv_ops.kldiv_backward_log_target_correctness", "mut_exp_neg", TD_ABI_HOST, NULL, "libm",
    "exp(-target) instead of -exp(target)", 4, 2, bwd_exp_neg, NULL};
TD_KERNEL(td_m_kldiv_ops_fwd_default_cc) = {"kldiv_ops.kldiv_forward_default_none_compute_correct", "mut_no_eps_clamp", TD_ABI_HOST, NULL, "libm",
    "log(y_true) without the eps clamp", 6, 3, fwd_no_eps, NULL};
TD_KERNEL(td_m_kldiv_ops_fwd_default_io) = {"kldiv_ops.kldiv_forward_default_none_correctness", "mut_no_eps_clamp", TD_ABI_HOST, NULL, "libm",
    "log(y_true) without the eps clamp", 6, 3, fwd_no_eps, NULL};
TD_KERNEL(td_m_kldiv_ops_fwd_log_cc) = {"kldiv_ops.kldiv_forward_log_target_none_compute_correct", "mut_exp_of_prediction", TD_ABI_HOST, NULL, "libm",
    "exp(y) * (y_true - y): exp of the prediction", 5, 3, fwd_exp_pred, NULL};
TD_KERNEL(td_m_kldiv_ops_fwd_log_io) = {"kldiv_ops.kldiv_forward_log_target_none_correctness", "mut_exp_of_prediction", TD_ABI_HOST, NULL, "libm",
    "exp(y) * (y_true - y): exp of the prediction", 5, 3, fwd_exp_pred, NULL};
TD_KERNEL(td_m_kldiv_ops_fwd_default_i32) = {"kldiv_ops.kldiv_forward_default_none_correctness", "mut_offset_int32",
                                            TD_ABI_HOST, NULL, "libm",
                                            "pid * y_stride and pid * gt_stride computed in int32 (wraps beyond 2^31 "
                                            "elements)",
                                            6, 3, fwd_offset_int32, NULL};
