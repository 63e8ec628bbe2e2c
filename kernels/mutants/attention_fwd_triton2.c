/* attention_fwd_triton2 mutants: switches of the port (see attn_online_tl.h).
 * mut_pv_dot_fp32_out and mut_rowsum_fp16_p moved to the alternatives
 * (kernels/alternatives/attention_fwd_triton2.c: admissible fp16 roundings); the IO
 * contract's kill-matrix rows are two real bugs of the port's instead. */
#include "../host/attn_online_tl.h"

#define AF2_CASTS "p=fp16:rne:inf;pv=fp16:rne:inf;store=bf16:rne:inf"
#define ID_OS "attention_fwd_triton2.attention_fwd_triton2_output_summary_general"
#define ID_IO "attention_fwd_triton2.attention_fwd_triton2_io_correctness"

static int os_kscale_stuck(const td_abi_launch *L) { return td_hk_attention_fwd_triton2(L, 0, SG_MUT_KSCALE_STUCK); }
static int io_head_mask(const td_abi_launch *L) { return td_hk_attention_fwd_triton2(L, 1, SG_MUT_HEAD_MASK); }
static int io_qscale_twice(const td_abi_launch *L) { return td_hk_attention_fwd_triton2(L, 1, SG_MUT_QSCALE_TWICE); }

TD_KERNEL(td_m_af2_os_kscale_stuck) = {ID_OS, "mut_k_scale_not_advanced", TD_ABI_HOST, AF2_CASTS, NULL,
                                       "K_scale_ptr never advanced: every KV block uses block 0's k_scale", 11, 6,
                                       os_kscale_stuck, NULL};
TD_KERNEL(td_m_af2_io_head_mask) = {ID_IO, "mut_head_mask_off_by_one", TD_ABI_HOST, AF2_CASTS, NULL,
                                    "head-lane mask offs_k <= HEAD_ACTIVE: one lane past the active head is read and "
                                    "stored", 11, 6, io_head_mask, NULL};
TD_KERNEL(td_m_af2_io_qscale_twice) = {ID_IO, "mut_q_scale_twice", TD_ABI_HOST, AF2_CASTS, NULL,
                                       "qk = dot * q_scale * k_scale * q_scale: the query scale applied twice", 11, 6,
                                       io_qscale_twice, NULL};

/* the far tier's (gen_far.h, at_sage_far): qvk_offset without the original's
 * off_z.to(tl.int64) / off_h.to(tl.int64), formed in int32 and wrapping once a batch
 * stride passes 2^31 elements (only far cases reach it: test_far kills it) */
static int io_offset_i32(const td_abi_launch *L) { return td_hk_attention_fwd_triton2(L, 1, SG_MUT_OFFSET_I32); }
TD_KERNEL(td_m_af2_io_offset_i32) = {ID_IO, "mut_offset_int32", TD_ABI_HOST, AF2_CASTS, NULL,
                                    "qvk_offset = off_z * stride_qz + off_h * stride_qh in int32 (no .to(tl.int64))",
                                    11, 6, io_offset_i32, NULL};
