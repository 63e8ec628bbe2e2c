/* LightLLM's _fwd_kernel_token_softmax in CUDA C, shared by token_softmax_llama.cu and
 * token_softmax_bloom.cu (the same Triton kernel in two catalogue files): one block per
 * (batch, head) program, the BLOCK_SIZE-lane tile in shared memory, loaded masked by
 * j < seqlen (other -inf), softmax_tlc.cuh's tile softmax, the store masked alike.
 * Parameters: stride_logic_h, stride_logic_bs, stride_prob_h, stride_prob_bs,
 * BLOCK_SIZE.  Regions: Logics (f32), B_Start_Loc (i32), B_Seqlen (i32), Prob_Out (f32). */
#ifndef TD_TOKEN_SOFTMAX_TLC_CUH
#define TD_TOKEN_SOFTMAX_TLC_CUH

#include "softmax_tlc.cuh"

enum { TS_SLH, TS_SLBS, TS_SPH, TS_SPBS, TS_BS };
enum { TS_LOGICS, TS_START, TS_SEQLEN, TS_PROB };

static __global__ void ts_kernel(const float *Logics, const int32_t *Start, const int32_t *Seqlen, float *Prob,
                                 int64_t slh, int64_t slbs, int64_t sph, int64_t spbs, int64_t BS) {
    float *x = smc_smem, *r = smc_smem + BS;
    int64_t b = blockIdx.x, h = blockIdx.y;
    int64_t len = Seqlen[b], st = Start[b];
    smc_load(x, Logics + h * slh + st * slbs, slbs, len, BS, -INFINITY);
    smc_tile_softmax(x, r, BS);
    for (int64_t j = threadIdx.x; j < BS; j += blockDim.x)
        if (j < len) Prob[h * sph + (st + j) * spbs] = x[j];
}

static inline int ts_launch(const td_abi_launch *L) {
    int64_t BS = TLC_I(L, TS_BS);
    size_t smem = 2 * (size_t)BS * sizeof(float);
    if (smc_allow_smem(L, ts_kernel, smem)) return 1;
    ts_kernel<<<tlc_grid(L), tlc_threads(BS), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, TS_LOGICS, const float), TLC_PTR(L, TS_START, const int32_t), TLC_PTR(L, TS_SEQLEN, const int32_t),
        TLC_PTR(L, TS_PROB, float), TLC_I(L, TS_SLH), TLC_I(L, TS_SLBS), TLC_I(L, TS_SPH), TLC_I(L, TS_SPBS), BS);
    return tlc_check(L, "_fwd_kernel_token_softmax");
}

#endif
