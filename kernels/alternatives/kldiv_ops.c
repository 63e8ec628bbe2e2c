/* Alternatives for kldiv_ops (Liger's KL-divergence, reduction 'none', per row).
 *
 *   forward default, alt_lg2      y_true * (log(max(y_true, eps)) - y) with the log as
 *                 log2f(v) * ln 2 (alt_a_kl.h).  Admissible: the lg2-based log.
 *   forward log-target, alt_ex2approx  exp(y_true) * (y_true - y) with the exp the
 *                 ex2.approx.f32 model after the binary32 multiply by log2 e.
 *   backward log-target, alt_exp2  -exp(y_true) with exp2f(y_true * log2 e), the product
 *                 rounded (Triton's lowering of tl.exp).
 * Each row is walked in one sweep of n_cols (not in BLOCK_SIZE chunks): elementwise, the
 * order cannot matter, and it exercises that.
 * Parameter and region layouts as kernels/host/kldiv_ops.c. */
#include "alt_a_kl.h"

enum { PB_TSTRIDE, PB_GSTRIDE, PB_NCOLS, PB_BLOCK };
enum { RB_T, RB_G };
enum { PF_YSTRIDE, PF_GTSTRIDE, PF_LSTRIDE, PF_NCOLS, PF_BLOCK, PF_EPS };
enum { RF_Y, RF_GT, RF_LOSS };

static int klo_fwd(const td_abi_launch *L, aa_kl_term f, float eps) {
    int64_t ys = TL_I(L, PF_YSTRIDE), gs = TL_I(L, PF_GTSTRIDE), ls = TL_I(L, PF_LSTRIDE), n = TL_I(L, PF_NCOLS);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t c = 0; c < n; c++) {
            float y = tl_load(L, RF_Y, (int64_t)pid * ys + c), yt = tl_load(L, RF_GT, (int64_t)pid * gs + c);
            tl_store(L, RF_LOSS, (int64_t)pid * ls + c, f(y, yt, eps), tl_f32());
        }
    return 0;
}

static int klo_fwd_default(const td_abi_launch *L) { return klo_fwd(L, aa_kl_default, TL_R(L, PF_EPS)); }
static int klo_fwd_log(const td_abi_launch *L) { return klo_fwd(L, aa_kl_log_ex2approx, 0.0f); }

static int klo_bwd_log(const td_abi_launch *L) {
    int64_t ts = TL_I(L, PB_TSTRIDE), gs = TL_I(L, PB_GSTRIDE), n = TL_I(L, PB_NCOLS);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t c = 0; c < n; c++)
            tl_store(L, RB_G, (int64_t)pid * gs + c, -aa_exp_tl(tl_load(L, RB_T, (int64_t)pid * ts + c)), tl_f32());
    return 0;
}

TD_KERNEL(td_a_kldiv_ops_fwd_default_lg2) = {"kldiv_ops.kldiv_forward_default_none_compute_correct", "alt_lg2",
                                             TD_ABI_HOST, NULL, NULL, NULL, 6, 3, klo_fwd_default, NULL};
TD_KERNEL(td_a_kldiv_ops_fwd_log_ex2approx) = {"kldiv_ops.kldiv_forward_log_target_none_compute_correct",
                                               "alt_ex2approx", TD_ABI_HOST, NULL, NULL, NULL, 5, 3, klo_fwd_log,
                                               NULL};
TD_KERNEL(td_a_kldiv_ops_bwd_log_exp2) = {"kldiv_ops.kldiv_backward_log_target_compute_correct", "alt_exp2",
                                          TD_ABI_HOST, NULL, NULL, NULL, 4, 2, klo_bwd_log, NULL};

/* The MaskedKernelIO faces (the same launches, loss / new_grads stored as binary32):
 *
 *   forward default, alt_lg2approx  y_true * (log(max(y_true, eps)) - y) with the log as
 *                 compiled Triton's lg2.approx.f32 model times RN32(ln 2)
 *                 (aa_log_lg2approx), each row walked from its last column to its first.
 *                 Admissible: the "triton" math model's log, which "any" includes.
 *   backward default, alt_sub0  new_grads = 0.0 - t (a subtraction from zero, as the
 *                 log-target branch writes 0.0 - exp(t)) instead of t * -1, rows from the
 *                 last to the first.  Both are -t exactly for every finite t except the
 *                 sign of a zero result (0 - 0 = +0, 0 * -1 = -0): the spec is over the
 *                 reals, where they are the same value. */
static int klo_fwd_default_rev(const td_abi_launch *L) {
    int64_t ys = TL_I(L, PF_YSTRIDE), gs = TL_I(L, PF_GTSTRIDE), ls = TL_I(L, PF_LSTRIDE), n = TL_I(L, PF_NCOLS);
    float eps = TL_R(L, PF_EPS);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t c = n - 1; c >= 0; c--) {
            float y = tl_load(L, RF_Y, (int64_t)pid * ys + c), yt = tl_load(L, RF_GT, (int64_t)pid * gs + c);
            tl_store(L, RF_LOSS, (int64_t)pid * ls + c, yt * (aa_log_lg2approx(fmaxf(yt, eps)) - y), tl_f32());
        }
    return 0;
}

