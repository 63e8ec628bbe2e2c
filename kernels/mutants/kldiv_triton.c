/* kldiv_triton mutants. */
#include "../host/tl.h"

enum { PB_ISTRIDE, PB_TSTRIDE, PB_NCOLS, PB_BLOCK };
enum { RB_IN, RB_T };
enum { PF_YSTRIDE, PF_GTSTRIDE, PF_LSTRIDE, PF_NCOLS, PF_BLOCK };
enum { RF_Y, RF_GT, RF_LOSS };

enum { BWD_SIGN_LOST, BWD_EXP_NEG };
static int bwd_bug(const td_abi_launch *L, int bug) {
    int64_t is = TL_I(L, PB_ISTRIDE), ts = TL_I(L, PB_TSTRIDE), n_cols = TL_I(L, PB_NCOLS), B = TL_I(L, PB_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t i = 0; i < n_cols; i += B)
            for (int64_t j = 0; j < B && i + j < n_cols; j++) {
                float t = tl_load(L, RB_T, (int64_t)pid * ts + i + j);
                /* BWD_SIGN_LOST: `res = target * 1` (the -1 of `target * -1` lost) */
                float res = bug == BWD_SIGN_LOST ? t * 1.0f : expf(-t);
                tl_store(L, RB_IN, (int64_t)pid * is + i + j, res, tl_f32());
            }
    return 0;
}
static int bwd_sign_lost(const td_abi_launch *L) { return bwd_bug(L, BWD_SIGN_LOST); }
static int bwd_exp_neg(const td_abi_launch *L) { return bwd_bug(L, BWD_EXP_NEG); }

enum { FWD_SWAPPED, FWD_SIGN, FWD_TAIL_DROPPED, FWD_NO_ADVANCE, FWD_OFFSET_I32 };
static int fwd_bug(const td_abi_launch *L, int bug) {
    int64_t ys = TL_I(L, PF_YSTRIDE), gs = TL_I(L, PF_GTSTRIDE), ls = TL_I(L, PF_LSTRIDE);
    int64_t n_cols = TL_I(L, PF_NCOLS), B = TL_I(L, PF_BLOCK);
    /* FWD_TAIL_DROPPED: for i in range(0, n_cols // BLOCK_SIZE * BLOCK_SIZE, BLOCK_SIZE) */
    int64_t end = bug == FWD_TAIL_DROPPED ? n_cols / B * B : n_cols;
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t yb = (int64_t)pid * ys, gb = (int64_t)pid * gs;
        if (bug == FWD_OFFSET_I32) { /* pid * y_stride in int32 (no .to(tl.int64)): wraps beyond 2^31 */
            yb = tl_i32((int64_t)pid * tl_i32(ys)), gb = tl_i32((int64_t)pid * tl_i32(gs));
            if (tl_fault(L, RF_Y, yb, n_cols, 1, pid) || tl_fault(L, RF_GT, gb, n_cols, 1, pid)) return 1;
        }
        for (int64_t i = 0; i < end; i += B)
            for (int64_t j = 0; j < B; j++) {
                /* FWD_NO_ADVANCE: offsets = base_offsets (i not added): every chunk reads and writes chunk 0 */
                int64_t off = bug == FWD_NO_ADVANCE ? j : i + j;
                if (!(off < n_cols)) continue;
                float y = tl_load(L, RF_Y, yb + off), y_true = tl_load(L, RF_GT, gb + off);
                float loss;
                if (bug == FWD_SWAPPED) loss = y * (logf(y) - y_true); /* y_ptr and gt_ptr swapped */
                else if (bug == FWD_SIGN) loss = expf(y_true) * (y - y_true);
                else loss = y_true * (logf(y_true) - y);
                tl_store(L, RF_LOSS, (int64_t)pid * ls + off, loss, tl_f32());
            }
    }
    return 0;
}
static int fwd_swapped(const td_abi_launch *L) { return fwd_bug(L, FWD_SWAPPED); }
static int fwd_sign(const td_abi_launch *L) { return fwd_bug(L, FWD_SIGN); }
static int fwd_tail_dropped(const td_abi_launch *L) { return fwd_bug(L, FWD_TAIL_DROPPED); }
static int fwd_no_advance(const td_abi_launch *L) { return fwd_bug(L, FWD_NO_ADVANCE); }
static int fwd_offset_int32(const td_abi_launch *L) { return fwd_bug(L, FWD_OFFSET_I32); }

TD_KERNEL(td_m_kldiv_triton_bwd_sign) = {"kldiv_triton.kldiv_backward_default_compute_correct", "mut_sign_lost",
                                         TD_ABI_HOST, NULL, "libm", "res = target * 1: the gradient's sign lost", 4, 2,
                                         bwd_sign_lost, NULL};
TD_KERNEL(td_m_kldiv_triton_bwd_expneg) = {"kldiv_triton.kldiv_backward_log_target_compute_correct", "mut_exp_neg",
                                           TD_ABI_HOST, NULL, "libm", "exp(-target) instead of -exp(target)", 4, 2,
                                           bwd_exp_neg, NULL};
TD_KERNEL(td_m_kldiv_triton_fwd_swapped) = {"kldiv_triton.kldiv_forward_default_none_compute_correct",
                                            "mut_inputs_swapped", TD_ABI_HOST, NULL, "libm",
                                            "y_ptr and gt_ptr swapped: y * (log(y) - y_true)", 5, 3, fwd_swapped, NULL};
TD_KERNEL(td_m_kldiv_triton_fwd_sign) = {"kldiv_triton.kldiv_forward_log_target_none_compute_correct",
                                         "mut_difference_reversed", TD_ABI_HOST, NULL, "libm",
                                         "exp(y_true) * (y - y_true)", 5, 3, fwd_sign, NULL};
TD_KERNEL(td_m_kldiv_triton_fwd_tail) = {"kldiv_triton.kldiv_forward_default_none_io_correctness",
                                         "mut_tail_block_dropped", TD_ABI_HOST, NULL, "libm",
                                         "the column loop stops at n_cols // BLOCK * BLOCK: the tail chunk is never "
                                         "stored",
                                         5, 3, fwd_tail_dropped, NULL};
TD_KERNEL(td_m_kldiv_triton_fwd_advance) = {"kldiv_triton.kldiv_forward_default_none_io_correctness",
                                            "mut_offsets_not_advanced", TD_ABI_HOST, NULL, "libm",
                                            "offsets = base_offsets: every chunk recomputes chunk 0", 5, 3,
                                            fwd_no_advance, NULL};
TD_KERNEL(td_m_kldiv_triton_fwd_i32) = {"kldiv_triton.kldiv_forward_default_none_io_correctness", "mut_offset_int32",
                                        TD_ABI_HOST, NULL, "libm",
                                        "pid * y_stride and pid * gt_stride computed in int32 (wraps beyond 2^31 "
                                        "elements)",
                                        5, 3, fwd_offset_int32, NULL};
