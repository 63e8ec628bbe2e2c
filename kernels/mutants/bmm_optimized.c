/* bmm_optimized mutants (the program itself is in ../host/bmm_optimized.c). */
#include "../host/matmul_tl.h"

enum { P_M, P_N, P_K, P_TM, P_TN, P_TK, P_GM };
int td_bmm_program(const td_abi_launch *L, int64_t num_iters, int64_t b_row_stride);

/* num_iters = K // TILE_K: the K loop drops the last partial block */
static int drop_k_tail(const td_abi_launch *L) {
    return td_bmm_program(L, TL_I(L, P_K) / TL_I(L, P_TK), TL_I(L, P_N));
}
/* b_ptrs = B + offs_k[:, None] * K + offs_n[None, :]: B's row stride copied from a_ptrs */
static int b_row_stride_k(const td_abi_launch *L) {
    int64_t K = TL_I(L, P_K), TK = TL_I(L, P_TK);
    return td_bmm_program(L, (K + TK - 1) / TK, K);
}

#define BMM "bmm_optimized.bmm_o_exec_genuine"
TD_KERNEL(td_m_bmm_o_k_tail) = {BMM, "mut_k_loop_drops_tail", TD_ABI_HOST, NULL, NULL,
                                "num_iters = K // TILE_K: the last partial K block is never loaded", 7, 3, drop_k_tail, NULL};
TD_KERNEL(td_m_bmm_o_ld_b) = {BMM, "mut_wrong_ld_b", TD_ABI_HOST, NULL, NULL,
                              "B's row stride taken as K (copied from A): wrong leading dimension for B", 7, 3,
                              b_row_stride_k, NULL};
