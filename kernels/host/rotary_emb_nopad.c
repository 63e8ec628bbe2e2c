/* rotary_emb_nopad on the CPU: rotary_embedding_kernel or fused_rotary_embedding_kernel_v2,
 * as the wrapper chooses (rotary_emb_nopad.h). */
#include "rotary_emb_nopad.h"

static int k_nopad(const td_abi_launch *L) { return np_launch(L, NPB_OK); }

TD_KERNEL(td_k_rotary_emb_nopad) = {"rotary_emb_nopad.rotary_emb_nopad_output_summary_general", "triton", TD_ABI_HOST,
                                    NULL, NULL, NULL, 43, 7, k_nopad, NULL};
