/* attention_llama mutants: switches of the port (see attn_online_tl.h).
 * mut_p_cast_before_normalise moved to the alternatives (alt_p_cast_before_normalise,
 * kernels/alternatives/attention_llama.c: an admissible P rounding). */
#include "../host/attn_online_tl.h"

#define AL_CASTS "p=fp16:rne:inf;store=fp16:rne:inf"
#define ID_NC "attention_llama.attention_llama_fwd_closed_form_correct"
#define ID_C "attention_llama.attention_llama_fwd_causal_closed_form_correct"

static int nc_no_rescale(const td_abi_launch *L) { return td_hk_attention_llama(L, 0, AL_MUT_NO_RESCALE_L); }
static int nc_scale_twice(const td_abi_launch *L) { return td_hk_attention_llama(L, 0, AL_MUT_SCALE_TWICE); }
static int nc_offset_i32(const td_abi_launch *L) { return td_hk_attention_llama(L, 0, AL_MUT_OFFSET_I32); }
static int c_offset_i32(const td_abi_launch *L) { return td_hk_attention_llama(L, 1, AL_MUT_OFFSET_I32); }
static int c_causal_gt(const td_abi_launch *L) { return td_hk_attention_llama(L, 1, AL_MUT_CAUSAL_GT); }

TD_KERNEL(td_m_al_nc_no_rescale) = {ID_NC, "mut_l_not_rescaled", TD_ABI_HOST, AL_CASTS, NULL,
                                    "l_prev is not multiplied by exp(m_prev - m_curr) when the running max moves", 25,
                                    4, nc_no_rescale, NULL};
TD_KERNEL(td_m_al_nc_scale_twice) = {ID_NC, "mut_scale_twice", TD_ABI_HOST, AL_CASTS, NULL,
                                     "qk *= sm_scale applied twice", 25, 4, nc_scale_twice, NULL};
TD_KERNEL(td_m_al_c_causal_gt) = {ID_C, "mut_causal_diag_off_by_one", TD_ABI_HOST, AL_CASTS, NULL,
                                  "causal mask offs_m > start_n + offs_n + start_position: each row loses its "
                                  "diagonal key", 25, 4, c_causal_gt, NULL};
TD_KERNEL(td_m_al_nc_offset_i32) = {ID_NC, "mut_offset_int32", TD_ABI_HOST, AL_CASTS, NULL,
                                    "off_k = batch_id * stride_kz + off_hz * stride_kh computed in int32 (wraps "
                                    "beyond 2^31 elements)", 25, 4, nc_offset_i32, NULL};
TD_KERNEL(td_m_al_c_offset_i32) = {ID_C, "mut_offset_int32", TD_ABI_HOST, AL_CASTS, NULL,
                                   "off_k = batch_id * stride_kz + off_hz * stride_kh computed in int32 (wraps "
                                   "beyond 2^31 elements)", 25, 4, c_offset_i32, NULL};
