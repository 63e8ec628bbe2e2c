/* triton_attention mutants: switches of the port (kernels/host/triton_attention.c). */
#include "../host/tl.h"

int td_hk_triton_attention_pre(const td_abi_launch *L, unsigned mut);

static int raw_do(const td_abi_launch *L) { return td_hk_triton_attention_pre(L, 1u); }
static int times_l(const td_abi_launch *L) { return td_hk_triton_attention_pre(L, 2u); }
static int last_lane(const td_abi_launch *L) { return td_hk_triton_attention_pre(L, 4u); }

#define PRE "triton_attention.triton_attention_bwd_preprocess_genuine_output_summary_general"
#define CASTS "store=fp16:rne:inf"
TD_KERNEL(td_m_ta_pre_raw_do) = {PRE, "mut_delta_raw_do", TD_ABI_HOST, CASTS, NULL,
                                 "Delta from the undivided do: sum(o * do) misses the 1 / L", 2, 5, raw_do, NULL};
TD_KERNEL(td_m_ta_pre_times_l) = {PRE, "mut_do_times_l", TD_ABI_HOST, CASTS, NULL,
                                  "do * denom for do / denom (NewDO and Delta)", 2, 5, times_l, NULL};
TD_KERNEL(td_m_ta_pre_last_lane) = {PRE, "mut_delta_short_row", TD_ABI_HOST, CASTS, NULL,
                                    "Delta summed over D_HEAD - 1 lanes: the last head lane dropped", 2, 5, last_lane,
                                    NULL};
