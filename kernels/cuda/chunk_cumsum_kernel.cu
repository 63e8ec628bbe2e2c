/* chunk_cumsum_kernel on CUDA: chunk_global_cumsum_scalar_kernel, one block per
 * batch*head row: per chunk of BT the lanes load (0.0 past the row), a Kogge-Stone scan in
 * shared memory (tl.cumsum), + the carry b_z, a masked store in O's format (binary32, or
 * binary16 rounded to nearest even); the carry grows by the chunk's total (the scan's
 * last lane: the padded lanes are exact zeros). */
#include "tlc.cuh" /* also __half (cuda_fp16.h): no system header inside a CUDA unity namespace */

enum { P_T, P_BT };
enum { R_S, R_O };

template <typename T> __device__ inline float ccs_load(const T *p, int64_t i);
template <> __device__ inline float ccs_load<float>(const float *p, int64_t i) { return p[i]; }
template <> __device__ inline float ccs_load<__half>(const __half *p, int64_t i) { return __half2float(p[i]); }
__device__ inline void ccs_store(float *p, int64_t i, float v) { p[i] = v; }
__device__ inline void ccs_store(__half *p, int64_t i, float v) { p[i] = __float2half_rn(v); }

template <typename T> __global__ void ccs_kernel(const T *s, T *o, int64_t NT, int64_t BT) {
    extern __shared__ float sm[]; /* [BT] */
    int64_t row = blockIdx.x;
    float b_z = 0.0f;
    for (int64_t i_t = 0; i_t * BT < NT; i_t++) {
        for (int64_t j = threadIdx.x; j < BT; j += blockDim.x) {
            int64_t t = i_t * BT + j;
            sm[j] = t < NT ? ccs_load(s, row * NT + t) : 0.0f;
        }
        __syncthreads();
        for (int64_t d = 1; d < BT; d *= 2) {
            float add[2] = {0.0f, 0.0f}; /* blockDim >= BT / 2: at most two lanes per thread */
            int k = 0;
            for (int64_t j = threadIdx.x; j < BT; j += blockDim.x, k++) add[k] = j >= d ? sm[j - d] : 0.0f;
            __syncthreads();
            k = 0;
            for (int64_t j = threadIdx.x; j < BT; j += blockDim.x, k++)
                if (j >= d) sm[j] = __fadd_rn(sm[j], add[k]);
            __syncthreads();
        }
        for (int64_t j = threadIdx.x; j < BT; j += blockDim.x) {
            int64_t t = i_t * BT + j;
            if (t < NT) ccs_store(o, row * NT + t, __fadd_rn(sm[j], b_z));
        }
        b_z = __fadd_rn(b_z, sm[BT - 1]);
        __syncthreads();
    }
}

static int launch(const td_abi_launch *L) {
    int64_t BT = TLC_I(L, P_BT);
    unsigned threads = tlc_threads(BT);
    if ((int64_t)threads * 2 < BT) threads = (unsigned)((BT + 1) / 2);
    size_t smem = (size_t)BT * sizeof(float);
    cudaStream_t st = (cudaStream_t)L->stream;
    if (L->regions[R_O].fmt == TD_ABI_F16)
        ccs_kernel<__half><<<tlc_grid(L), threads, smem, st>>>(TLC_PTR(L, R_S, const __half), TLC_PTR(L, R_O, __half),
                                                               TLC_I(L, P_T), BT);
    else
        ccs_kernel<float><<<tlc_grid(L), threads, smem, st>>>(TLC_PTR(L, R_S, const float), TLC_PTR(L, R_O, float),
                                                              TLC_I(L, P_T), BT);
    return tlc_check(L, "chunk_global_cumsum_scalar_kernel");
}

TD_KERNEL(td_kc_ccs_summary) = {"chunk_cumsum_kernel.chunk_cumsum_scalar_output_summary_general", "triton",
                                TD_ABI_CUDA, NULL, NULL, NULL, 2, 2, launch, NULL};
TD_KERNEL(td_kc_ccs_io) = {"chunk_cumsum_kernel.chunk_cumsum_scalar_io_correctness", "triton", TD_ABI_CUDA, NULL, NULL,
                           NULL, 2, 2, launch, NULL};
