/* softmax_flaggems on CUDA: the ONE_TILE_PER_CTA branches, one block per program.
 * The non-inner tiles and the backward tiles are reduced one row / column at a time
 * (each a pairwise tree over its TILE_N lanes, as tl.max / tl.sum along that axis).
 * The backward loads are masked without other: masked lanes read 0. */
#include "softmax_tlc.cuh"

enum { PI_N, PI_TILE };
enum { PN_N, PN_K, PN_TILE_N, PN_TILE_K };
enum { PB_M, PB_N, PB_TILE_M, PB_TILE_N };
enum { RF_OUT, RF_IN };
enum { RB_OUT, RB_OG, RB_IG };

static __global__ void inner_kernel(float *out, const float *in, int64_t N, int64_t T) {
    float *t = smc_smem, *r = smc_smem + T;
    int64_t pid = blockIdx.x;
    smc_load(t, in + pid * N, 1, N, T, -INFINITY);
    smc_tile_softmax(t, r, T);
    for (int64_t i = threadIdx.x; i < T; i += blockDim.x)
        if (i < N) out[pid * N + i] = t[i];
}

static __global__ void non_inner_kernel(float *out, const float *in, int64_t N, int64_t K, int64_t TN, int64_t TK) {
    float *t = smc_smem, *r = smc_smem + TN;
    for (int64_t kk = 0; kk < TK; kk++) {
        int64_t k = (int64_t)blockIdx.y * TK + kk, base = (int64_t)blockIdx.x * N * K + k;
        smc_load(t, in + base, K, k < K ? N : 0, TN, -INFINITY);
        smc_tile_softmax(t, r, TN);
        for (int64_t n = threadIdx.x; n < TN; n += blockDim.x)
            if (n < N && k < K) out[base + n * K] = t[n];
        __syncthreads();
    }
}

/* out * (out_grad - tl.sum(out * out_grad)) over one reduced row (n active of B lanes) */
static __device__ void vjp_row(const float *o_ptr, const float *g_ptr, float *ig_ptr, int64_t base, int64_t stride,
                        int64_t n, int64_t B) {
    float *o = smc_smem, *g = smc_smem + B, *p = smc_smem + 2 * B;
    smc_load(o, o_ptr + base, stride, n, B, 0.0f);
    smc_load(g, g_ptr + base, stride, n, B, 0.0f);
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x) p[j] = o[j] * g[j];
    __syncthreads();
    float scale = smc_reduce_sum(p, B);
    for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
        if (j < n) ig_ptr[base + j * stride] = o[j] * (g[j] - scale);
    __syncthreads();
}

static __global__ void bwd_inner_kernel(const float *o, const float *g, float *ig, int64_t M, int64_t N, int64_t TM,
                                        int64_t TN) {
    for (int64_t r = 0; r < TM; r++) {
        int64_t m = (int64_t)blockIdx.x * TM + r;
        vjp_row(o, g, ig, m * N, 1, m < M ? N : 0, TN);
    }
}

static __global__ void bwd_non_inner_kernel(const float *o, const float *g, float *ig, int64_t N, int64_t K, int64_t TN,
                                            int64_t TK) {
    for (int64_t kk = 0; kk < TK; kk++) {
        int64_t k = (int64_t)blockIdx.y * TK + kk;
        vjp_row(o, g, ig, (int64_t)blockIdx.x * N * K + k, K, k < K ? N : 0, TN);
    }
}

static int launch_inner(const td_abi_launch *L) {
    int64_t T = TLC_I(L, PI_TILE);
    size_t smem = 2 * (size_t)T * sizeof(float);
    if (smc_allow_smem(L, inner_kernel, smem)) return 1;
    inner_kernel<<<tlc_grid(L), tlc_threads(T), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, RF_OUT, float), TLC_PTR(L, RF_IN, const float), TLC_I(L, PI_N), T);
    return tlc_check(L, "softmax_kernel_inner");
}

static int launch_non_inner(const td_abi_launch *L) {
    int64_t TN = TLC_I(L, PN_TILE_N);
    size_t smem = 2 * (size_t)TN * sizeof(float);
    if (smc_allow_smem(L, non_inner_kernel, smem)) return 1;
    non_inner_kernel<<<tlc_grid(L), tlc_threads(TN), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, RF_OUT, float), TLC_PTR(L, RF_IN, const float), TLC_I(L, PN_N), TLC_I(L, PN_K), TN,
        TLC_I(L, PN_TILE_K));
    return tlc_check(L, "softmax_kernel_non_inner");
}

static int launch_bwd_inner(const td_abi_launch *L) {
    int64_t TN = TLC_I(L, PB_TILE_N);
    size_t smem = 3 * (size_t)TN * sizeof(float);
    if (smc_allow_smem(L, bwd_inner_kernel, smem)) return 1;
    bwd_inner_kernel<<<tlc_grid(L), tlc_threads(TN), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, RB_OUT, const float), TLC_PTR(L, RB_OG, const float), TLC_PTR(L, RB_IG, float), TLC_I(L, PB_M),
        TLC_I(L, PB_N), TLC_I(L, PB_TILE_M), TN);
    return tlc_check(L, "softmax_backward_kernel_inner");
}

static int launch_bwd_non_inner(const td_abi_launch *L) {
    int64_t TN = TLC_I(L, PN_TILE_N);
    size_t smem = 3 * (size_t)TN * sizeof(float);
    if (smc_allow_smem(L, bwd_non_inner_kernel, smem)) return 1;
    bwd_non_inner_kernel<<<tlc_grid(L), tlc_threads(TN), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, RB_OUT, const float), TLC_PTR(L, RB_OG, const float), TLC_PTR(L, RB_IG, float), TLC_I(L, PN_N),
        TLC_I(L, PN_K), TN, TLC_I(L, PN_TILE_K));
    return tlc_check(L, "softmax_backward_kernel_non_inner");
}

TD_KERNEL(td_kc_flaggems_inner_cc) = {"softmax_flaggems.softmax_kernel_inner_one_tile_compute_correct", "triton",
                                      TD_ABI_CUDA, NULL, NULL, NULL, 2, 2, launch_inner, NULL};
TD_KERNEL(td_kc_flaggems_inner_io) = {"softmax_flaggems.softmax_kernel_inner_one_tile_correctness", "triton",
                                      TD_ABI_CUDA, NULL, NULL, NULL, 2, 2, launch_inner, NULL};
TD_KERNEL(td_kc_flaggems_non_inner) = {"softmax_flaggems.softmax_kernel_non_inner_one_tile_compute_correct",
                                       "triton", TD_ABI_CUDA, NULL, NULL, NULL, 4, 2, launch_non_inner, NULL};
TD_KERNEL(td_kc_flaggems_bwd_inner) = {"softmax_flaggems.softmax_backward_kernel_inner_one_tile_compute_correct",
                                       "triton", TD_ABI_CUDA, NULL, NULL, NULL, 4, 3, launch_bwd_inner, NULL};
TD_KERNEL(td_kc_flaggems_bwd_non_inner) = {
    "softmax_flaggems.softmax_backward_kernel_non_inner_one_tile_compute_correct", "triton", TD_ABI_CUDA, NULL, NULL,
    NULL, 4, 3, launch_bwd_non_inner, NULL};
