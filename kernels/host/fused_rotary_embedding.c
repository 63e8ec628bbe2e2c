/* fused_rotary_embedding on the CPU: the q rotation and the v-cache store of
 * decoding_fused_rotary_embedding_kernel (fused_rotary_embedding.h). */
#include "fused_rotary_embedding.h"

static int k_q(const td_abi_launch *L) { return fr_q(L, FR_OK); }
static int k_v(const td_abi_launch *L) { return fr_v(L, FR_OK); }

TD_KERNEL(td_k_fused_rotary_q) = {"fused_rotary_embedding.decoding_fused_rotary_embedding_q_correctness", "triton",
                                  TD_ABI_HOST, NULL, NULL, NULL, 6, 3, k_q, NULL};
TD_KERNEL(td_k_fused_rotary_v) = {"fused_rotary_embedding.decoding_fused_rotary_embedding_vcache_chain_correctness",
                                  "triton", TD_ABI_HOST, NULL, NULL, NULL, 12, 4, k_v, NULL};
