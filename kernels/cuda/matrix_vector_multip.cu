/* matrix_vector_multip on CUDA: one block per program, one thread per row of the
 * program's block: the BLOCK_M products (masked lanes 0, __fmul_rn) accumulated per
 * lane over the M loop (__fadd_rn onto 0), then the pairwise tree of tl.sum(axis=1);
 * store masked by n < N. */
#include "matmul_tlc.cuh"

enum { P_N, P_M, P_SAN, P_SAM, P_SBM, P_SCN, P_BN, P_BM };
enum { R_A, R_B, R_C };

__global__ void mv_kernel(const float *A, const float *B, float *C, int64_t N, int64_t M, int64_t san, int64_t sam,
                          int64_t sbm, int64_t scn, int64_t BN, int BM) {
    float acc[MMC_MAX_BK];
    for (int64_t i = threadIdx.x; i < BN; i += blockDim.x) {
        int64_t n = blockIdx.x * BN + i;
        for (int j = 0; j < BM; j++) acc[j] = 0.0f;
        for (int64_t m0 = 0; m0 < M; m0 += BM)
            for (int j = 0; j < BM; j++) {
                int64_t m = m0 + j;
                float a = (n < N && m < M) ? A[n * san + m * sam] : 0.0f;
                float b = m < M ? B[m * sbm] : 0.0f;
                acc[j] = __fadd_rn(acc[j], __fmul_rn(a, b));
            }
        float s = mmc_tree(acc, BM);
        if (n < N) C[n * scn] = s;
    }
}

static int launch(const td_abi_launch *L) {
    int64_t BN = TLC_I(L, P_BN), BM = TLC_I(L, P_BM);
    if (mmc_check_bk(L, BM)) return 1;
    mv_kernel<<<tlc_grid(L), tlc_threads(BN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_A, const float), TLC_PTR(L, R_B, const float), TLC_PTR(L, R_C, float), TLC_I(L, P_N),
        TLC_I(L, P_M), TLC_I(L, P_SAN), TLC_I(L, P_SAM), TLC_I(L, P_SBM), TLC_I(L, P_SCN), BN, (int)BM);
    return tlc_check(L, "mv_kernel");
}

TD_KERNEL(td_kc_mv_summary) = {"matrix_vector_multip.mv_kernel_output_summary_general", "triton", TD_ABI_CUDA, NULL,
                               NULL, NULL, 8, 3, launch, NULL};
TD_KERNEL(td_kc_mv_io) = {"matrix_vector_multip.mv_one_block_io_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                          8, 3, launch, NULL};
