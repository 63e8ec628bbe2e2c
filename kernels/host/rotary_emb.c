/* rotary_emb on the CPU: lightllm's `_rotary_kernel` (rotary_emb.h), Q then K per program. */
#include "rotary_emb.h"

static int rotary_emb(const td_abi_launch *L) { return re_launch(L, REB_OK); }

TD_KERNEL(td_k_rotary_emb) = {"rotary_emb.rotary_emb_kernel_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL, 17, 4,
                              rotary_emb, NULL};
