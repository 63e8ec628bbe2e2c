/* fast_rms_layernorm mutants (the programs are rmsnorm_tl.h's, with one bug each). */
#include "../host/rmsnorm_tl.h"

static int no_eps(const td_abi_launch *L) { return rn_fast_rms_program(L, 0, RN_BUG_NO_EPS); }
static int w_stride(const td_abi_launch *L) { return rn_fast_rms_program(L, 0, RN_BUG_W_STRIDE); }
static int gemma_plain(const td_abi_launch *L) { return rn_fast_rms_program(L, 1, RN_BUG_GEMMA_PLAIN); }
static int r_stride(const td_abi_launch *L) { return rn_fast_rms_program(L, 1, RN_BUG_R_STRIDE); }
/* X += row_idx * X_row_stride in int32 (the program id and a stride below 2^31 are int32
 * in Triton): the far tier's rows past 2^31 elements (contracts/gen_far.h) */
static int offset_int32(const td_abi_launch *L) { return rn_fast_rms_program(L, 0, RN_BUG_OFFSET_I32); }
static int gemma_offset_int32(const td_abi_launch *L) { return rn_fast_rms_program(L, 1, RN_BUG_OFFSET_I32); }

TD_KERNEL(td_m_fast_rms_no_eps) = {"fast_rms_layernorm.rms_layernorm_forward_correctness", "mut_rsqrt_without_eps",
                                   TD_ABI_HOST, NULL, NULL, "inv_var = tl.math.rsqrt(row_var): eps is never added", 7,
                                   4, no_eps, NULL};
TD_KERNEL(td_m_fast_rms_w_stride) = {"fast_rms_layernorm.rms_layernorm_forward_correctness",
                                     "mut_weight_stride_ignored", TD_ABI_HOST, NULL, NULL,
                                     "W_row = tl.load(W + col_offsets): W_row_stride ignored (the Gemma kernel's load)",
                                     7, 4, w_stride, NULL};
TD_KERNEL(td_m_gemma_plain) = {"fast_rms_layernorm.gemma_rms_layernorm_forward_correctness",
                               "mut_scale_w_not_1_plus_w", TD_ABI_HOST, NULL, NULL,
                               "output = normed * W_row: the plain kernel's scale, not (1 + W)", 6, 4, gemma_plain, NULL};
TD_KERNEL(td_m_gemma_r_stride) = {"fast_rms_layernorm.gemma_rms_layernorm_forward_correctness",
                                  "mut_r_row_stride_ignored", TD_ABI_HOST, NULL, NULL,
                                  "r += row_idx: inv_var stored at r[row], r_row_stride ignored", 6, 4, r_stride, NULL};
TD_KERNEL(td_m_fast_rms_i32) = {"fast_rms_layernorm.rms_layernorm_forward_correctness", "mut_offset_int32", TD_ABI_HOST,
                               NULL, NULL, "row_idx * X_row_stride computed in int32 (wraps beyond 2^31 elements)", 7, 4,
                               offset_int32, NULL};
TD_KERNEL(td_m_gemma_rms_i32) = {"fast_rms_layernorm.gemma_rms_layernorm_forward_correctness", "mut_offset_int32",
                                 TD_ABI_HOST, NULL, NULL,
                                 "row_idx * X_row_stride computed in int32 (wraps beyond 2^31 elements)", 6, 4,
                                 gemma_offset_int32, NULL};
