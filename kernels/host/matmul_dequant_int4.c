/* matmul_dequant_int4: dequantize_kernel, program by program (kernels/host/mdi4_tl.h). */
#include "mdi4_tl.h"

static int kernel(const td_abi_launch *L) {
    mdi4_bugs none = {0};
    return mdi4_run(L, &none);
}

TD_KERNEL(td_k_matmul_dequant_int4) = {"matmul_dequant_int4.matmul_dequant_int4_exec_genuine", "triton",
                                       TD_ABI_HOST, NULL, NULL, NULL, 13, 4, kernel, NULL};
