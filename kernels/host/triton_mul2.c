/* triton_mul2: output = 2 * x, out of place (in_ptr0 -> out_ptr) and in place (ptr).
 * Parameters: n_elements, BLOCK_SIZE. */
#include "tl.h"

enum { P_N, P_BLOCK };

static int mul2_kernel(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off < n) tl_store(L, 1, off, 2.0f * tl_load(L, 0, off), tl_f32());
        }
    return 0;
}

static int mul2_inplace_kernel(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    float *x;
    TL_ALLOC(L, x, B);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        /* x = tl.load(ptr + offsets, mask): the whole tile is loaded before the store */
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            x[j] = off < n ? tl_load(L, 0, off) : 0.0f;
        }
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off < n) tl_store(L, 0, off, 2.0f * x[j], tl_f32());
        }
    }
    free(x);
    return 0;
}

TD_KERNEL(td_k_mul2) = {"triton_mul2.mul2_kernel_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL, 2, 2,
                        mul2_kernel, NULL};
TD_KERNEL(td_k_mul2_inplace) = {"triton_mul2.mul2_inplace_kernel_correctness", "triton", TD_ABI_HOST, NULL, NULL, NULL,
                                2, 1, mul2_inplace_kernel, NULL};
