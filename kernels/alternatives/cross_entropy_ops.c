/* Alternative for cross_entropy_ops.cross_entropy_fwd_correctness (the same source and
 * statement as cross_entropy2).
 *
 *   alt_online8_ex2approx  alt_a_ce.h with chunks of 8 and every exp the ex2.approx.f32
 *                 model after the binary32 multiply by log2 e (compiled tl.exp on NVIDIA).
 *                 Admissible: online logsumexp, the compiled exp, any sum order.
 * Parameters / regions as kernels/host/cross_entropy_ops.c. */
#include "alt_a_ce.h"

enum { P_SMOOTHING, P_SCALE, P_LSS, P_IGNORED, P_TOTAL, P_CSI, P_NCOLS, P_NROWS, P_STRIDE, P_BLOCK, P_HAS_SMOOTHING, P_SPLIT };
enum { R_LOSS, R_LSE, R_ZLOSS, R_LOGITS, R_LABELS };

static const aa_ce_layout CE = {P_SMOOTHING, P_SCALE, P_LSS,    P_IGNORED, P_TOTAL, P_CSI,
                                P_NCOLS,     P_NROWS, P_STRIDE, P_BLOCK,   P_HAS_SMOOTHING, P_SPLIT,
                                R_LOSS,      R_LSE,   R_ZLOSS,  R_LOGITS,  R_LABELS};

static int ce_ops_online(const td_abi_launch *L) { return aa_ce_fwd(L, &CE, 8, aa_exp_approx); }

TD_KERNEL(td_a_cross_entropy_ops_online8_ex2) = {"cross_entropy_ops.cross_entropy_fwd_correctness",
                                                 "alt_online8_ex2approx", TD_ABI_HOST, NULL, NULL, NULL, 12, 5,
                                                 ce_ops_online, NULL};
