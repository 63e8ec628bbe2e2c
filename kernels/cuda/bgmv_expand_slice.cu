/* bgmv_expand_slice on CUDA: one block per program (pid_sn, cur_batch), a thread per
 * output row of the slice, its dot product over k < min(K, BLOCK_K) with fmaf in order
 * (admissible: the contract charges any order); a row whose index is -1 is skipped. */
#include "elementwise_tlc.cuh"

enum { P_K, P_SPLIT, P_XM, P_XK, P_L0, P_LK, P_LN, P_CM, P_CN, P_SLICE, P_BN, P_BK };
enum { R_IN, R_LORA, R_OUT, R_IDX };

__global__ void bgmv_expand_slice_cuda(const float *input, const float *lora, float *out, const int64_t *lora_indices,
                                       int64_t K, int64_t split, int64_t xm, int64_t xk, int64_t l0, int64_t lk,
                                       int64_t ln, int64_t cm, int64_t cn, int64_t slice) {
    int64_t s = blockIdx.x, b = blockIdx.y, li = lora_indices[b];
    if (li == -1) return;
    const float *a = input + b * xm;
    const float *w = lora + l0 * li + s * split * lk;
    for (int64_t m = threadIdx.x; m < split; m += blockDim.x) {
        float acc = 0.0f;
        for (int64_t k = 0; k < K; k++) acc = fmaf(a[k * xk], w[m * lk + k * ln], acc);
        out[b * cm + s * split + (slice + m) * cn] = acc;
    }
}

static int launch(const td_abi_launch *L, int o) {
    if (ew_grid_empty(L)) return 0;
    int64_t split = TLC_I(L, P_SPLIT + o), K = TLC_I(L, P_K + o), bk = TLC_I(L, P_BK + o);
    bgmv_expand_slice_cuda<<<tlc_grid(L), tlc_threads(split), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_IN, const float), TLC_PTR(L, R_LORA, const float), TLC_PTR(L, R_OUT, float),
        TLC_PTR(L, R_IDX, const int64_t), K < bk ? K : bk, split, TLC_I(L, P_XM + o), TLC_I(L, P_XK + o),
        TLC_I(L, P_L0 + o), TLC_I(L, P_LK + o), TLC_I(L, P_LN + o), TLC_I(L, P_CM + o), TLC_I(L, P_CN + o),
        TLC_I(L, P_SLICE + o));
    return tlc_check(L, "_bgmv_expand_slice_kernel");
}
static int launch_io(const td_abi_launch *L) { return launch(L, 0); }
static int launch_summary(const td_abi_launch *L) { return launch(L, 1); }

TD_KERNEL(td_kc_bgmv_expand_slice_sum) = {"bgmv_expand_slice.bgmv_full_output_summary", "triton", TD_ABI_CUDA, NULL,
                                          NULL, NULL, 13, 4, launch_summary, NULL};
TD_KERNEL(td_kc_bgmv_expand_slice_io) = {"bgmv_expand_slice.bgmv_expand_slice_io_correctness", "triton", TD_ABI_CUDA,
                                         "store=fp32:rne:inf", NULL, NULL, 12, 4, launch_io, NULL};
