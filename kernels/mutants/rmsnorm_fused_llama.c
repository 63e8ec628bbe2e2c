/* rmsnorm_fused_llama mutants (the program is rmsnorm_tl.h's, with one bug each). */
#include "../host/rmsnorm_tl.h"

static int f16_before_w(const td_abi_launch *L) { return rn_fused_program(L, 1, RN_BUG_F16_BEFORE_W); }
static int f16_acc(const td_abi_launch *L) { return rn_fused_program(L, 1, RN_BUG_F16_ACC); }

TD_KERNEL(td_m_rmsnorm_llama_f16w) = {"rmsnorm_fused_llama.rms_norm_fwd_fused_llama_output_summary",
                                      "mut_fp16_before_weight", TD_ABI_HOST, NULL, NULL,
                                      "x_hat.to(tl.float16) before the weight multiply: y rounded to fp16 twice", 4,
                                      3, f16_before_w, NULL};
TD_KERNEL(td_m_rmsnorm_llama_f16acc) = {"rmsnorm_fused_llama.rms_norm_fwd_fused_llama_io_correctness",
                                        "mut_f16_accumulation", TD_ABI_HOST, NULL, NULL,
                                        "_var = tl.zeros([BLOCK_SIZE], x.dtype): the squares accumulated in fp16", 4, 3,
                                        f16_acc, NULL};

/* row * stride formed in int32, as Triton forms it for an int32 stride: wraps beyond 2^31
 * elements (offsets beyond 2^31, gen_far.h) */
static int offset_int32(const td_abi_launch *L) { return rn_fused_program(L, 1, RN_BUG_OFFSET_I32); }
TD_KERNEL(td_m_rmsnorm_llama_i32) = {"rmsnorm_fused_llama.rms_norm_fwd_fused_llama_output_summary", "mut_offset_int32",
                                     TD_ABI_HOST, NULL, NULL, "row * stride computed in int32 (wraps beyond 2^31)", 4,
                                     3, offset_int32, NULL};
TD_KERNEL(td_m_rmsnorm_llama_io_i32) = {"rmsnorm_fused_llama.rms_norm_fwd_fused_llama_io_correctness",
                                        "mut_offset_int32", TD_ABI_HOST, NULL, NULL,
                                        "row * stride computed in int32 (wraps beyond 2^31)", 4, 3, offset_int32, NULL};
