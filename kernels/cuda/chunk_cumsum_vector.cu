/* chunk_cumsum_vector on CUDA.  The summary: chunk_global_cumsum_vector_kernel, one block
 * per program (i_s, i_bh): per chunk the [BT, BS] tile in shared memory (0.0 past the
 * matrix), each lane (r, k) sums the lower triangle of its column in order (tl.dot(m_s,
 * b_s) in binary32) and adds the carry b_z[k], a masked binary32 store, then b_z[k] grows
 * by the column's sum.  The store slice: one block per program (i_s, i_bh, i_t) copies its
 * masked BC tile into Z. */
#include "tlc.cuh"

enum { P_SH, P_ST, P_SD, P_T, P_S, P_BT, P_BS };
enum { R_IN, R_Z };

struct ccv_geo {
    int64_t sh, st, sd, T, S, BT, BS;
};
__device__ inline int64_t ccv_off(const ccv_geo &g, int64_t bh, int64_t t, int64_t d) {
    return bh * g.sh + t * g.st + d * g.sd;
}

__global__ void ccv_cumsum_kernel(const float *s, float *z, ccv_geo g) {
    extern __shared__ float sm[]; /* b_s [BT * BS], then b_z [BS] */
    float *b_z = sm + g.BT * g.BS;
    int64_t i_s = blockIdx.x, i_bh = blockIdx.y, n = g.BT * g.BS;
    for (int64_t k = threadIdx.x; k < g.BS; k += blockDim.x) b_z[k] = 0.0f;
    for (int64_t i_t = 0; i_t * g.BT < g.T; i_t++) {
        __syncthreads();
        for (int64_t l = threadIdx.x; l < n; l += blockDim.x) {
            int64_t t = i_t * g.BT + l / g.BS, d = i_s * g.BS + l % g.BS;
            sm[l] = (t < g.T && d < g.S) ? s[ccv_off(g, i_bh, t, d)] : 0.0f;
        }
        __syncthreads();
        for (int64_t l = threadIdx.x; l < n; l += blockDim.x) {
            int64_t r = l / g.BS, k = l % g.BS, t = i_t * g.BT + r, d = i_s * g.BS + k;
            float dot = 0.0f;
            for (int64_t q = 0; q <= r; q++) dot = __fadd_rn(dot, sm[q * g.BS + k]);
            if (t < g.T && d < g.S) z[ccv_off(g, i_bh, t, d)] = __fadd_rn(b_z[k], dot);
        }
        __syncthreads();
        for (int64_t k = threadIdx.x; k < g.BS; k += blockDim.x) {
            float col = 0.0f;
            for (int64_t q = 0; q < g.BT; q++) col = __fadd_rn(col, sm[q * g.BS + k]);
            b_z[k] = __fadd_rn(b_z[k], col);
        }
    }
}

__global__ void ccv_store_kernel(const float *bc, float *z, ccv_geo g) {
    int64_t i_s = blockIdx.x, i_bh = blockIdx.y, i_t = blockIdx.z;
    for (int64_t l = threadIdx.x; l < g.BT * g.BS; l += blockDim.x) {
        int64_t t = i_t * g.BT + l / g.BS, d = i_s * g.BS + l % g.BS;
        if (t < g.T && d < g.S) z[ccv_off(g, i_bh, t, d)] = bc[ccv_off(g, i_bh, t, d)];
    }
}

static ccv_geo geo(const td_abi_launch *L) {
    ccv_geo g = {TLC_I(L, P_SH), TLC_I(L, P_ST), TLC_I(L, P_SD), TLC_I(L, P_T),
                 TLC_I(L, P_S),  TLC_I(L, P_BT), TLC_I(L, P_BS)};
    return g;
}
static int launch_sum(const td_abi_launch *L) {
    ccv_geo g = geo(L);
    size_t smem = (size_t)(g.BT * g.BS + g.BS) * sizeof(float);
    ccv_cumsum_kernel<<<tlc_grid(L), tlc_threads(g.BT * g.BS), smem, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_IN, const float), TLC_PTR(L, R_Z, float), g);
    return tlc_check(L, "chunk_global_cumsum_vector_kernel");
}
static int launch_store(const td_abi_launch *L) {
    ccv_geo g = geo(L);
    ccv_store_kernel<<<tlc_grid(L), tlc_threads(g.BT * g.BS), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_IN, const float), TLC_PTR(L, R_Z, float), g);
    return tlc_check(L, "chunk_cumsum_vector_store_slice");
}

TD_KERNEL(td_kc_ccv_summary) = {"chunk_cumsum_vector.chunk_cumsum_vector_output_summary_general", "triton",
                                TD_ABI_CUDA, NULL, NULL, NULL, 7, 2, launch_sum, NULL};
TD_KERNEL(td_kc_ccv_store) = {"chunk_cumsum_vector.chunk_cumsum_vector_block_store_io_correctness", "triton",
                              TD_ABI_CUDA, NULL, NULL, NULL, 7, 2, launch_store, NULL};
TD_KERNEL(td_kc_ccv_store_r) = {"chunk_cumsum_vector.chunk_cumsum_vector_block_store_io_correctnessR", "triton",
                                TD_ABI_CUDA, NULL, NULL, NULL, 7, 2, launch_store, NULL};
