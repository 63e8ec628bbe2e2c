/* context_attn_nopad mutants: the kernel with one bug switched on. */
#include "../host/context_attn_nopad_tl.h"

static int diagonal(const td_abi_launch *L) { return context_attn_nopad_program(L, BUG_DIAGONAL); }
static int scale_twice(const td_abi_launch *L) { return context_attn_nopad_program(L, BUG_SCALE_TWICE); }
static int last_block(const td_abi_launch *L) { return context_attn_nopad_program(L, BUG_LAST_BLOCK); }

#define G "context_attn_nopad.context_attn_nopad_output_summary_general"
#define IO "context_attn_nopad.context_attn_nopad_io_correctness"
TD_KERNEL(td_m_nopad_diag) = {G, "mut_causal_diagonal", TD_ABI_HOST, NULL, NULL,
                              "causal mask offs_m > key: the diagonal is masked off by one", NP - 1, NR, diagonal, NULL};
TD_KERNEL(td_m_nopad_scale) = {G, "mut_scale_twice", TD_ABI_HOST, NULL, NULL, "qk *= sm_scale applied twice", NP - 1,
                               NR, scale_twice, NULL};
TD_KERNEL(td_m_nopad_io_block) = {IO, "mut_diagonal_block_dropped", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                  "K-loop bound start_m * BLOCK_M: the last (diagonal) KV block is dropped", NP, NR,
                                  last_block, NULL};
TD_KERNEL(td_m_nopad_io_diag) = {IO, "mut_causal_diagonal", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                 "causal mask offs_m > key: the diagonal is masked off by one", NP, NR, diagonal, NULL};

/* the Q offset (start + offs_m) * stride_qbs + cur_head * stride_qh in Triton's int32 (the
 * original's arithmetic for int32 strides): wraps once a head sits 2^31 elements in (far cases) */
static int offset_int32(const td_abi_launch *L) { return context_attn_nopad_program(L, BUG_OFFSET_I32); }
TD_KERNEL(td_m_ctx_nopad_i32) = {G, "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                             "cur_head * stride_qh formed in int32 (wraps beyond 2^31 elements)", NP - 1, NR,
                             offset_int32, NULL};
TD_KERNEL(td_m_ctx_nopad_io_i32) = {IO, "mut_offset_int32", TD_ABI_HOST, "store=fp16:rne:inf", NULL,
                                "cur_head * stride_qh formed in int32 (wraps beyond 2^31 elements)", NP, NR,
                                offset_int32, NULL};
