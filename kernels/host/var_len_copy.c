/* var_len_copy: program b copies segment b (old_a_len[b] elements from old_a_start[b])
 * to new_a_start[b].
 *   small length: the Python kernel's loop `for i in range(0, length, BLOCK_SIZE)` with
 *     the mask `offset < length` (one chunk under the contract's len <= BLOCK_SIZE);
 *   one chunk: the loop's iteration `chunk` alone, masked by `offset < length`. */
#include "tl.h"

enum { R_OSTART, R_OLEN, R_OLD, R_NSTART, R_NEW };

static void copy_chunk(const td_abi_launch *L, uint32_t b, int64_t base, int64_t B) {
    int64_t len = tl_load_int(L, R_OLEN, b), os = tl_load_int(L, R_OSTART, b), ns = tl_load_int(L, R_NSTART, b);
    for (int64_t j = 0; j < B; j++)
        if (j < len) tl_store(L, R_NEW, ns + base + j, tl_load(L, R_OLD, os + base + j), tl_f32());
}

static int var_len_copy_small(const td_abi_launch *L) {
    int64_t B = TL_I(L, 0);
    for (uint32_t b = 0; b < L->grid[0]; b++)
        for (int64_t i = 0; i < tl_load_int(L, R_OLEN, b); i += B) copy_chunk(L, b, i, B);
    return 0;
}

static int var_len_copy_chunk(const td_abi_launch *L) {
    int64_t chunk = TL_I(L, 0), B = TL_I(L, 1);
    for (uint32_t b = 0; b < L->grid[0]; b++) copy_chunk(L, b, chunk * B, B);
    return 0;
}

TD_KERNEL(td_k_var_len_copy_small) = {"var_len_copy.var_len_copy_kernel_triton_small_length_output_summary", "triton",
                                      TD_ABI_HOST, NULL, NULL, NULL, 1, 5, var_len_copy_small, NULL};
TD_KERNEL(td_k_var_len_copy_chunk) = {"var_len_copy.var_len_copy_one_chunk_io_correctness", "triton", TD_ABI_HOST,
                                      NULL, NULL, NULL, 2, 5, var_len_copy_chunk, NULL};
