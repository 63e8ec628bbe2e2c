/* int8_matmul_kernel: matmul_kernel of the original file, program by program
 * (kernels/host/imk_tl.h): int8 A against 2-bit weights packed four to a uint8 of B,
 * exact int32 accumulation, masked int32 store. */
#include "imk_tl.h"

static int kernel(const td_abi_launch *L) {
    imk_bugs none = {0};
    return imk_run(L, &none);
}

TD_KERNEL(td_k_int8_matmul_kernel) = {"int8_matmul_kernel.int8_matmul_kernel_exec_genuine", "triton", TD_ABI_HOST,
                                      NULL, NULL, NULL, 14, 3, kernel, NULL};
