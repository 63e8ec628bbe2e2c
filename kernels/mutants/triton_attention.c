/* triton_attention mutants: switches of the port (kernels/host/triton_attention.c). */
#include "../host/tl.h"

int td_hk_triton_attention_pre(const td_abi_launch *L, unsigned mut);
int td_hk_triton_attention_fwd(const td_abi_launch *L, unsigned mut);

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

/* The original's off_m[:, None] * D_HEAD + off_n = (pid * BLOCK_M + i) * D_HEAD + d in int32
 * (tl.program_id and the constexprs are int32 in Triton): past 2^31 elements of Out the
 * tile base wraps negative and the load is an illegal address (tl_fault_rows_i32).  Only
 * the large tier (`--large`, td_rows_large) has more than 2^31 elements: ordinary cases
 * hold at most 2^14, where it is the port. */
static int off_i32(const td_abi_launch *L) {
    if (tl_fault_rows_i32(L, 0, TL_I(L, 0) * TL_I(L, 1), 1)) return 1; /* Out; BLOCK_M * D_HEAD */
    return td_hk_triton_attention_pre(L, 0);
}
TD_KERNEL(td_m_ta_pre_i32) = {PRE, "mut_large_offset_int32", TD_ABI_HOST, CASTS, NULL,
                              "off_m * D_HEAD + off_n in int32: the tile base wraps past 2^31", 2, 5, off_i32, NULL};

static int causal_gt(const td_abi_launch *L) { return td_hk_triton_attention_fwd(L, 1u); }
static int no_rescale(const td_abi_launch *L) { return td_hk_triton_attention_fwd(L, 2u); }
static int last_block(const td_abi_launch *L) { return td_hk_triton_attention_fwd(L, 4u); }

#define FWD "triton_attention.triton_attention_forward_output_summary_general"
#define FWDIO "triton_attention.triton_attention_forward_io_correctness"
#define FCASTS "p=fp16:rne:inf;store=fp16:rne:inf"
#define GT "causal mask off by one: offs_m > start_n + offs_n drops the diagonal key"
#define NORES "online softmax without the rescale: acc += P.V without acc *= l_prev / l_curr"
#define LAST "key loop range(0, start_m * BLOCK_M): the diagonal block skipped"
TD_KERNEL(td_m_ta_fwd_causal_gt) = {FWD, "mut_causal_off_by_one", TD_ABI_HOST, FCASTS, NULL, GT, 10, 6, causal_gt, NULL};
TD_KERNEL(td_m_ta_fwd_no_rescale) = {FWD, "mut_no_rescale", TD_ABI_HOST, FCASTS, NULL, NORES, 10, 6, no_rescale, NULL};
TD_KERNEL(td_m_ta_fwd_last_block) = {FWD, "mut_diagonal_block_skipped", TD_ABI_HOST, FCASTS, NULL, LAST, 10, 6, last_block, NULL};
TD_KERNEL(td_m_ta_fwdio_causal_gt) = {FWDIO, "mut_causal_off_by_one", TD_ABI_HOST, FCASTS, NULL, GT, 10, 6, causal_gt, NULL};
TD_KERNEL(td_m_ta_fwdio_no_rescale) = {FWDIO, "mut_no_rescale", TD_ABI_HOST, FCASTS, NULL, NORES, 10, 6, no_rescale, NULL};
TD_KERNEL(td_m_ta_fwdio_last_block) = {FWDIO, "mut_diagonal_block_skipped", TD_ABI_HOST, FCASTS, NULL, LAST, 10, 6, last_block, NULL};

int td_hk_triton_attention_bwd(const td_abi_launch *L, unsigned mut);
static int bwd_no_delta(const td_abi_launch *L) { return td_hk_triton_attention_bwd(L, 1u); }
static int bwd_causal_gt(const td_abi_launch *L) { return td_hk_triton_attention_bwd(L, 2u); }
static int bwd_ds_raw(const td_abi_launch *L) { return td_hk_triton_attention_bwd(L, 4u); }
static int bwd_p_raw(const td_abi_launch *L) { return td_hk_triton_attention_bwd(L, 8u); }
static int bwd_dq_i32(const td_abi_launch *L) { return td_hk_triton_attention_bwd(L, 16u); }

#define BWD "triton_attention.triton_attention_bwd_grads_genuine_output_summary_general"
#define BCASTS "p=fp16:rne:inf;ds=fp16:rne:inf;store=fp16:rne:inf"
TD_KERNEL(td_m_ta_bwd_no_delta) = {BWD, "mut_ds_without_delta", TD_ABI_HOST, BCASTS, NULL,
                                   "dp = dot(do, v^T) without the -Di: ds = p * (do.v) * sc", 15, 9, bwd_no_delta, NULL};
TD_KERNEL(td_m_ta_bwd_causal_gt) = {BWD, "mut_causal_off_by_one", TD_ABI_HOST, BCASTS, NULL,
                                    "causal mask offs_m_curr > offs_n in the backward: the diagonal pair dropped", 15, 9,
                                    bwd_causal_gt, NULL};
TD_KERNEL(td_m_ta_bwd_ds_raw) = {BWD, "mut_ds_not_fp16", TD_ABI_HOST, BCASTS, NULL,
                                 "ds fed to the dk and dq dots in binary32: the kernel's ds.to(fp16) dropped", 15, 9,
                                 bwd_ds_raw, NULL};
TD_KERNEL(td_m_ta_bwd_p_raw) = {BWD, "mut_p_not_fp16", TD_ABI_HOST, BCASTS, NULL,
                                "p fed to the dv dot in binary32: the kernel's p.to(fp16) dropped", 15, 9, bwd_p_raw,
                                NULL};
TD_KERNEL(td_m_ta_bwd_dq_i32) = {BWD, "mut_offset_int32", TD_ABI_HOST, BCASTS, NULL,
                                 "dq loaded and stored through DQ += off_z * stride_qz + off_h * stride_qh (the pointer "
                                 "the kernel forms beside its block pointer), int32 products: wraps beyond 2^31 elements",
                                 15, 9, bwd_dq_i32, NULL};
