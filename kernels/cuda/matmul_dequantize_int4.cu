/* matmul_dequantize_int4 on CUDA: matmul4_kernel (kernels/cuda/g4.cuh; b.to(a.dtype) is
 * the identity for binary32 activations). */
#include "g4.cuh"

TD_KERNEL(td_kc_matmul_dequantize_int4) = {"matmul_dequantize_int4.matmul_dequantize_int4_exec_genuine", "triton",
                                           TD_ABI_CUDA, NULL, NULL, NULL, 19, 5, g4_launch, NULL};
