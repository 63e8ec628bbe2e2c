/* var_len_copy on CUDA: one block per segment.  Small length: the Python loop over
 * chunks with the mask offset < length; one chunk: iteration `chunk` alone. */
#include "tlc.cuh"

enum { R_OSTART, R_OLEN, R_OLD, R_NSTART, R_NEW };

__global__ void var_len_copy_kernel(const int64_t *old_start, const int64_t *old_len, const float *old_loc,
                                    const int64_t *new_start, float *new_loc, int64_t chunk, int64_t B, int all) {
    int64_t b = blockIdx.x, len = old_len[b], os = old_start[b], ns = new_start[b];
    int64_t first = all ? 0 : chunk * B, last = all ? len : chunk * B + 1; /* chunk bases first, first+B, ... < last */
    for (int64_t base = first; base < last; base += B)
        for (int64_t j = threadIdx.x; j < B; j += blockDim.x)
            if (j < len) new_loc[ns + base + j] = old_loc[os + base + j];
}

static int run(const td_abi_launch *L, int64_t chunk, int64_t B, int all, const char *what) {
    var_len_copy_kernel<<<tlc_grid(L), tlc_threads(B), 0, (cudaStream_t)L->stream>>>(
        TLC_PTR(L, R_OSTART, const int64_t), TLC_PTR(L, R_OLEN, const int64_t), TLC_PTR(L, R_OLD, const float),
        TLC_PTR(L, R_NSTART, const int64_t), TLC_PTR(L, R_NEW, float), chunk, B, all);
    return tlc_check(L, what);
}
static int launch_small(const td_abi_launch *L) { return run(L, 0, TLC_I(L, 0), 1, "var_len_copy_kernel_triton"); }
static int launch_chunk(const td_abi_launch *L) {
    return run(L, TLC_I(L, 0), TLC_I(L, 1), 0, "var_len_copy_one_chunk");
}

TD_KERNEL(td_kc_var_len_copy_small) = {"var_len_copy.var_len_copy_kernel_triton_small_length_output_summary",
                                       "triton", TD_ABI_CUDA, NULL, NULL, NULL, 1, 5, launch_small, NULL};
TD_KERNEL(td_kc_var_len_copy_chunk) = {"var_len_copy.var_len_copy_one_chunk_io_correctness", "triton", TD_ABI_CUDA,
                                       NULL, NULL, NULL, 2, 5, launch_chunk, NULL};
