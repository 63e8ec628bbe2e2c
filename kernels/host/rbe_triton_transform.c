/* rbe_triton_transform: rbe_triton on the CPU, lane by lane (rbe_triton_transform_tl.h);
 * powf / cosf / sinf of the host libm stand for libdevice's pow and tl.cos / tl.sin. */
#include "rbe_triton_transform_tl.h"

static int rbe(const td_abi_launch *L) { return rbe_program(L, 0); }

TD_KERNEL(td_k_rbe_triton_transform) = {"rbe_triton_transform.rbe_triton_transform_output_summary_general", "triton",
                                        TD_ABI_HOST, NULL, NULL, NULL, 13, 2, rbe, NULL};
