/* softmax_triton2 mutants. */
#include "../host/softmax_tl.h"

/* Each mutant is the row softmax with one bug (sm_rows_bug, softmax_tl.h). */

/* The denominator accumulated in binary16 (an fp16 tensor's tl.sum without the
 * upcast): ~2^-11 relative error per addition. */
static int fp16_denominator(const td_abi_launch *L) { return sm_rows_bug(L, SM_BUG_F16_SUM); }

/* Masked lanes loaded with other=0.0 instead of -inf: they take part in the max and
 * add exp(0 - max) each to the denominator. */
static int masked_lanes_zero(const td_abi_launch *L) { return sm_rows_bug(L, SM_BUG_OTHER_ZERO); }

TD_KERNEL(td_m_softmax_triton2_f16) = {"softmax_triton2.softmax_kernel_correctness", "mut_fp16_denominator",
                                       TD_ABI_HOST, NULL, NULL, "the row sum accumulated in binary16", 4, 2,
                                       fp16_denominator, NULL};
TD_KERNEL(td_m_softmax_triton2_other0) = {"softmax_triton2.softmax_kernel_correctness", "mut_masked_lanes_zero",
                                          TD_ABI_HOST, NULL, NULL,
                                          "masked lanes loaded as 0.0 instead of -inf (they join the max and the sum)",
                                          4, 2, masked_lanes_zero, NULL};
