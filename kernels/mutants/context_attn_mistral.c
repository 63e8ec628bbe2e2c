/* context_attn_mistral mutants: the kernel with one bug switched on. */
#include "../host/context_attn_mistral_tl.h"

static const pix PG = {G_SM, G_RS, G_HS, G_BLK, G_DM, G_SW}, PI = {I_SM, I_RS, I_HS, I_BLK, I_DM, I_SW};
static int window_g(const td_abi_launch *L) { return context_attn_mistral_program(L, PG, BUG_WINDOW); }
static int noguard_g(const td_abi_launch *L) { return context_attn_mistral_program(L, PG, BUG_NO_GUARD); }
static int window_io(const td_abi_launch *L) { return context_attn_mistral_program(L, PI, BUG_WINDOW); }
static int rescale_io(const td_abi_launch *L) { return context_attn_mistral_program(L, PI, BUG_ACC_NOT_RESCALED); }

#define G "context_attn_mistral.context_attn_mistral_genuine_output_summary_general"
#define IO "context_attn_mistral.context_attn_mistral_io_correctness"
TD_KERNEL(td_m_mistral_window) = {G, "mut_window_off_by_one", TD_ABI_HOST, NULL, NULL,
                                  "window test key >= offs_m - sw: one key too many", G_NP, NR, window_g, NULL};
TD_KERNEL(td_m_mistral_guard) = {G, "mut_no_zero_guard", TD_ABI_HOST, NULL, NULL,
                                 "the l == 0 -> 1e-9 guard removed: a masked block divides 0 by 0", G_NP, NR, noguard_g, NULL};
TD_KERNEL(td_m_mistral_io_window) = {IO, "mut_window_off_by_one", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                     "window test key >= offs_m - sw: one key too many", I_NP, NR, window_io, NULL};
TD_KERNEL(td_m_mistral_io_rescale) = {IO, "mut_acc_not_rescaled", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                      "acc not multiplied by acc_scale when the running max or l moves", I_NP, NR,
                                      rescale_io, NULL};

/* the Q offset (start + offs_m) * stride_qbs + cur_head * stride_qh in Triton's int32 (the
 * original's arithmetic for int32 strides): wraps once a head sits 2^31 elements in (far cases) */
static int offset_int32_g(const td_abi_launch *L) { return context_attn_mistral_program(L, PG, BUG_OFFSET_I32); }
static int offset_int32_io(const td_abi_launch *L) { return context_attn_mistral_program(L, PI, BUG_OFFSET_I32); }
TD_KERNEL(td_m_mistral_i32) = {G, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                               "cur_head * stride_qh formed in int32 (wraps beyond 2^31 elements)", G_NP, NR,
                               offset_int32_g, NULL};
TD_KERNEL(td_m_mistral_io_i32) = {IO, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                  "cur_head * stride_qh formed in int32 (wraps beyond 2^31 elements)", I_NP, NR,
                                  offset_int32_io, NULL};
