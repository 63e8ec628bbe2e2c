/* matmul_leakyrelu: matmul_kernel at ACTIVATION = "leaky_relu": tutorial grouped order, loads
 * wrapped with % M / % N, `accumulator += tl.dot(a, b)` (the tile sum added to the
 * binary32 accumulator), tl.where(acc >= 0, acc, 0.01*acc), `.to(tl.float16)`, masked
 * store.  Parameters: M N SAM SAK SBK SBN SCM SCN BM BN BK GROUP numKBlocks.
 * Regions: A, B, C (fp16). */
#include "matmul_tl.h"

static int matmul_kernel(const td_abi_launch *L) {
    mmh_2d g = mmh_leakyrelu_program(L);
    return mmh_gemm_2d(L, &g);
}

TD_KERNEL(td_k_matmul_leakyrelu_cf) = {"matmul_leakyrelu.matmul_leakyrelu_closed_form_correct", "triton", TD_ABI_HOST,
                            "store=fp16:rne:inf", NULL, NULL, 13, 3, matmul_kernel, NULL};
TD_KERNEL(td_k_matmul_leakyrelu_io) = {"matmul_leakyrelu.matmul_leakyrelu_io_correctness", "triton", TD_ABI_HOST,
                            "store=fp16:rne:inf", NULL, NULL, 13, 3, matmul_kernel, NULL};
