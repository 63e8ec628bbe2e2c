/* int8_matmul_quantization: quantize_int8_perrow_kernel and matmul_kernel (SPLIT_K = 1),
 * program by program (kernels/host/imq_tl.h). */
#include "imq_tl.h"

static int quantize(const td_abi_launch *L) {
    imq_qbugs none = {0};
    return imq_quantize(L, &none);
}
static int matmul(const td_abi_launch *L) {
    imq_mbugs none = {0};
    return imq_matmul(L, &none);
}

TD_KERNEL(td_k_int8_matmul_quantization_quantize) = {
    "int8_matmul_quantization.int8_matmul_quantization_quantize_exec_genuine", "triton", TD_ABI_HOST,
    "store=int8:rtz:sat;scale=fp16:rne:inf", NULL, NULL, 10, 3, quantize, NULL};
TD_KERNEL(td_k_int8_matmul_quantization_matmul) = {
    "int8_matmul_quantization.int8_matmul_quantization_matmul_exec_genuine", "triton", TD_ABI_HOST,
    "store=fp16:rne:inf", NULL, NULL, 16, 5, matmul, NULL};
