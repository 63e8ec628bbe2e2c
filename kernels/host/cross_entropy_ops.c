/* cross_entropy_ops: cross_entropy_fwd_kernel with logit_scale and the z_loss output, program by
 * program (grid (n_rows, n_splits)); the program is rtl_ce_fwd (reduce_tl.h). */
#include "reduce_tl.h"

enum { P_SMOOTHING, P_SCALE, P_LSS, P_IGNORED, P_TOTAL, P_CSI, P_NCOLS, P_NROWS, P_STRIDE, P_BLOCK, P_HAS_SMOOTHING, P_SPLIT };
enum { R_LOSS, R_LSE, R_ZLOSS, R_LOGITS, R_LABELS };

static const rtl_ce_layout CE = {P_SMOOTHING, P_SCALE, P_LSS,  P_IGNORED, P_TOTAL, P_CSI,   P_NCOLS,  P_NROWS, P_STRIDE,
                                 P_BLOCK,     P_HAS_SMOOTHING, P_SPLIT, R_LOSS, R_LSE, R_ZLOSS, R_LOGITS, R_LABELS};

static int cross_entropy_fwd_kernel(const td_abi_launch *L) { return rtl_ce_fwd(L, &CE, RTL_CE_OK); }

TD_KERNEL(td_k_ce_ops_fwd) = {"cross_entropy_ops.cross_entropy_fwd_correctness", "triton", TD_ABI_HOST, NULL, "libm", NULL,
                              12, 5, cross_entropy_fwd_kernel, NULL};
