/* token_softmax_llama on CUDA: LightLLM's _fwd_kernel_token_softmax (token_softmax_tlc.cuh). */
#include "token_softmax_tlc.cuh"

TD_KERNEL(td_kc_token_softmax_llama) = {"token_softmax_llama.token_softmax_llama_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL, 5, 4,
                                      ts_launch, NULL};
