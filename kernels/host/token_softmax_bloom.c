/* token_softmax_bloom: LightLLM's _fwd_kernel_token_softmax (kernels/host/token_softmax_tl.h). */
#include "token_softmax_tl.h"

static int token_softmax(const td_abi_launch *L) { return ts_program(L, (ts_bugs){0, 0, 0, 0}); }

TD_KERNEL(td_k_token_softmax_bloom) = {"token_softmax_bloom.token_softmax_bloom_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL, 5, 4,
                                     token_softmax, NULL};
