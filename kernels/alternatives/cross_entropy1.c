/* Alternative for cross_entropy1.cross_entropy_fwd_correctness (flash-attention's
 * cross_entropy_fwd_kernel, no logit scale, no z_loss output).
 *
 *   alt_online16  alt_a_ce.h: the block's log-sum-exp in one online pass over chunks of
 *                 16 logits (running max, rescaled running sum), the smoothing sum left to
 *                 right, smoothing * (sum / total) instead of (smoothing * sum) / total.
 *                 Admissible: the single-pass online logsumexp, any sum order, another
 *                 association of a product/quotient (each still two roundings).
 * Parameters / regions as kernels/host/cross_entropy1.c. */
#include "alt_a_ce.h"

enum { P_SMOOTHING, P_LSS, P_IGNORED, P_TOTAL, P_CSI, P_NCOLS, P_NROWS, P_STRIDE, P_BLOCK, P_HAS_SMOOTHING, P_SPLIT };
enum { R_LOSS, R_LSE, R_LOGITS, R_LABELS };

static const aa_ce_layout CE1 = {P_SMOOTHING, -1,      P_LSS,   P_IGNORED, P_TOTAL, P_CSI,
                                 P_NCOLS,     P_NROWS, P_STRIDE, P_BLOCK,  P_HAS_SMOOTHING, P_SPLIT,
                                 R_LOSS,      R_LSE,   -1,       R_LOGITS, R_LABELS};

static int ce1_online(const td_abi_launch *L) { return aa_ce_fwd(L, &CE1, 16, expf); }

TD_KERNEL(td_a_cross_entropy1_online16) = {"cross_entropy1.cross_entropy_fwd_correctness", "alt_online16",
                                           TD_ABI_HOST, NULL, NULL, NULL, 11, 4, ce1_online, NULL};
