/* matrix_vector_multip mutants (the program itself is in ../host/matrix_vector_multip.c). */
#include "../host/matmul_tl.h"

enum { P_N, P_M, P_SAN, P_SAM, P_SBM, P_SCN, P_BN, P_BM };
int td_mv_program(const td_abi_launch *L, int64_t b_stride, int mask_store);
int td_mv_program_ex(const td_abi_launch *L, int64_t b_stride, int mask_store, int a_i32);
static int a_i32(const td_abi_launch *L) { return td_mv_program_ex(L, TL_I(L, P_SBM), 1, 1); }

/* B_ptrs = B + offset_m * stride_am: the vector walked with A's column stride */
static int b_stride_am(const td_abi_launch *L) { return td_mv_program(L, TL_I(L, P_SAM), 1); }
/* tl.store(C_ptrs, acc[:, None]) without mask=n_mask */
static int no_row_mask(const td_abi_launch *L) { return td_mv_program(L, TL_I(L, P_SBM), 0); }

#define MV_SUM "matrix_vector_multip.mv_kernel_output_summary_general"
#define MV_IO "matrix_vector_multip.mv_one_block_io_correctness"
#define BS "B advanced with stride_am instead of stride_bm"
#define NM "the store drops mask=n_mask: rows past N of the last block are written"
TD_KERNEL(td_m_mv_summary_bs) = {MV_SUM, "mut_b_stride_am", TD_ABI_HOST, NULL, NULL, BS, 8, 3, b_stride_am, NULL};
TD_KERNEL(td_m_mv_io_bs) = {MV_IO, "mut_b_stride_am", TD_ABI_HOST, NULL, NULL, BS, 8, 3, b_stride_am, NULL};
TD_KERNEL(td_m_mv_summary_nm) = {MV_SUM, "mut_store_unmasked", TD_ABI_HOST, NULL, NULL, NM, 8, 3, no_row_mask, NULL};
TD_KERNEL(td_m_mv_io_nm) = {MV_IO, "mut_store_unmasked", TD_ABI_HOST, NULL, NULL, NM, 8, 3, no_row_mask, NULL};
#define AI32 "offs_n[:, None] * stride_an formed in int32 (A's row offsets wrap beyond 2^31 elements)"
TD_KERNEL(td_m_mv_summary_i32) = {MV_SUM, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, AI32, 8, 3, a_i32, NULL};
TD_KERNEL(td_m_mv_io_i32) = {MV_IO, "mut_offset_int32", TD_ABI_HOST, NULL, NULL, AI32, 8, 3, a_i32, NULL};
