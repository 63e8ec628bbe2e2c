/* int_scaled_matmul: torchao's matmul_kernel_with_block_pointers and
 * scaled_matmul_kernel_with_block_pointers, program by program (kernels/host/ism_tl.h). */
#include "ism_tl.h"

static int kernel_mm(const td_abi_launch *L) {
    ism_bugs none = {0};
    return ism_run(L, 0, &none);
}
static int kernel_sc(const td_abi_launch *L) {
    ism_bugs none = {0};
    return ism_run(L, 1, &none);
}

TD_KERNEL(td_k_int_scaled_matmul_mm) = {"int_scaled_matmul.int_scaled_matmul_matmul_exec_genuine", "triton",
                                        TD_ABI_HOST, NULL, NULL, NULL, 13, 3, kernel_mm, NULL};
TD_KERNEL(td_k_int_scaled_matmul_sc) = {"int_scaled_matmul.int_scaled_matmul_scaled_exec_genuine", "triton",
                                        TD_ABI_HOST, NULL, NULL, NULL, 17, 4, kernel_sc, NULL};
