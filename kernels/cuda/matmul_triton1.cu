/* matmul_triton1 on CUDA: the 1-D grid split (m_block, n_block), one thread per output
 * lane, the K loop of matmul_tlc.cuh with binary32 operands (allow_tf32=False: IEEE
 * products with __fmul_rn, no tensor cores), unmasked binary32 store. */
#include "matmul_tlc.cuh"

enum { P_NS, P_M, P_BK, P_N, P_NKB };
enum { R_X, R_Y, R_Z };

__global__ void matmul_kernel(const float *X, const float *Y, float *Z, int64_t NS, int64_t M, int64_t BK, int64_t N,
                              int64_t T) {
    int64_t nnb = (NS + N - 1) / N, mb = blockIdx.x / nnb, nb = blockIdx.x % nnb, K = BK * T;
    for (int64_t l = threadIdx.x; l < M * N; l += blockDim.x) {
        int64_t row = mb * M + l / N, col = nb * N + l % N;
        Z[row * NS + col] = mmc_kloop(X, row * K, 1, Y, col, NS, K, (int)BK, T, 0.0f);
    }
}

static int launch(const td_abi_launch *L) {
    int64_t M = TLC_I(L, P_M), N = TLC_I(L, P_N), BK = TLC_I(L, P_BK);
    if (mmc_check_bk(L, BK)) return 1;
    matmul_kernel<<<tlc_grid(L), tlc_threads(M * N), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_X, const float), TLC_PTR(L, R_Y, const float), TLC_PTR(L, R_Z, float), TLC_I(L, P_NS), M, BK, N,
        TLC_I(L, P_NKB));
    return tlc_check(L, "matmul_kernel");
}

TD_KERNEL(td_kc_matmul_triton1_cf) = {"matmul_triton1.matmul_triton1_closed_form_correct", "triton", TD_ABI_CUDA,
                                      NULL, NULL, NULL, 5, 3, launch, NULL};
TD_KERNEL(td_kc_matmul_triton1_io) = {"matmul_triton1.matmul_triton1_io_correctness", "triton", TD_ABI_CUDA, NULL,
                                      NULL, NULL, 5, 3, launch, NULL};
