/* seed_sdpa: accy's scaledDotProductF32 (seed 004) on the host, block by block of the
 * launch3D grid and thread by thread of each block (kernels/host/attn_tl.h, sdpah_run). */
#include "attn_tl.h"

static int sdpa(const td_abi_launch *L) { return sdpah_run(L, SDPAH_CORRECT); }

TD_KERNEL(td_k_seed_sdpa) = {"seed_sdpa.scaled_dot_product_f32", "accy", TD_ABI_HOST, NULL, "libm", NULL, 8, 4, sdpa, NULL};
