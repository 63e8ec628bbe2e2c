/* attention_forward_triton mutants: switches of the port (see attn_online_tl.h).
 * mut_rowsum_fp16_p moved to the alternatives (alt_rowsum_fp16_p,
 * kernels/alternatives/attention_forward_triton.c: an admissible P rounding). */
#include "../host/attn_online_tl.h"

#define AFT_CASTS "p=fp16:rne:inf;pv=fp16:rne:inf;store=fp16:rne:inf"
#define ID_CF "attention_forward_triton.attention_forward_triton_closed_form_correct"
#define ID_IO "attention_forward_triton.attention_forward_triton_io_correctness"

static int cf_no_rescale(const td_abi_launch *L) { return td_hk_attention_forward_triton(L, 0, SG_MUT_NO_RESCALE_L); }
static int cf_kscale_stuck(const td_abi_launch *L) { return td_hk_attention_forward_triton(L, 0, SG_MUT_KSCALE_STUCK); }
static int io_head_mask(const td_abi_launch *L) { return td_hk_attention_forward_triton(L, 1, SG_MUT_HEAD_MASK); }
static int io_no_rescale(const td_abi_launch *L) { return td_hk_attention_forward_triton(L, 1, SG_MUT_NO_RESCALE_L); }

TD_KERNEL(td_m_aft_io_head_mask) = {ID_IO, "mut_head_mask_off_by_one", TD_ABI_HOST, AFT_CASTS, NULL,
                                    "head-lane mask offs_k <= HEAD_ACTIVE: one lane past the active head is read and "
                                    "stored", 11, 6, io_head_mask, NULL};
TD_KERNEL(td_m_aft_io_no_rescale) = {ID_IO, "mut_l_not_rescaled", TD_ABI_HOST, AFT_CASTS, NULL,
                                     "l_i = l_i + l_ij: l not rescaled when the running max moves", 11, 6,
                                     io_no_rescale, NULL};

/* the closed form's own mutants (its first, mut_rowsum_fp16_p, became an alternative):
 * the online rescale of l forgotten, and the per-block k_scale pointer never advanced */
TD_KERNEL(td_m_aft_cf_no_rescale) = {ID_CF, "mut_l_not_rescaled", TD_ABI_HOST, AFT_CASTS, NULL,
                                     "l_i = l_i + l_ij: l not rescaled when the running max moves", 11, 6,
                                     cf_no_rescale, NULL};
TD_KERNEL(td_m_aft_cf_kscale_stuck) = {ID_CF, "mut_k_scale_not_advanced", TD_ABI_HOST, AFT_CASTS, NULL,
                                       "K_scale_ptr never advanced: every KV block uses block 0's k_scale", 11, 6,
                                       cf_kscale_stuck, NULL};

/* the far tier's (gen_far.h, at_sage_far): qvk_offset without the original's
 * off_z.to(tl.int64) / off_h.to(tl.int64), formed in int32 and wrapping once a batch
 * stride passes 2^31 elements (only far cases reach it: test_far kills it) */
static int io_offset_i32(const td_abi_launch *L) { return td_hk_attention_forward_triton(L, 1, SG_MUT_OFFSET_I32); }
TD_KERNEL(td_m_aft_io_offset_i32) = {ID_IO, "mut_offset_int32", TD_ABI_HOST, AFT_CASTS, NULL,
                                    "qvk_offset = off_z * stride_qz + off_h * stride_qh in int32 (no .to(tl.int64))",
                                    11, 6, io_offset_i32, NULL};
