/* matmul_dequantize: dequantize_kernel, program by program (kernels/host/mdi4_tl.h: the
 * source is byte-identical to matmul_dequant_int4's). */
#include "mdi4_tl.h"

static int dequantize(const td_abi_launch *L) {
    mdi4_bugs none = {0};
    return mdi4_run(L, &none);
}

TD_KERNEL(td_k_matmul_dequantize_dequantize) = {"matmul_dequantize.matmul_dequantize_dequantize_exec_genuine",
                                                "triton", TD_ABI_HOST, NULL, NULL, NULL, 13, 4, dequantize, NULL};

/* matmul_kernel (SPLIT_K = 1), program by program (kernels/host/mdq_tl.h). */
#include "mdq_tl.h"

static int matmul(const td_abi_launch *L) {
    mdq_bugs none = {0};
    return mdq_run(L, &none);
}

TD_KERNEL(td_k_matmul_dequantize_matmul) = {"matmul_dequantize.matmul_dequantize_matmul_exec_genuine", "triton",
                                            TD_ABI_HOST, "store=fp16:rne:inf", NULL, NULL, 19, 5, matmul, NULL};

/* matmul4_kernel, program by program (kernels/host/g4_tl.h, shared with
 * matmul_dequantize_int4, whose source differs by an identity cast). */
#include "g4_tl.h"

static int matmul4(const td_abi_launch *L) {
    g4_bugs none = {0};
    return g4_run(L, &none);
}

TD_KERNEL(td_k_matmul_dequantize_matmul4) = {"matmul_dequantize.matmul_dequantize_matmul4_exec_genuine", "triton",
                                             TD_ABI_HOST, NULL, NULL, NULL, 19, 5, matmul4, NULL};
