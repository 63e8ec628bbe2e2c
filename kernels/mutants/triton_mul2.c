/* triton_mul2 mutants. */
#include "../host/tl.h"

enum { P_N, P_BLOCK };

/* Out of place with the wrong stride: the input is read at 2*offset, as if the
 * tensor were a view with stride 2 (a non-contiguous input passed as contiguous). */
static int mul2_wrong_stride(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    int64_t len = (int64_t)TL_LEN(L, 0);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off < n) tl_store(L, 1, off, 2.0f * tl_load(L, 0, (2 * off) % (len ? len : 1)), tl_f32());
        }
    return 0;
}

/* In place, lane by lane with a read of the NEXT lane's (already doubled?) value:
 * a read-after-write hazard.  Each lane computes x[j] + x[j] where the second operand
 * is re-read from memory after the previous lane's store, the way a kernel that
 * splits the tile into two passes over the same buffer would. */
static int mul2_inplace_raw(const td_abi_launch *L) {
    int64_t n = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off >= n) continue;
            float a = tl_load(L, 0, off);
            tl_store(L, 0, off, a, tl_f32());
            /* the second half of the tile reads the first half's stored result */
            int64_t src = j >= B / 2 && B > 1 ? off - B / 2 : off;
            tl_store(L, 0, off, a + tl_load(L, 0, src), tl_f32());
        }
    return 0;
}

TD_KERNEL(td_m_mul2_stride) = {"triton_mul2.mul2_kernel_correctness", "mut_wrong_stride", TD_ABI_HOST, NULL, NULL,
                               "input read with stride 2", 2, 2, mul2_wrong_stride, NULL};
TD_KERNEL(td_m_mul2_inplace_raw) = {"triton_mul2.mul2_inplace_kernel_correctness", "mut_read_after_write", TD_ABI_HOST,
                                    NULL, NULL, "the tile's second half reads the first half after it was stored", 2,
                                    1, mul2_inplace_raw, NULL};
