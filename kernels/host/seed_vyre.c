/* seed_vyre: vyre-libs 0.7.2 flash_attention_2 (the tiled program) and
 * flash_attention_2_reference (the scalar parity oracle) on the host, invocation by
 * invocation (kernels/host/attn_tl.h: vyh_tiled, vyh_reference).  Invalid sizes return
 * the builders' trap as the launch's error. */
#include "attn_tl.h"

static int tiled(const td_abi_launch *L) { return vyh_tiled(L, VYH_CORRECT); }
static int scalar_reference(const td_abi_launch *L) { return vyh_reference(L, VYH_CORRECT); }

TD_KERNEL(td_k_seed_vyre_tiled) = {"seed_vyre.flash_attention_2_matches_reference", "tiled", TD_ABI_HOST, NULL, "libm",
                                   NULL, 3, 4, tiled, NULL};
TD_KERNEL(td_k_seed_vyre_reference) = {"seed_vyre.flash_attention_2_matches_reference", "scalar_reference",
                                       TD_ABI_HOST, NULL, "libm", NULL, 3, 4, scalar_reference, NULL};
