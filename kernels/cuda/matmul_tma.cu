/* matmul_tma on CUDA: one program, one thread per lane of the [BLOCK_M, BLOCK_N] tile;
 * plain strided loads stand in for the TMA block loads (same cells, no boundary check),
 * c = the pairwise-tree tile sum of exact fp16 products in binary32 (__fmul_rn /
 * __fadd_rn, no tensor cores), stored as binary32 or through __float2half_rn. */
#include "matmul_tlc.cuh"

enum { P_M, P_N, P_K, P_SAM, P_SAK, P_SBK, P_SBN, P_SCM, P_SCN, P_BM, P_BN, P_BK };
enum { R_A, R_B, R_C };

struct tma_args {
    int64_t sam, sak, sbk, sbn, scm, scn, BM, BN, BK;
};

template <class TC>
__global__ void matmul_tma_load_store(const __half *A, const __half *B, TC *C, tma_args a) {
    for (int64_t l = threadIdx.x; l < a.BM * a.BN; l += blockDim.x) {
        int64_t i = l / a.BN, j = l % a.BN;
        float c = mmc_kloop(A, i * a.sam, a.sak, B, j * a.sbn, a.sbk, a.BK, (int)a.BK, 1, 0.0f);
        mmc_st(C, i * a.scm + j * a.scn, c);
    }
}

template <class TC>
static int launch(const td_abi_launch *L) {
    tma_args a = {TLC_I(L, P_SAM), TLC_I(L, P_SAK), TLC_I(L, P_SBK), TLC_I(L, P_SBN), TLC_I(L, P_SCM),
                  TLC_I(L, P_SCN), TLC_I(L, P_BM),  TLC_I(L, P_BN),  TLC_I(L, P_BK)};
    if (mmc_check_bk(L, a.BK)) return 1;
    matmul_tma_load_store<TC><<<tlc_grid(L), tlc_threads(a.BM * a.BN), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_A, const __half), TLC_PTR(L, R_B, const __half), TLC_PTR(L, R_C, TC), a);
    return tlc_check(L, "matmul_tma_load_store");
}
static int launch_f32(const td_abi_launch *L) { return launch<float>(L); }
static int launch_f16(const td_abi_launch *L) { return launch<__half>(L); }

TD_KERNEL(td_kc_matmul_tma_f32_cf) = {"matmul_tma.matmul_tma_f32_closed_form_correct", "triton", TD_ABI_CUDA, NULL,
                                      NULL, NULL, 12, 3, launch_f32, NULL};
TD_KERNEL(td_kc_matmul_tma_f16_cf) = {"matmul_tma.matmul_tma_f16_closed_form_correct", "triton", TD_ABI_CUDA,
                                      "store=fp16:rne:inf", NULL, NULL, 12, 3, launch_f16, NULL};
TD_KERNEL(td_kc_matmul_tma_f32_io) = {"matmul_tma.matmul_tma_f32_io_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                                      NULL, 12, 3, launch_f32, NULL};
TD_KERNEL(td_kc_matmul_tma_f16_io) = {"matmul_tma.matmul_tma_f16_io_correctnessR", "triton", TD_ABI_CUDA,
                                      "store=fp16:rne:inf", NULL, NULL, 12, 3, launch_f16, NULL};
