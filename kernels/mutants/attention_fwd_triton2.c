/* attention_fwd_triton2 mutants: switches of the port (see attn_online_tl.h). */
#include "../host/attn_online_tl.h"

#define AF2_CASTS "p=fp16:rne:inf;pv=fp16:rne:inf;store=bf16:rne:inf"
#define ID_OS "attention_fwd_triton2.attention_fwd_triton2_output_summary_general"
#define ID_IO "attention_fwd_triton2.attention_fwd_triton2_io_correctness"

static int os_kscale_stuck(const td_abi_launch *L) { return td_hk_attention_fwd_triton2(L, 0, SG_MUT_KSCALE_STUCK); }
static int io_pv_fp32(const td_abi_launch *L) { return td_hk_attention_fwd_triton2(L, 1, SG_MUT_PV_FP32); }
static int io_rowsum_p16(const td_abi_launch *L) { return td_hk_attention_fwd_triton2(L, 1, SG_MUT_ROWSUM_P16); }

TD_KERNEL(td_m_af2_os_kscale_stuck) = {ID_OS, "mut_k_scale_not_advanced", TD_ABI_HOST, AF2_CASTS, NULL,
                                       "K_scale_ptr never advanced: every KV block uses block 0's k_scale", 11, 6,
                                       os_kscale_stuck, NULL};
TD_KERNEL(td_m_af2_io_pv_fp32) = {ID_IO, "mut_pv_dot_fp32_out", TD_ABI_HOST, AF2_CASTS, NULL,
                                  "tl.dot(p, v) with the default fp32 out_dtype: the fp16 rounding of the block product "
                                  "the kernel declares is skipped", 11, 6, io_pv_fp32, NULL};
TD_KERNEL(td_m_af2_io_rowsum_p16) = {ID_IO, "mut_rowsum_fp16_p", TD_ABI_HOST, AF2_CASTS, NULL,
                                     "l_ij = tl.sum(p.to(fp16)): the row sum adds the fp16 P too", 11, 6,
                                     io_rowsum_p16, NULL};
