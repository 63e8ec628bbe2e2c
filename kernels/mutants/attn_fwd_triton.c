/* attn_fwd_triton mutants: switches of the port (see attn_online_tl.h). */
#include "../host/attn_online_tl.h"

#define AFTR_CASTS "p=fp16:rne:inf;v=fp16:rne:inf;pv=fp16:rne:inf;store=bf16:rne:inf"
#define ID_OS "attn_fwd_triton.attn_fwd_triton_output_summary_general"
#define ID_IO "attn_fwd_triton.attn_fwd_triton_io_correctness"

static int os_causal_gt(const td_abi_launch *L) { return td_hk_attn_fwd_triton(L, 0, SG_MUT_CAUSAL_GT); }
static int io_qscale_twice(const td_abi_launch *L) { return td_hk_attn_fwd_triton(L, 1, SG_MUT_QSCALE_TWICE); }
static int io_stage2_kscale(const td_abi_launch *L) { return td_hk_attn_fwd_triton(L, 1, SG_MUT_STAGE2_KSCALE); }

TD_KERNEL(td_m_aftr_os_causal_gt) = {ID_OS, "mut_causal_diag_off_by_one", TD_ABI_HOST, AFTR_CASTS, NULL,
                                     "stage-2 mask offs_m > start_n + offs_n: each row loses its diagonal key", 12, 6,
                                     os_causal_gt, NULL};
TD_KERNEL(td_m_aftr_io_qscale_twice) = {ID_IO, "mut_scale_twice", TD_ABI_HOST, AFTR_CASTS, NULL,
                                        "qk = dot * q_scale * k_scale * q_scale: the query scale applied twice", 12, 6,
                                        io_qscale_twice, NULL};
TD_KERNEL(td_m_aftr_io_stage2_kscale) = {ID_IO, "mut_stage2_k_scale_offset", TD_ABI_HOST, AFTR_CASTS, NULL,
                                         "stage 2 without K_scale_ptr += lo // BLOCK_N: the diagonal block scaled by "
                                         "block 0's k_scale", 12, 6, io_stage2_kscale, NULL};

/* the far tier's (gen_far.h, at_sage_far): qvk_offset without the original's
 * off_z.to(tl.int64) / off_h.to(tl.int64), formed in int32 and wrapping once a batch
 * stride passes 2^31 elements (only far cases reach it: test_far kills it) */
static int io_offset_i32(const td_abi_launch *L) { return td_hk_attn_fwd_triton(L, 1, SG_MUT_OFFSET_I32); }
TD_KERNEL(td_m_aftr_io_offset_i32) = {ID_IO, "mut_offset_int32", TD_ABI_HOST, AFTR_CASTS, NULL,
                                    "qvk_offset = off_z * stride_qz + off_h * stride_qh in int32 (no .to(tl.int64))",
                                    12, 6, io_offset_i32, NULL};
