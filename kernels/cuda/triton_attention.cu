/* triton_attention on CUDA: _bwd_preprocess, one block per program, a thread per row of the
 * BLOCK_M tile: do / denom stored as NewDO (fp16), the row's products o * do summed as the
 * pairwise tree of tl_sum into Delta (binary32); the arithmetic of
 * kernels/host/triton_attention.c. */
#include "attn_online_tlc.cuh"

enum { P_BM, P_DH };
enum { R_OUT, R_DO, R_L, R_NEWDO, R_DELTA };

__global__ void ta_bwd_pre_kernel(const __half *Out, const __half *DO, const float *Lr, __half *NewDO, float *Delta,
                                  int64_t BM, int64_t DH) {
    for (int64_t i = threadIdx.x; i < BM; i += blockDim.x) {
        float prod[AT_CU_MAX];
        const int64_t m = (int64_t)blockIdx.x * BM + i;
        const float denom = Lr[m];
        for (int64_t n = 0; n < DH; n++) {
            const float d = __fdiv_rn(at_ld(DO, m * DH + n), denom);
            prod[n] = __fmul_rn(at_ld(Out, m * DH + n), d);
            at_st(NewDO, m * DH + n, d);
        }
        Delta[m] = at_tree_sum(prod, DH);
    }
}

static int launch(const td_abi_launch *L) {
    const int64_t BM = TLC_I(L, P_BM), DH = TLC_I(L, P_DH);
    if (at_too_wide(L, DH, "D_HEAD")) return 1;
    ta_bwd_pre_kernel<<<tlc_grid(L), at_threads(BM), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_OUT, const __half), TLC_PTR(L, R_DO, const __half), TLC_PTR(L, R_L, const float),
        TLC_PTR(L, R_NEWDO, __half), TLC_PTR(L, R_DELTA, float), BM, DH);
    return tlc_check(L, "triton_attention _bwd_preprocess");
}

TD_KERNEL(td_kc_triton_attention_pre) = {"triton_attention.triton_attention_bwd_preprocess_genuine_output_summary_general",
                                         "triton", TD_ABI_CUDA, "store=fp16:rne:inf", NULL, NULL, 2, 5, launch, NULL};
