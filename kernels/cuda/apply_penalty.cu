/* apply_penalty on CUDA: one block per batch row; the block's threads stride over the
 * row's window of token ids (distinct, so the in-place updates do not collide). */
#include "elementwise_tlc.cuh"

enum { P_STRIDE_B, P_STRIDE_S, P_BLOCK };
enum { R_LOGITS, R_PRES, R_FREQ, R_REP, R_IDS, R_CNTS, R_CUMSUM };

__global__ void apply_penalty_cuda(float *logits, const float *pres, const float *freq, const float *rep,
                                   const int32_t *ids, const int32_t *cnts, const int32_t *cumsum, int64_t sb,
                                   int64_t B) {
    int64_t b = blockIdx.x;
    int64_t start = cumsum[b], end = cumsum[b + 1];
    float f = freq[b], p = pres[b], r = rep[b];
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        int64_t k = start + j;
        if (k >= end) continue;
        float *cell = logits + b * sb + ids[k];
        float x = *cell;
        float rep_logit = x > 0.0f ? __fdiv_rn(x, r) : __fmul_rn(x, r);
        *cell = __fsub_rn(__fsub_rn(rep_logit, __fmul_rn((float)cnts[k], f)), p);
    }
}

static int launch(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    int64_t B = TLC_I(L, P_BLOCK);
    apply_penalty_cuda<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_LOGITS, float), TLC_PTR(L, R_PRES, const float), TLC_PTR(L, R_FREQ, const float),
        TLC_PTR(L, R_REP, const float), TLC_PTR(L, R_IDS, const int32_t), TLC_PTR(L, R_CNTS, const int32_t),
        TLC_PTR(L, R_CUMSUM, const int32_t), TLC_I(L, P_STRIDE_B), B);
    return tlc_check(L, "_fwd_kernel_apply_penalty");
}

TD_KERNEL(td_kc_apply_penalty) = {"apply_penalty.apply_penalty_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                                  3, 7, launch, NULL};
