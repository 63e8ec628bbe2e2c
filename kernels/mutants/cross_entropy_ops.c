/* cross_entropy_ops mutants. */
#include "../host/reduce_tl.h"

enum { P_SMOOTHING, P_SCALE, P_LSS, P_IGNORED, P_TOTAL, P_CSI, P_NCOLS, P_NROWS, P_STRIDE, P_BLOCK, P_HAS_SMOOTHING, P_SPLIT };
enum { R_LOSS, R_LSE, R_ZLOSS, R_LOGITS, R_LABELS };

static const rtl_ce_layout CE = {P_SMOOTHING, P_SCALE, P_LSS,  P_IGNORED, P_TOTAL, P_CSI,   P_NCOLS,  P_NROWS, P_STRIDE,
                                 P_BLOCK,     P_HAS_SMOOTHING, P_SPLIT, R_LOSS, R_LSE, R_ZLOSS, R_LOGITS, R_LABELS};

static int ce_f16_sum(const td_abi_launch *L) { return rtl_ce_fwd(L, &CE, RTL_CE_F16_SUM); }
static int ce_no_class_offset(const td_abi_launch *L) { return rtl_ce_fwd(L, &CE, RTL_CE_NO_CLASS_OFFSET); }

TD_KERNEL(td_m_ce_ops_f16_sum) = {"cross_entropy_ops.cross_entropy_fwd_correctness", "mut_f16_exp_sum", TD_ABI_HOST,
                                  NULL, "libm", "the exp tile is accumulated in binary16", 12, 5, ce_f16_sum, NULL};
TD_KERNEL(td_m_ce_ops_class_offset) = {"cross_entropy_ops.cross_entropy_fwd_correctness", "mut_no_class_offset",
                                       TD_ABI_HOST, NULL, "libm",
                                       "class_start_idx not subtracted from the label (tensor-parallel ranks)", 12, 5,
                                       ce_no_class_offset, NULL};
