/* cross_entropy2 mutants. */
#include "../host/reduce_tl.h"

enum { P_SMOOTHING, P_SCALE, P_LSS, P_IGNORED, P_TOTAL, P_CSI, P_NCOLS, P_NROWS, P_STRIDE, P_BLOCK, P_HAS_SMOOTHING, P_SPLIT };
enum { R_LOSS, R_LSE, R_ZLOSS, R_LOGITS, R_LABELS };

static const rtl_ce_layout CE = {P_SMOOTHING, P_SCALE, P_LSS,  P_IGNORED, P_TOTAL, P_CSI,   P_NCOLS,  P_NROWS, P_STRIDE,
                                 P_BLOCK,     P_HAS_SMOOTHING, P_SPLIT, R_LOSS, R_LSE, R_ZLOSS, R_LOGITS, R_LABELS};

static int ce_label_unscaled(const td_abi_launch *L) { return rtl_ce_fwd(L, &CE, RTL_CE_LABEL_UNSCALED); }
static int ce_sum_unmasked(const td_abi_launch *L) { return rtl_ce_fwd(L, &CE, RTL_CE_SUM_UNMASKED); }
static int ce_offset_int32(const td_abi_launch *L) { return rtl_ce_fwd(L, &CE, RTL_CE_OFFSET_I32); }

TD_KERNEL(td_m_ce2_label_unscaled) = {"cross_entropy2.cross_entropy_fwd_correctness", "mut_label_unscaled",
                                      TD_ABI_HOST, NULL, "libm",
                                      "the gathered label logit is not multiplied by logit_scale", 12, 5,
                                      ce_label_unscaled, NULL};
TD_KERNEL(td_m_ce2_sum_unmasked) = {"cross_entropy2.cross_entropy_fwd_correctness", "mut_sum_unmasked", TD_ABI_HOST,
                                    NULL, "libm",
                                    "sum_logits = tl.sum(logits) over the -inf padded tile (no tl.where)", 12, 5,
                                    ce_sum_unmasked, NULL};
TD_KERNEL(td_m_ce2_offset_int32) = {"cross_entropy2.cross_entropy_fwd_correctness", "mut_offset_int32", TD_ABI_HOST,
                                    NULL, "libm",
                                    "row_idx * logits_row_stride computed in int32 (wraps beyond 2^31 elements)", 12, 5,
                                    ce_offset_int32, NULL};
