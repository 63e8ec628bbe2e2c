/* relu_triton_kernel mutants. */
#include "../host/tl.h"

enum { P_N, P_BLOCK };
enum { R_X, R_OUT };

/* The `if pid == 0` guard dropped ("fixing" the kernel): every program stores its tile,
 * which the contract's writeMask (program 0 only) does not allow. */
static int relu_every_program_stores(const td_abi_launch *L) {
    int64_t N = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++)
        for (int64_t j = 0; j < B; j++) {
            int64_t off = (int64_t)pid * B + j;
            if (off < N) {
                float x = tl_load(L, R_X, off);
                tl_store(L, R_OUT, off, x >= 0 ? x : 0.0f, tl_f32());
            }
        }
    return 0;
}

/* The branches of tl.where swapped: negative inputs pass, positive ones become 0. */
static int relu_where_swapped(const td_abi_launch *L) {
    int64_t N = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (int64_t j = 0; j < B && L->grid[0] > 0; j++)
        if (j < N) {
            float x = tl_load(L, R_X, j);
            tl_store(L, R_OUT, j, x >= 0 ? 0.0f : x, tl_f32());
        }
    return 0;
}

/* block_start = pid * block_size formed in int32, as Triton types a program id: past
 * 2^31 elements the offset of a later program wraps negative, its mask (offset < N)
 * still holds, and its tile load is an illegal address (tl_fault) although only
 * program 0 stores.  Only the large tier (`--large`) reaches it: ordinary N <= 2^14. */
static int relu_offset_int32(const td_abi_launch *L) {
    int64_t N = TL_I(L, P_N), B = TL_I(L, P_BLOCK);
    for (uint32_t pid = 0; pid < L->grid[0]; pid++) {
        int64_t base = tl_i32((int64_t)pid * B), active = N - base < B ? N - base : B;
        if (active > 0 && tl_fault(L, R_X, base, active, 1, pid)) return 1;
        if (pid == 0)
            for (int64_t j = 0; j < B && base + j < N; j++) {
                float x = tl_load(L, R_X, base + j);
                tl_store(L, R_OUT, base + j, x >= 0 ? x : 0.0f, tl_f32());
            }
    }
    return 0;
}

TD_KERNEL(td_m_relu_triton_every_pid) = {"relu_triton_kernel.relu_kernel_correctness", "mut_every_program_stores",
                                         TD_ABI_HOST, NULL, NULL,
                                         "the `if pid == 0` guard dropped: programs > 0 write too", 2, 2,
                                         relu_every_program_stores, NULL};
TD_KERNEL(td_m_relu_triton_swapped) = {"relu_triton_kernel.relu_kernel_correctness", "mut_where_swapped", TD_ABI_HOST,
                                       NULL, NULL, "tl.where(x >= 0, 0.0, x): the branches swapped", 2, 2,
                                       relu_where_swapped, NULL};
TD_KERNEL(td_m_relu_triton_i32) = {"relu_triton_kernel.relu_kernel_correctness", "mut_large_offset_int32",
                                    TD_ABI_HOST, NULL, NULL,
                                    "pid * block_size + j formed in int32 (the loads wrap beyond 2^31 elements)", 2, 2,
                                    relu_offset_int32, NULL};
