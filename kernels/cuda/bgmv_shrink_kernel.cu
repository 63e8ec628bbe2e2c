/* bgmv_shrink_kernel on CUDA: one block per program (pid_sk, cur_batch), a thread per rank
 * row n < min(N, BLOCK_N), its split's dot product (k = t*BK*SK + pid_sk*BK + e < K) with
 * fmaf in order (admissible: the contract charges any order), times scaling, then a store
 * or, for SPLIT_K > 1, atomicAdd (the adds of the splits land in any order, as charged).
 * A row whose index is -1 is skipped. */
#include "elementwise_tlc.cuh"

enum { P_N, P_K, P_SCALE, P_XM, P_L0, P_LK, P_LN, P_CM, P_CN, P_BN, P_BK, P_SK, P_SK1 };
enum { R_IN, R_LORA, R_OUT, R_IDX };

__global__ void bgmv_shrink_cuda(const float *input, const float *lora, float *out, const int64_t *lora_indices,
                                 int64_t N, int64_t K, float scaling, int64_t xm, int64_t l0, int64_t lk, int64_t ln,
                                 int64_t cm, int64_t cn, int64_t bk, int64_t sk, bool atomic) {
    int64_t s = blockIdx.x, b = blockIdx.y, li = lora_indices[b];
    if (li == -1) return;
    const float *a = input + b * xm;
    const float *w = lora + l0 * li;
    for (int64_t n = threadIdx.x; n < N; n += blockDim.x) {
        float acc = 0.0f;
        for (int64_t k0 = 0; k0 < K; k0 += bk * sk)
            for (int64_t k = k0 + s * bk; k < k0 + (s + 1) * bk && k < K; k++) acc = fmaf(a[k], w[n * lk + k * ln], acc);
        float v = acc * scaling;
        if (atomic) atomicAdd(&out[b * cm + n * cn], v);
        else out[b * cm + n * cn] = v;
    }
}

static int launch(const td_abi_launch *L, int summary) {
    if (ew_grid_empty(L)) return 0;
    int64_t N = TLC_I(L, P_N), bn = TLC_I(L, P_BN), nw = N < bn ? N : bn;
    bgmv_shrink_cuda<<<tlc_grid(L), tlc_threads(nw), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_IN, const float), TLC_PTR(L, R_LORA, const float), TLC_PTR(L, R_OUT, float),
        TLC_PTR(L, R_IDX, const int64_t), nw, TLC_I(L, P_K), (float)L->params[P_SCALE].r, TLC_I(L, P_XM),
        TLC_I(L, P_L0), TLC_I(L, P_LK), TLC_I(L, P_LN), TLC_I(L, P_CM), TLC_I(L, P_CN), TLC_I(L, P_BK),
        TLC_I(L, P_SK), summary && !TLC_I(L, P_SK1));
    return tlc_check(L, "_bgmv_shrink_kernel");
}
static int launch_io(const td_abi_launch *L) { return launch(L, 0); }
static int launch_summary(const td_abi_launch *L) { return launch(L, 1); }

TD_KERNEL(td_kc_bgmv_shrink_sum) = {"bgmv_shrink_kernel.bgmv_shrink_kernel_output_summary_general", "triton",
                                    TD_ABI_CUDA, NULL, NULL, NULL, 13, 4, launch_summary, NULL};
TD_KERNEL(td_kc_bgmv_shrink_io) = {"bgmv_shrink_kernel.bgmv_shrink_store_io_correctness", "triton", TD_ABI_CUDA,
                                   "store=fp32:rne:inf", NULL, NULL, 12, 4, launch_io, NULL};