static int klo_bwd_default_sub0(const td_abi_launch *L) {
    int64_t ts = TL_I(L, PB_TSTRIDE), gs = TL_I(L, PB_GSTRIDE), n = TL_I(L, PB_NCOLS);
    for (int64_t pid = (int64_t)L->grid[0] - 1; pid >= 0; pid--)
        for (int64_t c = 0; c < n; c++)
            tl_store(L, RB_G, pid * gs + c, 0.0f - tl_load(L, RB_T, pid * ts + c), tl_f32());
    return 0;
}

TD_KERNEL(td_a_kldiv_ops_fwd_default_io_lg2approx) = {"kldiv_ops.kldiv_forward_default_none_correctness",
                                                      "alt_lg2approx", TD_ABI_HOST, NULL, NULL, NULL, 6, 3,
                                                      klo_fwd_default_rev, NULL};
TD_KERNEL(td_a_kldiv_ops_bwd_default_io_sub0) = {"kldiv_ops.kldiv_backward_default_correctness", "alt_sub0",
                                                 TD_ABI_HOST, NULL, NULL, NULL, 4, 2, klo_bwd_default_sub0, NULL};

/* The remaining faces (each had only the port):
 *
 *   forward log-target io, alt_exp2_t32  exp(y_true) * (y_true - y) with the exp as
 *                 exp2f of the binary32 product y_true * log2 e (Triton's lowering of
 *                 tl.exp, libdevice's exp2), the columns in tiles of 32 whatever
 *                 BLOCK_SIZE is, the tiles of a row from its last to its first.
 *                 Admissible: the "triton" math model's exp; elementwise, so the blocking
 *                 and the order are free.
 *   backward log-target io, alt_ex2approx_sub0  0.0 - exp(t) as the kernel writes it (a
 *                 subtraction from zero, not a negation), the exp the ex2.approx.f32
 *                 model after the binary32 multiply by log2 e; rows from the last to the
 *                 first.  Admissible: the "triton" math model; 0 - e = -e exactly for
 *                 every finite e.
 *   backward default compute, alt_signflip  -t as a flip of the sign bit (what a
 *                 compiler emits for t * -1), the columns walked from the last to the
 *                 first.  Admissible: t * -1 is exact, and the flip is bit-identical to it
 *                 (-0 included). */
static int klo_fwd_log_t32(const td_abi_launch *L) {
    int64_t ys = TL_I(L, PF_YSTRIDE), gs = TL_I(L, PF_GTSTRIDE), ls = TL_I(L, PF_LSTRIDE), n = TL_I(L, PF_NCOLS);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t t0 = (n - 1) / 32 * 32; n > 0 && t0 >= 0; t0 -= 32)
            for (int64_t c = t0; c < t0 + 32 && c < n; c++) {
                float y = tl_load(L, RF_Y, (int64_t)pid * ys + c), yt = tl_load(L, RF_GT, (int64_t)pid * gs + c);
                tl_store(L, RF_LOSS, (int64_t)pid * ls + c, aa_kl_log_exp2(y, yt, 0.0f), tl_f32());
            }
    return 0;
}

static int klo_bwd_log_sub0(const td_abi_launch *L) {
    int64_t ts = TL_I(L, PB_TSTRIDE), gs = TL_I(L, PB_GSTRIDE), n = TL_I(L, PB_NCOLS);
    for (int64_t pid = (int64_t)L->grid[0] - 1; pid >= 0; pid--)
        for (int64_t c = 0; c < n; c++)
            tl_store(L, RB_G, pid * gs + c, 0.0f - aa_exp_approx(tl_load(L, RB_T, pid * ts + c)), tl_f32());
    return 0;
}

static int klo_bwd_default_flip(const td_abi_launch *L) {
    int64_t ts = TL_I(L, PB_TSTRIDE), gs = TL_I(L, PB_GSTRIDE), n = TL_I(L, PB_NCOLS);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t c = n - 1; c >= 0; c--) {
            float t = tl_load(L, RB_T, (int64_t)pid * ts + c);
            uint32_t b = aa_bits(t) ^ 0x80000000u;
            memcpy(&t, &b, sizeof t);
            tl_store(L, RB_G, (int64_t)pid * gs + c, t, tl_f32());
        }
    return 0;
}

TD_KERNEL(td_a_kldiv_ops_fwd_log_io_exp2) = {"kldiv_ops.kldiv_forward_log_target_none_correctness", "alt_exp2_t32",
                                             TD_ABI_HOST, NULL, NULL, NULL, 5, 3, klo_fwd_log_t32, NULL};
TD_KERNEL(td_a_kldiv_ops_bwd_log_io_sub0) = {"kldiv_ops.kldiv_backward_log_target_correctness",
                                             "alt_ex2approx_sub0", TD_ABI_HOST, NULL, NULL, NULL, 4, 2,
                                             klo_bwd_log_sub0, NULL};
TD_KERNEL(td_a_kldiv_ops_bwd_default_flip) = {"kldiv_ops.kldiv_backward_default_compute_correct", "alt_signflip",
                                              TD_ABI_HOST, NULL, NULL, NULL, 4, 2, klo_bwd_default_flip, NULL};
