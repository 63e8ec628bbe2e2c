/* cross_entropy1 mutants. */
#include "../host/reduce_tl.h"

enum { P_SMOOTHING, P_LSS, P_IGNORED, P_TOTAL, P_CSI, P_NCOLS, P_NROWS, P_STRIDE, P_BLOCK, P_HAS_SMOOTHING, P_SPLIT };
enum { R_LOSS, R_LSE, R_LOGITS, R_LABELS };

static const rtl_ce_layout CE1 = {P_SMOOTHING, -1,    P_LSS,  P_IGNORED, P_TOTAL, P_CSI,    P_NCOLS, P_NROWS, P_STRIDE,
                                  P_BLOCK,     P_HAS_SMOOTHING, P_SPLIT, R_LOSS, R_LSE, -1, R_LOGITS, R_LABELS};

static int ce_ignore_not_skipped(const td_abi_launch *L) { return rtl_ce_fwd(L, &CE1, RTL_CE_IGNORE_NOT_SKIPPED); }
static int ce_no_max_shift(const td_abi_launch *L) { return rtl_ce_fwd(L, &CE1, RTL_CE_NO_MAX_SHIFT); }
static int ce_offset_int32(const td_abi_launch *L) { return rtl_ce_fwd(L, &CE1, RTL_CE_OFFSET_I32); }

TD_KERNEL(td_m_cross_entropy1_ignore) = {"cross_entropy1.cross_entropy_fwd_correctness", "mut_ignore_not_skipped",
                                         TD_ABI_HOST, NULL, "libm",
                                         "no `label == ignored_index` branch: ignored rows get a loss", 11, 4,
                                         ce_ignore_not_skipped, NULL};
TD_KERNEL(td_m_cross_entropy1_shift) = {"cross_entropy1.cross_entropy_fwd_correctness", "mut_no_max_shift",
                                        TD_ABI_HOST, NULL, "libm",
                                        "lse = log(sum(exp(x))) without subtracting the row max", 11, 4,
                                        ce_no_max_shift, NULL};
TD_KERNEL(td_m_cross_entropy1_offset_int32) = {"cross_entropy1.cross_entropy_fwd_correctness", "mut_offset_int32",
                                               TD_ABI_HOST, NULL, "libm",
                                               "row_idx * logits_row_stride computed in int32 (wraps beyond 2^31 "
                                               "elements)",
                                               11, 4, ce_offset_int32, NULL};
