/* masked_select: masked_select_kernel, program by program.  Parameters: n_elements,
 * BLOCK_SIZE.  Regions: inp_ptr, select_mask_ptr (bool), prefix_sum_ptr (int64), out_ptr. */
#include "tl.h"

enum { P_N, P_BLOCK };
enum { R_INP, R_MASK, R_PSUM, R_OUT };

static int masked_select_kernel(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off >= n) continue; /* mask = offsets < n_elements */
            float inp = tl_load(L, R_INP, off);
            int select = tl_load_int(L, R_MASK, off) != 0; /* .to(tl.int1) */
            int64_t out_offset = tl_load_int(L, R_PSUM, off) - 1;
            if (select) tl_store(L, R_OUT, out_offset, inp, tl_f32());
        }
    return 0;
}

TD_KERNEL(td_k_masked_select) = {"masked_select.masked_select_kernel_correctness", "triton", TD_ABI_HOST, NULL, NULL,
                                 NULL, 2, 4, masked_select_kernel, NULL};
