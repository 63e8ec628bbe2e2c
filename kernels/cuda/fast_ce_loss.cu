/* fast_ce_loss on CUDA: _cross_entropy_forward (one block per row) and
 * _chunked_cross_entropy_forward (one block per (row, chunk)), softcapping off. */
#include "reduce_tlc.cuh"

enum { P_V, P_STRIDE, P_BLOCK, P_SOFTCAP, P_SCALE, P_DO_SCALE };
enum { PC_V, PC_NCHUNKS, PC_STRIDE, PC_SOFTCAP, PC_SCALE, PC_DO_SCALE, PC_N };
enum { R_LOGITS, R_LOSS, R_LSE, R_LABELS };

/* c = tl.max(z), logsumexp = c + tl.log(tl.sum(tl.exp(z - c))) over the block's B lanes
 * starting at column col0; shared memory: two B-lane tiles. */
__device__ float fce_block_lse(const float *lp, int64_t col0, int64_t V, int64_t B, int do_scale, float scale) {
    RTLC_SMEM(smem);
    float *zt = (float *)smem, *et = zt + B;
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) {
        int64_t col = col0 + j;
        float x = col < V ? lp[col] : -INFINITY;
        float z = do_scale ? __fmul_rn(scale, x) : x;
        zt[j] = z;
        et[j] = z;
    }
    float c = rtlc_tree_max(et, B);
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) et[j] = expf(__fsub_rn(zt[j], c));
    float s = rtlc_tree_sum(et, B);
    return __fadd_rn(c, logf(s));
}

__global__ void cross_entropy_forward(const float *logits_ptr, int64_t stride, float *loss_ptr, float *lse_ptr,
                                      const int64_t *labels_ptr, int64_t V, int64_t B, int do_scale, float scale) {
    int64_t row = blockIdx.x;
    const float *lp = logits_ptr + row * stride;
    float logsumexp = fce_block_lse(lp, 0, V, B, do_scale, scale);
    if (threadIdx.x != 0) return;
    int32_t label = (int32_t)labels_ptr[row];
    float loss = 0.0f;
    if (label != -100) {
        float x = lp[label];
        if (do_scale) x = __fmul_rn(scale, x);
        loss = __fsub_rn(logsumexp, x);
    }
    lse_ptr[row] = logsumexp;
    loss_ptr[row] = loss;
}

__global__ void chunked_cross_entropy_forward(const float *logits_ptr, int64_t stride, float *loss_ptr,
                                              float *lse_ptr, const int64_t *labels_ptr, int64_t V, int64_t chunks,
                                              int64_t B, int do_scale, float scale) {
    int64_t row = blockIdx.x, chunk = blockIdx.y;
    const float *lp = logits_ptr + row * stride;
    float logsumexp = fce_block_lse(lp, chunk * B, V, B, do_scale, scale);
    if (threadIdx.x != 0 || chunk != 0) return;
    int32_t label = (int32_t)labels_ptr[row];
    float loss = 0.0f;
    if (label != -100) {
        float x = lp[label];
        if (do_scale) x = __fmul_rn(scale, x);
        loss = -1.0f * x;
    }
    loss_ptr[row] = loss;
    lse_ptr[row * chunks + chunk] = logsumexp;
}

static int launch(const td_abi_launch *L) {
    int64_t B = TLC_I(L, P_BLOCK);
    cross_entropy_forward<<<dim3(L->grid[0]), tlc_threads(B), (size_t)(2 * B) * sizeof(float),
                            (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_LOGITS, const float), TLC_I(L, P_STRIDE), TLC_PTR(L, R_LOSS, float), TLC_PTR(L, R_LSE, float),
        TLC_PTR(L, R_LABELS, const int64_t), TLC_I(L, P_V), B, (int)(TLC_I(L, P_DO_SCALE) != 0), TLC_R(L, P_SCALE));
    return tlc_check(L, "_cross_entropy_forward");
}

static int launch_chunked(const td_abi_launch *L) {
    int64_t B = TLC_I(L, PC_N) + 1;
    chunked_cross_entropy_forward<<<dim3(L->grid[0], L->grid[1]), tlc_threads(B), (size_t)(2 * B) * sizeof(float),
                                    (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_LOGITS, const float), TLC_I(L, PC_STRIDE), TLC_PTR(L, R_LOSS, float), TLC_PTR(L, R_LSE, float),
        TLC_PTR(L, R_LABELS, const int64_t), TLC_I(L, PC_V), TLC_I(L, PC_NCHUNKS), B,
        (int)(TLC_I(L, PC_DO_SCALE) != 0), TLC_R(L, PC_SCALE));
    return tlc_check(L, "_chunked_cross_entropy_forward");
}

TD_KERNEL(td_kc_fast_ce_forward) = {"fast_ce_loss.cross_entropy_forward_correctness", "triton", TD_ABI_CUDA, NULL,
                                    NULL, NULL, 6, 4, launch, NULL};
TD_KERNEL(td_kc_fast_ce_chunked) = {"fast_ce_loss.chunked_cross_entropy_forward_output_summary", "triton",
                                    TD_ABI_CUDA, NULL, NULL, NULL, 7, 4, launch_chunked, NULL};
