/* dequantize_matmul: dequantize_kernel, program by program (kernels/host/dqm_tl.h). */
#include "dqm_tl.h"

static int kernel(const td_abi_launch *L) {
    dqm_bugs none = {0};
    return dqm_run(L, &none);
}

TD_KERNEL(td_k_dequantize_matmul) = {"dequantize_matmul.dequantize_kernel_correctness", "triton", TD_ABI_HOST, NULL,
                                     NULL, NULL, 8, 3, kernel, NULL};
