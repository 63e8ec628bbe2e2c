/* softmax_optimize on CUDA: the online softmax softmax_kernel_online_v2 (per-lane
 * running max and normaliser in shared memory, one block per row) and the Lean
 * file's one-tile specialisation. */
#include "softmax_tlc.cuh"

enum { P1_N, P1_TILE };
enum { PF_M, PF_N, PF_TILE };
enum { R_OUT, R_IN };

static __global__ void one_tile_kernel(float *out, const float *in, int64_t N, int64_t T) {
    float *t = smc_smem, *r = smc_smem + T;
    int64_t pid = blockIdx.x;
    smc_load(t, in + pid * N, 1, N, T, -INFINITY);
    smc_tile_softmax(t, r, T);
    for (int64_t i = threadIdx.x; i < T; i += blockDim.x)
        if (i < N) out[pid * N + i] = t[i];
}

static __global__ void online_v2_kernel(float *out, const float *in, int64_t N, int64_t T) {
    float *m = smc_smem, *z = smc_smem + T, *r = smc_smem + 2 * T;
    int64_t base = (int64_t)blockIdx.x * N, prev = (N + T - 1) / T * T - T;
    for (int64_t l = threadIdx.x; l < T; l += blockDim.x) m[l] = -INFINITY, z[l] = 0.0f;
    /* lane l is owned by one thread: the recurrence needs no synchronisation */
    for (int64_t s = 0; s < N; s += T)
        for (int64_t l = threadIdx.x; l < T; l += blockDim.x) {
            float x = (s < prev || s + l < N) ? in[base + s + l] : -INFINITY; /* full tiles unmasked */
            float nm = fmaxf(m[l], x);
            float nz = expf(m[l] - nm) * z[l] + expf(x - nm);
            m[l] = nm;
            z[l] = nz;
        }
    __syncthreads();
    smc_copy(r, m, T);
    float fm = smc_reduce_max(r, T);
    for (int64_t l = threadIdx.x; l < T; l += blockDim.x) r[l] = expf(m[l] - fm) * z[l];
    __syncthreads();
    float Z = smc_reduce_sum(r, T);
    for (int64_t s = 0; s < N; s += T)
        for (int64_t l = threadIdx.x; l < T; l += blockDim.x)
            if (s + l < N) out[base + s + l] = expf(in[base + s + l] - fm) / Z;
}

static int launch_one_tile(const td_abi_launch *L) {
    int64_t T = TLC_I(L, P1_TILE);
    size_t smem = 2 * (size_t)T * sizeof(float);
    if (smc_allow_smem(L, one_tile_kernel, smem)) return 1;
    one_tile_kernel<<<tlc_grid(L), tlc_threads(T), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_OUT, float), TLC_PTR(L, R_IN, const float), TLC_I(L, P1_N), T);
    return tlc_check(L, "softmax_kernel_online_v2_one_tile");
}

static int launch_online(const td_abi_launch *L) {
    int64_t T = TLC_I(L, PF_TILE);
    size_t smem = 3 * (size_t)T * sizeof(float);
    if (smc_allow_smem(L, online_v2_kernel, smem)) return 1;
    online_v2_kernel<<<tlc_grid(L), tlc_threads(T), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_OUT, float), TLC_PTR(L, R_IN, const float), TLC_I(L, PF_N), T);
    return tlc_check(L, "softmax_kernel_online_v2");
}

TD_KERNEL(td_kc_softmax_optimize_summary) = {"softmax_optimize.softmax_kernel_online_v2_one_tile_output_summary",
                                             "triton", TD_ABI_CUDA, NULL, NULL, NULL, 2, 2, launch_one_tile, NULL};
TD_KERNEL(td_kc_softmax_optimize_io) = {"softmax_optimize.softmax_kernel_online_v2_one_tile_io_correctness", "triton",
                                        TD_ABI_CUDA, NULL, NULL, NULL, 2, 2, launch_one_tile, NULL};
TD_KERNEL(td_kc_softmax_optimize_full) = {"softmax_optimize.softmax_kernel_online_v2_output_summary", "triton",
                                          TD_ABI_CUDA, NULL, NULL, NULL, 3, 2, launch_online, NULL};
