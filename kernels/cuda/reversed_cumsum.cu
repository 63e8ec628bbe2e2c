/* reversed_cumsum on CUDA: one block per program (i_s, i_bh), one thread per column j of
 * the BS-wide tile; the chunks from the last to the first, b_c = b_z + sum_{k >= i} b_s[k]
 * (the triangular dot), stored, then b_z += the chunk's column sum.  The store slices: one
 * block per (i_s, i_bh, i_t), copying its [BT, BS] tile. */
#include "tlc.cuh"

enum { P_SH, P_ST, P_SD, P_T, P_S, P_BT, P_BS };

static __global__ void rcv_kernel(const float *s, float *z, int64_t sh, int64_t st, int64_t sd, int64_t T, int64_t S,
                                  int64_t BT, int64_t BS) {
    int64_t bh = blockIdx.y;
    for (int64_t j = threadIdx.x; j < BS; j += blockDim.x) {
        int64_t col = (int64_t)blockIdx.x * BS + j;
        if (col >= S) continue;
        float b_z = 0.0f;
        for (int64_t it = (T + BT - 1) / BT - 1; it >= 0; it--) {
            float chunk = 0.0f;
            for (int64_t i = 0; i < BT; i++) {
                float acc = 0.0f;
                for (int64_t k = i; k < BT; k++) {
                    int64_t t = it * BT + k;
                    if (t < T) acc += s[bh * sh + t * st + col * sd];
                }
                int64_t t = it * BT + i;
                if (t < T) z[bh * sh + t * st + col * sd] = b_z + acc;
                if (i == 0) chunk = acc;
            }
            b_z += chunk;
        }
    }
}

static __global__ void rcv_store_kernel(const float *bc, float *z, int64_t sh, int64_t st, int64_t sd, int64_t T,
                                        int64_t S, int64_t BT, int64_t BS) {
    for (int64_t e = threadIdx.x; e < BT * BS; e += blockDim.x) {
        int64_t t = (int64_t)blockIdx.z * BT + e / BS, col = (int64_t)blockIdx.x * BS + e % BS;
        int64_t o = (int64_t)blockIdx.y * sh + t * st + col * sd;
        if (t < T && col < S) z[o] = bc[o];
    }
}

#define RCV_ARGS(L)                                                                                           \
    TLC_PTR(L, 0, const float), TLC_PTR(L, 1, float), TLC_I(L, P_SH), TLC_I(L, P_ST), TLC_I(L, P_SD),         \
        TLC_I(L, P_T), TLC_I(L, P_S), TLC_I(L, P_BT), TLC_I(L, P_BS)

static int launch(const td_abi_launch *L) {
    rcv_kernel<<<tlc_grid(L), tlc_threads(TLC_I(L, P_BS)), 0, (cudaStream_t)L->stream>>>(RCV_ARGS(L));
    return tlc_check(L, "chunk_global_reversed_cumsum_vector_kernel");
}
static int launch_store(const td_abi_launch *L) {
    rcv_store_kernel<<<tlc_grid(L), tlc_threads(TLC_I(L, P_BT) * TLC_I(L, P_BS)), 0, (cudaStream_t)L->stream>>>(
        RCV_ARGS(L));
    return tlc_check(L, "reversed_cumsum_store_slice");
}

TD_KERNEL(td_kc_rcv) = {"reversed_cumsum.reversed_cumsum_output_summary_general", "triton", TD_ABI_CUDA, NULL, NULL,
                        NULL, 7, 2, launch, NULL};
TD_KERNEL(td_kc_rcv_store) = {"reversed_cumsum.reversed_cumsum_block_store_io_correctness", "triton", TD_ABI_CUDA,
                              NULL, NULL, NULL, 7, 2, launch_store, NULL};
TD_KERNEL(td_kc_rcv_store_r) = {"reversed_cumsum.reversed_cumsum_block_store_io_correctnessR", "triton", TD_ABI_CUDA,
                                "store=fp32:rne:inf", NULL, NULL, 7, 2, launch_store, NULL};
