/* matmul_triton2 on CUDA: one block per program, one thread per output lane of the
 * [BM, BN] tile, the K loop of matmul_tlc.cuh (fp16 operands, binary32 accumulator,
 * no tensor cores), the (row < M) & (col < N) binary32 store. */
#include "matmul_tlc.cuh"

enum { P_M, P_N, P_BM, P_BN, P_GM, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BK, P_NKB };
enum { R_A, R_B, R_C };

struct mt2_args {
    int64_t M, N, BM, BN, GM, sam, sak, sbk, sbn, scm, scn, BK, T;
};

__global__ void matmul_kernel(const __half *A, const __half *B, float *C, mt2_args a) {
    int64_t pm, pn;
    mmc_swizzle(blockIdx.x, a.M, a.N, a.BM, a.BN, a.GM, 1, &pm, &pn);
    for (int64_t l = threadIdx.x; l < a.BM * a.BN; l += blockDim.x) {
        int64_t row = pm * a.BM + l / a.BN, col = pn * a.BN + l % a.BN; /* offs_am, offs_bn: no wrap */
        float acc = mmc_kloop(A, row * a.sam, a.sak, B, col * a.sbn, a.sbk, a.BK * a.T, (int)a.BK, a.T, 0.0f);
        if (row < a.M && col < a.N) C[row * a.scm + col * a.scn] = acc;
    }
}

static int launch(const td_abi_launch *L) {
    mt2_args a = {TLC_I(L, P_M),   TLC_I(L, P_N),   TLC_I(L, P_BM),  TLC_I(L, P_BN),  TLC_I(L, P_GM),
                  TLC_I(L, P_SAM), TLC_I(L, P_SAK), TLC_I(L, P_SBK), TLC_I(L, P_SBN), TLC_I(L, P_SCM),
                  TLC_I(L, P_SCN), TLC_I(L, P_BK),  TLC_I(L, P_NKB)};
    if (mmc_check_bk(L, a.BK)) return 1;
    matmul_kernel<<<tlc_grid(L), tlc_threads(a.BM * a.BN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_A, const __half), TLC_PTR(L, R_B, const __half), TLC_PTR(L, R_C, float), a);
    return tlc_check(L, "matmul_kernel");
}

TD_KERNEL(td_kc_matmul_triton2_summary) = {"matmul_triton2.matmul_triton2_output_summary_general", "triton",
                                           TD_ABI_CUDA, NULL, NULL, NULL, 13, 3, launch};
TD_KERNEL(td_kc_matmul_triton2_io) = {"matmul_triton2.matmul_triton2_io_correctness", "triton", TD_ABI_CUDA, NULL,
                                      NULL, NULL, 13, 3, launch};
