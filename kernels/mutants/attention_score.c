/* attention_score mutants: switches of the port (kernels/host/attention_score.c). */
#include "../host/tl.h"

int td_hk_attention_score(const td_abi_launch *L, unsigned mut);

static int window(const td_abi_launch *L) { return td_hk_attention_score(L, 1u); }
static int gqa(const td_abi_launch *L) { return td_hk_attention_score(L, 2u); }
static int store(const td_abi_launch *L) { return td_hk_attention_score(L, 4u); }
static int mstride(const td_abi_launch *L) { return td_hk_attention_score(L, 8u); }

#define AS_CASTS "store=fp16:rne:inf"
#define OS "attention_score.attention_score_python_case1_output_summary_general"
#define IO "attention_score.attention_score_case1_io_correctness"
#define WIN "window compare off by one: dist <= size keeps one key past the window's far edge"
#define GQA "GQA head map off_hkv = off_h % H_KV: a query head reads another group's keys"
#define STORE "store mask o_range < NKV_CTX dropped: the last key block writes past the context"
#define MSTR "statistics row stride N_CTX for ROUND_CTX: m_ptrs = M + off_hz * N_CTX"
TD_KERNEL(td_m_attention_score_os_window) = {OS, "mut_window_off_by_one", TD_ABI_HOST, AS_CASTS, NULL, WIN, 22, 4, window, NULL};
TD_KERNEL(td_m_attention_score_os_gqa) = {OS, "mut_gqa_head_map", TD_ABI_HOST, AS_CASTS, NULL, GQA, 22, 4, gqa, NULL};
TD_KERNEL(td_m_attention_score_os_store) = {OS, "mut_store_unmasked", TD_ABI_HOST, AS_CASTS, NULL, STORE, 22, 4, store, NULL};
TD_KERNEL(td_m_attention_score_os_mstride) = {OS, "mut_m_stride_nctx", TD_ABI_HOST, AS_CASTS, NULL, MSTR, 22, 4, mstride, NULL};
TD_KERNEL(td_m_attention_score_io_window) = {IO, "mut_window_off_by_one", TD_ABI_HOST, AS_CASTS, NULL, WIN, 22, 4, window, NULL};
TD_KERNEL(td_m_attention_score_io_gqa) = {IO, "mut_gqa_head_map", TD_ABI_HOST, AS_CASTS, NULL, GQA, 22, 4, gqa, NULL};
TD_KERNEL(td_m_attention_score_io_store) = {IO, "mut_store_unmasked", TD_ABI_HOST, AS_CASTS, NULL, STORE, 22, 4, store, NULL};
TD_KERNEL(td_m_attention_score_io_mstride) = {IO, "mut_m_stride_nctx", TD_ABI_HOST, AS_CASTS, NULL, MSTR, 22, 4, mstride, NULL};
