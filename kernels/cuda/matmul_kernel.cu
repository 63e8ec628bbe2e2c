/* matmul_kernel on CUDA: the fixed 4096 layout, program (blockIdx.x, blockIdx.y), one
 * thread per output lane, the K loop of matmul_tlc.cuh (fp16 operands, binary32
 * accumulator, no tensor cores), fp16 store by __float2half_rn, no masks. */
#include "matmul_tlc.cuh"

enum { P_BM, P_BN, P_BK, P_T };
enum { R_C, R_A, R_B };
#define LD 4096

__global__ void matmul_kernel(__half *C, const __half *A, const __half *B, int64_t BM, int64_t BN, int64_t BK,
                              int64_t T) {
    int64_t pm = blockIdx.x, pn = blockIdx.y;
    for (int64_t l = threadIdx.x; l < BM * BN; l += blockDim.x) {
        int64_t row = pm * BM + l / BN, col = pn * BN + l % BN;
        float acc = mmc_kloop(A, (row % LD) * LD, 1, B, col % LD, LD, BK * T, (int)BK, T, 0.0f);
        C[LD * row + col] = __float2half_rn(acc);
    }
}

static int launch(const td_abi_launch *L) {
    int64_t BM = TLC_I(L, P_BM), BN = TLC_I(L, P_BN), BK = TLC_I(L, P_BK);
    if (mmc_check_bk(L, BK)) return 1;
    matmul_kernel<<<tlc_grid(L), tlc_threads(BM * BN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_C, __half), TLC_PTR(L, R_A, const __half), TLC_PTR(L, R_B, const __half), BM, BN, BK,
        TLC_I(L, P_T));
    return tlc_check(L, "matmul_kernel");
}

TD_KERNEL(td_kc_matmul_kernel_cf) = {"matmul_kernel.matmul_kernel_closed_form_correct", "triton", TD_ABI_CUDA,
                                     "store=fp16:rne:inf", NULL, NULL, 4, 3, launch, NULL};
TD_KERNEL(td_kc_matmul_kernel_io) = {"matmul_kernel.matmul_kernel_io_correctness", "triton", TD_ABI_CUDA,
                                     "store=fp16:rne:inf", NULL, NULL, 4, 3, launch, NULL};
