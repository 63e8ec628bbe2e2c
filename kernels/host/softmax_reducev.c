/* softmax_reducev: LightLLM's fused token softmax + P·V (_fwd_kernel), grid (batch, head).
 * Parameters: mil, the ten strides, BLOCK_DMODEL, BLOCK_N, other_kv_index (+ mr for the
 * genuine contract: a proof device, unused by the kernel). */
#include "softmax_reducev_tl.h"

static int softmax_reducev(const td_abi_launch *L) { return softmax_reducev_program(L, 0); }

TD_KERNEL(td_k_softmax_reducev) = {"softmax_reducev.softmax_reducev_genuine_output_compute_correct_general", "triton",
                                   TD_ABI_HOST, NULL, NULL, NULL, NP, NR, softmax_reducev, NULL};
TD_KERNEL(td_k_softmax_reducev_io) = {"softmax_reducev.softmax_reducev_io_correctness", "triton", TD_ABI_HOST,
                                      "store=fp32:rne:inf", NULL, NULL, NP - 1, NR, softmax_reducev, NULL};
