/* matmul_triton1 mutants (the program itself is in ../host/matmul_triton1.c). */
#include "../host/matmul_tl.h"

enum { P_NS, P_M, P_BK, P_N, P_NKB };
int td_matmul_triton1_program(const td_abi_launch *L, int64_t y_kstep, int64_t z_row_stride);

/* y_ptrs += k_block_size (the `* n_size` dropped): Y walked along a row */
static int y_kstep(const td_abi_launch *L) { return td_matmul_triton1_program(L, 1, TL_I(L, P_NS)); }
/* z_ptrs = z_ptr + m_offsets[:, None] * k_size + ...: Z's row stride copied from x_ptrs */
static int z_stride_k(const td_abi_launch *L) {
    return td_matmul_triton1_program(L, TL_I(L, P_NS), TL_I(L, P_BK) * TL_I(L, P_NKB));
}

#define MT1_CF "matmul_triton1.matmul_triton1_closed_form_correct"
#define MT1_IO "matmul_triton1.matmul_triton1_io_correctness"
#define YK "y_ptrs advance by k_block_size, not k_block_size * n_size: wrong leading dimension for Y"
#define ZK "z_ptrs use k_size as Z's row stride (copied from x_ptrs)"
TD_KERNEL(td_m_matmul_triton1_cf_yk) = {MT1_CF, "mut_wrong_ld_y", TD_ABI_HOST, NULL, NULL, YK, 5, 3, y_kstep, NULL};
TD_KERNEL(td_m_matmul_triton1_io_yk) = {MT1_IO, "mut_wrong_ld_y", TD_ABI_HOST, NULL, NULL, YK, 5, 3, y_kstep, NULL};
TD_KERNEL(td_m_matmul_triton1_cf_zk) = {MT1_CF, "mut_z_row_stride_k", TD_ABI_HOST, NULL, NULL, ZK, 5, 3, z_stride_k, NULL};
TD_KERNEL(td_m_matmul_triton1_io_zk) = {MT1_IO, "mut_z_row_stride_k", TD_ABI_HOST, NULL, NULL, ZK, 5, 3, z_stride_k, NULL};
