/* Alternatives for kldiv_triton (Liger's KL-divergence without the eps clamp,
 * reduction 'none'; the backward writes the gradient into input_ptr).
 *
 *   forward default, alt_lg2       y_true * (log(y_true) - y), log as log2f(v) * ln 2.
 *   forward log-target, alt_exp2   exp(y_true) * (y_true - y), exp as exp2f of the
 *                 binary32 product y_true * log2 e (Triton's lowering of tl.exp).
 *   backward log-target, alt_ex2approx  -exp(y_true) with the ex2.approx.f32 model.
 * Rows are walked from the last to the first (programs run in any order).
 * Parameter and region layouts as kernels/host/kldiv_triton.c. */
#include "alt_a_kl.h"

enum { PB_ISTRIDE, PB_TSTRIDE, PB_NCOLS, PB_BLOCK };
enum { RB_IN, RB_T };
enum { PF_YSTRIDE, PF_GTSTRIDE, PF_LSTRIDE, PF_NCOLS, PF_BLOCK };
enum { RF_Y, RF_GT, RF_LOSS };

static int klt_fwd(const td_abi_launch *L, aa_kl_term f) {
    int64_t ys = TL_I(L, PF_YSTRIDE), gs = TL_I(L, PF_GTSTRIDE), ls = TL_I(L, PF_LSTRIDE), n = TL_I(L, PF_NCOLS);
    for (int64_t pid = (int64_t)L->grid[0] - 1; pid >= 0; pid--)
        for (int64_t c = 0; c < n; c++) {
            float y = tl_load(L, RF_Y, pid * ys + c), yt = tl_load(L, RF_GT, pid * gs + c);
            tl_store(L, RF_LOSS, pid * ls + c, f(y, yt, 0.0f), tl_f32());
        }
    return 0;
}

static int klt_fwd_default(const td_abi_launch *L) { return klt_fwd(L, aa_kl_default_noeps); }
static int klt_fwd_log(const td_abi_launch *L) { return klt_fwd(L, aa_kl_log_exp2); }

static int klt_bwd_log(const td_abi_launch *L) {
    int64_t is = TL_I(L, PB_ISTRIDE), ts = TL_I(L, PB_TSTRIDE), n = TL_I(L, PB_NCOLS);
    for (int64_t pid = (int64_t)L->grid[0] - 1; pid >= 0; pid--)
        for (int64_t c = 0; c < n; c++)
            tl_store(L, RB_IN, pid * is + c, -aa_exp_approx(tl_load(L, RB_T, pid * ts + c)), tl_f32());
    return 0;
}

TD_KERNEL(td_a_kldiv_triton_fwd_default_lg2) = {"kldiv_triton.kldiv_forward_default_none_compute_correct", "alt_lg2",
                                                TD_ABI_HOST, NULL, NULL, NULL, 5, 3, klt_fwd_default, NULL};
TD_KERNEL(td_a_kldiv_triton_fwd_log_exp2) = {"kldiv_triton.kldiv_forward_log_target_none_compute_correct",
                                             "alt_exp2", TD_ABI_HOST, NULL, NULL, NULL, 5, 3, klt_fwd_log, NULL};
TD_KERNEL(td_a_kldiv_triton_bwd_log_ex2approx) = {"kldiv_triton.kldiv_backward_log_target_compute_correct",
                                                  "alt_ex2approx", TD_ABI_HOST, NULL, NULL, NULL, 4, 2, klt_bwd_log,
                                                  NULL};

/* kldiv_triton.kldiv_forward_default_none_io_correctness (the streamed forward, any
 * n_cols, loss stored as binary32):
 *
 *   alt_lg2approx_t64  y_true * (log(y_true) - y) with the log as compiled Triton's
 *                 lg2.approx.f32 model times RN32(ln 2) (aa_log_lg2approx); the columns
 *                 in tiles of 64 whatever BLOCK_SIZE is, the tiles from the row's last to
 *                 its first.  y_true = 0 gives 0 * -inf = NaN, the kernel's value.
 *                 Admissible: the "triton" math model's log; elementwise, so the
 *                 blocking and the order are free. */
static int klt_fwd_default_t64(const td_abi_launch *L) {
    int64_t ys = TL_I(L, PF_YSTRIDE), gs = TL_I(L, PF_GTSTRIDE), ls = TL_I(L, PF_LSTRIDE), n = TL_I(L, PF_NCOLS);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t t0 = (n - 1) / 64 * 64; n > 0 && t0 >= 0; t0 -= 64)
            for (int64_t c = t0; c < t0 + 64 && c < n; c++) {
                float y = tl_load(L, RF_Y, (int64_t)pid * ys + c), yt = tl_load(L, RF_GT, (int64_t)pid * gs + c);
                tl_store(L, RF_LOSS, (int64_t)pid * ls + c, yt * (aa_log_lg2approx(yt) - y), tl_f32());
            }
    return 0;
}

TD_KERNEL(td_a_kldiv_triton_fwd_io_lg2approx) = {"kldiv_triton.kldiv_forward_default_none_io_correctness",
                                                 "alt_lg2approx_t64", TD_ABI_HOST, NULL, NULL, NULL, 5, 3,
                                                 klt_fwd_default_t64, NULL};

/* kldiv_triton.kldiv_backward_default_compute_correct (gradient into input_ptr):
 *
 *   alt_fma_t16   input = fma(target, -1, -0): the product t * -1 through the FMA unit with
 *                 the additive identity -0 (one rounding of an exact value, so -t, -0 for
 *                 t = +0 and +0 for t = -0 as t * -1 gives); the columns in tiles of 16
 *                 whatever BLOCK_SIZE is, the tiles from the row's last to its first.
 *                 Admissible: FMA contraction; elementwise, so blocking and order are free. */
static int klt_bwd_default_fma(const td_abi_launch *L) {
    int64_t is = TL_I(L, PB_ISTRIDE), ts = TL_I(L, PB_TSTRIDE), n = TL_I(L, PB_NCOLS);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t t0 = (n - 1) / 16 * 16; n > 0 && t0 >= 0; t0 -= 16)
            for (int64_t c = t0; c < t0 + 16 && c < n; c++)
                tl_store(L, RB_IN, (int64_t)pid * is + c, fmaf(tl_load(L, RB_T, (int64_t)pid * ts + c), -1.0f, -0.0f),
                         tl_f32());
    return 0;
}

TD_KERNEL(td_a_kldiv_triton_bwd_default_fma) = {"kldiv_triton.kldiv_backward_default_compute_correct", "alt_fma_t16",
                                                TD_ABI_HOST, NULL, NULL, NULL, 4, 2, klt_bwd_default_fma, NULL};
