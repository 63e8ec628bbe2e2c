/* batched_vecmat_mult mutants (the program itself is in ../host/batched_vecmat_mult.c). */
#include "../host/matmul_tl.h"

enum { P_DM, P_DN, P_BM, P_BN, P_BK, P_NKB };
int td_batched_vecmat_program(const td_abi_launch *L, int swap_mn, int64_t k_blocks, int off_i32);

/* b_tile built with the m and n index vectors swapped: B[n, m, k] read for B[m, n, k] */
static int swap_mn(const td_abi_launch *L) { return td_batched_vecmat_program(L, 1, TL_I(L, P_NKB), 0); }
/* for k_index in range(k_blocks - 1): the last K block dropped */
static int last_block(const td_abi_launch *L) { return td_batched_vecmat_program(L, 0, TL_I(L, P_NKB) - 1, 0); }
/* the tiles' offsets in int32 (m * dim_n * dim_k wraps past 2^31: only the large tier,
 * `--large`, td_rows_large, has dim_m * dim_n * dim_k > 2^31) */
static int off_i32(const td_abi_launch *L) { return td_batched_vecmat_program(L, 0, TL_I(L, P_NKB), 1); }

#define BV_CF "batched_vecmat_mult.batched_vecmat_closed_form_correct"
#define BV_IO "batched_vecmat_mult.batched_vecmat_io_correctness"
#define SWAP "B's tile indexed [n, m, k] instead of [m, n, k]"
#define LAST "the K loop runs k_blocks - 1 times: the last K block is never accumulated"
TD_KERNEL(td_m_batched_vecmat_cf_swap) = {BV_CF, "mut_b_mn_swapped", TD_ABI_HOST, NULL, NULL, SWAP, 6, 3, swap_mn, NULL};
TD_KERNEL(td_m_batched_vecmat_io_swap) = {BV_IO, "mut_b_mn_swapped", TD_ABI_HOST, NULL, NULL, SWAP, 6, 3, swap_mn, NULL};
TD_KERNEL(td_m_batched_vecmat_cf_last) = {BV_CF, "mut_k_loop_drops_last", TD_ABI_HOST, NULL, NULL, LAST, 6, 3,
                                          last_block, NULL};
TD_KERNEL(td_m_batched_vecmat_io_last) = {BV_IO, "mut_k_loop_drops_last", TD_ABI_HOST, NULL, NULL, LAST, 6, 3,
                                          last_block, NULL};
#define I32 "the tiles' offsets in int32 (m * dim_n * dim_k as the original forms them): wraps past 2^31"
TD_KERNEL(td_m_batched_vecmat_cf_i32) = {BV_CF, "mut_large_offset_int32", TD_ABI_HOST, NULL, NULL, I32, 6, 3, off_i32,
                                         NULL};
TD_KERNEL(td_m_batched_vecmat_io_i32) = {BV_IO, "mut_large_offset_int32", TD_ABI_HOST, NULL, NULL, I32, 6, 3, off_i32,
                                         NULL};
