/* int4_matmul: matmul_kernel (SPLIT_K = 1), program by program (kernels/host/i4mm_tl.h). */
#include "i4mm_tl.h"

static int kernel(const td_abi_launch *L) {
    i4_bugs none = {0};
    return i4_run(L, &none);
}

TD_KERNEL(td_k_int4_matmul) = {"int4_matmul.int4_matmul_exec_genuine", "triton", TD_ABI_HOST, NULL, NULL, NULL, 19,
                               5, kernel, NULL};
