/* embedding_triton_kernel on CUDA: one block per program; the block's threads cover the
 * program's rows [first, first + rows) of its BLOCK_N (all of them for the launched
 * kernel, one BLOCK_NN slice for the body contracts) times BLOCK_DMODEL columns.
 * Out-of-shard ids store 0. */
#include "elementwise_tlc.cuh"

enum { P_VSTART, P_VEND, P_SW, P_SO, P_NCTX, P_HIDDEN, P_BD, P_BN, P_BNN, P_START_NN };
enum { R_WEIGHT, R_IDS, R_OUT };

__global__ void embedding_cuda(const float *weight, const int32_t *ids, float *out, int64_t vs, int64_t ve, int64_t sw,
                               int64_t so, int64_t n, int64_t hidden, int64_t bd, int64_t bn, int64_t first,
                               int64_t rows) {
    for (int64_t k = threadIdx.x; k < rows * bd; k += blockDim.x) {
        int64_t seq = (int64_t)blockIdx.x * bn + first + k / bd, d = k % bd;
        if (seq >= n || d >= hidden) continue;
        int64_t id = ids[seq];
        out[seq * so + d] = (id >= vs && id < ve) ? weight[(id - vs) * sw + d] : 0.0f;
    }
}

static int launch_rows(const td_abi_launch *L, int64_t first, int64_t rows) {
    if (ew_grid_empty(L)) return 0;
    int64_t bd = TLC_I(L, P_BD);
    embedding_cuda<<<tlc_grid(L), tlc_threads(rows * bd), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_WEIGHT, const float), TLC_PTR(L, R_IDS, const int32_t), TLC_PTR(L, R_OUT, float),
        TLC_I(L, P_VSTART), TLC_I(L, P_VEND), TLC_I(L, P_SW), TLC_I(L, P_SO), TLC_I(L, P_NCTX), TLC_I(L, P_HIDDEN), bd,
        TLC_I(L, P_BN), first, rows);
    return tlc_check(L, "embedding_kernel");
}
static int launch_whole(const td_abi_launch *L) { return launch_rows(L, 0, TLC_I(L, P_BN)); }
static int launch_body(const td_abi_launch *L) { return launch_rows(L, TLC_I(L, P_START_NN), TLC_I(L, P_BNN)); }

#define EMB "embedding_triton_kernel."
TD_KERNEL(td_kc_embedding_summary) = {EMB "embedding_kernel_output_summary", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                                      9, 3, launch_whole, NULL};
TD_KERNEL(td_kc_embedding_body) = {EMB "embedding_body_io_correctness", "triton", TD_ABI_CUDA, NULL, NULL, NULL,
                                   10, 3, launch_body, NULL};
TD_KERNEL(td_kc_embedding_body_r) = {EMB "embedding_body_io_correctnessR", "triton", TD_ABI_CUDA, "store=fp32:rne:inf",
                                     NULL, NULL, 10, 3, launch_body, NULL};
TD_KERNEL(td_kc_embedding_whole_r) = {EMB "embedding_kernel_whole_io_correctnessR", "triton", TD_ABI_CUDA,
                                      "store=fp32:rne:inf", NULL, NULL, 8, 3, launch_whole, NULL};
