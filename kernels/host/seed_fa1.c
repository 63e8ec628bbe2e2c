/* seed_fa1: VeriTile's FA-1 forward kernels (Examples/FlashAttention1/Common/Kernels.lean),
 * program by program over the grid (pid0 = query block, pid1 = head, pid2 = batch):
 *   fa1ForwardKernelStrided{,Causal}BoundaryD  the online-softmax loop over numKVBlocks
 *   fa1NaiveForwardKernelStrided{,Causal}BoundaryD  one tile of arange(S_k) keys, no max
 * Tiles are plain binary32 arrays; tl.dot is a binary32 dot over the contraction index
 * from +0 (IEEE, not TF32); tl.max / tl.sum the pairwise trees of tl.h. */
#include "attn_tl.h"

/* the online kernels (contract layout P_*); naive_reference_overflow shares it */
static int fa1_online(const td_abi_launch *L, int causal) {
    fa1h_args a;
    fa1h_args_online(L, &a);
    return fa1h_online(L, &a, causal, FA1H_CORRECT);
}
static int boundaryD(const td_abi_launch *L) { return fa1_online(L, 0); }
static int causal_boundaryD(const td_abi_launch *L) { return fa1_online(L, 1); }

/* the naive kernels (layout PN_*), and the naive kernel on the online layout */
static int naive(const td_abi_launch *L) {
    fa1h_args a;
    fa1h_args_naive(L, &a);
    return fa1h_naive(L, &a, 0, FA1H_CORRECT);
}
static int naive_causal(const td_abi_launch *L) {
    fa1h_args a;
    fa1h_args_naive(L, &a);
    return fa1h_naive(L, &a, 1, FA1H_CORRECT);
}
static int naive_on_online_layout(const td_abi_launch *L) {
    fa1h_args a;
    fa1h_args_online(L, &a); /* Bk and numKVBlocks are not the naive kernel's: unused */
    return fa1h_naive(L, &a, 0, FA1H_CORRECT);
}

TD_KERNEL(td_k_seed_fa1_boundaryD) = {"seed_fa1.fa1_boundaryD_refines_naive_reference_exec_views", "triton",
                                      TD_ABI_HOST, NULL, "libm", NULL, 24, 4, boundaryD, NULL};
TD_KERNEL(td_k_seed_fa1_causal_boundaryD) = {"seed_fa1.fa1_causal_boundaryD_refines_naive_reference_exec_views",
                                             "triton", TD_ABI_HOST, NULL, "libm", NULL, 24, 4, causal_boundaryD, NULL};
TD_KERNEL(td_k_seed_fa1_naive) = {"seed_fa1.naive_reference_correctness", "triton", TD_ABI_HOST, NULL, "libm",
                                  NULL, 22, 4, naive, NULL};
TD_KERNEL(td_k_seed_fa1_naive_causal) = {"seed_fa1.naive_causal_reference_correctness", "triton", TD_ABI_HOST, NULL,
                                         "libm", NULL, 22, 4, naive_causal, NULL};
/* naive_reference_overflow: the online kernel must pass; the naive kernel is the
 * documented positive control (tests/test_seed_fa1.c asserts it is flagged nonfinite) */
TD_KERNEL(td_k_seed_fa1_overflow_online) = {"seed_fa1.naive_reference_overflow", "triton", TD_ABI_HOST, NULL, "libm",
                                            NULL, 24, 4, boundaryD, NULL};
TD_KERNEL(td_k_seed_fa1_overflow_naive) = {
    "seed_fa1.naive_reference_overflow", "naive", TD_ABI_HOST, NULL, "libm",
    "known limitation: no max subtraction, overflows binary32 beyond scores of 88.7 (proved correct over the reals)",
    24, 4, naive_on_online_layout, NULL};
