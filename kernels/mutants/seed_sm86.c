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
                                  diag_plus1};
TD_KERNEL(td_m_seed_sm86_p16l) = {FWD, "mut_p16_in_row_sum", TD_ABI_HOST, FWD_CASTS, "libm",
                                  "the row sum adds the binary16-rounded P (as P V does) instead of binary32 P", 8, 5,
                                  p16_in_l};
TD_KERNEL(td_m_seed_sm86_gqa) = {FWD, "mut_gqa_head_modulo", TD_ABI_HOST, FWD_CASTS, "libm",
                                 "query head h reads K/V head h % kvHeads instead of h / groups", 8, 5, gqa_modulo};
TD_KERNEL(td_m_seed_sm86_rescale) = {FWD, "mut_no_rescale_l", TD_ABI_HOST, FWD_CASTS, "libm",
                                     "l = l + sum P: the running max moves without rescaling l by alpha", 8, 5,
                                     no_rescale_l};
