/* attention_kernel mutants: the kernel with one bug switched on. */
#include "../host/attention_kernel_tl.h"

static int l_not_rescaled(const td_abi_launch *L) { return attention_kernel_program(L, BUG_L_NOT_RESCALED); }
static int scale_twice(const td_abi_launch *L) { return attention_kernel_program(L, BUG_SCALE_TWICE); }
static int b0_column(const td_abi_launch *L) { return attention_kernel_program(L, BUG_B0_COLUMN); }

#define G "attention_kernel.attention_kernel_genuine_output_compute_correct_general"
#define IO "attention_kernel.attention_kernel_io_correctness"
TD_KERNEL(td_m_ak_l) = {G, "mut_l_not_rescaled", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                        "running max moves but l_i is not multiplied by alpha", NP, NR, l_not_rescaled, NULL};
TD_KERNEL(td_m_ak_scale) = {G, "mut_scale_twice", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                            "qk_scale applied to q and again to qk", NP, NR, scale_twice, NULL};
TD_KERNEL(td_m_ak_io_b0) = {IO, "mut_b0_column", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                            "b0 read at column start_n instead of start_n // BLOCK_N", NP, NR, b0_column, NULL};
TD_KERNEL(td_m_ak_io_l) = {IO, "mut_l_not_rescaled", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                           "running max moves but l_i is not multiplied by alpha", NP, NR, l_not_rescaled, NULL};

/* q_offset = off_hz * stride_qh in Triton's int32 (the original's arithmetic): wraps once
 * the last head sits 2^31 elements in (far cases) */
static int offset_int32(const td_abi_launch *L) { return attention_kernel_program(L, BUG_OFFSET_I32); }
TD_KERNEL(td_m_ak_i32) = {G, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                          "off_hz * stride_qh formed in int32 (wraps beyond 2^31 elements)", NP, NR, offset_int32, NULL};
TD_KERNEL(td_m_ak_io_i32) = {IO, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                             "off_hz * stride_qh formed in int32 (wraps beyond 2^31 elements)", NP, NR, offset_int32,
                             NULL};
