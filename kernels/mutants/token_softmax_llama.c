/* token_softmax_llama mutants: bugs decode-attention softmax kernels ship
 * (kernels/host/token_softmax_tl.h injects each into the faithful program). */
#include "../host/token_softmax_tl.h"

static int pad_zero(const td_abi_launch *L) { return ts_program(L, (ts_bugs){1, 0, 0, 0}); }
static int start_next(const td_abi_launch *L) { return ts_program(L, (ts_bugs){0, 1, 0, 0}); }
static int store_all(const td_abi_launch *L) { return ts_program(L, (ts_bugs){0, 0, 1, 0}); }
static int offset_int32(const td_abi_launch *L) { return ts_program(L, (ts_bugs){0, 0, 0, 1}); }

TD_KERNEL(td_m_token_softmax_llama_pad) = {"token_softmax_llama.token_softmax_llama_correctness", "mut_softmax_over_padding", TD_ABI_HOST, NULL,
                                         NULL, "padded lanes loaded with other=0, not -inf: the softmax runs over them",
                                         5, 4, pad_zero, NULL};
TD_KERNEL(td_m_token_softmax_llama_start) = {"token_softmax_llama.token_softmax_llama_correctness", "mut_start_from_next", TD_ABI_HOST, NULL, NULL,
                                           "start location of sequence b read from B_Start_Loc[b + 1]", 5, 4,
                                           start_next, NULL};
TD_KERNEL(td_m_token_softmax_llama_store) = {"token_softmax_llama.token_softmax_llama_correctness", "mut_store_unmasked", TD_ABI_HOST, NULL, NULL,
                                           "the store's mask forgotten: BLOCK_SIZE lanes written past the sequence",
                                           5, 4, store_all, NULL};
TD_KERNEL(td_m_token_softmax_llama_int32) = {"token_softmax_llama.token_softmax_llama_correctness", "mut_offset_int32",
                                           TD_ABI_HOST, NULL, NULL,
                                           "cur_head * stride_logic_h + (start + j) * stride_logic_bs formed in int32 "
                                           "(wraps beyond 2^31 elements)",
                                           5, 4, offset_int32, NULL};
