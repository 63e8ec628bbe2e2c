/* cross_entropy1 on CUDA: cross_entropy_fwd_kernel, one block per program
 * (row_idx, col_block_idx); the program is rtlc_ce_fwd_kernel (reduce_tlc.cuh). */
#include "reduce_tlc.cuh"

enum { P_SMOOTHING, P_LSS, P_IGNORED, P_TOTAL, P_CSI, P_NCOLS, P_NROWS, P_STRIDE, P_BLOCK, P_HAS_SMOOTHING, P_SPLIT };
enum { R_LOSS, R_LSE, R_LOGITS, R_LABELS };

static const rtlc_ce_layout CE1 = {P_SMOOTHING, -1,    P_LSS,  P_IGNORED, P_TOTAL, P_CSI,    P_NCOLS, P_NROWS, P_STRIDE,
                                   P_BLOCK,     P_HAS_SMOOTHING, P_SPLIT, R_LOSS, R_LSE, -1, R_LOGITS, R_LABELS};

static int launch(const td_abi_launch *L) { return rtlc_ce_launch(L, &CE1, "cross_entropy_fwd_kernel"); }

TD_KERNEL(td_kc_cross_entropy1_fwd) = {"cross_entropy1.cross_entropy_fwd_correctness", "triton", TD_ABI_CUDA, NULL,
                                       NULL, NULL, 11, 4, launch, NULL};
