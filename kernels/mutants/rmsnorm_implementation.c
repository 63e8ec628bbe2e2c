/* rmsnorm_implementation mutants (the program is rmsnorm_tl.h's, with one bug each). */
#include "../host/rmsnorm_tl.h"

static int eps_outside(const td_abi_launch *L) { return rn_stream_program(L, 1, RN_BUG_EPS_OUTSIDE); }
static int norm_tail(const td_abi_launch *L) { return rn_stream_program(L, 1, RN_BUG_NORM_TAIL_DROPPED); }

TD_KERNEL(td_m_rmsnorm_impl_eps) = {"rmsnorm_implementation.rmsnorm_implementation_output_summary",
                                    "mut_eps_outside_sqrt", TD_ABI_HOST, NULL, NULL,
                                    "std = tl.sqrt(var) + eps: eps added outside the square root", 10, 3, eps_outside, NULL};
TD_KERNEL(td_m_rmsnorm_impl_tail) = {"rmsnorm_implementation.rmsnorm_implementation_io_correctness",
                                     "mut_store_tail_dropped", TD_ABI_HOST, NULL, NULL,
                                     "the normalise loop runs range(0, N_SIZE // BLOCK * BLOCK, BLOCK): the tail "
                                     "block is never stored",
                                     10, 3, norm_tail, NULL};
