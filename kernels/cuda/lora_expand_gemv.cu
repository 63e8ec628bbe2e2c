/* lora_expand_gemv on CUDA: one block per program (blockIdx.x = pid_sn, blockIdx.y =
 * cur_batch); a thread per output row of the slice, its dot product over k < K in
 * order with fmaf (an admissible order: the contract charges any). */
#include "elementwise_tlc.cuh"

enum { P_K, P_SPLIT, P_XM, P_XK, P_L0, P_LK, P_LN, P_CM, P_CN, P_BN, P_BK };
enum { R_IN, R_LORA, R_OUT, R_IDX };

__global__ void bgmv_expand_cuda(const float *input, const float *lora, float *out, const int64_t *lora_indices,
                                 int64_t K, int64_t split, int64_t xm, int64_t xk, int64_t l0, int64_t lk, int64_t ln,
                                 int64_t cm, int64_t cn) {
    int64_t s = blockIdx.x, b = blockIdx.y;
    const float *a = input + b * xm;
    const float *w = lora + l0 * lora_indices[b] + s * split * lk;
    for (int64_t m = threadIdx.x; m < split; m += blockDim.x) {
        float acc = 0.0f;
        for (int64_t k = 0; k < K; k++) acc = fmaf(a[k * xk], w[m * lk + k * ln], acc);
        out[b * cm + s * split + m * cn] = acc;
    }
}

static int launch(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    int64_t split = TLC_I(L, P_SPLIT);
    bgmv_expand_cuda<<<tlc_grid(L), tlc_threads(split), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_IN, const float), TLC_PTR(L, R_LORA, const float), TLC_PTR(L, R_OUT, float),
        TLC_PTR(L, R_IDX, const int64_t), TLC_I(L, P_K), split, TLC_I(L, P_XM), TLC_I(L, P_XK), TLC_I(L, P_L0),
        TLC_I(L, P_LK), TLC_I(L, P_LN), TLC_I(L, P_CM), TLC_I(L, P_CN));
    return tlc_check(L, "_bgmv_expand_kernel");
}

TD_KERNEL(td_kc_lora_gemv_summary) = {"lora_expand_gemv.gemv_full_output_summary", "triton", TD_ABI_CUDA, NULL, NULL,
                                      NULL, 11, 4, launch, NULL};
TD_KERNEL(td_kc_lora_gemv_io) = {"lora_expand_gemv.gemv_full_io_correctness", "triton", TD_ABI_CUDA,
                                 "store=fp32:rne:inf", NULL, NULL, 11, 4, launch, NULL};
