/* seed_sm86 mutants: the streaming forward (kernels/host/attn_tl.h) with one seeded bug. */
#include "../host/attn_tl.h"

static int diag_plus1(const td_abi_launch *L) { return smh_forward(L, SMH_DIAG_PLUS1); }
static int p16_in_l(const td_abi_launch *L) { return smh_forward(L, SMH_P16_IN_L); }
static int gqa_modulo(const td_abi_launch *L) { return smh_forward(L, SMH_GQA_MODULO); }
static int no_rescale_l(const td_abi_launch *L) { return smh_forward(L, SMH_NO_RESCALE_L); }

#define FWD "seed_sm86.streaming_attention_forward_grouped"
#define FWD_CASTS "p=fp16:rne:inf;store=fp16:rne:inf"
TD_KERNEL(td_m_seed_sm86_diag) = {FWD, "mut_causal_diag_off_by_one", TD_ABI_HOST, FWD_CASTS, "libm",
                                  "the diagonal tile's mask keeps key <= query + 1: each row sees the next key", 8, 5,
                                  diag_plus1, NULL};
TD_KERNEL(td_m_seed_sm86_p16l) = {FWD, "mut_p16_in_row_sum", TD_ABI_HOST, FWD_CASTS, "libm",
                                  "the row sum adds the binary16-rounded P (as P V does) instead of binary32 P", 8, 5,
                                  p16_in_l, NULL};
TD_KERNEL(td_m_seed_sm86_gqa) = {FWD, "mut_gqa_head_modulo", TD_ABI_HOST, FWD_CASTS, "libm",
                                 "query head h reads K/V head h % kvHeads instead of h / groups", 8, 5, gqa_modulo, NULL};
TD_KERNEL(td_m_seed_sm86_rescale) = {FWD, "mut_no_rescale_l", TD_ABI_HOST, FWD_CASTS, "libm",
                                     "l = l + sum P: the running max moves without rescaling l by alpha", 8, 5,
                                     no_rescale_l, NULL};

static int q_diag_unmasked(const td_abi_launch *L) { return sqh_query(L, SQH_DIAG_UNMASKED); }
static int q_no_s(const td_abi_launch *L) { return sqh_query(L, SQH_NO_S_SCALE); }
static int k_dv_scaled(const td_abi_launch *L) { return skh_key(L, SKH_DV_SCALED); }
static int k_skip_diag(const td_abi_launch *L) { return skh_key(L, SKH_SKIP_DIAG); }
static int r_strided(const td_abi_launch *L) { return srh_reduce(L, SRH_STRIDED_GROUPS); }
static int r_last(const td_abi_launch *L) { return srh_reduce(L, SRH_LAST_SKIPPED); }

#define QP "seed_sm86.streaming_attention_query_pass"
#define KP "seed_sm86.streaming_attention_key_pass"
#define RG "seed_sm86.reduce_grouped_gradient"
TD_KERNEL(td_m_seed_sm86_q_diag) = {QP, "mut_diag_unmasked", TD_ABI_HOST, "ds=fp16:rne:inf", "libm",
                                    "the query pass leaves the diagonal tile unmasked: future keys enter dQ", 8, 8,
                                    q_diag_unmasked, NULL};
TD_KERNEL(td_m_seed_sm86_q_nos) = {QP, "mut_dq_unscaled", TD_ABI_HOST, "ds=fp16:rne:inf", "libm",
                                   "dQ stored without the FMUL by the natural scale s", 8, 8, q_no_s, NULL};
TD_KERNEL(td_m_seed_sm86_k_dvs) = {KP, "mut_dv_scaled", TD_ABI_HOST, "ds=fp16:rne:inf;p=fp16:rne:inf", "libm",
                                   "dV scaled by s as dK is (only dK carries the score scale)", 7, 8, k_dv_scaled, NULL};
TD_KERNEL(td_m_seed_sm86_k_diag) = {KP, "mut_walk_skips_diagonal", TD_ABI_HOST, "ds=fp16:rne:inf;p=fp16:rne:inf",
                                    "libm", "the key pass stops before the diagonal query sub-tile", 7, 8,
                                    k_skip_diag, NULL};
TD_KERNEL(td_m_seed_sm86_r_strided) = {RG, "mut_strided_groups", TD_ABI_HOST, NULL, "libm",
                                       "K/V head kv sums planes kv, kv + kvHeads, ... (h % kvHeads grouping) instead "
                                       "of its contiguous group",
                                       4, 2, r_strided, NULL};
TD_KERNEL(td_m_seed_sm86_r_last) = {RG, "mut_last_group_skipped", TD_ABI_HOST, NULL, "libm",
                                    "the reduction leaves the group's last plane out", 4, 2, r_last, NULL};
