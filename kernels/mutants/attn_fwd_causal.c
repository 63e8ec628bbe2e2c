/* attn_fwd_causal mutants: switches of the port (see attn_online_tl.h). */
#include "../host/attn_online_tl.h"

#define AFC_CASTS "p=fp16:rne:inf;pv=fp16:rne:inf;store=fp16:rne:inf"
#define ID_OS "attn_fwd_causal.attn_fwd_causal_output_summary_general"
#define ID_IO "attn_fwd_causal.attn_fwd_causal_io_correctness"

static int os_causal_gt(const td_abi_launch *L) { return td_hk_attn_fwd_causal(L, 0, SG_MUT_CAUSAL_GT); }
static int io_stage2_kscale(const td_abi_launch *L) { return td_hk_attn_fwd_causal(L, 1, SG_MUT_STAGE2_KSCALE); }
static int io_no_rescale(const td_abi_launch *L) { return td_hk_attn_fwd_causal(L, 1, SG_MUT_NO_RESCALE_L); }

TD_KERNEL(td_m_afc_os_causal_gt) = {ID_OS, "mut_causal_diag_off_by_one", TD_ABI_HOST, AFC_CASTS, NULL,
                                    "stage-2 mask offs_m > start_n + offs_n: each row loses its diagonal key", 12, 6,
                                    os_causal_gt, NULL};
TD_KERNEL(td_m_afc_io_stage2_kscale) = {ID_IO, "mut_stage2_k_scale_offset", TD_ABI_HOST, AFC_CASTS, NULL,
                                        "stage 2 without K_scale_ptr += lo // BLOCK_N: the diagonal block scaled by "
                                        "block 0's k_scale", 12, 6, io_stage2_kscale, NULL};
TD_KERNEL(td_m_afc_io_no_rescale) = {ID_IO, "mut_l_not_rescaled", TD_ABI_HOST, AFC_CASTS, NULL,
                                     "l_i = l_i + l_ij: l not rescaled when the running max moves", 12, 6,
                                     io_no_rescale, NULL};

/* the far tier's (gen_far.h, at_sage_far): qvk_offset without the original's
 * off_z.to(tl.int64) / off_h.to(tl.int64), formed in int32 and wrapping once a batch
 * stride passes 2^31 elements (only far cases reach it: test_far kills it) */
static int io_offset_i32(const td_abi_launch *L) { return td_hk_attn_fwd_causal(L, 1, SG_MUT_OFFSET_I32); }
TD_KERNEL(td_m_afc_io_offset_i32) = {ID_IO, "mut_offset_int32", TD_ABI_HOST, AFC_CASTS, NULL,
                                    "qvk_offset = off_z * stride_qz + off_h * stride_qh in int32 (no .to(tl.int64))",
                                    12, 6, io_offset_i32, NULL};
