/* sgmv_expand_slice on CUDA: one block per program (pid_m, pid_n, cur_batch), a thread per
 * output lane (i, j) of the BLOCK_M x BLOCK_N tile; the .py's early returns, the wrapped
 * loads (% M, % N), the dot over k < BLOCK_K*numKBlocks of fp16 operands (exact products)
 * with fmaf in order (admissible: the contract charges any order), the masked binary32
 * store. */
#include <cuda_fp16.h>

#include "elementwise_tlc.cuh"

enum { P_N, P_XM, P_XK, P_L0, P_LK, P_LN, P_CM, P_CN, P_SLICE, P_BM, P_BN, P_BK, P_NKB };
enum { R_IN, R_LORA, R_OUT, R_START, R_LEN, R_IDX };

struct sgmv_args {
    const __half *input, *lora;
    float *out;
    const int64_t *start, *lens, *idx;
    int64_t N, xm, xk, l0, lk, ln, cm, cn, slice, bm, bn, K;
};

__global__ void sgmv_expand_slice_cuda(sgmv_args a) {
    int64_t pid_m = blockIdx.x, pid_n = blockIdx.y, b = blockIdx.z, M = a.lens[b];
    if (pid_m * a.bm > M) return;
    int64_t li = a.idx[b];
    if (li == -1) return;
    int64_t st = a.start[b];
    for (int64_t t = threadIdx.x; t < a.bm * a.bn; t += blockDim.x) {
        int64_t m = pid_m * a.bm + t / a.bn, n = pid_n * a.bn + t % a.bn;
        const __half *x = a.input + (st + m % M) * a.xm;
        const __half *w = a.lora + a.l0 * li + (n % a.N) * a.lk;
        float acc = 0.0f;
        for (int64_t k = 0; k < a.K; k++) acc = fmaf(__half2float(x[k * a.xk]), __half2float(w[k * a.ln]), acc);
        if (m < M && n < a.N) a.out[(st + m) * a.cm + (n + a.slice) * a.cn] = acc;
    }
}

static int launch(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    sgmv_args a = {TLC_PTR(L, R_IN, const __half), TLC_PTR(L, R_LORA, const __half), TLC_PTR(L, R_OUT, float),
                   TLC_PTR(L, R_START, const int64_t), TLC_PTR(L, R_LEN, const int64_t),
                   TLC_PTR(L, R_IDX, const int64_t), TLC_I(L, P_N), TLC_I(L, P_XM), TLC_I(L, P_XK),
                   TLC_I(L, P_L0), TLC_I(L, P_LK), TLC_I(L, P_LN), TLC_I(L, P_CM), TLC_I(L, P_CN),
                   TLC_I(L, P_SLICE), TLC_I(L, P_BM), TLC_I(L, P_BN), TLC_I(L, P_BK) * TLC_I(L, P_NKB)};
    sgmv_expand_slice_cuda<<<tlc_grid(L), tlc_threads(a.bm * a.bn), 0, (cudaStream_t)L->stream>>>(a);
    return tlc_check(L, "_sgmv_expand_slice_kernel");
}

TD_KERNEL(td_kc_sgmv_expand_slice_sum) = {"sgmv_expand_slice.sgmv_expand_slice_one_row_block_output_summary",
                                          "triton", TD_ABI_CUDA, NULL, NULL, NULL, 13, 6, launch, NULL};
TD_KERNEL(td_kc_sgmv_expand_slice_io) = {"sgmv_expand_slice.sgmv_expand_slice_io_correctness", "triton", TD_ABI_CUDA,
                                         "store=fp32:rne:inf", NULL, NULL, 13, 6, launch, NULL};
