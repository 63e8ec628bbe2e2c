/* Alternative for cross_entropy2.cross_entropy_fwd_correctness (with logit_scale and the
 * z_loss output).
 *
 *   alt_online64_exp2  alt_a_ce.h with chunks of 64 and every exp as exp2f of the binary32
 *                 product x * log2 e (Triton's lowering of tl.exp).  Admissible: online
 *                 logsumexp, the exp2-based exp, any sum order.
 * Parameters / regions as kernels/host/cross_entropy2.c. */
#include "alt_a_ce.h"

enum { P_SMOOTHING, P_SCALE, P_LSS, P_IGNORED, P_TOTAL, P_CSI, P_NCOLS, P_NROWS, P_STRIDE, P_BLOCK, P_HAS_SMOOTHING, P_SPLIT };
enum { R_LOSS, R_LSE, R_ZLOSS, R_LOGITS, R_LABELS };

static const aa_ce_layout CE = {P_SMOOTHING, P_SCALE, P_LSS,    P_IGNORED, P_TOTAL, P_CSI,
                                P_NCOLS,     P_NROWS, P_STRIDE, P_BLOCK,   P_HAS_SMOOTHING, P_SPLIT,
                                R_LOSS,      R_LSE,   R_ZLOSS,  R_LOGITS,  R_LABELS};

static int ce2_online(const td_abi_launch *L) { return aa_ce_fwd(L, &CE, 64, aa_exp_tl); }

TD_KERNEL(td_a_cross_entropy2_online64_exp2) = {"cross_entropy2.cross_entropy_fwd_correctness", "alt_online64_exp2",
                                                TD_ABI_HOST, NULL, NULL, NULL, 12, 5, ce2_online, NULL};
