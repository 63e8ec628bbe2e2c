/* matmul_dequantize_int4: matmul4_kernel, program by program (kernels/host/g4_tl.h:
 * `b.to(a.dtype)` is the identity for the binary32 activations the contract takes). */
#include "g4_tl.h"

static int kernel(const td_abi_launch *L) {
    g4_bugs none = {0};
    return g4_run(L, &none);
}

TD_KERNEL(td_k_matmul_dequantize_int4) = {"matmul_dequantize_int4.matmul_dequantize_int4_exec_genuine", "triton",
                                          TD_ABI_HOST, NULL, NULL, NULL, 19, 5, kernel, NULL};
