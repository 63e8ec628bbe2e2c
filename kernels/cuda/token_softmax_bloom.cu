/* token_softmax_bloom on CUDA: LightLLM's _fwd_kernel_token_softmax (token_softmax_tlc.cuh). */
#include "token_softmax_tlc.cuh"

TD_KERNEL(td_kc_token_softmax_bloom) = {"token_softmax_bloom.token_softmax_bloom_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 5, 4,
                                      ts_launch, NULL};
