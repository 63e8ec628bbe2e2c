/* attention_fwd_triton3 mutants: switches of the port (see attn_online_tl.h). */
#include "../host/attn_online_tl.h"

#define T3_CASTS "p=fp16:rne:inf;store=fp16:rne:inf"
#define T3_ID(x) "attention_fwd_triton3.attention_fwd_triton3_" x

static int c1_window(const td_abi_launch *L) { return td_hk_attention_fwd_triton3(L, 1, T3_MUT_WINDOW_EDGE); }
static int c1_nan(const td_abi_launch *L) { return td_hk_attention_fwd_triton3(L, 1, T3_MUT_NO_NAN_GUARD); }
static int c2_window(const td_abi_launch *L) { return td_hk_attention_fwd_triton3(L, 2, T3_MUT_WINDOW_EDGE); }
static int c2_m_no_log(const td_abi_launch *L) { return td_hk_attention_fwd_triton3(L, 2, T3_MUT_M_NO_LOG); }
static int c3_no_rescale(const td_abi_launch *L) { return td_hk_attention_fwd_triton3(L, 3, T3_MUT_NO_RESCALE_L); }
static int c3_m_no_log(const td_abi_launch *L) { return td_hk_attention_fwd_triton3(L, 3, T3_MUT_M_NO_LOG); }
static int c4_acc(const td_abi_launch *L) { return td_hk_attention_fwd_triton3(L, 4, T3_MUT_NO_RESCALE_ACC); }
static int c4_window(const td_abi_launch *L) { return td_hk_attention_fwd_triton3(L, 4, T3_MUT_WINDOW_EDGE); }
static int c3_offset_i32(const td_abi_launch *L) { return td_hk_attention_fwd_triton3(L, 3, T3_MUT_OFFSET_I32); }
static int c4_offset_i32(const td_abi_launch *L) { return td_hk_attention_fwd_triton3(L, 4, T3_MUT_OFFSET_I32); }

#define WIN "window compare off by one: dist <= size keeps one key past the window's far edge"
#define CWIN "complementary window off by one: dist > size drops the keys at distance size"
#define NAN_G "alpha = exp2(m_i - m_ij) without the NaN guard: a row whose first blocks are masked turns NaN"
#define NO_L "l_i = l_i + l_ij: l not rescaled when the running max moves"
#define NO_LOG "END stores the running max: m_i += log2(l_i) forgotten"
#define NO_ACC "acc += P.V without acc = acc * alpha: the resumed accumulator is never rescaled"
TD_KERNEL(td_m_t3_c1os_window) = {T3_ID("python_case1_output_summary_general"), "mut_window_off_by_one", TD_ABI_HOST,
                                  T3_CASTS, NULL, WIN, 28, 6, c1_window, NULL};
TD_KERNEL(td_m_t3_c1io_nan) = {T3_ID("case1_io_correctness"), "mut_no_alpha_nan_guard", TD_ABI_HOST, T3_CASTS, NULL,
                               NAN_G, 28, 6, c1_nan, NULL};
TD_KERNEL(td_m_t3_c2os_window) = {T3_ID("python_case2_output_summary_general"), "mut_window_off_by_one",
                                  TD_ABI_HOST, T3_CASTS, NULL, CWIN, 28, 6, c2_window, NULL};
TD_KERNEL(td_m_t3_c2io_m_no_log) = {T3_ID("case2_io_correctness"), "mut_m_without_log_l", TD_ABI_HOST, T3_CASTS,
                                    NULL, NO_LOG, 28, 6, c2_m_no_log, NULL};
TD_KERNEL(td_m_t3_c3os_no_rescale) = {T3_ID("python_case3_output_summary_general"), "mut_l_not_rescaled",
                                      TD_ABI_HOST, T3_CASTS, NULL, NO_L, 27, 6, c3_no_rescale, NULL};
TD_KERNEL(td_m_t3_c3io_m_no_log) = {T3_ID("case3_io_correctness"), "mut_m_without_log_l", TD_ABI_HOST, T3_CASTS,
                                    NULL, NO_LOG, 27, 6, c3_m_no_log, NULL};
TD_KERNEL(td_m_t3_c4os_acc) = {T3_ID("python_case4_output_summary_general"), "mut_acc_not_rescaled", TD_ABI_HOST,
                               T3_CASTS, NULL, NO_ACC, 28, 6, c4_acc, NULL};
TD_KERNEL(td_m_t3_c4io_window) = {T3_ID("case4_io_correctness"), "mut_window_off_by_one", TD_ABI_HOST, T3_CASTS,
                                  NULL, WIN, 28, 6, c4_window, NULL};
/* the int32 base offset: case 3's io face carries it for the fresh launches (cases 1 and 2 form their base the
 * same way), case 4's io face for the resume, where the wrapped o_offset also reads the seed (acc0) off the head */
#define I32 "q/k/v/o_offset = off_z * stride_z + off_h * stride_h without .to(tl.int64): wraps beyond 2^31 elements"
TD_KERNEL(td_m_t3_c3io_i32) = {T3_ID("case3_io_correctness"), "mut_offset_int32", TD_ABI_HOST, T3_CASTS, NULL, I32,
                               27, 6, c3_offset_i32, NULL};
TD_KERNEL(td_m_t3_c4io_i32) = {T3_ID("case4_io_correctness"), "mut_offset_int32", TD_ABI_HOST, T3_CASTS, NULL, I32,
                               28, 6, c4_offset_i32, NULL};
