/* reversed_cumsum_scalar on CUDA: one block per row i_bh, the chunks from the last to the
 * first; the chunk in shared memory (zero past T), b_z += its sum, then
 * o = b_s - cumsum(b_s) + b_z (the sum and the inclusive prefix by thread 0: the order is
 * the contract's business, any is admissible).  The store slices: one block per (row, chunk). */
#include "tlc.cuh"

enum { P_T, P_BT };

static __global__ void rcss_kernel(const float *s, float *o, int64_t T, int64_t BT) {
    extern __shared__ float sh[]; /* b_s[BT], b_c[BT] */
    float *b_s = sh, *b_c = sh + BT;
    __shared__ float b_z;
    int64_t row = blockIdx.x;
    if (threadIdx.x == 0) b_z = 0.0f;
    for (int64_t it = (T + BT - 1) / BT - 1; it >= 0; it--) {
        __syncthreads();
        for (int64_t i = threadIdx.x; i < BT; i += blockDim.x) {
            int64_t t = it * BT + i;
            b_s[i] = t < T ? s[row * T + t] : 0.0f;
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            float run = 0.0f;
            for (int64_t i = 0; i < BT; i++) b_c[i] = run += b_s[i];
            b_z += run;
        }
        __syncthreads();
        for (int64_t i = threadIdx.x; i < BT; i += blockDim.x)
            if (it * BT + i < T) o[row * T + it * BT + i] = b_s[i] - b_c[i] + b_z;
    }
}

static __global__ void rcss_store_kernel(const float *bo, float *o, int64_t T, int64_t BT) {
    int64_t base = (int64_t)blockIdx.x * T + (int64_t)blockIdx.y * BT;
    for (int64_t i = threadIdx.x; i < BT; i += blockDim.x)
        if ((int64_t)blockIdx.y * BT + i < T) o[base + i] = bo[base + i];
}

static int launch(const td_abi_launch *L) {
    int64_t BT = TLC_I(L, P_BT);
    rcss_kernel<<<tlc_grid(L), tlc_threads(BT), (size_t)(2 * BT) * sizeof(float), (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, float), TLC_I(L, P_T), BT);
    return tlc_check(L, "chunk_global_reversed_cumsum_scalar_kernel");
}
static int launch_store(const td_abi_launch *L) {
    int64_t BT = TLC_I(L, P_BT);
    rcss_store_kernel<<<tlc_grid(L), tlc_threads(BT), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, float), TLC_I(L, P_T), BT);
    return tlc_check(L, "reversed_cumsum_scalar_store_slice");
}

TD_KERNEL(td_kc_rcss) = {"reversed_cumsum_scalar.reversed_cumsum_scalar_output_summary_general", "triton", TD_ABI_CUDA,
                         NULL, NULL, NULL, 2, 2, launch, NULL};
TD_KERNEL(td_kc_rcss_store) = {"reversed_cumsum_scalar.reversed_cumsum_scalar_vec_store_io_correctness", "triton",
                               TD_ABI_CUDA, NULL, NULL, NULL, 2, 2, launch_store, NULL};
TD_KERNEL(td_kc_rcss_store_r) = {"reversed_cumsum_scalar.reversed_cumsum_scalar_vec_store_io_correctnessR", "triton",
                                 TD_ABI_CUDA, "store=fp32:rne:inf", NULL, NULL, 2, 2, launch_store, NULL};
