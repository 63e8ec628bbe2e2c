/* flash_attn mutants: the port with one seeded bug each (switches of td_hk_flash_attn,
 * see kernels/host/attn_online_tl.h).  mut_rowsum_fp16_p moved to the alternatives
 * (alt_rowsum_fp16_p, kernels/alternatives/flash_attn.c: an admissible P rounding). */
#include "../host/attn_online_tl.h"

#define FA_CASTS "q=fp16:rne:inf;p=fp16:rne:inf;store=fp16:rne:inf"
#define ID_OUT "flash_attn.flash_attn_genuine_output_compute_correct_general"
#define ID_L "flash_attn.flash_attn_genuine_l_compute_correct_general"
#define ID_C1 "flash_attn.flash_attn_python_case1_genuine_compute_correct_general"
#define ID_C2 "flash_attn.flash_attn_python_case2_genuine_compute_correct_general"
#define ID_IO "flash_attn.flash_attn_io_correctness"

static int gen_causal_gt(const td_abi_launch *L) { return td_hk_flash_attn(L, FA_LAY_GENUINE, FA_MUT_CAUSAL_GT); }
static int gen_no_rescale(const td_abi_launch *L) { return td_hk_flash_attn(L, FA_LAY_GENUINE, FA_MUT_NO_RESCALE_L); }
static int gen_l_natlog(const td_abi_launch *L) { return td_hk_flash_attn(L, FA_LAY_GENUINE, FA_MUT_L_NATLOG); }
static int c1_causal_gt(const td_abi_launch *L) { return td_hk_flash_attn(L, FA_LAY_CASE1, FA_MUT_CAUSAL_GT); }
static int c1_skip_last(const td_abi_launch *L) { return td_hk_flash_attn(L, FA_LAY_CASE1, FA_MUT_SKIP_LAST); }
static int c2_scale_twice(const td_abi_launch *L) { return td_hk_flash_attn(L, FA_LAY_CASE2, FA_MUT_SCALE_TWICE); }
static int c2_no_rescale(const td_abi_launch *L) { return td_hk_flash_attn(L, FA_LAY_CASE2, FA_MUT_NO_RESCALE_L); }
static int io_skip_last(const td_abi_launch *L) { return td_hk_flash_attn(L, FA_LAY_IO, FA_MUT_SKIP_LAST); }
static int io_offset_i32(const td_abi_launch *L) { return td_hk_flash_attn(L, FA_LAY_IO, FA_MUT_OFFSET_I32); }

TD_KERNEL(td_m_fa_out_causal_gt) = {ID_OUT, "mut_causal_diag_off_by_one", TD_ABI_HOST, FA_CASTS, NULL,
                                    "causal mask off_m > start_n + off_n: each row loses its diagonal key", 15, 5,
                                    gen_causal_gt, NULL};
TD_KERNEL(td_m_fa_l_no_rescale) = {ID_L, "mut_l_not_rescaled", TD_ABI_HOST, FA_CASTS, NULL,
                                   "denom += rowsum(p) without the alpha rescale when the running max moves", 15, 5,
                                   gen_no_rescale, NULL};
TD_KERNEL(td_m_fa_l_natlog) = {ID_L, "mut_l_natural_log", TD_ABI_HOST, FA_CASTS, NULL,
                               "L = m + log(l): natural log in a base-2 statistic", 15, 5, gen_l_natlog, NULL};
TD_KERNEL(td_m_fa_c1_causal_gt) = {ID_C1, "mut_causal_diag_off_by_one", TD_ABI_HOST, FA_CASTS, NULL,
                                   "causal mask off_m > start_n + off_n: each row loses its diagonal key", 14, 5,
                                   c1_causal_gt, NULL};
TD_KERNEL(td_m_fa_c1_skip_last) = {ID_C1, "mut_drop_last_kv_block", TD_ABI_HOST, FA_CASTS, NULL,
                                   "the K loop stops BLOCK_N early: the last KV block is never visited", 14, 5,
                                   c1_skip_last, NULL};
TD_KERNEL(td_m_fa_c2_scale_twice) = {ID_C2, "mut_scale_twice", TD_ABI_HOST, FA_CASTS, NULL,
                                     "qk_scale folded into q and applied to the scores again", 14, 5, c2_scale_twice, NULL};
TD_KERNEL(td_m_fa_c2_no_rescale) = {ID_C2, "mut_l_not_rescaled", TD_ABI_HOST, FA_CASTS, NULL,
                                    "denom += rowsum(p) without the alpha rescale when the running max moves", 14, 5,
                                    c2_no_rescale, NULL};
TD_KERNEL(td_m_fa_io_skip_last) = {ID_IO, "mut_drop_last_kv_block", TD_ABI_HOST, FA_CASTS, NULL,
                                   "the K loop stops BLOCK_N early: the last KV block is never visited", 12, 5,
                                   io_skip_last, NULL};
/* the int32 head offset: one face carries it (the other four form qkv_base_offset the same way) */
TD_KERNEL(td_m_fa_io_i32) = {ID_IO, "mut_offset_int32", TD_ABI_HOST, FA_CASTS, NULL,
                             "qkv_base_offset = off_bs_head * stride_q_head computed in int32 (wraps beyond 2^31 elements)",
                             12, 5, io_offset_i32, NULL};
