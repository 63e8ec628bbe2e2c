/* seed_fa1 mutants: the FA-1 programs of kernels/host/attn_tl.h with one seeded bug. */
#include "../host/attn_tl.h"

static int online_bug(const td_abi_launch *L, int causal, int bug) {
    fa1h_args a;
    fa1h_args_online(L, &a);
    return fa1h_online(L, &a, causal, bug);
}
static int naive_bug(const td_abi_launch *L, int causal, int bug) {
    fa1h_args a;
    fa1h_args_naive(L, &a);
    return fa1h_naive(L, &a, causal, bug);
}
static int tail_unmasked(const td_abi_launch *L) { return online_bug(L, 0, FA1H_TAIL_UNMASKED); }
static int no_rescale_l(const td_abi_launch *L) { return online_bug(L, 0, FA1H_NO_RESCALE_L); }
static int causal_plus1(const td_abi_launch *L) { return online_bug(L, 1, FA1H_CAUSAL_PLUS1); }
static int causal_no_rescale_l(const td_abi_launch *L) { return online_bug(L, 1, FA1H_NO_RESCALE_L); }
static int causal_scale_twice(const td_abi_launch *L) { return online_bug(L, 1, FA1H_SCALE_TWICE); }
static int naive_store_no_dmask(const td_abi_launch *L) { return naive_bug(L, 0, FA1H_STORE_NO_DMASK); }
static int naive_causal_local_row(const td_abi_launch *L) { return naive_bug(L, 1, FA1H_LOCAL_ROW); }

#define BD "seed_fa1.fa1_boundaryD_refines_naive_reference_exec_views"
#define CBD "seed_fa1.fa1_causal_boundaryD_refines_naive_reference_exec_views"
TD_KERNEL(td_m_seed_fa1_tail) = {BD, "mut_tail_scores_unmasked", TD_ABI_HOST, NULL, "libm",
                                 "the scores' where(offs_n < S_k, s, -inf) is dropped: the last block's tail keys "
                                 "(loaded as 0) score 0 and take weight",
                                 24, 4, tail_unmasked, NULL};
TD_KERNEL(td_m_seed_fa1_rescale) = {BD, "mut_no_rescale_l", TD_ABI_HOST, NULL, "libm",
                                    "l = l + sum(p): the running max is updated without rescaling l by alpha", 24, 4,
                                    no_rescale_l, NULL};
TD_KERNEL(td_m_seed_fa1_causal_plus1) = {CBD, "mut_causal_diag_off_by_one", TD_ABI_HOST, NULL, "libm",
                                         "causal mask offs_m + 1 >= offs_n: each row also attends to the next key",
                                         24, 4, causal_plus1, NULL};
TD_KERNEL(td_m_seed_fa1_causal_rescale) = {CBD, "mut_no_rescale_l", TD_ABI_HOST, NULL, "libm",
                                           "l = l + sum(p): the running max is updated without rescaling l by alpha",
                                           24, 4, causal_no_rescale_l, NULL};
TD_KERNEL(td_m_seed_fa1_causal_scale2) = {CBD, "mut_scale_twice", TD_ABI_HOST, NULL, "libm",
                                          "scores = dot(q, k^T) * scale * scale: the scale applied twice", 24, 4,
                                          causal_scale_twice, NULL};
TD_KERNEL(td_m_seed_fa1_naive_dmask) = {"seed_fa1.naive_reference_correctness", "mut_store_no_dmask", TD_ABI_HOST,
                                        NULL, "libm",
                                        "the store mask drops offs_d < D: the head-dim padding lanes are stored", 22,
                                        4, naive_store_no_dmask, NULL};
TD_KERNEL(td_m_seed_fa1_naive_local_row) = {"seed_fa1.naive_causal_reference_correctness", "mut_causal_local_row",
                                            TD_ABI_HOST, NULL, "libm",
                                            "the causal mask compares arange(M) (the block-local row) with offs_n: "
                                            "rows of later query blocks lose their keys",
                                            22, 4, naive_causal_local_row, NULL};
TD_KERNEL(td_m_seed_fa1_overflow_rescale) = {"seed_fa1.naive_reference_overflow", "mut_no_rescale_l", TD_ABI_HOST,
                                             NULL, "libm",
                                             "l = l + sum(p): the running max is updated without rescaling l by alpha",
                                             24, 4, no_rescale_l, NULL};
