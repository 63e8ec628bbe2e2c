/* index_select_bwd on CUDA: grad_source[index[r], c] = grad_output[r, c] (a store; the
 * indices are distinct by the contract), one block per program (pid0, pid1). */
#include "elementwise_tlc.cuh"

enum { P_NROWS, P_NIDX, P_NCOLS, P_S0, P_S1, P_BSI, P_BSC };
enum { R_GSRC, R_IDX, R_GOUT };

__global__ void index_select_cat_bwd(float *gsrc, const int64_t *index, const float *gout, int64_t nidx, int64_t ncols,
                                     int64_t s0, int64_t s1, int64_t bsi, int64_t bsc) {
    for (int64_t j = threadIdx.x; j < bsi * bsc; j += blockDim.x) {
        int64_t r = (int64_t)blockIdx.x * bsi + j / bsc, col = (int64_t)blockIdx.y * bsc + j % bsc;
        if (r >= nidx || col >= ncols) continue;
        gsrc[index[r] * s0 + col * s1] = gout[r * s0 + col * s1];
    }
}

static int launch(const td_abi_launch *L) {
    if (ew_grid_empty(L)) return 0;
    int64_t bsi = TLC_I(L, P_BSI), bsc = TLC_I(L, P_BSC);
    index_select_cat_bwd<<<tlc_grid(L), tlc_threads(bsi * bsc), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_GSRC, float), TLC_PTR(L, R_IDX, const int64_t), TLC_PTR(L, R_GOUT, const float),
        TLC_I(L, P_NIDX), TLC_I(L, P_NCOLS), TLC_I(L, P_S0), TLC_I(L, P_S1), bsi, bsc);
    return tlc_check(L, "index_select_cat_bwd_kernel");
}

TD_KERNEL(td_kc_index_select_bwd) = {"index_select_bwd.index_select_cat_bwd_kernel_correctness", "triton", TD_ABI_CUDA,
                                     NULL, NULL, NULL, 7, 3, launch, NULL};
