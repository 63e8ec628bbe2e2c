/* chunk_gated_attention on CUDA: the two state-store slices, one block per program
 * (i_v, i_k, i_bh), one thread per lane of the [BK, BV] tile, masked copies. */
#include "tlc.cuh"

__global__ static void cga_stores(const float *bh_in, float *h, const float *bhf, float *ht, int64_t it, int64_t shh,
                                  int64_t sht, int64_t shd, int64_t K, int64_t V, int64_t BK, int64_t BV) {
    int64_t p0 = blockIdx.x, p1 = blockIdx.y, p2 = blockIdx.z;
    for (int64_t lane = threadIdx.x; lane < BK * BV; lane += blockDim.x) {
        int64_t k = p1 * BK + lane / BV, v = p0 * BV + lane % BV;
        if (k >= K || v >= V) continue;
        int64_t off = p2 * shh + it * K * V + k * sht + v * shd, fo = p2 * K * V + k * V + v;
        h[off] = bh_in[off];
        ht[fo] = bhf[fo];
    }
}

static int launch(const td_abi_launch *L) {
    cga_stores<<<tlc_grid(L), tlc_threads(TLC_I(L, 6) * TLC_I(L, 7)), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, 0, const float), TLC_PTR(L, 1, float), TLC_PTR(L, 2, const float), TLC_PTR(L, 3, float),
        TLC_I(L, 0), TLC_I(L, 1), TLC_I(L, 2), TLC_I(L, 3), TLC_I(L, 4), TLC_I(L, 5), TLC_I(L, 6), TLC_I(L, 7));
    return tlc_check(L, "chunk_gated_attention state stores");
}

TD_KERNEL(td_kc_cga_stores) = {"chunk_gated_attention.chunk_gated_attention_state_stores_io_correctness", "triton",
                               TD_ABI_CUDA, NULL, NULL, NULL, 8, 4, launch, NULL};
TD_KERNEL(td_kc_cga_stores_r) = {"chunk_gated_attention.chunk_gated_attention_state_stores_io_correctnessR",
                                 "triton", TD_ABI_CUDA, NULL, NULL, NULL, 8, 4, launch, NULL};
