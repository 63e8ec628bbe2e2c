/* cross_entropy1: flash-attention's cross_entropy_fwd_kernel, program by program
 * (grid (n_rows, n_splits)); the program itself is rtl_ce_fwd (reduce_tl.h), shared
 * with cross_entropy2 / cross_entropy_ops.  This source does not scale the logits and
 * has no z_loss output. */
#include "reduce_tl.h"

enum { P_SMOOTHING, P_LSS, P_IGNORED, P_TOTAL, P_CSI, P_NCOLS, P_NROWS, P_STRIDE, P_BLOCK, P_HAS_SMOOTHING, P_SPLIT };
enum { R_LOSS, R_LSE, R_LOGITS, R_LABELS };

static const rtl_ce_layout CE1 = {P_SMOOTHING, -1,    P_LSS,  P_IGNORED, P_TOTAL, P_CSI,    P_NCOLS, P_NROWS, P_STRIDE,
                                  P_BLOCK,     P_HAS_SMOOTHING, P_SPLIT, R_LOSS, R_LSE, -1, R_LOGITS, R_LABELS};

static int cross_entropy_fwd_kernel(const td_abi_launch *L) { return rtl_ce_fwd(L, &CE1, RTL_CE_OK); }

TD_KERNEL(td_k_cross_entropy1_fwd) = {"cross_entropy1.cross_entropy_fwd_correctness", "triton", TD_ABI_HOST, NULL,
                                      "libm", NULL, 11, 4, cross_entropy_fwd_kernel, NULL};
