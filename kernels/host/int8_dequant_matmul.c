/* int8_dequant_matmul: _int8_matmul_rowwise_dequantize (SPLIT_K = 1, EVEN_K), program by
 * program (kernels/host/idm_tl.h). */
#include "idm_tl.h"

static int kernel(const td_abi_launch *L) {
    idm_bugs none = {0};
    return idm_run(L, &none);
}

TD_KERNEL(td_k_int8_dequant_matmul) = {"int8_dequant_matmul.int8_dequant_matmul_exec_genuine", "triton",
                                       TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 16, 6, kernel, NULL};
