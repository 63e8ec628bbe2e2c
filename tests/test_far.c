/* Offsets beyond 2^31 (the far tier, contracts/gen_far.h): far cases reach the class
 * over sparse regions at the cost of a few pages, the correct ports pass them, the
 * int32-offset mutants are killed by them (and by nothing else), and the read-only
 * and guard checks still hold over a sparse image.  Reserves up to 24 GiB of address
 * space per case, commits a few MiB: a "unit" test. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "gen_far.h"
#include "backend.h"
#include "harness.h"

const td_abi_table *td_builtin_host_table(void);

#define TWO31 ((int64_t)1 << 31)
#define NB 56 /* bytes after the magic */

typedef struct far_contract {
    const char *id;
    const char *stride; /* the row stride the far hook moves (NULL: far_stride says) */
    int reg;            /* the region it moves */
    const char *rows;   /* the parameter counting its rows (NULL: one row per program along
                           grid[far_axis], grid[0] unless far_axis says; FAR_GRID1: one row
                           per program along grid[1], heads; far_rows below names the other
                           ways) */
} far_contract;
#define FAR_GRID1 "grid[1]"
static const far_contract FAR[] = {
    {"softmax_triton1.softmax_kernel_correctness", "input_row_stride", 1, NULL},
    {"softmax_triton2.softmax_kernel_correctness", "input_row_stride", 1, NULL},
    {"rms_norm_triton.rms_norm_kernel_correctness", "x_stride_r", 1, NULL},
    {"cross_entropy2.cross_entropy_fwd_correctness", "logits_row_stride", 3, NULL},
    {"cross_entropy_ops.cross_entropy_fwd_correctness", "logits_row_stride", 3, NULL},
    {"layer_norm_liger.layer_norm_liger_forward_output_summary", "X_row_stride", 1, NULL},
    {"fast_rms_layernorm.rms_layernorm_forward_correctness", "X_row_stride", 1, NULL},
    {"fast_rms_layernorm.gemma_rms_layernorm_forward_correctness", "X_row_stride", 1, NULL},
    {"fast_ce_loss.cross_entropy_forward_correctness", "logits_row_stride", 0, NULL},
    {"fast_layernorm.layernorm_forward_correctness", "X_row_stride", 1, NULL},
    {"cross_entropy1.cross_entropy_fwd_correctness", "logits_row_stride", 2, NULL},
    {"destindex_copy_kv1.fwd_kernel_destindex_copy_kv_correctness", "stride_k_bs", 0, NULL},
    {"destindex_copy_kv2.fwd_kernel_destindex_copy_kv_correctness", "stride_k_bs", 0, NULL},
    {"ksoftmax_triton.ksoftmax_forward_plain_correctness", "stride_xm", 1, NULL},
    {"rmsnorm_triton.rmsnorm_full_output_summary", "sxb", 0, NULL},
    {"rmsnorm_triton.rmsnorm_full_io_correctness", "sxb", 0, NULL},
    {"rmsnorm_implementation.rmsnorm_implementation_output_summary", "stride_x_batch", 0, NULL},
    {"rmsnorm_implementation.rmsnorm_implementation_io_correctness", "stride_x_batch", 0, NULL},
    {"layernorm_fwd_triton.layernorm_fwd_triton_output_summary", "stride_x_N", 0, NULL},
    {"layernorm_fwd_triton.layernorm_fwd_triton_io_correctness", "stride_x_N", 0, NULL},
    {"triton_matmul.triton_matmul_f16_closed_form_correct", "sam", 0, "M"},
    {"triton_matmul.triton_matmul_f16_io_correctness", "sam", 0, "M"},
    {"triton_matmul.triton_matmul_f8_closed_form_correct", "sam", 0, "M"},
    {"triton_matmul.triton_matmul_f8_io_correctness", "sam", 0, "M"},
    {"iv_dependent_matmul.iv_dependent_matmul_io_correctness", "SAM", 0, "M"},
    {"matmul_triton_autotune.matmul_autotune_closed_form_correct", "sam", 0, "M"},
    {"matmul_triton_autotune.matmul_autotune_io_correctness", "sam", 0, "M"},
    {"triton_softmax.softmax_kernel_correctness", "input_row_stride", 1, NULL},
    {"kldiv_ops.kldiv_forward_default_none_correctness", "y_stride", 0, NULL},
    {"kldiv_ops.kldiv_forward_default_none_compute_correct", "y_stride", 0, NULL},
    {"kldiv_ops.kldiv_forward_log_target_none_compute_correct", "gt_stride", 1, NULL},
    {"kldiv_ops.kldiv_forward_log_target_none_correctness", "gt_stride", 1, NULL},
    {"kldiv_ops.kldiv_backward_default_compute_correct", "target_stride", 0, NULL},
    {"kldiv_ops.kldiv_backward_default_correctness", "target_stride", 0, NULL},
    {"kldiv_ops.kldiv_backward_log_target_compute_correct", "target_stride", 0, NULL},
    {"kldiv_ops.kldiv_backward_log_target_correctness", "target_stride", 0, NULL},
    {"kldiv_triton.kldiv_forward_default_none_io_correctness", "gt_stride", 1, NULL},
    {"kldiv_triton.kldiv_forward_default_none_compute_correct", "y_stride", 0, NULL},
    {"kldiv_triton.kldiv_forward_log_target_none_compute_correct", "y_stride", 0, NULL},
    {"kldiv_triton.kldiv_backward_default_compute_correct", "target_stride", 1, NULL},
    {"kldiv_triton.kldiv_backward_log_target_compute_correct", "target_stride", 1, NULL},
    {"swiglu_fwd.swiglu_fwd_kernel_correctness", "stride_y_row", 1, NULL},
    {"swiglu_backward.swiglu_bwd_kernel_correctness", "stride_dout_row", 2, NULL},
    {"matrix_reduction.load_reduce_kernel_output_summary", "stride_xm", 0, "BLOCK_M"},
    {"matrix_reduction.matrix_reduction_io_correctness", "stride_xm", 0, "BLOCK_M"},
    {"destindex_copy.destindex_copy_correctness", "stride_kv_nope_bs", 0, NULL},
    {"kcache_copy_triton.copy_to_kcache_seqlen_n1_correctness", "stride_kt", 0, NULL},
    {"kv_cache_copy.kv_cache_copy_correctness", "stride_kt", 0, NULL},
    {"quantize_kv_copy.destindex_copy_quantize_kv_group_output_summary_general", "stride_k_bs", 0, NULL},
    {"quantize_kv_copy.quantize_kv_copy_io_correctness", "stride_k_bs", 0, NULL},
    {"bgmv_expand_slice.bgmv_full_output_summary", "xm_stride", 0, NULL},
    {"bgmv_expand_slice.bgmv_expand_slice_io_correctness", "xm_stride", 0, NULL},
    {"bgmv_shrink_kernel.bgmv_shrink_kernel_output_summary_general", "xm_stride", 0, NULL},
    {"bgmv_shrink_kernel.bgmv_shrink_store_io_correctness", "xm_stride", 0, NULL},
    {"lora_expand_gemv.gemv_full_output_summary", "xm_stride", 0, NULL},
    {"lora_expand_gemv.gemv_full_io_correctness", "xm_stride", 0, NULL},
    {"sgmv_expand_slice.sgmv_expand_slice_one_row_block_output_summary", "xm_stride", 0, NULL},
    {"sgmv_expand_slice.sgmv_expand_slice_io_correctness", "xm_stride", 0, NULL},
    {"embedding_triton_kernel.embedding_kernel_output_summary", "stride_weight_seq", 0, NULL},
    {"embedding_triton_kernel.embedding_body_io_correctness", "stride_weight_seq", 0, NULL},
    {"embedding_triton_kernel.embedding_body_io_correctnessR", "stride_weight_seq", 0, NULL},
    {"embedding_triton_kernel.embedding_kernel_whole_io_correctnessR", "stride_weight_seq", 0, NULL},
    {"kv_cache_filling.fill_kv_cache_output_summary_general", "stride_kss", 0, NULL},
    {"cache_transform_triton.decoding_cache_correctness", "cache_stride", 0, NULL},
    {"var_len_copy.var_len_copy_kernel_triton_small_length_output_summary", NULL, 2, NULL},
    {"var_len_copy.var_len_copy_one_chunk_io_correctness", NULL, 2, NULL},
    {"relu_strided_buffer.relu_strided_buffer_one_tile_io_correctness", "in0_stride0", 0, "s0"},
    {"relu_strided_buffer.relu_strided_buffer_grid_stride_io_correctnessR", "in0_stride0", 0, "s0"},
    {"relu_strided_buffer.relu_strided_buffer_output_summary_general", "in0_stride0", 0, "s0"},
    /* decoding and prefill attention: a head or batch axis moved */
    {"context_attn_llama.context_attn_llama_surface_compute_correct_general", "stride_qh", 0, "H"},
    {"context_attn_llama.context_attn_llama_io_correctness", "stride_qh", 0, "H"},
    {"context_attn_fwd.context_attn_fwd_surface_compute_correct_general", "stride_qh", 0, "H"},
    {"context_attn_fwd.context_attn_fwd_io_correctness", "stride_qh", 0, "H"},
    {"context_attn_bloom.context_attn_bloom_surface_compute_correct_general", "stride_qh", 0, FAR_GRID1},
    {"context_attn_bloom.context_attn_bloom_io_correctness", "stride_qh", 0, FAR_GRID1},
    {"token_softmax_llama.token_softmax_llama_correctness", "stride_logic_h", 0, FAR_GRID1},
    {"token_softmax_bloom.token_softmax_bloom_correctness", "stride_logic_h", 0, FAR_GRID1},
    {"token_attn_llama2.token_attn_llama2_output_summary_general", "stride_qbs", 0, NULL},
    {"token_attn_llama2.token_attn_llama2_io_correctness", "stride_qbs", 0, NULL},
    {"token_attn_reduceV.token_attn_reducev_output_summary_general", "stride_ph", 0, FAR_GRID1},
    {"token_attn_reduceV.token_attn_reducev_io_correctness", "sph", 0, FAR_GRID1},
    {"token_attn_mistral.token_attn_mistral_output_summary_general", "stride_ph", 0, FAR_GRID1},
    {"token_attn_mistral.token_attn_mistral_io_correctness", "sph", 0, FAR_GRID1},
    {"softmax_reducev.softmax_reducev_genuine_output_compute_correct_general", "slh", 0, FAR_GRID1},
    {"softmax_reducev.softmax_reducev_io_correctness", "slh", 0, FAR_GRID1},
    {"flash_decode2_llama.flash_decode2_llama_normalization_output_summary_general", "stride_acc_b", 3, NULL},
    {"flash_decode2_llama.flash_decode2_llama_running_max_output_summary_general", "stride_mid_o_eb", 2, NULL},
    {"flash_decode2_llama.flash_decode2_llama_final_store_io_correctness", "stride_final_b", 0, NULL},
    {"flash_decode2_llama.flash_decode2_llama_final_store_io_correctnessR", "stride_final_b", 0, NULL},
    {"flash_decode2_phi.flash_decode2_phi_masked_accumulator_output_summary_general", "stride_mid_o_eb", 2, NULL},
    {"flash_decode2_phi.flash_decode2_phi_running_max_output_summary_general", "stride_mid_o_eb", 2, NULL},
    {"flash_decode2_phi.flash_decode2_phi_normalization_output_summary_general", "stride_acc_b", 3, NULL},
    {"flash_decode2_phi.flash_decode2_phi_final_store_io_correctness", "stride_final_b", 0, NULL},
    {"flash_decode2_phi.flash_decode2_phi_final_store_io_correctnessR", "stride_final_b", 0, NULL},
    /* one row stride for input and output: the output is a sparse output too */
    {"softmax_triton3.softmax_kernel_correctness", "row_stride", 1, NULL},
    {"softmax_triton3.softmax_kernel_masked_correctness", "row_stride", 1, NULL},
    {"l2_norm_triton1.l2_norm_fwd_1pass_kernel_correctness", "stride_x_row", 0, NULL},
    {"l2_norm_triton2.l2_norm_fwd_1pass_kernel_correctness", "stride_x_row", 0, NULL},
    {"l2_norm_triton2.l2_norm_bwd_kernel_correctness", "stride_x_row", 0, NULL},
    {"l2_norm_bwd.l2_norm_bwd_kernel_correctness", "stride_x_row", 0, NULL},
    {"rmsnorm_fused.rms_norm_fwd_fused_output_summary", "stride", 0, NULL},
    {"rmsnorm_fused.rms_norm_fwd_fused_io_correctness", "stride", 0, NULL},
    {"rmsnorm_fused_llama.rms_norm_fwd_fused_llama_output_summary", "stride", 0, NULL},
    {"rmsnorm_fused_llama.rms_norm_fwd_fused_llama_io_correctness", "stride", 0, NULL},
    {"layer_norm_ops.layer_norm_ops_fwd_plain_bias_all_outputs_compute_correct_general", "stride_y_row", 0, NULL},
    {"layer_norm_ops.layer_norm_ops_fwd_rms_bias_all_outputs_compute_correct_general", "stride_y_row", 0, NULL},
    {"layer_norm_ops.layer_norm_ops_fwd_residual_bias_all_outputs_compute_correct_general", "stride_y_row", 1, NULL},
    {"layer_norm_ops.layer_norm_ops_bwd_rms_core_outputs_compute_correct_general", "stride_x_row", 0, NULL},
    {"layer_norm_ops.layer_norm_ops_bwd_plain_bias_core_outputs_compute_correct_general", "stride_x_row", 0, NULL},
    {"layer_norm_ops.layer_norm_ops_bwd_residual_add_all_outputs_compute_correct_general", "stride_dres_row", 1, NULL},
    /* more kernels of one row stride for inputs and output */
    {"swiglu_triton.swiglu_forward_kernel_correctness", "stride", 0, NULL},
    {"geglu_tanh_triton.geglu_tanh_forward_kernel_correctness", "stride", 0, NULL},
    {"softmax_flaggems.softmax_kernel_inner_one_tile_compute_correct", "N", 1, NULL},
    {"softmax_flaggems.softmax_kernel_inner_one_tile_correctness", "N", 1, NULL},
    {"softmax_optimize.softmax_kernel_online_v2_one_tile_output_summary", "N", 1, NULL},
    {"softmax_optimize.softmax_kernel_online_v2_one_tile_io_correctness", "N", 1, NULL},
    /* the head axis i_bh (grid axis 2) of chunked / recurrent kernels */
    {"chunk_retention.crh_fwd_h_exec_genuine", "s_qk_h", 0, NULL},
    {"chunk_retention.crh_bwd_dh_exec_genuine", "s_vo_h", 0, NULL},
    {"chunk_retention_ops.cro_fwd_h_exec_genuine", "s_vo_h", 1, NULL},
    {"chunk_retention_ops.cro_bwd_dh_exec_genuine", "s_qk_h", 0, NULL},
    {"chunk_gla_fwd.chunk_gla_fwd_o_exec_genuine", "s_k_h", 0, NULL},
    {"chunk_gla_simple.chunk_gla_simple_output_summary_general", "s_k_h", 1, NULL},
    {"chunk_gla_simple.chunk_gla_simple_io_correctness", "s_h_h", 3, NULL},
    {"chunk_bwd_dqkg.chunk_bwd_dqkg_exec_genuine", "s_v_h", 2, NULL},
    {"chunked_cumsum_fwd.chunked_cumsum_fwd_correctness", "stride_dt_batch", 0, NULL},
    {"chunked_cumsum_fwd.chunked_cumsum_fwd_summary_general", "stride_dt_batch", 5, NULL},
    {"chunk_linear_attn.cla_fwd_h_exec_genuine", "s_qk_h", 0, NULL},
    {"chunk_linear_attn.cla_bwd_dh_exec_genuine", "s_vo_h", 1, NULL},
    {"chunk_delta_fwd.chunk_delta_fwd_exec_genuine", "s_qk_h", 0, NULL},
    {"chunk_gated_attention.chunk_gated_attention_cum_slice_output_summary_general", "s_k_h", 2, NULL},
    {"parallel_retention_attention.pra_fwd_o_exec_genuine", "s_qk_h", 1, NULL},
    {"fused_rwkv6_kernel.fused_recurrent_rwkv6_output_summary_general", "s_k_h", 3, NULL},
    {"fused_rwkv6_kernel.fused_recurrent_rwkv6_state_step_io_correctness", "s_v_h", 2, NULL},
    {"fused_recurrent_delta.fused_recurrent_delta_output_step_io_correctness", "s_qk_h", 1, NULL},
    /* the GEMMs, GEMVs, transposes and dequantization stages */
    {"int4_matmul.int4_matmul_exec_genuine", "stride_am", 0, "M"},
    {"int8_dequant_matmul.int8_dequant_matmul_exec_genuine", "stride_am", 0, "M"},
    {"int8_matmul_kernel.int8_matmul_kernel_exec_genuine", "stride_am", 0, "M"},
    {"int8_matmul_quantization.int8_matmul_quantization_quantize_exec_genuine", "stride_fpam", 0, "M"},
    {"int8_matmul_quantization.int8_matmul_quantization_matmul_exec_genuine", "stride_am", 0, "M"},
    {"int_scaled_matmul.int_scaled_matmul_matmul_exec_genuine", "stride_am", 0, "M"},
    {"int_scaled_matmul.int_scaled_matmul_scaled_exec_genuine", "stride_am", 0, "M"},
    {"dequantize_matmul.dequantize_kernel_correctness", "stride_bk", 0, "K"},
    {"matmul_dequant_int4.matmul_dequant_int4_exec_genuine", "stride_bk", 0, NULL}, /* far_rows: cdiv(K, 8) */
    {"matmul_dequantize.matmul_dequantize_dequantize_exec_genuine", "stride_bk", 0, NULL},
    {"matmul_dequantize.matmul_dequantize_matmul_exec_genuine", "stride_am", 0, "M"},
    {"matmul_dequantize.matmul_dequantize_matmul4_exec_genuine", "stride_am", 0, "M"},
    {"matmul_dequantize_int4.matmul_dequantize_int4_exec_genuine", "stride_am", 0, "M"},
    {"matmul_leakyrelu.matmul_leakyrelu_io_correctness", "SAM", 0, "M"},
    {"matmul_leakyrelu_fp8.matmul_leakyrelu_fp8_io_correctness", "SAM", 0, "M"},
    {"square_matrix.square_kernel_correctness", "input_row_stride", 1, NULL},
    {"matrix_vector_multip.mv_kernel_output_summary_general", "stride_an", 0, "N"},
    {"matrix_vector_multip.mv_one_block_io_correctness", "stride_an", 0, "N"},
    {"matrix_transpose.kernel_correctness", "matrix_stridex", 0, "SIZE_M"},
    {"quant_transpose_kernel.quantize_global_transpose_blocked_output_summary_general", "stride_am", 0, "M"},
    {"quant_transpose_kernel.quant_transpose_scaled_store_io_correctness", "stride_am", 0, "M"},
    {"bmm_chunk_fwd.bmm_chunk_fwd_output_summary_general", "SAB", 0, NULL}, /* far_rows: the batches, grid[1] */
    {"bmm_chunk_fwd.bmm_chunk_fwd_io_correctness", "SAB", 0, NULL},
    {"bmm_chunk_bwd.bmm_chunk_bwd_output_summary_general", "SAB", 0, NULL},
    {"bmm_chunk_bwd.bmm_chunk_bwd_io_correctness", "SAB", 0, NULL},
    {"llama_ff_triton.ff_llama_closed_form_correct", "sam", 0, "M"},
    {"pow_scalar_tensor.pow_scalar_tensor_one_tile_io_correctness", "in0_stride0", 0, "s0"},
    {"pow_scalar_tensor.pow_scalar_tensor_output_summary_general", "in0_stride0", 0, "s0"},
    /* the cos/sin tables and the batch axes of the rotary kernels */
    {"rope_transform.rope_transform_output_summary_general", "cos_row_stride", 2, "sl"},
    {"rope_backward_transform.rope_backward_python_backward_output_summary_general", "sin_row_stride", 3, "sl"},
    {"fast_rope_embedding.fast_rope_embedding_io_correctness", "cos_row_stride", 1, "seqlen"},
    {"fast_rope_embedding.rope_embedding_output_summary_general", "sin_row_stride", 5, "seqlen"},
    {"rope_embedding.rope_embedding_io_correctness", "cos_row_stride", 1, "seqlen"},
    {"rope_embedding.rope_embedding_forward_backward_summary_general", "sin_row_stride", 3, "seqlen"},
    {"rotary_emb.rotary_emb_kernel_correctness", "stride_cosbs", 2, "max_total_len"},
    {"rotary_emb_nopad.rotary_emb_nopad_output_summary_general", "surf_cos_token_stride", 2, "surf_q_total_tokens"},
    {"fused_rotary_embedding.decoding_fused_rotary_embedding_q_correctness", "cos_token_stride", 2, FAR_GRID1},
    {"fused_rotary_embedding.decoding_fused_rotary_embedding_vcache_chain_correctness", "k_token_stride", 0, FAR_GRID1},
    {"rotary_transform.rotary_transform_python_output_summary_general", "stride_x_batch", 1, FAR_GRID1},
    {"rotary_transform.rotary_transform_meta_implements", "stride_x_batch", 1, FAR_GRID1},
    {"rotary_transform_ops.rotary_transform_ops_output_summary_general", "stride_x_batch", 1, FAR_GRID1},
    {"rotary_transform_ops.rotary_transform_ops_meta_implements", "stride_x_batch", 1, FAR_GRID1},
    {"rbe_triton_transform.rbe_triton_transform_output_summary_general", "stride_x_batch", 0, NULL},
    {"rms_matmul_rbe.rms_matmul_rbe_closed_form_correct", "sxb", 0, NULL},
    {"rms_matmul_rbe.rms_matmul_rbe_qkv_closed_form_correct", "sxb", 0, NULL},
    {"rms_rbe_matmul.rms_matmul_rbe_closed_form_correct", "sxb", 0, NULL},
    /* the SageAttention kernels, Q, K, V and Out at one far qvk_offset (Z = 2 batches) */
    {"attention_forward_triton.attention_forward_triton_closed_form_correct", "stride_qz", 0, FAR_GRID1},
    {"attention_forward_triton.attention_forward_triton_io_correctness", "stride_qz", 0, FAR_GRID1},
    {"attention_fwd_triton2.attention_fwd_triton2_output_summary_general", "stride_qz", 0, FAR_GRID1},
    {"attention_fwd_triton2.attention_fwd_triton2_io_correctness", "stride_qz", 0, FAR_GRID1},
    {"attn_fwd_causal.attn_fwd_causal_output_summary_general", "stride_qz", 0, FAR_GRID1},
    {"attn_fwd_causal.attn_fwd_causal_io_correctness", "stride_qz", 0, FAR_GRID1},
    {"attn_fwd_triton.attn_fwd_triton_output_summary_general", "stride_qz", 0, FAR_GRID1},
    {"attn_fwd_triton.attn_fwd_triton_io_correctness", "stride_qz", 0, FAR_GRID1},
    /* scans whose input and output share one head stride (both move, the output
     * a sparse output) */
    {"chunk_cumsum_vector.chunk_cumsum_vector_output_summary_general", "s_s_h", 0, FAR_GRID1},
    {"chunk_cumsum_vector.chunk_cumsum_vector_block_store_io_correctness", "s_s_h", 0, FAR_GRID1},
    {"chunk_cumsum_vector.chunk_cumsum_vector_block_store_io_correctnessR", "s_s_h", 0, FAR_GRID1},
    {"reversed_cumsum.reversed_cumsum_output_summary_general", "s_s_h", 0, FAR_GRID1},
    {"reversed_cumsum.reversed_cumsum_block_store_io_correctness", "s_s_h", 0, FAR_GRID1},
    {"reversed_cumsum.reversed_cumsum_block_store_io_correctnessR", "s_s_h", 0, FAR_GRID1},
    {"decay_cumsum.fwd_decay_cumsum_io_correctness", "s_qk_h", 0, NULL},
    {"decay_cumsum.prepare_qg_kg_io_correctness", "s_qk_h", 0, NULL},
    {"nested_loops_processing.nested3_first_a1_store_io_correctness", "stride_m", 0, NULL},
    {"nested_loops_processing.nested3_first_a1_store_io_correctnessR", "stride_m", 0, NULL},
    {"nested_loops_processing.nested3_output_summary_general", "stride_m", 0, NULL},
    {"chunk_delta_fwd.chunk_delta_h_state_store_io_correctness", "s_h_h", 1, NULL},
    {"chunk_delta_fwd.chunk_delta_h_state_store_io_correctnessR", "s_h_h", 1, NULL},
    {"chunk_gated_attention.chunk_gated_attention_state_stores_io_correctness", "s_h_h", 1, NULL},
    {"chunk_gated_attention.chunk_gated_attention_state_stores_io_correctnessR", "s_h_h", 1, NULL},
    /* attentions whose Out shares the inputs' head offset (Out a sparse output): the heads
     * i_bh of attention_fwd_triton1 (grid[0]), the two head slots of attention_fwd_triton3
     * (cases 1-3, made Z = 2 at stride_qz) and flash_attn (off_bs_head, grid[1]) */
    {"attention_fwd_triton1.attention_fwd_triton1_output_summary_general", "s_qh", 0, NULL},
    {"attention_fwd_triton1.attention_fwd_triton1_io_correctness", "s_qh", 0, NULL},
    {"attention_fwd_triton3.attention_fwd_triton3_python_case1_output_summary_general", "sqz", 0, FAR_GRID1},
    {"attention_fwd_triton3.attention_fwd_triton3_python_case2_output_summary_general", "sqz", 0, FAR_GRID1},
    {"attention_fwd_triton3.attention_fwd_triton3_python_case3_output_summary_general", "sqz", 0, FAR_GRID1},
    {"attention_fwd_triton3.attention_fwd_triton3_case1_io_correctness", "sqz", 0, FAR_GRID1},
    {"attention_fwd_triton3.attention_fwd_triton3_case2_io_correctness", "sqz", 0, FAR_GRID1},
    {"attention_fwd_triton3.attention_fwd_triton3_case3_io_correctness", "sqz", 0, FAR_GRID1},
    {"flash_attn.flash_attn_genuine_output_compute_correct_general", "stride_q_head", 0, FAR_GRID1},
    {"flash_attn.flash_attn_genuine_l_compute_correct_general", "stride_q_head", 0, FAR_GRID1},
    {"flash_attn.flash_attn_python_case1_genuine_compute_correct_general", "stride_q_head", 0, FAR_GRID1},
    {"flash_attn.flash_attn_python_case2_genuine_compute_correct_general", "stride_q_head", 0, FAR_GRID1},
    {"flash_attn.flash_attn_io_correctness", "stride_q_head", 0, FAR_GRID1},
    /* rows chosen by an index (the index re-ranked into the rows kept), and outputs that
     * share the far stride (sparse outputs): the output written at the program's rows */
    {"index_select_cat.index_select_cat_fwd_kernel_correctness", "stride0", 0, "num_indices"},
    {"index_select_bwd.index_select_cat_bwd_kernel_correctness", "stride0", 2, "num_indices"},
    {"cache_transform_triton.prefill_cache_correctness", "cache_stride", 3, "total_length"},
    {"kv_cache_filling.fill_quant_meta_store_io_correctness", "stride_mn", 1, NULL},
    /* far_rows: dk's (dq's) slabs i_bh + B*H*i_v at the head stride q and k are read at */
    {"parallel_attention.pa_bwd_dkv_exec_genuine", "s_qk_h", 5, NULL},
    {"parallel_retention_attention.pra_bwd_dkv_exec_genuine", "s_qk_h", 4, NULL},
    {"fused_recurrent_delta.fused_recurrent_delta_output_summary_general", "s_qk_h", 11, NULL},
    {"fused_recurrent_retention.fused_recurrent_retention_output_summary_general", "s_qk_h", 5, NULL},
    /* prefill attentions of one layout (rs, hs, 1) for Q, K, V and Out: the head axis of the
     * four (Out a sparse output); the tutorial's v1 forward: Q, K, V, Out at off_hz *
     * stride_qh_2d */
    {"context_attn_nopad.context_attn_nopad_output_summary_general", "hs", 0, FAR_GRID1},
    {"context_attn_nopad.context_attn_nopad_io_correctness", "hs", 0, FAR_GRID1},
    {"context_attn_mistral.context_attn_mistral_genuine_output_summary_general", "hs", 0, FAR_GRID1},
    {"context_attn_mistral.context_attn_mistral_io_correctness", "hs", 0, FAR_GRID1},
    {"triton_attention.triton_attention_forward_output_summary_general", "stride_qh", 0, FAR_GRID1},
    {"triton_attention.triton_attention_forward_io_correctness", "stride_qh", 0, FAR_GRID1},
    /* more rows of one stride (the chunked cross entropy's logits; Mean and its source) */
    {"fast_ce_loss.chunked_cross_entropy_forward_output_summary", "logits_row_stride", 0, NULL},
    {"layer_norm_liger.layer_norm_liger_scalar_stores_io_correctness", "Mean_row_stride", 0, NULL},
    {"layer_norm_liger.layer_norm_liger_scalar_stores_io_correctnessR", "Mean_row_stride", 1, NULL},
    /* whole [M, N, K] tensors without a stride parameter (td_far_reslab): row m at
     * m * N * K, N enlarged (far_stride: N * K) */
    {"log_softmax.log_softmax_kernel_correctness", "N", 1, "M"},
    {"log_softmax.log_softmax_backward_kernel_correctness", "N", 2, "M"},
    {"softmax_flaggems.softmax_kernel_non_inner_one_tile_compute_correct", "N", 1, NULL},
    {"softmax_flaggems.softmax_backward_kernel_inner_one_tile_compute_correct", "N", 2, "M"},
    {"softmax_flaggems.softmax_backward_kernel_non_inner_one_tile_compute_correct", "N", 0, NULL},
    {"max_reduction.max_kernel_output_summary", "N", 0, "M"},
    /* chunk 0 of each head of O [B*H, NUM_BLOCK, DK, DV], NUM_BLOCK enlarged (far_stride:
     * NUM_BLOCK * DK * DV); the gradient stores' rows, one per slab (far_stride: n * width) */
    {"chunk_gate_recurrence.chunk_gate_recurrence_forward_store_io_correctness", "NUM_BLOCK", 1, NULL},
    {"chunk_gate_recurrence.chunk_gate_recurrence_forward_store_io_correctnessR", "NUM_BLOCK", 1, NULL},
    {"lightning_attention.lightning_attention_bwd_grad_store_io_correctness", "width", 1, NULL},
    {"lightning_attention.lightning_attention_bwd_grad_store_io_correctnessR", "width", 1, NULL},
    /* an output at its own stride, moved as a sparse output (far_rows: the rows stored) */
    {"fifth_order_sph_harmonics.fifth_order_fwd_correctness", "output_stride", 1, NULL},
    /* in-out regions at the far stride (engine/harness.c, "sparse in-out regions") */
    {"apply_penalty.apply_penalty_correctness", "stride_logit_b", 0, NULL},
    {"decay_cumsum.bwd_decay_global_cumsum_io_correctness", "s_qk_h", 0, NULL},
    {"decay_cumsum.decay_cumsum_backward_closed_output_summary_general", "s_qk_h", 0, NULL},
    /* ... and at the inputs' head offset: attention_fwd_triton3's resume (Out its seed), the
     * v1 backward's DQ (its heads off_hz, grid[0]) */
    {"attention_fwd_triton3.attention_fwd_triton3_python_case4_output_summary_general", "sqz", 0, FAR_GRID1},
    {"attention_fwd_triton3.attention_fwd_triton3_case4_io_correctness", "sqz", 0, FAR_GRID1},
    {"triton_attention.triton_attention_bwd_grads_genuine_output_summary_general", "stride_qh", 0, NULL},
};
/* Contracts of FAR without a mut_offset_int32: a sibling face of the same generator
 * (kldiv_ops, kldiv_triton) carries it, or the original widens the offset to int64
 * (matrix_reduction's make_block_ptr). */
static const char *const NO_MUT[] = {
    "kldiv_ops.kldiv_forward_default_none_compute_correct",
    "kldiv_ops.kldiv_forward_log_target_none_compute_correct",
    "kldiv_ops.kldiv_forward_log_target_none_correctness",
    "kldiv_ops.kldiv_backward_default_compute_correct",
    "kldiv_ops.kldiv_backward_default_correctness",
    "kldiv_ops.kldiv_backward_log_target_compute_correct",
    "kldiv_ops.kldiv_backward_log_target_correctness",
    "kldiv_triton.kldiv_forward_default_none_compute_correct",
    "kldiv_triton.kldiv_forward_log_target_none_compute_correct",
    "kldiv_triton.kldiv_backward_default_compute_correct",
    "kldiv_triton.kldiv_backward_log_target_compute_correct",
    "matrix_reduction.load_reduce_kernel_output_summary",
    "matrix_reduction.matrix_reduction_io_correctness",
    /* one slice per file carries it: the other slices of layer_norm_ops form their row
     * offsets the same way */
    "layer_norm_ops.layer_norm_ops_fwd_rms_bias_all_outputs_compute_correct_general",
    "layer_norm_ops.layer_norm_ops_fwd_residual_bias_all_outputs_compute_correct_general",
    "layer_norm_ops.layer_norm_ops_bwd_rms_core_outputs_compute_correct_general",
    "layer_norm_ops.layer_norm_ops_bwd_plain_bias_core_outputs_compute_correct_general",
    "layer_norm_ops.layer_norm_ops_bwd_residual_add_all_outputs_compute_correct_general",
    /* another contract of their file has one */
    "chunk_retention.crh_bwd_dh_exec_genuine",
    "chunk_retention_ops.cro_bwd_dh_exec_genuine",
    "fused_rwkv6_kernel.fused_recurrent_rwkv6_state_step_io_correctness",
    "attention_forward_triton.attention_forward_triton_closed_form_correct",
    "attention_fwd_triton2.attention_fwd_triton2_output_summary_general",
    "attn_fwd_causal.attn_fwd_causal_output_summary_general",
    "attn_fwd_triton.attn_fwd_triton_output_summary_general",
    "chunk_cumsum_vector.chunk_cumsum_vector_block_store_io_correctness",
    "chunk_cumsum_vector.chunk_cumsum_vector_block_store_io_correctnessR",
    "reversed_cumsum.reversed_cumsum_block_store_io_correctness",
    "reversed_cumsum.reversed_cumsum_block_store_io_correctnessR",
    "decay_cumsum.prepare_qg_kg_io_correctness",
    "chunk_delta_fwd.chunk_delta_h_state_store_io_correctness",
    "chunk_delta_fwd.chunk_delta_h_state_store_io_correctnessR",
    "chunk_gated_attention.chunk_gated_attention_state_stores_io_correctness",
    "chunk_gated_attention.chunk_gated_attention_state_stores_io_correctnessR",
    "attention_fwd_triton1.attention_fwd_triton1_output_summary_general",
    "attention_fwd_triton3.attention_fwd_triton3_python_case1_output_summary_general",
    "attention_fwd_triton3.attention_fwd_triton3_python_case2_output_summary_general",
    "attention_fwd_triton3.attention_fwd_triton3_python_case3_output_summary_general",
    "attention_fwd_triton3.attention_fwd_triton3_case1_io_correctness",
    "attention_fwd_triton3.attention_fwd_triton3_case2_io_correctness",
    "attention_fwd_triton3.attention_fwd_triton3_python_case4_output_summary_general",
    "flash_attn.flash_attn_genuine_output_compute_correct_general",
    "flash_attn.flash_attn_genuine_l_compute_correct_general",
    "flash_attn.flash_attn_python_case1_genuine_compute_correct_general",
    "flash_attn.flash_attn_python_case2_genuine_compute_correct_general",
    /* a block-pointer kernel (Triton widens its strides to int64) */
    "int_scaled_matmul.int_scaled_matmul_matmul_exec_genuine",
    /* whole files (an entry ending in '.'): the original forms no offset in int32
     * (relu_strided_buffer's block pointers: Triton widens their strides to int64;
     * var_len_copy adds a loaded start to its lane) */
    "relu_strided_buffer.",
    "pow_scalar_tensor.",
    "var_len_copy.",
    /* the Liger gated units widen the program id to int64 (tl.program_id(0).to(tl.int64)) */
    "swiglu_triton.",
    "geglu_tanh_triton.",
    /* the file's int32 mutant sits on the IO face of the same kernel */
    "softmax_flaggems.softmax_kernel_inner_one_tile_compute_correct",
    "softmax_optimize.softmax_kernel_online_v2_one_tile_output_summary",
    /* nested3's two tile rows: a far stride_m is 2^31 + d, an int64 argument to Triton, so
     * r * stride_m never wraps in the original */
    "nested_loops_processing.",
    /* the file's int32 mutant sits on a sibling contract (kv_cache_filling's meta store also
     * forms block_off * stride in int64: the block id is loaded from an int64 tensor) */
    "kv_cache_filling.fill_quant_meta_store_io_correctness",
    "cache_transform_triton.prefill_cache_correctness",
    "parallel_attention.pa_bwd_dkv_exec_genuine",
    "parallel_retention_attention.pra_bwd_dkv_exec_genuine",
    "fused_recurrent_delta.fused_recurrent_delta_output_summary_general",
    /* the v1 forward's block pointers: the element offset (off_hz * stride_qh_2d + row) *
     * stride_qm is formed in int64 (make_block_ptr's int64 strides); the 2-D row index
     * off_hz * stride_qh_2d stays below 2^31 for BLOCK_DMODEL >= 2 (the backward's
     * mut_offset_int32 uses the int32 pointer DQ += off_z * stride_qz + off_h * stride_qh
     * the kernel forms beside its block pointers) */
    "triton_attention.triton_attention_forward_output_summary_general",
    "triton_attention.triton_attention_forward_io_correctness",
    /* the io face of the same store slice carries it */
    "layer_norm_liger.layer_norm_liger_scalar_stores_io_correctnessR",
    /* the file's int32 mutants sit on the inner forward (softmax_flaggems) and on the
     * forward (log_softmax): these form their row offsets the same way */
    "softmax_flaggems.softmax_kernel_non_inner_one_tile_compute_correct",
    "softmax_flaggems.softmax_backward_kernel_inner_one_tile_compute_correct",
    "softmax_flaggems.softmax_backward_kernel_non_inner_one_tile_compute_correct",
    "log_softmax.log_softmax_backward_kernel_correctness",
};
static int no_mut(const char *id) {
    for (size_t i = 0; i < sizeof NO_MUT / sizeof NO_MUT[0]; i++) {
        size_t n = strlen(NO_MUT[i]);
        if (NO_MUT[i][n - 1] == '.' ? !strncmp(NO_MUT[i], id, n) : !strcmp(NO_MUT[i], id)) return 1;
    }
    return 0;
}

/* The first NFAR_FULL contracts' ports run 24 far cases, the later ones' (unsloth's
 * kernels, whose int32 row offsets were a real bug, cross_entropy1, destindex_copy_kv1/2,
 * ksoftmax_triton, the batched RMS norms of rmsnorm_triton and rmsnorm_implementation,
 * layernorm_fwd_triton, the A rows of triton_matmul, iv_dependent_matmul and
 * matmul_triton_autotune, triton_softmax, the kldiv_ops and kldiv_triton rows, swiglu_fwd,
 * swiglu_backward, matrix_reduction, the token rows of the KV-cache copies, the batch
 * rows of the LoRA kernels, the kernels of one row stride for input and output
 * (softmax_triton3, the L2 norms, rmsnorm_fused[_llama], layer_norm_ops), and the Q,
 * Logics and P head or batch axes of the decoding and prefill attentions, the cos/sin
 * tables of the rotary kernels, fifth_order_sph_harmonics' output rows)
 * 12, to keep the test short; the int32-offset mutants from FAR[MUT_SAMPLED] on are
 * checked on 12 cases too. */
#define NFAR_FULL 6
#define MUT_SAMPLED 5
#define NFAR (sizeof FAR / sizeof FAR[0])

/* The rows a far case of FAR[f] keeps, where they are not a parameter or grid[0]: the
 * programs along grid axis 1 (the batch of the LoRA gemvs), the one sequence's length
 * (sgmv: seq_lens[0]), the vocabulary window vob_end_id - vob_start_id (embedding), or
 * the rows up to the one token every program reads (kv_cache_filling: SIDX + 1), or up to
 * the one cache row read (cache_transform_triton decoding: lengths[0] + 1), or dk's slabs
 * cdiv(V, BV) * B * H (the backward kernels writing dk at k's head stride). */
/* The grid axis of a contract's far rows when they are not one row per program of axis 0:
 * the heads i_bh of the chunked / recurrent kernels are grid axis 2, except
 * chunked_cumsum_fwd's batches (axis 0). */
static int far_axis(const char *id) {
    static const char *const axis2[] = {"chunk_retention.",       "chunk_retention_ops.", "chunk_gla_fwd.",
                                        "chunk_gla_simple.",      "chunk_bwd_dqkg.",      "chunk_linear_attn.",
                                        "chunk_delta_fwd.",       "chunk_gated_attention.", "fused_rwkv6_kernel.",
                                        "parallel_retention_attention.", "fused_recurrent_delta.",
                                        "decay_cumsum.", "fused_recurrent_retention."};
    for (size_t i = 0; i < sizeof axis2 / sizeof axis2[0]; i++)
        if (!strncmp(id, axis2[i], strlen(axis2[i]))) return 2;
    return 0;
}
static int64_t far_rows(const far_contract *f, const td_case *c) {
    if (!strncmp(f->id, "bgmv_", 5) || !strncmp(f->id, "lora_expand_gemv.", 17)) return c->grid[1];
    if (!strncmp(f->id, "bmm_chunk_", 10)) return c->grid[1]; /* the batches */
    if (!strcmp(f->id, "matmul_dequant_int4.matmul_dequant_int4_exec_genuine") ||
        !strcmp(f->id, "matmul_dequantize.matmul_dequantize_dequantize_exec_genuine"))
        return (td_param_i(c, "K", -1) + 7) / 8; /* int4 values packed 8 to a row of b */
    if (!strncmp(f->id, "sgmv_expand_slice.", 18)) return td_geti(c, 4, 0);
    if (!strncmp(f->id, "kv_cache_filling.fill_kv", 24)) return td_param_i(c, "SIDX", -1) + 1; /* the token read */
    if (!strncmp(f->id, "cache_transform_triton.decoding", 31)) return td_geti(c, 2, 0) + 1; /* the cache row read */
    if (!strcmp(f->id, "parallel_attention.pa_bwd_dkv_exec_genuine") ||
        !strcmp(f->id, "parallel_retention_attention.pra_bwd_dkv_exec_genuine") ||
        !strcmp(f->id, "fused_recurrent_delta.fused_recurrent_delta_output_summary_general")) /* dk's slabs */
        return (td_param_i(c, "V", -1) + td_param_i(c, "BV", -1) - 1) / td_param_i(c, "BV", -1) *
               td_param_i(c, "B", -1) * td_param_i(c, "H", -1);
    if (!strcmp(f->id, "fused_recurrent_retention.fused_recurrent_retention_output_summary_general")) /* dq's slabs */
        return (td_param_i(c, "DV", -1) + td_param_i(c, "BV", -1) - 1) / td_param_i(c, "BV", -1) *
               td_param_i(c, "B", -1) * td_param_i(c, "H", -1);
    if (!strncmp(f->id, "embedding_triton_kernel.", 24))
        return td_param_i(c, "vob_end_id", -1) - td_param_i(c, "vob_start_id", -1);
    if (!strncmp(f->id, "nested_loops_processing.", 24)) return 2; /* the tile's rows r = 0, 1 */
    if (!strncmp(f->id, "fifth_order_sph_harmonics.", 26)) /* the rows output_numel stores */
        return (td_param_i(c, "output_numel", -1) - td_param_i(c, "col_offset", -1) +
                td_param_i(c, "output_stride", -1) - 1) / td_param_i(c, "output_stride", -1);
    if (f->rows && !strcmp(f->rows, FAR_GRID1)) return (int64_t)c->grid[1];
    return f->rows ? td_param_i(c, f->rows, -1) : (int64_t)c->grid[far_axis(f->id)];
}

/* The row stride of a far case of FAR[f]: its parameter, or (stride NULL) the distance
 * between the first two segments' starts (var_len_copy: old_a_start, region 0). */
static int64_t far_stride(const far_contract *f, const td_case *c) {
    static const char *const nk[] = {"log_softmax.", "softmax_flaggems.softmax_kernel_non_inner",
                                     "softmax_flaggems.softmax_backward_kernel_non_inner", "max_reduction."};
    for (size_t i = 0; i < sizeof nk / sizeof nk[0]; i++)
        if (!strncmp(f->id, nk[i], strlen(nk[i])))
            return td_param_i(c, "N", -1) * td_param_i(c, "K", -1); /* row m at m * N * K */
    if (!strncmp(f->id, "chunk_gate_recurrence.", 22)) /* head m at m * NUM_BLOCK * DK * DV */
        return td_param_i(c, "NUM_BLOCK", -1) * td_param_i(c, "D_MODEL_K", -1) * td_param_i(c, "D_MODEL_V", -1);
    if (!strncmp(f->id, "lightning_attention.", 20)) /* head m at m * n * width */
        return td_param_i(c, "n", -1) * td_param_i(c, "width", -1);
    return f->stride ? td_param_i(c, f->stride, -1) : td_geti(c, 0, 1) - td_geti(c, 0, 0);
}

static void far_bytes(uint64_t i, uint8_t *b, int far) {
    memcpy(b, far ? TD_FAR_MAGIC : "notfar!!", TD_FAR_MAGIC_LEN);
    td_case_bytes(5, i, b + TD_FAR_MAGIC_LEN, NB);
}

/* Far inputs reach the class: the last row starts 2^31 elements or more into a sparse
 * region; the same bytes without the magic decode to an ordinary case. */
static void test_far_tier_reaches_the_class(void **st) {
    (void)st;
    for (size_t f = 0; f < NFAR; f++) {
        const td_contract *k = td_contract_find(FAR[f].id);
        assert_non_null(k);
        assert_non_null(k->far);
        assert_true(k->classes & TD_BC(TD_BC_OFFSET_2_31));
        int hits = 0;
        for (uint64_t i = 0; i < 64; i++) {
            uint8_t b[TD_FAR_MAGIC_LEN + NB];
            char err[512];
            td_case c;
            far_bytes(i, b, 0);
            assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
            assert_false(c.classes & TD_BC(TD_BC_OFFSET_2_31));
            td_case_free(&c);
            far_bytes(i, b, 1);
            assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
            if (c.classes & TD_BC(TD_BC_OFFSET_2_31)) {
                hits++;
                int64_t s = far_stride(&FAR[f], &c);
                int64_t rows = far_rows(&FAR[f], &c);
                assert_true((rows - 1) * s >= TWO31);
                assert_true(rows >= 2 && rows <= TD_FAR_MAX_ROWS);
                assert_true(c.r[FAR[f].reg].mapped > 0);
                assert_true(c.r[FAR[f].reg].len > (size_t)TWO31);
            }
            td_case_free(&c);
        }
        assert_true(hits >= 16); /* most far inputs have two rows or more */
    }
}

/* td_far_move_rows: rows along grid axis 1 that interleave (row stride 3 < w = 5) come
 * apart, each row's w elements where its program reads them, the slack after the last
 * row kept; grid[1] and the stride updated, grid[0] not; a single row or an empty one
 * leaves the case as it was. */
static void test_far_move_rows(void **st) {
    (void)st;
    const td_contract *k = td_contract_find("destindex_copy.destindex_copy_correctness");
    assert_non_null(k);
    for (uint64_t i = 0; i < 8; i++) {
        uint8_t b[NB];
        td_case_bytes(9, i, b, sizeof b);
        td_producer p;
        td_prod_init(&p, b, sizeof b);
        td_case c;
        td_case_init(&c, k);
        float *x = td_case_alloc(&c, 0, 6 * 3 + 5 + 2); /* 7 rows at stride 3, w = 5, 2 after the last */
        for (int e = 0; e < 25; e++) x[e] = (float)(e + 1);
        c.grid[0] = 2, c.grid[1] = 7, c.grid[2] = 1, c.p[0].i = 3; /* rows along axis 1 */
        assert_int_equal(td_far_move_rows(&p, &c, 0, 1, 0, 0), 0);
        assert_int_equal(td_far_move_rows(&p, &c, 0, 1, 0, 5), 1);
        int64_t s = c.p[0].i;
        assert_int_equal(c.grid[1], TD_FAR_MAX_ROWS);
        assert_int_equal(c.grid[0], 2);
        assert_true((TD_FAR_MAX_ROWS - 1) * s >= TWO31 && s >= 5);
        assert_true(c.r[0].mapped > 0);
        assert_true(c.classes & TD_BC(TD_BC_OFFSET_2_31) && c.classes & TD_BC(TD_BC_STRIDE_GT_ROW));
        const float *y = c.r[0].data;
        for (int64_t r = 0; r < TD_FAR_MAX_ROWS; r++)
            for (int64_t e = 0; e < 5; e++) assert_true(y[r * s + e] == (float)(r * 3 + e + 1));
        assert_int_equal(c.r[0].len, (size_t)((TD_FAR_MAX_ROWS - 1) * s + 5 + (25 - (3 * 3 + 5))));
        assert_true(y[3 * s + 5] == (float)(3 * 3 + 5 + 1)); /* the slack after the last row kept */
        c.grid[1] = 1;
        assert_int_equal(td_far_move_rows(&p, &c, 0, 1, 0, 5), 0);
        assert_int_equal(c.p[0].i, s);
        td_case_free(&c);
    }
}

/* td_far_move_axis: a [3, 2, 5] float tensor at padded strides, its axis 0 (then 1)
 * moved: every element reads the same value at the new strides, the moved stride puts
 * the last row beyond 2^31, the others are packed, the mapping is sparse; a single row
 * or an axis beyond TD_FAR_MAX_ROWS leaves the case unchanged. */
static void test_far_move_axis(void **st) {
    (void)st;
    const int64_t n[3] = {3, 2, 5}, st0[3] = {23, 11, 2};
    for (int axis = 0; axis < 2; axis++) {
        td_case c;
        memset(&c, 0, sizeof c);
        c.r[0].fmt = TD_F32;
        float *x = td_case_alloc(&c, 0, 2 * 23 + 11 + 4 * 2 + 1);
        for (int64_t e = 0; e < 2 * 23 + 11 + 4 * 2 + 1; e++) x[e] = (float)e;
        uint8_t bytes[16] = {7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
        td_producer p;
        td_prod_init(&p, bytes, sizeof bytes);
        int64_t s[3] = {st0[0], st0[1], st0[2]};
        assert_int_equal(td_far_move_axis(&p, &c, 0, 3, n, s, axis), 1);
        assert_true(c.classes & TD_BC(TD_BC_OFFSET_2_31));
        assert_true(c.r[0].mapped > 0);
        assert_true((n[axis] - 1) * s[axis] >= TWO31);
        assert_int_equal(s[2], 1);
        assert_int_equal(s[axis == 0 ? 1 : 0], 5); /* the other axes packed, the last contiguous */
        const float *y = c.r[0].data;
        for (int64_t i = 0; i < 3; i++)
            for (int64_t j = 0; j < 2; j++)
                for (int64_t k = 0; k < 5; k++)
                    assert_true(y[i * s[0] + j * s[1] + k * s[2]] == (float)(i * 23 + j * 11 + k * 2));
        assert_true(c.r[0].len == (size_t)((n[axis] - 1) * s[axis] + 30 / n[axis])); /* a packed last row */
        int64_t one[3] = {1, 2, 5}, s1[3] = {s[0], s[1], s[2]};
        assert_int_equal(td_far_move_axis(&p, &c, 0, 3, one, s1, 0), 0); /* one row: nothing to move */
        int64_t many[3] = {TD_FAR_MAX_ROWS + 1, 2, 5};
        assert_int_equal(td_far_move_axis(&p, &c, 0, 3, many, s1, 0), 0);
        assert_memory_equal(s1, s, sizeof s);
        td_case_free(&c);
    }
}

/* td_far_move_param_axis: the strides read from and written back to parameters, an
 * implicit unit stride allowed only on the last axis, not moved. */
static void test_far_move_param_axis(void **st) {
    (void)st;
    td_case c;
    memset(&c, 0, sizeof c);
    c.r[0].fmt = TD_F32;
    float *x = td_case_alloc(&c, 0, 2 * 9 + 2 * 3 + 2 + 1);
    for (int64_t e = 0; e < 2 * 9 + 2 * 3 + 2 + 1; e++) x[e] = (float)e;
    c.p[0].i = 9, c.p[1].i = 3; /* a [3, 3, 3] tensor at strides (9, 3, 1), the last implicit */
    uint8_t bytes[8] = {3, 1, 4, 1, 5, 9, 2, 6};
    td_producer p;
    td_prod_init(&p, bytes, sizeof bytes);
    const int64_t n[3] = {3, 3, 3};
    const int bad[3] = {0, -1, 1}, bad_moved[3] = {0, 1, -1}, ps[3] = {0, 1, -1};
    assert_int_equal(td_far_move_param_axis(&p, &c, 0, 3, n, bad, 0), 0); /* implicit stride not last */
    assert_int_equal(td_far_move_param_axis(&p, &c, 0, 3, n, bad_moved, 2), 0); /* the implicit axis moved */
    assert_ptr_equal(c.r[0].data, x);
    assert_int_equal(td_far_move_param_axis(&p, &c, 0, 3, n, ps, 0), 1);
    assert_true(2 * c.p[0].i >= TWO31);
    assert_int_equal(c.p[1].i, 3);
    const float *y = c.r[0].data;
    for (int64_t i = 0; i < 3; i++)
        for (int64_t j = 0; j < 3; j++)
            for (int64_t k = 0; k < 3; k++) assert_true(y[i * c.p[0].i + j * 3 + k] == (float)(i * 9 + j * 3 + k));
    td_case_free(&c);
}

/* td_far_rows_n: each region's rows land at the drawn stride with their contents, the
 * gaps read zero, the slack after the last row is kept, the parameters follow, regions
 * naming one parameter share one stride; one row (or more than TD_FAR_MAX_ROWS) moves
 * nothing. */
static void test_far_rows_n(void **st) {
    (void)st;
    const td_contract *k = td_contract_find("rope_transform.rope_transform_output_summary_general");
    assert_non_null(k);
    static const int regs[2] = {2, 3}, own[2] = {2, 3}, shared[2] = {2, 2}; /* cos, sin; their row strides */
    int moved = 0;
    for (uint64_t i = 0; i < 16; i++) {
        uint8_t b[NB], draw[16];
        char err[512];
        td_case c;
        td_case_bytes(7, i, b, sizeof b);
        td_case_bytes(8, i, draw, sizeof draw);
        assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
        const int *strides = i & 1 ? shared : own; /* odd cases: sin moved at cos_row_stride too */
        int64_t rows = 2 + (int64_t)(i % 3), half = c.p[8].i / 2, w[2] = {half, half}, from[2], len[2];
        float *old[2];
        for (int r = 0; r < 2; r++) {
            from[r] = c.p[strides[r]].i, len[r] = (int64_t)c.r[regs[r]].len;
            old[r] = malloc((size_t)len[r] * sizeof(float));
            memcpy(old[r], c.r[regs[r]].data, (size_t)len[r] * sizeof(float));
        }
        td_producer p;
        td_prod_init(&p, draw, sizeof draw);
        assert_int_equal(td_far_rows_n(&p, &c, 2, regs, strides, 1, w), 0);
        assert_int_equal(td_far_rows_n(&p, &c, 2, regs, strides, TD_FAR_MAX_ROWS + 1, w), 0);
        assert_false(c.classes & TD_BC(TD_BC_OFFSET_2_31));
        while (rows >= 2 && ((rows - 1) * from[0] + half > len[0] || (rows - 1) * from[1] + half > len[1])) rows--;
        if (rows < 2) { /* a table of one row */
            free(old[0]), free(old[1]), td_case_free(&c);
            continue;
        }
        moved++;
        assert_int_equal(td_far_rows_n(&p, &c, 2, regs, strides, rows, w), 2);
        assert_true(c.classes & TD_BC(TD_BC_OFFSET_2_31));
        assert_true(!(i & 1) || c.p[2].i == c.p[strides[1]].i); /* one stride for both */
        for (int r = 0; r < 2; r++) {
            int64_t s = c.p[strides[r]].i, used = (rows - 1) * from[r] + half;
            const float *d = c.r[regs[r]].data;
            assert_true((rows - 1) * s >= TWO31 && s >= half);
            assert_int_equal(c.r[regs[r]].len, (size_t)((rows - 1) * s + half + (len[r] - used)));
            for (int64_t q = 0; q < rows; q++) assert_memory_equal(d + q * s, old[r] + q * from[r], (size_t)half * 4);
            assert_true(d[s - 1] == 0.0f && d[half] == 0.0f); /* the gaps read zero */
            assert_memory_equal(d + (rows - 1) * s + half, old[r] + used, (size_t)(len[r] - used) * 4);
            free(old[r]);
        }
        td_case_free(&c);
    }
    assert_true(moved >= 8);
}

/* td_far_reslab: two regions of 3 whole slabs of 10 (and 2, 0 elements of slack): the
 * first 2 slabs' first 4 elements land at slab stride 2^31, every slab whole again (len
 * = 2 * 2^31 + slack, the slack copied), the gaps read zero; arguments that do not fit
 * and a map that cannot be reserved leave both regions as they were. */
static void test_far_reslab(void **st) {
    (void)st;
    td_case c;
    memset(&c, 0, sizeof c);
    c.r[0].fmt = c.r[1].fmt = TD_F32;
    float *x = td_case_alloc(&c, 0, 32), *y = td_case_alloc(&c, 1, 30);
    for (int e = 0; e < 32; e++) x[e] = (float)(e + 1);
    for (int e = 0; e < 30; e++) y[e] = (float)(100 + e);
    static const int regs[2] = {0, 1};
    assert_int_equal(td_far_reslab(&c, regs, 2, 3, 2, 11, 10, TWO31), -1); /* w > from */
    assert_int_equal(td_far_reslab(&c, regs, 2, 3, 4, 4, 10, TWO31), -1);  /* more rows than the tensor */
    assert_int_equal(td_far_reslab(&c, regs, 2, 4, 2, 4, 10, TWO31), -1);  /* region 1 < 4 slabs */
    assert_int_equal(td_far_reslab(&c, regs, 2, 3, 2, 4, 10, (int64_t)1 << 60), -1); /* no address space */
    assert_ptr_equal(c.r[0].data, x);
    assert_ptr_equal(c.r[1].data, y);
    assert_int_equal(c.r[0].len, 32);
    assert_int_equal(td_far_reslab(&c, regs, 2, 3, 2, 4, 10, TWO31), 0);
    for (int k = 0; k < 2; k++) {
        const float *d = c.r[k].data;
        assert_true(c.r[k].mapped > 0);
        assert_int_equal(c.r[k].len, (size_t)(2 * TWO31 + (k ? 0 : 2)));
        for (int64_t r = 0; r < 2; r++)
            for (int64_t e = 0; e < 4; e++) assert_true(d[r * TWO31 + e] == (float)(k ? 100 + r * 10 + e : r * 10 + e + 1));
        assert_true(d[4] == 0.0f && d[TWO31 + 4] == 0.0f && d[TWO31 - 1] == 0.0f);
    }
    assert_true(((const float *)c.r[0].data)[2 * TWO31] == 31.0f && ((const float *)c.r[0].data)[2 * TWO31 + 1] == 32.0f);
    td_case_free(&c);
}

/* Case i of a campaign: every 16th case of a contract with a far hook is far. */
static void test_campaign_far_cases(void **st) {
    (void)st;
    const td_contract *far = td_contract_find(FAR[0].id), *plain = td_contract_find("add_example.add_kernel_correctness");
    assert_non_null(plain);
    assert_null(plain->far);
    uint8_t a[64], b[64];
    for (uint64_t i = 0; i < 48; i++) {
        td_campaign_case_bytes(far, 3, i, a, sizeof a);
        int is_far = i % TD_FAR_EVERY == TD_FAR_EVERY - 1;
        assert_int_equal(td_far_tier(a, sizeof a), is_far);
        td_case_bytes(3, i, b, is_far ? sizeof b - TD_FAR_MAGIC_LEN : sizeof b);
        assert_memory_equal(a + (is_far ? TD_FAR_MAGIC_LEN : 0), b, is_far ? sizeof b - TD_FAR_MAGIC_LEN : sizeof b);
        td_campaign_case_bytes(plain, 3, i, a, sizeof a);
        td_case_bytes(3, i, b, sizeof b);
        assert_memory_equal(a, b, sizeof a);
    }
}

static long maxrss_mib(void) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024;
}

/* Runs `kern` on far case i (or the same bytes without the magic); the result's
 * return code, and its worst class in *worst. */
static uint32_t g_rows; /* grid[0] of the last case run_case ran */
static int run_case(td_ctx *cx, const td_kernel *kern, uint64_t i, int far, td_vclass *worst, uint64_t *classes) {
    uint8_t b[TD_FAR_MAGIC_LEN + NB];
    far_bytes(i, b, far);
    td_case_result r;
    int rc = td_run_bytes(cx, kern, b, sizeof b, &r);
    *worst = r.worst;
    *classes = r.st.classes;
    g_rows = r.grid[0];
    td_result_free(&r);
    return rc;
}

/* The int32-offset mutants fail far cases (an illegal address: a launch error) and
 * pass every ordinary one; the correct ports pass both.  The process stays small. */
static void test_int32_offset_mutants_killed(void **st) {
    (void)st;
    td_kernel_set set;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    td_ctx_opts o = {0};
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    assert_non_null(cx);
    const far_contract *muts[] = {&FAR[0], &FAR[2], &FAR[3]}; /* softmax, rms norm, cross entropy */
    for (size_t m = 0; m < 3; m++) {
        const td_kernel *mut = td_kernels_find(&set, muts[m]->id, "mut_offset_int32", TD_ABI_HOST);
        const td_kernel *port = td_kernels_find(&set, muts[m]->id, NULL, TD_ABI_HOST);
        assert_non_null(mut);
        assert_non_null(port);
        int killed = 0;
        for (uint64_t i = 0; i < 24; i++) {
            td_vclass w;
            uint64_t cl;
            assert_int_equal(run_case(cx, mut, i, 0, &w, &cl), TD_RUN_OK); /* ordinary cases: the port */
            assert_int_equal(run_case(cx, port, i, 1, &w, &cl), TD_RUN_OK);
            int rc = run_case(cx, mut, i, 1, &w, &cl);
            if (cl & TD_BC(TD_BC_OFFSET_2_31)) {
                assert_int_equal(rc, TD_RUN_FINDING);
                assert_int_equal(w, TD_VC_LAUNCH);
                killed++;
            } else {
                assert_int_equal(rc, TD_RUN_OK);
            }
        }
        assert_true(killed >= 6);
    }
    for (size_t f = MUT_SAMPLED; f < NFAR; f++) { /* a sample: 12 cases, not 24 */
        const td_kernel *mut = td_kernels_find(&set, FAR[f].id, "mut_offset_int32", TD_ABI_HOST);
        if (no_mut(FAR[f].id)) {
            assert_null(mut); /* NO_MUT says which contracts have none */
            continue;
        }
        assert_non_null(mut);
        int killed = 0;
        for (uint64_t i = 0; i < 12; i++) {
            td_vclass w;
            uint64_t cl;
            assert_int_equal(run_case(cx, mut, i, 0, &w, &cl), TD_RUN_OK);
            int rc = run_case(cx, mut, i, 1, &w, &cl);
            if (!(cl & TD_BC(TD_BC_OFFSET_2_31))) {
                assert_int_equal(rc, TD_RUN_OK);
                continue;
            }
            if (rc != TD_RUN_FINDING || w != TD_VC_LAUNCH) /* which row, when it fails */
                print_message("%s: far case %u\n", FAR[f].id, (unsigned)i);
            assert_int_equal(rc, TD_RUN_FINDING);
            assert_int_equal(w, TD_VC_LAUNCH);
            killed++;
        }
        if (killed < 3) print_message("%s: %d far cases of 12\n", FAR[f].id, killed);
        assert_true(killed >= 3);
    }
    /* 3 x 24 far cases of up to 24 GiB of address space each: a few pages committed */
    assert_true(maxrss_mib() < 1024);
    td_ctx_free(cx);
    td_kernels_close(&set);
}

/* Every correct port passes the far cases of its contract. */
static void test_ports_pass_far_cases(void **st) {
    (void)st;
    td_kernel_set set;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    td_ctx_opts o = {0};
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    for (size_t f = 0; f < NFAR; f++) {
        const td_kernel *port = td_kernels_find(&set, FAR[f].id, NULL, TD_ABI_HOST);
        assert_non_null(port);
        int far_cases = 0, n = f < NFAR_FULL ? 24 : 12;
        for (uint64_t i = 0; i < (uint64_t)n; i++) {
            td_vclass w;
            uint64_t cl;
            assert_int_equal(run_case(cx, port, i, 1, &w, &cl), TD_RUN_OK);
            far_cases += (cl & TD_BC(TD_BC_OFFSET_2_31)) != 0;
        }
        if (far_cases < n / 4) print_message("%s: %d far cases of %d\n", FAR[f].id, far_cases, n);
        assert_true(far_cases >= n / 4);
    }
    td_ctx_free(cx);
    td_kernels_close(&set);
}

/* ---- the checks over a sparse image: kernels that run the softmax port, then
 * corrupt the far input region ---- */
static const td_kernel *g_port;
enum { BAD_HOLE, BAD_ZERO_ROW, BAD_GUARD };
static int bad_launch(const td_abi_launch *L, int how) {
    int rc = g_port->abi->launch(L);
    const td_abi_region *in = &L->regions[1];
    float *x = in->base;
    int64_t is = L->params[0].i, w = L->params[2].i < L->params[3].i ? L->params[2].i : L->params[3].i;
    if (in->len <= (uint64_t)TWO31) return rc; /* only far cases are corrupted (they are the ones checked) */
    if (how == BAD_HOLE) x[is / 2] = 1.0f;                                      /* between rows 0 and 1 */
    if (how == BAD_ZERO_ROW) { /* the pages of row 1 wiped (all zeros, as an untouched page reads) */
        uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), lo = (uintptr_t)(x + is) & ~(pg - 1);
        uintptr_t hi = ((uintptr_t)(x + is + w) + pg - 1) & ~(pg - 1), end = (uintptr_t)(x + in->len);
        memset((void *)lo, 0, (hi < end ? hi : end) - lo);
    }
    if (how == BAD_GUARD) x[in->len] = 1.0f;                                    /* one past the end */
    return rc;
}
static int bad_hole(const td_abi_launch *L) { return bad_launch(L, BAD_HOLE); }
static int bad_zero(const td_abi_launch *L) { return bad_launch(L, BAD_ZERO_ROW); }
static int bad_guard(const td_abi_launch *L) { return bad_launch(L, BAD_GUARD); }
#define BAD(name, fn)                                                                                           \
    {"softmax_triton1.softmax_kernel_correctness", name, TD_ABI_HOST, NULL, NULL, "corrupts its input", 4, 2, fn, NULL}
static const td_abi_kernel K_HOLE = BAD("writes_hole", bad_hole), K_ZERO = BAD("zeroes_row", bad_zero),
                           K_GUARD = BAD("writes_guard", bad_guard);
static const td_abi_kernel *const BADK[] = {&K_HOLE, &K_ZERO, &K_GUARD};
static const td_abi_table BAD_TABLE = {TD_KERNEL_ABI_VERSION, 3, BADK, "test_far"};

static void test_sparse_image_checks(void **st) {
    (void)st;
    td_kernel_set set, bad;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    assert_int_equal(td_kernels_bind(&BAD_TABLE, "test_far", &bad, err, sizeof err), TD_LOAD_OK);
    g_port = td_kernels_find(&set, FAR[0].id, NULL, TD_ABI_HOST);
    assert_non_null(g_port);
    td_ctx_opts o = {0};
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    const char *names[] = {"writes_hole", "zeroes_row", "writes_guard"};
    const td_vclass want[] = {TD_VC_INPUT, TD_VC_INPUT, TD_VC_GUARD};
    for (int b = 0; b < 3; b++) {
        const td_kernel *k = td_kernels_find(&bad, FAR[0].id, names[b], TD_ABI_HOST);
        assert_non_null(k);
        int far_cases = 0, inner = 0;
        for (uint64_t i = 0; i < 24; i++) {
            td_vclass w;
            uint64_t cl;
            int rc = run_case(cx, k, i, 1, &w, &cl);
            if (!(cl & TD_BC(TD_BC_OFFSET_2_31))) continue;
            far_cases++;
            inner += g_rows >= 3; /* row 1 is not the last: its wiped pages hold nothing else */
            assert_int_equal(rc, TD_RUN_FINDING);
            assert_int_equal(w, want[b]);
        }
        assert_true(far_cases >= 4);
        assert_true(inner >= 1);
    }
    td_ctx_free(cx);
    td_kernels_close(&bad);
    td_kernels_close(&set);
}

/* ---- sparse outputs (engine/harness.c, image_fill_write_pages): kernels that run the
 * softmax_triton3 port (input and output at one row stride), then write the output
 * outside its write set ---- */
static const td_kernel *g_port3;
static int g_near; /* far cases whose cell after row 0 shares a page with the row's last lane */
enum { BAD_OUT_HOLE, BAD_OUT_NEAR };
static int bad_out_launch(const td_abi_launch *L, int how) {
    int rc = g_port3->abi->launch(L);
    const td_abi_region *out = &L->regions[0];
    float *y = out->base;
    int64_t s = L->params[0].i, w = L->params[1].i < L->params[2].i ? L->params[1].i : L->params[2].i;
    if (out->len <= (uint64_t)TWO31) return rc; /* only far cases: their outputs are sparse */
    if (how == BAD_OUT_HOLE) y[s / 2] = 1.0f;   /* between rows 0 and 1: on no page of the write set */
    uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
    if (how == BAD_OUT_NEAR && ((uintptr_t)(y + w) & ~(pg - 1)) == ((uintptr_t)(y + w - 1) & ~(pg - 1))) {
        y[w] = 0.0f; /* a cell of a write page outside the write set: zero, as an untouched page reads */
        g_near++;
    }
    return rc;
}
static int bad_out_hole(const td_abi_launch *L) { return bad_out_launch(L, BAD_OUT_HOLE); }
static int bad_out_near(const td_abi_launch *L) { return bad_out_launch(L, BAD_OUT_NEAR); }
#define BAD3(name, fn)                                                                                          \
    {"softmax_triton3.softmax_kernel_correctness", name, TD_ABI_HOST, NULL, NULL, "writes outside its rows", 3, 3, fn, \
     NULL}
static const td_abi_kernel K_OUT_HOLE = BAD3("out_hole", bad_out_hole), K_OUT_NEAR = BAD3("out_near", bad_out_near);
static const td_abi_kernel *const BADK3[] = {&K_OUT_HOLE, &K_OUT_NEAR};
static const td_abi_table BAD3_TABLE = {TD_KERNEL_ABI_VERSION, 2, BADK3, "test_far_out"};
#define SM3 "softmax_triton3.softmax_kernel_correctness"

/* A far case of softmax_triton3 holds its output as a sparse map; a write off the write
 * pages and a write into a write page off the write set are both flagged; on a device
 * (host memory standing in) the port still passes (the sentinels travel) and the write
 * into a write page is still flagged. */
static void sparse_output_cases(td_ctx *cx, const td_kernel *hole, const td_kernel *near, int dev) {
    int far_cases = 0;
    g_near = 0;
    for (uint64_t i = 0; i < 16; i++) {
        td_vclass w;
        uint64_t cl;
        int rc = run_case(cx, g_port3, i, 1, &w, &cl);
        if (!(cl & TD_BC(TD_BC_OFFSET_2_31))) continue;
        far_cases++;
        assert_int_equal(rc, TD_RUN_OK);
        if (!dev) {
            assert_int_equal(run_case(cx, hole, i, 1, &w, &cl), TD_RUN_FINDING);
            assert_int_equal(w, TD_VC_OUTSIDE);
        }
        int before = g_near;
        rc = run_case(cx, near, i, 1, &w, &cl);
        if (g_near == before) continue;
        assert_int_equal(rc, TD_RUN_FINDING);
        assert_int_equal(w, TD_VC_OUTSIDE);
    }
    assert_true(far_cases >= 4);
    assert_true(g_near >= 2);
}

static void test_sparse_output_checks(void **st) {
    (void)st;
    td_kernel_set set, bad;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    assert_int_equal(td_kernels_bind(&BAD3_TABLE, "test_far_out", &bad, err, sizeof err), TD_LOAD_OK);
    g_port3 = td_kernels_find(&set, SM3, NULL, TD_ABI_HOST);
    const td_kernel *hole = td_kernels_find(&bad, SM3, "out_hole", TD_ABI_HOST),
                    *near = td_kernels_find(&bad, SM3, "out_near", TD_ABI_HOST);
    assert_non_null(g_port3);
    assert_non_null(hole);
    assert_non_null(near);
    td_ctx_opts o = {0};
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    sparse_output_cases(cx, hole, near, 0);
    td_ctx_free(cx);
    assert_true(maxrss_mib() < 1024); /* sentinels on the write pages only */
    td_kernels_close(&bad);
    td_kernels_close(&set);
}

/* ---- sparse in-out regions (engine/harness.c, check_outside_inout): kernels that run
 * the apply_penalty port (Logits read and written in place at a far row stride), then
 * write Logits off its write set ---- */
#define AP "apply_penalty.apply_penalty_correctness"
static const td_kernel *g_port_ap;
static int g_io_hits;
enum { BAD_IO_HOLE, BAD_IO_CLOBBER, BAD_IO_ZERO_ROW };
/* Row 1's first cell off its window's ids (k < 1024) holding a nonzero logit, or -1. */
static int64_t io_unlisted(const td_abi_launch *L, const uint32_t *x, int64_t s) {
    const int32_t *ids = L->regions[4].base, *cs = L->regions[6].base;
    for (int64_t k = 0; k < 1024 && s + k < (int64_t)L->regions[0].len; k++) {
        int listed = 0;
        for (int32_t q = cs[1]; q < cs[2]; q++) listed |= ids[q] == k;
        if (!listed && x[s + k]) return s + k;
    }
    return -1;
}
static int bad_io_launch(const td_abi_launch *L, int how) {
    int rc = g_port_ap->abi->launch(L);
    uint32_t *x = L->regions[0].base;
    int64_t s = L->params[0].i, e;
    if (L->regions[0].len <= (uint64_t)TWO31) return rc; /* only far cases: their Logits are sparse */
    if (how == BAD_IO_HOLE) x[s / 2] = 0x3f800000u, g_io_hits++; /* 1.0f between rows 0 and 1: a page that was zero */
    if (how == BAD_IO_CLOBBER && (e = io_unlisted(L, x, s)) >= 0) x[e] ^= 1u, g_io_hits++; /* an initial value */
    if (how == BAD_IO_ZERO_ROW && L->grid[0] >= 3) { /* row 1's pages wiped (all zeros, as an untouched page) */
        uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), lo = (uintptr_t)(x + s) & ~(pg - 1);
        memset((void *)lo, 0, (((uintptr_t)(x + s + 1024) + pg - 1) & ~(pg - 1)) - lo);
        g_io_hits++;
    }
    return rc;
}
static int bad_io_hole(const td_abi_launch *L) { return bad_io_launch(L, BAD_IO_HOLE); }
static int bad_io_clobber(const td_abi_launch *L) { return bad_io_launch(L, BAD_IO_CLOBBER); }
static int bad_io_zero(const td_abi_launch *L) { return bad_io_launch(L, BAD_IO_ZERO_ROW); }
#define BADIO(name, fn) {AP, name, TD_ABI_HOST, NULL, NULL, "writes Logits off its write set", 3, 7, fn, NULL}
static const td_abi_kernel K_IO_HOLE = BADIO("io_hole", bad_io_hole), K_IO_CLOBBER = BADIO("io_clobber", bad_io_clobber),
                           K_IO_ZERO = BADIO("io_zero_row", bad_io_zero);
static const td_abi_kernel *const BADKIO[] = {&K_IO_HOLE, &K_IO_CLOBBER, &K_IO_ZERO};
static const td_abi_table BADIO_TABLE = {TD_KERNEL_ABI_VERSION, 3, BADKIO, "test_far_io"};

/* Far case i through kernel k: its verdict and how many cells outside the write set. */
static int run_io(td_ctx *cx, const td_kernel *k, uint64_t i, td_vclass *w, uint64_t *outside, uint64_t *cl) {
    uint8_t b[TD_FAR_MAGIC_LEN + NB];
    far_bytes(i, b, 1);
    td_case_result r;
    int rc = td_run_bytes(cx, k, b, sizeof b, &r);
    *w = r.worst, *outside = r.st.findings[TD_VC_OUTSIDE], *cl = r.st.classes;
    td_result_free(&r);
    return rc;
}

/* A far case of apply_penalty holds Logits as a sparse in-out map: the port passes; a
 * write on a page that was zero, a clobbered initial value of a page the case holds
 * (off the write set) and a page of the case's contents wiped are each flagged as
 * cells outside the write set. */
static void test_sparse_inout_checks(void **st) {
    (void)st;
    td_kernel_set set, bad;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    assert_int_equal(td_kernels_bind(&BADIO_TABLE, "test_far_io", &bad, err, sizeof err), TD_LOAD_OK);
    g_port_ap = td_kernels_find(&set, AP, NULL, TD_ABI_HOST);
    assert_non_null(g_port_ap);
    td_ctx_opts o = {0};
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    const char *names[] = {"io_hole", "io_clobber", "io_zero_row"};
    for (int b = 0; b < 3; b++) {
        const td_kernel *k = td_kernels_find(&bad, AP, names[b], TD_ABI_HOST);
        assert_non_null(k);
        int far_cases = 0;
        g_io_hits = 0;
        for (uint64_t i = 0; i < 24; i++) {
            td_vclass w;
            uint64_t outside, cl;
            int rc = run_io(cx, g_port_ap, i, &w, &outside, &cl);
            if (!(cl & TD_BC(TD_BC_OFFSET_2_31))) continue;
            far_cases++;
            assert_int_equal(rc, TD_RUN_OK);
            int before = g_io_hits;
            rc = run_io(cx, k, i, &w, &outside, &cl);
            if (g_io_hits == before) {
                assert_int_equal(rc, TD_RUN_OK);
                continue;
            }
            assert_int_equal(rc, TD_RUN_FINDING);
            assert_true(outside > 0);
            if (b != BAD_IO_ZERO_ROW) assert_int_equal(w, TD_VC_OUTSIDE); /* a wiped row's lanes are wrong too */
        }
        assert_true(far_cases >= 4);
        assert_true(g_io_hits >= 2);
    }
    td_ctx_free(cx);
    assert_true(maxrss_mib() < 1024); /* the case's pages and the pages written only */
    td_kernels_close(&bad);
    td_kernels_close(&set);
}

/* ---- a device backend (host memory standing in for the device's): a sparse image
 * goes over as its guards and written pages, and the checks on what comes back still
 * catch a wiped row and a guard written.  Its fresh memory is not zero, as a real
 * device's is not (cudaMalloc hands out what the last owner left): its pages are mapped
 * PROT_NONE and filled with a garbage pattern on first touch (dirty_fault), so a page
 * the harness does not upload reads as garbage to the kernel and, downloaded, to the
 * checks.  (An anonymous mapping would read as zero, the value a sparse case's
 * untouched pages hold: a staging rule that forgot such a page would go unseen.) ---- */
typedef struct fake_dev {
    void *p[64];
    size_t n[64];
} fake_dev;
static fake_dev *g_dirty_dev; /* the device whose pages dirty_fault fills */
static uintptr_t g_dirty_pg;
static struct sigaction g_dirty_old; /* the handler before (a sanitizer's, or the default) */
#define DIRTY_BYTE 0xA5 /* as a binary32 word -2.9e-16, as a binary16 half -0.022: a wrong but finite value */
static void dirty_fault(int sig, siginfo_t *si, void *uc) {
    (void)uc;
    uint8_t *a = si->si_addr;
    for (int i = 0; g_dirty_dev && i < 64; i++) {
        uint8_t *b = g_dirty_dev->p[i];
        if (b && a >= b && a < b + g_dirty_dev->n[i]) {
            void *lo = (void *)((uintptr_t)a & ~(g_dirty_pg - 1));
            if (mprotect(lo, g_dirty_pg, PROT_READ | PROT_WRITE) == 0) memset(lo, DIRTY_BYTE, g_dirty_pg);
            return; /* the faulting access runs again, on the garbage */
        }
    }
    (void)sig;
    sigaction(SIGSEGV, &g_dirty_old, NULL); /* not the device's memory: a real crash, re-raised */
}
static int fd_alloc(void *st, size_t bytes, void **dev, char *err, size_t errlen) {
    fake_dev *f = st;
    for (int i = 0; i < 64; i++)
        if (!f->p[i]) {
            void *m = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (m == MAP_FAILED) break;
            f->p[i] = *dev = m, f->n[i] = bytes;
            return 0;
        }
    snprintf(err, errlen, "fake device full");
    return -1;
}
static void fd_release(void *st, void *dev) {
    fake_dev *f = st;
    for (int i = 0; i < 64; i++)
        if (f->p[i] == dev) munmap(dev, f->n[i]), f->p[i] = NULL;
}
static void dirty_device_on(fake_dev *f) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = dirty_fault;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    g_dirty_pg = (uintptr_t)sysconf(_SC_PAGESIZE);
    g_dirty_dev = f;
    assert_int_equal(sigaction(SIGSEGV, &sa, &g_dirty_old), 0);
}
static void dirty_device_off(void) {
    sigaction(SIGSEGV, &g_dirty_old, NULL);
    g_dirty_dev = NULL;
}
static int fd_upload(void *st, void *dev, const void *host, size_t bytes, char *err, size_t errlen) {
    (void)st, (void)err, (void)errlen;
    memcpy(dev, host, bytes);
    return 0;
}
static int fd_download(void *st, void *host, const void *dev, size_t bytes, char *err, size_t errlen) {
    (void)st, (void)err, (void)errlen;
    memcpy(host, dev, bytes);
    return 0;
}
static int fd_sync(void *st, char *err, size_t errlen) {
    (void)st, (void)err, (void)errlen;
    return 0;
}

/* A context whose backend is the dirty fake device fd (ops: its table, kept by the context). */
static td_ctx *device_ctx(fake_dev *fd, td_backend_ops *ops) {
    *ops = (td_backend_ops){"fake", fd, fd_alloc, fd_release, fd_upload, fd_download, fd_sync, NULL};
    td_ctx_opts o = {0};
    char err[256];
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    assert_non_null(cx);
    td_ctx_set_backend(cx, ops);
    dirty_device_on(fd);
    return cx;
}
static void device_ctx_free(td_ctx *cx, fake_dev *fd) {
    assert_true(maxrss_mib() < 1024); /* nothing staged a whole reservation */
    td_ctx_free(cx);
    dirty_device_off();
    for (int i = 0; i < 64; i++) assert_null(fd->p[i]); /* every device image released */
}

static void test_device_staging_of_sparse_images(void **st) {
    (void)st;
    td_kernel_set set, bad;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    assert_int_equal(td_kernels_bind(&BAD_TABLE, "test_far", &bad, err, sizeof err), TD_LOAD_OK);
    g_port = td_kernels_find(&set, FAR[0].id, NULL, TD_ABI_HOST);
    fake_dev fd = {0};
    td_backend_ops ops;
    td_ctx *cx = device_ctx(&fd, &ops);
    const td_kernel *mut = td_kernels_find(&set, FAR[0].id, "mut_offset_int32", TD_ABI_HOST);
    const td_kernel *zero = td_kernels_find(&bad, FAR[0].id, "zeroes_row", TD_ABI_HOST);
    const td_kernel *guard = td_kernels_find(&bad, FAR[0].id, "writes_guard", TD_ABI_HOST);
    int far_cases = 0;
    for (uint64_t i = 0; i < 16; i++) {
        td_vclass w;
        uint64_t cl;
        int rc = run_case(cx, g_port, i, 1, &w, &cl);
        if (!(cl & TD_BC(TD_BC_OFFSET_2_31))) continue;
        far_cases++;
        assert_int_equal(rc, TD_RUN_OK);
        assert_int_equal(run_case(cx, mut, i, 1, &w, &cl), TD_RUN_FINDING);
        assert_int_equal(w, TD_VC_LAUNCH);
        assert_int_equal(run_case(cx, zero, i, 1, &w, &cl), TD_RUN_FINDING);
        assert_int_equal(w, TD_VC_INPUT);
        assert_int_equal(run_case(cx, guard, i, 1, &w, &cl), TD_RUN_FINDING);
        assert_int_equal(w, TD_VC_GUARD);
    }
    assert_true(far_cases >= 4);
    td_kernel_set bad3;
    assert_int_equal(td_kernels_bind(&BAD3_TABLE, "test_far_out", &bad3, err, sizeof err), TD_LOAD_OK);
    g_port3 = td_kernels_find(&set, SM3, NULL, TD_ABI_HOST);
    sparse_output_cases(cx, td_kernels_find(&bad3, SM3, "out_hole", TD_ABI_HOST),
                        td_kernels_find(&bad3, SM3, "out_near", TD_ABI_HOST), 1);
    td_kernels_close(&bad3);
    device_ctx_free(cx, &fd);
    td_kernels_close(&bad);
    td_kernels_close(&set);
}

/* In-out regions held sparse (read and written in place at a far stride) on the dirty
 * device: the ports pass their far cases, which holds only if every page the kernel
 * reads in place went up (the case's nonzero pages and the write set's pages, which the
 * case may leave zero: triton_attention's DQ starts as zeros and is accumulated into)
 * and came back; a cell clobbered off the write set is still flagged. */
static const char *const FAR_INOUT[] = {
    "apply_penalty.apply_penalty_correctness",
    "decay_cumsum.bwd_decay_global_cumsum_io_correctness",
    "decay_cumsum.decay_cumsum_backward_closed_output_summary_general",
    "attention_fwd_triton3.attention_fwd_triton3_python_case4_output_summary_general",
    "attention_fwd_triton3.attention_fwd_triton3_case4_io_correctness",
    "triton_attention.triton_attention_bwd_grads_genuine_output_summary_general",
};
static void test_device_staging_of_inout_regions(void **st) {
    (void)st;
    td_kernel_set set, bad;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    assert_int_equal(td_kernels_bind(&BADIO_TABLE, "test_far_io", &bad, err, sizeof err), TD_LOAD_OK);
    fake_dev fd = {0};
    td_backend_ops ops;
    td_ctx *cx = device_ctx(&fd, &ops);
    for (size_t f = 0; f < sizeof FAR_INOUT / sizeof FAR_INOUT[0]; f++) {
        const td_kernel *port = td_kernels_find(&set, FAR_INOUT[f], NULL, TD_ABI_HOST);
        assert_non_null(port);
        int far_cases = 0;
        for (uint64_t i = 0; i < 12; i++) {
            td_vclass w;
            uint64_t cl;
            int rc = run_case(cx, port, i, 1, &w, &cl);
            if (rc != TD_RUN_OK) print_message("%s case %d: worst class %d\n", FAR_INOUT[f], (int)i, (int)w);
            assert_int_equal(rc, TD_RUN_OK);
            far_cases += (cl & TD_BC(TD_BC_OFFSET_2_31)) != 0;
        }
        assert_true(far_cases >= 3);
    }
    g_port_ap = td_kernels_find(&set, AP, NULL, TD_ABI_HOST);
    const td_kernel *clobber = td_kernels_find(&bad, AP, "io_clobber", TD_ABI_HOST);
    int flagged = 0;
    g_io_hits = 0;
    for (uint64_t i = 0; i < 24; i++) {
        td_vclass w;
        uint64_t outside, cl;
        int before = g_io_hits, rc = run_io(cx, clobber, i, &w, &outside, &cl);
        if (g_io_hits > before) flagged += rc == TD_RUN_FINDING && w == TD_VC_OUTSIDE && outside > 0;
    }
    assert_true(g_io_hits >= 2);
    assert_int_equal(flagged, g_io_hits);
    device_ctx_free(cx, &fd);
    td_kernels_close(&bad);
    td_kernels_close(&set);
}

/* td_far_rows moves every region of one shared stride or none; td_far_restride_all
 * keeps the rows' contents (and the slack) in place. */
static void test_restride_all(void **st) {
    (void)st;
    const td_contract *k = td_contract_find(SM3);
    assert_non_null(k);
    td_case c;
    td_case_init(&c, k);
    c.grid[0] = 6, c.grid[1] = c.grid[2] = 1;
    c.p[0].i = 5, c.p[1].i = 3, c.p[2].i = 4; /* row_stride 5, n_cols 3, BLOCK 4 */
    for (int r = 0; r < 3; r++) {
        td_case_alloc(&c, r, 5 * 5 + 3 + 2); /* 6 rows, 2 cells of slack */
        for (size_t e = 0; e < c.r[r].len; e++) td_set(&c, r, e, (double)(100 * r + (int)e));
    }
    uint8_t bytes[16] = {0};
    td_producer p;
    td_prod_init(&p, bytes, sizeof bytes);
    static const int regs[] = {1, 2, 0};
    assert_int_equal(td_far_rows(&p, &c, regs, 3, 0, 3), 1);
    int64_t s = c.p[0].i;
    assert_int_equal(c.grid[0], TD_FAR_MAX_ROWS);
    assert_true((TD_FAR_MAX_ROWS - 1) * s >= TWO31);
    assert_true(c.classes & TD_BC(TD_BC_OFFSET_2_31));
    for (int r = 0; r < 3; r++) {
        assert_true(c.r[r].mapped > 0);
        assert_int_equal(c.r[r].len, (size_t)((TD_FAR_MAX_ROWS - 1) * s + 3 + (5 * 5 + 3 + 2 - (3 * 5 + 3))));
        for (int64_t row = 0; row < TD_FAR_MAX_ROWS; row++)
            for (int64_t j = 0; j < 3; j++)
                assert_true(td_get(&c, r, (size_t)(row * s + j)) == (double)(100 * r + row * 5 + j));
        assert_true(td_get(&c, r, (size_t)((TD_FAR_MAX_ROWS - 1) * s + 3)) == (double)(100 * r + 3 * 5 + 3));
    }
    assert_null(k->check(&c));
    td_case_free(&c);
}

/* td_far_slabs: regions of different slab counts at one stride (inputs per head, an
 * output per head and block) land at one drawn stride, each slab bit for bit, the
 * slab far_rows - 1 past 2^31; bad arguments leave the case as it was. */
static void test_far_slabs(void **st) {
    (void)st;
    const td_contract *k = td_contract_find(SM3);
    assert_non_null(k);
    td_case c;
    td_case_init(&c, k);
    c.p[0].i = 5;                              /* the stride: slabs of 3 elements, 5 apart */
    static const int regs[] = {1, 2, 0};
    static const int64_t slabs[] = {2, 4, 1}; /* an input of 2 heads, an output of 4 slabs, one of 1 */
    for (int i = 0; i < 3; i++) {
        td_case_alloc(&c, regs[i], (size_t)(5 * (slabs[i] - 1) + 3));
        for (size_t e = 0; e < c.r[regs[i]].len; e++) td_set(&c, regs[i], e, (double)(100 * i + (int)e));
    }
    uint8_t bytes[16] = {0};
    td_producer p;
    td_prod_init(&p, bytes, sizeof bytes);
    const int64_t many[] = {2, TD_FAR_MAX_ROWS + 1, 1}, few[] = {2, 2, 1};
    assert_int_equal(td_far_slabs(&p, &c, 3, regs, many, 0, 3, 2), 0); /* a region of too many slabs */
    assert_int_equal(td_far_slabs(&p, &c, 3, regs, slabs, 0, 3, 1), 0); /* far_rows < 2 */
    assert_int_equal(td_far_slabs(&p, &c, 3, regs, few, 0, 3, 3), 0);   /* far_rows above every region's */
    assert_int_equal(c.p[0].i, 5);
    assert_false(c.classes & TD_BC(TD_BC_OFFSET_2_31));
    for (int i = 0; i < 3; i++) assert_int_equal(c.r[regs[i]].mapped, 0);
    assert_int_equal(td_far_slabs(&p, &c, 3, regs, slabs, 0, 3, 4), 1);
    int64_t s = c.p[0].i;
    assert_true(3 * s >= TWO31);
    assert_true(c.classes & TD_BC(TD_BC_OFFSET_2_31));
    for (int i = 0; i < 3; i++) {
        assert_true(c.r[regs[i]].mapped > 0);
        assert_int_equal(c.r[regs[i]].len, (size_t)((slabs[i] - 1) * s + 3));
        for (int64_t sl = 0; sl < slabs[i]; sl++)
            for (int64_t j = 0; j < 3; j++)
                assert_true(td_get(&c, regs[i], (size_t)(sl * s + j)) == (double)(100 * i + sl * 5 + j));
    }
    td_case_free(&c);
}

/* td_far_heads moves every named region of a head axis to one far stride (regions
 * sharing a parameter included), copies each head's slab, and refuses interleaved heads
 * leaving the case as it was; td_far_bh_rows keeps H dividing the heads kept. */
static void test_far_heads(void **st) {
    (void)st;
    int64_t H = 21;
    assert_int_equal(td_far_bh_rows(21, &H), 4);
    assert_int_equal(H, 4);
    H = 3;
    assert_int_equal(td_far_bh_rows(6, &H), 3);
    assert_int_equal(H, 3);
    H = 2;
    assert_int_equal(td_far_bh_rows(8, &H), 4);
    H = 1;
    assert_int_equal(td_far_bh_rows(1, &H), 1);
    const td_contract *k = td_contract_find("chunk_retention.crh_fwd_h_exec_genuine");
    assert_non_null(k);
    uint8_t pb[16];
    td_case c;
    td_case_init(&c, k);
    c.grid[0] = c.grid[1] = 1, c.grid[2] = 3;
    c.p[0].i = 10, c.p[3].i = 7; /* s_qk_h, s_vo_h: k heads of 6 elements, v heads of 7 */
    float *kk = td_case_alloc(&c, 0, 30), *vv = td_case_alloc(&c, 1, 21);
    for (int i = 0; i < 30; i++) kk[i] = (float)i;
    for (int i = 0; i < 21; i++) vv[i] = (float)(100 + i);
    td_producer p;
    memset(pb, 0x5a, sizeof pb);
    td_prod_init(&p, pb, sizeof pb);
    const td_far_reg bad[2] = {{0, 0, 6}, {1, 3, 8}}; /* v's heads of 8 at stride 7 interleave */
    assert_int_equal(td_far_heads(&p, &c, 2, 3, bad, 2), 0);
    assert_int_equal(c.p[0].i, 10);
    assert_int_equal(c.grid[2], 3);
    assert_ptr_equal(c.r[0].data, kk);
    const td_far_reg r[2] = {{0, 0, 6}, {1, 3, 7}};
    assert_int_equal(td_far_heads(&p, &c, 2, 4, r, 2), 0); /* more rows than programs */
    assert_int_equal(td_far_heads(&p, &c, 2, 2, r, 2), 1);
    int64_t s = c.p[0].i;
    assert_int_equal(c.p[3].i, s);
    assert_true(s >= TWO31);
    assert_int_equal(c.grid[2], 2);
    assert_true(c.classes & TD_BC(TD_BC_OFFSET_2_31));
    const float *nk = c.r[0].data, *nv = c.r[1].data;
    for (int i = 0; i < 6; i++) assert_true(nk[i] == (float)i && nk[s + i] == (float)(10 + i));
    for (int i = 0; i < 7; i++) assert_true(nv[i] == (float)(100 + i) && nv[s + i] == (float)(107 + i));
    assert_true(nk[s + 6] == 16.0f); /* the slack after the last head kept: k's head 2 follows */
    assert_true(nk[7] == 0.0f);      /* between the heads: untouched pages */
    td_case_free(&c);
}

/* Preconditions that scan a whole input scan a sparse one's written pages: a value
 * outside the domain written into the last (far) row of a far case fails the check,
 * the case as decoded passes it.  (int8_matmul_kernel: A within int8; quant_transpose:
 * A finite; llama_ff_triton: |a| <= 2^10.) */
static void test_far_checks_scan_sparse_rows(void **st) {
    (void)st;
    static const struct {
        const char *id, *stride, *rows;
        int reg;
        double bad;
    } T[] = {{"int8_matmul_kernel.int8_matmul_kernel_exec_genuine", "stride_am", "M", 0, 200.0},
             {"quant_transpose_kernel.quant_transpose_scaled_store_io_correctness", "stride_am", "M", 0, INFINITY},
             {"llama_ff_triton.ff_llama_closed_form_correct", "sam", "M", 0, 4096.0}};
    for (size_t t = 0; t < sizeof T / sizeof T[0]; t++) {
        const td_contract *k = td_contract_find(T[t].id);
        assert_non_null(k);
        int far_cases = 0;
        for (uint64_t i = 0; i < 16; i++) {
            uint8_t b[TD_FAR_MAGIC_LEN + NB];
            char err[512];
            td_case c;
            far_bytes(i, b, 1);
            assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
            if (c.classes & TD_BC(TD_BC_OFFSET_2_31)) {
                far_cases++;
                assert_null(k->check(&c));
                int64_t last = (td_param_i(&c, T[t].rows, -1) - 1) * td_param_i(&c, T[t].stride, -1);
                td_set(&c, T[t].reg, (size_t)last, T[t].bad);
                assert_non_null(k->check(&c));
            }
            td_case_free(&c);
        }
        assert_true(far_cases >= 2);
    }
}

/* td_far_axis: the slabs of every region land at the drawn stride, bit for bit, zeros in
 * between; the stride parameters follow; where one region's slabs interleave (a slab
 * wider than its stride) nothing moves. */
static void test_far_axis_moves_every_region(void **st) {
    (void)st;
    for (int rows = 2; rows <= 3; rows++)
        for (uint64_t seed = 0; seed < 8; seed++) {
            td_case c;
            memset(&c, 0, sizeof c);
            c.r[0].fmt = TD_F32, c.r[1].fmt = TD_F16;
            const int64_t from[2] = {40, 23}, w[2] = {37, 23}; /* region 1: slabs back to back */
            for (int k = 0; k < 2; k++) {
                td_case_alloc(&c, k, (size_t)((rows - 1) * from[k] + w[k]));
                c.p[k].i = from[k];
            }
            for (size_t i = 0; i < c.r[0].len; i++) ((float *)c.r[0].data)[i] = (float)i + 1;
            for (size_t i = 0; i < c.r[1].len; i++) ((uint16_t *)c.r[1].data)[i] = (uint16_t)(i + 7);
            uint8_t b[16];
            td_case_bytes(9, seed, b, sizeof b);
            td_producer p;
            td_prod_init(&p, b, sizeof b);
            const int reg[2] = {0, 1}, sp[2] = {0, 1};
            assert_int_equal(td_far_axis(&p, &c, 2, reg, sp, rows), 2);
            int64_t s = c.p[0].i;
            assert_int_equal(c.p[1].i, s);
            assert_true((rows - 1) * s >= TWO31);
            assert_true(c.classes & TD_BC(TD_BC_OFFSET_2_31));
            for (int k = 0; k < 2; k++) {
                assert_true(c.r[k].mapped > 0);
                assert_int_equal(c.r[k].len, (size_t)((rows - 1) * s + w[k]));
            }
            for (int64_t r = 0; r < rows; r++)
                for (int64_t e = 0; e < w[0]; e++) {
                    assert_true(((float *)c.r[0].data)[r * s + e] == (float)(r * from[0] + e) + 1);
                    if (e < w[1]) assert_int_equal(((uint16_t *)c.r[1].data)[r * s + e], (uint16_t)(r * from[1] + e + 7));
                }
            assert_true(((float *)c.r[0].data)[s / 2] == 0.0f); /* between the slabs: untouched zeros */
            td_case_free(&c);
        }
    /* region 1's slab is wider than its stride (an inner axis): nothing moves */
    td_case c;
    memset(&c, 0, sizeof c);
    c.r[0].fmt = c.r[1].fmt = TD_F32;
    td_case_alloc(&c, 0, 100), td_case_alloc(&c, 1, 100);
    c.p[0].i = 60, c.p[1].i = 30; /* region 0: 2 slabs of 40 at stride 60; region 1: of 70 at stride 30 */
    uint8_t b[16] = {0};
    td_producer p;
    td_prod_init(&p, b, sizeof b);
    const int reg[2] = {0, 1}, sp[2] = {0, 1};
    assert_int_equal(td_far_axis(&p, &c, 2, reg, sp, 2), 0);
    assert_int_equal(td_far_axis(&p, &c, 1, reg, sp, TD_FAR_MAX_ROWS + 1), 0); /* too many rows */
    for (int k = 0; k < 2; k++) {
        assert_int_equal(c.p[k].i, k ? 30 : 60);
        assert_int_equal(c.r[k].len, 100);
        assert_int_equal(c.r[k].mapped, 0);
    }
    assert_false(c.classes & TD_BC(TD_BC_OFFSET_2_31));
    assert_int_equal(td_far_axis(&p, &c, 1, reg, sp, 2), 1); /* region 0 alone moves */
    assert_true(c.p[0].i >= TWO31);
    assert_int_equal(c.r[0].len, (size_t)(c.p[0].i + 40));
    assert_true(c.classes & TD_BC(TD_BC_OFFSET_2_31));
    td_case_free(&c);
    /* two regions at one stride parameter (Acc and Acc2, q and k): both move from it */
    memset(&c, 0, sizeof c);
    c.r[0].fmt = c.r[1].fmt = TD_F32;
    for (int k = 0; k < 2; k++) {
        td_case_alloc(&c, k, 50);
        for (size_t i = 0; i < 50; i++) ((float *)c.r[k].data)[i] = (float)(100 * k + (int)i);
    }
    c.p[0].i = 30; /* 2 slabs of 20 */
    const int one[2] = {0, 0};
    assert_int_equal(td_far_axis(&p, &c, 2, reg, one, 2), 2);
    for (int k = 0; k < 2; k++)
        for (int64_t e = 0; e < 20; e++) {
            assert_true(((float *)c.r[k].data)[e] == (float)(100 * k + e));
            assert_true(((float *)c.r[k].data)[c.p[0].i + e] == (float)(100 * k + 30 + e));
        }
    td_case_free(&c);
}

/* ---- contracts whose far hook moves a batch or head axis of several regions at once
 * (td_far_axis: the attention forward kernels).  The moved axis is the batch or,
 * with one batch, the head axis: its stride is the larger of `stride` and `stride2`
 * after the move, its slab count (len - 1) / stride + 1 of the region `reg` (each slab
 * fits under the far stride). ---- */
typedef struct far_axis_contract {
    const char *id;
    int reg;             /* a region the hook always moves when the case reaches the class */
    const char *stride;  /* its batch stride */
    const char *stride2; /* its head stride, where a case of one batch moves the head axis (or NULL) */
    int no_mut;          /* 1: no mut_offset_int32 (the original forms this offset in int64, or the file's
                          * int32 mutant sits on a sibling contract) */
} far_axis_contract;
static const far_axis_contract FAR_AXIS[] = {
    {"attention_llama.attention_llama_fwd_closed_form_correct", 1, "stride_kz", "stride_kh", 0},
    {"attention_llama.attention_llama_fwd_causal_closed_form_correct", 1, "stride_kz", "stride_kh", 0},
    {"attention_score.attention_score_python_case1_output_summary_general", 0, "stride_qz", "stride_qh", 1},
    {"attention_score.attention_score_case1_io_correctness", 0, "stride_qz", "stride_qh", 1},
    {"block_sparse_attn.block_sparse_attn_output_stores_io_correctness", 0, "stride_acc_b", "stride_acc_h", 1},
    {"block_sparse_attn.block_sparse_attn_output_stores_io_correctnessR", 0, "stride_acc_b", "stride_acc_h", 1},
    {"block_sparse_attn.block_sparse_attn_output_closed_form_summary_general", 2, "skb", NULL, 0},
    {"mixed_sparse_attention.mixed_sparse_attention_output_closed_form_summary_general", 1, "stride_kz", "stride_kh", 0},
    /* AccPre and Out (one layout); the file's int32 mutant sits on the closed form */
    {"mixed_sparse_attention.mixed_sparse_attention_epilogue_io_correctness", 0, "stride_qz", "stride_qh", 1},
    {"parallel_attention.pa_fwd_o_exec_genuine", 0, "s_qk_h", NULL, 0},
    {"seed_fa1.fa1_boundaryD_refines_naive_reference_exec_views", 0, "stride_qb", "stride_qh", 1},
    {"seed_fa1.fa1_causal_boundaryD_refines_naive_reference_exec_views", 0, "stride_qb", "stride_qh", 1},
    {"seed_fa1.naive_reference_correctness", 0, "stride_qb", "stride_qh", 1},
    {"seed_fa1.naive_causal_reference_correctness", 0, "stride_qb", "stride_qh", 1},
    {"seed_fa1.naive_reference_overflow", 0, "stride_qb", "stride_qh", 1},
    /* Input's channel axis (2 to 4 channels), else its batch axis */
    {"triton_conv2d_fwd.conv2d_output_summary", 0, "IBS", "IIFS", 0},
    {"triton_conv2d_fwd.triton_conv2d_fwd_io_correctness", 0, "IBS", "IIFS", 0},
};
#define NFAR_AXIS (sizeof FAR_AXIS / sizeof FAR_AXIS[0])

/* Every contract of table T (n rows) has a far hook and the class; ordinary bytes never
 * reach it, and of `inputs` far inputs at least `least` do, each moving region `reg`'s
 * axis to the larger of the two strides.  An axis table (tile = 0) keeps 2 to
 * TD_FAR_MAX_ROWS rows; a tile table (tile = 1) keeps 16 or more at the least stride whose
 * last row alone passes 2^31, so the region spans less than 2^31 + 2^28 elements. */
static void far_table_reaches(const far_axis_contract *T, size_t n, int tile, uint64_t inputs, int least) {
    for (size_t f = 0; f < n; f++) {
        const far_axis_contract *A = &T[f];
        const td_contract *k = td_contract_find(A->id);
        assert_non_null(k);
        assert_non_null(k->far);
        assert_true(k->classes & TD_BC(TD_BC_OFFSET_2_31));
        int hits = 0;
        for (uint64_t i = 0; i < inputs; i++) {
            uint8_t b[TD_FAR_MAGIC_LEN + NB];
            char err[512];
            td_case c;
            far_bytes(i, b, 0);
            assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
            assert_false(c.classes & TD_BC(TD_BC_OFFSET_2_31));
            td_case_free(&c);
            far_bytes(i, b, 1);
            assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
            if (c.classes & TD_BC(TD_BC_OFFSET_2_31)) {
                hits++;
                int64_t s = td_param_i(&c, A->stride, -1), s2 = A->stride2 ? td_param_i(&c, A->stride2, -1) : 0;
                if (s2 > s) s = s2;
                int64_t rows = (int64_t)(c.r[A->reg].len - 1) / s + 1;
                assert_true((rows - 1) * s >= TWO31);
                assert_true(c.r[A->reg].mapped > 0);
                assert_true(c.r[A->reg].len > (size_t)TWO31);
                if (!tile) assert_true(rows >= 2 && rows <= TD_FAR_MAX_ROWS);
                else {
                    assert_true((rows - 2) * s < TWO31); /* the least such stride: only the last row is beyond */
                    assert_true(rows >= 16);
                    assert_true(c.r[A->reg].len < (size_t)(TWO31 + TWO31 / 8));
                }
            }
            td_case_free(&c);
        }
        if (hits < least) print_message("%s: %d far cases of %d\n", A->id, hits, (int)inputs);
        assert_true(hits >= least);
    }
}

/* The correct ports of table T pass 12 far cases each (3 of them far or more); each
 * mut_offset_int32 fails every far case (an illegal address) and passes ordinary ones. */
static void far_table_ports_and_mutants(const far_axis_contract *T, size_t n) {
    td_kernel_set set;
    char err[256];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    td_ctx_opts o = {0};
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    assert_non_null(cx);
    for (size_t f = 0; f < n; f++) {
        const td_kernel *port = td_kernels_find(&set, T[f].id, NULL, TD_ABI_HOST);
        const td_kernel *mut = td_kernels_find(&set, T[f].id, "mut_offset_int32", TD_ABI_HOST);
        assert_non_null(port);
        if (T[f].no_mut) assert_null(mut);
        else assert_non_null(mut);
        int far_cases = 0;
        for (uint64_t i = 0; i < 12; i++) {
            td_vclass w;
            uint64_t cl;
            assert_int_equal(run_case(cx, port, i, 1, &w, &cl), TD_RUN_OK);
            int far = (cl & TD_BC(TD_BC_OFFSET_2_31)) != 0;
            far_cases += far;
            if (!mut) continue;
            assert_int_equal(run_case(cx, mut, i, 0, &w, &cl), TD_RUN_OK);
            assert_int_equal(run_case(cx, mut, i, 1, &w, &cl), far ? TD_RUN_FINDING : TD_RUN_OK);
            if (far) assert_int_equal(w, TD_VC_LAUNCH);
        }
        if (far_cases < 3) print_message("%s: %d far cases of 12\n", T[f].id, far_cases);
        assert_true(far_cases >= 3);
    }
    assert_true(maxrss_mib() < 1024);
    td_ctx_free(cx);
    td_kernels_close(&set);
}

/* most far inputs have two batches or heads */
static void test_far_axis_contracts_reach_the_class(void **st) {
    (void)st;
    far_table_reaches(FAR_AXIS, NFAR_AXIS, 0, 64, 16);
}

static void test_far_axis_ports_and_mutants(void **st) {
    (void)st;
    far_table_ports_and_mutants(FAR_AXIS, NFAR_AXIS);
}

/* ---- contracts whose tiles read all BLOCK_M rows (or one program's whole block): a
 * tile axis of 16 to 64 rows moved whole to td_far_tile_stride (mm_far_tile, matmul_tma).
 * The moved stride is the larger of `stride` and `stride2` (matmul_tma moves A's rows, or
 * its columns when A is transposed); its row count (len - 1) / stride + 1 of region `reg`
 * may exceed TD_FAR_MAX_ROWS, the address space stays near 2^31 elements. ---- */
static const far_axis_contract FAR_TILE[] = {
    {"iv_dependent_matmul.iv_dependent_matmul_closed_form_correct", 0, "SAM", NULL, 0},
    {"matmul_leakyrelu.matmul_leakyrelu_closed_form_correct", 0, "SAM", NULL, 0},
    {"matmul_leakyrelu_fp8.matmul_leakyrelu_fp8_closed_form_correct", 0, "SAM", NULL, 0},
    {"matmul_triton2.matmul_triton2_output_summary_general", 0, "SAM", NULL, 0},
    {"matmul_triton2.matmul_triton2_io_correctness", 0, "SAM", NULL, 0},
    {"triton_linear_activation.triton_linear_activation_output_summary_general", 2, "a_m_stride", NULL, 0},
    {"triton_linear_activation.triton_linear_activation_io_correctness", 2, "a_m_stride", NULL, 0},
    /* block pointers: make_block_ptr widens the strides to int64, no int32 mutant */
    {"matmul_tma.matmul_tma_f32_closed_form_correct", 0, "stride_am", "stride_ak", 1},
    {"matmul_tma.matmul_tma_f16_closed_form_correct", 0, "stride_am", "stride_ak", 1},
    {"matmul_tma.matmul_tma_f32_io_correctness", 0, "stride_am", "stride_ak", 1},
    {"matmul_tma.matmul_tma_f16_io_correctnessR", 0, "stride_am", "stride_ak", 1},
};
#define NFAR_TILE (sizeof FAR_TILE / sizeof FAR_TILE[0])

/* A row-major A (or matmul_tma's either layout) in a quarter of the far inputs at least */
static void test_far_tile_contracts_reach_the_class(void **st) {
    (void)st;
    far_table_reaches(FAR_TILE, NFAR_TILE, 1, 32, 8);
}

/* td_far_tile_stride: the least stride whose (rows - 1) * stride passes 2^31 + d, d < 65,
 * at least w, for tile axes of 16 to 64 rows. */
static void test_far_tile_stride(void **st) {
    (void)st;
    for (uint64_t i = 0; i < 64; i++) {
        uint8_t b[8];
        td_case_bytes(11, i, b, sizeof b);
        td_producer p;
        td_prod_init(&p, b, sizeof b);
        int64_t rows = 16 << (i % 3), w = i & 1 ? 64 : TWO31;
        int64_t s = td_far_tile_stride(&p, rows, w);
        if (w == TWO31) {
            assert_int_equal(s, TWO31); /* a row wider than the stride: the row itself */
            continue;
        }
        assert_true((rows - 1) * s >= TWO31 && (rows - 1) * s <= TWO31 + 64 + rows - 2);
        assert_true((rows - 1) * (s - 1) < TWO31 + 64);
    }
}

static void test_far_tile_ports_and_mutants(void **st) {
    (void)st;
    far_table_ports_and_mutants(FAR_TILE, NFAR_TILE);
}

/* ---- the fixed launch of Z*H = 8 heads (attention_kernel[_aligned], whose contracts
 * configure Z = 2, H = 4): a far case keeps all 8 heads, more than TD_FAR_MAX_ROWS, at the
 * least head stride whose 7 steps pass 2^31 (an int32 stride: region Q spans about 2^31
 * elements, not 7 * 2^31).  Every far input reaches the class, the ports pass, and
 * mut_offset_int32 (q_offset = off_hz * stride_qh in int32) fails every far case with an
 * illegal address and passes the ordinary ones. ---- */
static const char *const FAR_8HEADS[] = {
    "attention_kernel.attention_kernel_genuine_output_compute_correct_general",
    "attention_kernel.attention_kernel_io_correctness",
    "attention_kernel_aligned.attention_kernel_aligned_output_summary_general",
    "attention_kernel_aligned.attention_kernel_aligned_io_correctness",
};
static void test_far_eight_heads(void **st) {
    (void)st;
    td_kernel_set set;
    char err[512];
    assert_int_equal(td_kernels_bind(td_builtin_host_table(), "built-in", &set, err, sizeof err), TD_LOAD_OK);
    td_ctx_opts o = {0};
    td_ctx *cx = td_ctx_new(&o, err, sizeof err);
    assert_non_null(cx);
    for (size_t f = 0; f < sizeof FAR_8HEADS / sizeof FAR_8HEADS[0]; f++) {
        const td_contract *k = td_contract_find(FAR_8HEADS[f]);
        const td_kernel *port = td_kernels_find(&set, FAR_8HEADS[f], NULL, TD_ABI_HOST);
        const td_kernel *mut = td_kernels_find(&set, FAR_8HEADS[f], "mut_offset_int32", TD_ABI_HOST);
        assert_non_null(k), assert_non_null(port), assert_non_null(mut);
        assert_non_null(k->far);
        assert_true(k->classes & TD_BC(TD_BC_OFFSET_2_31));
        for (uint64_t i = 0; i < 12; i++) {
            uint8_t b[TD_FAR_MAGIC_LEN + NB];
            td_case c;
            far_bytes(i, b, 1);
            assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
            int64_t s = td_param_i(&c, "stride_qh", -1);
            assert_true(c.classes & TD_BC(TD_BC_OFFSET_2_31));
            assert_int_equal(c.grid[1], 8);
            assert_true(7 * s >= TWO31 && 6 * s < TWO31); /* the last head alone past 2^31 */
            assert_true(c.r[0].mapped > 0);
            assert_true(c.r[0].len > (size_t)TWO31 && c.r[0].len < (size_t)TWO31 + 4096);
            td_case_free(&c);
            far_bytes(i, b, 0);
            assert_int_equal(td_decode_case(k, b, sizeof b, &c, err, sizeof err), 0);
            assert_false(c.classes & TD_BC(TD_BC_OFFSET_2_31));
            td_case_free(&c);
            td_vclass w;
            uint64_t cl;
            assert_int_equal(run_case(cx, port, i, 1, &w, &cl), TD_RUN_OK);
            assert_int_equal(run_case(cx, mut, i, 0, &w, &cl), TD_RUN_OK);
            assert_int_equal(run_case(cx, mut, i, 1, &w, &cl), TD_RUN_FINDING);
            assert_int_equal(w, TD_VC_LAUNCH);
        }
    }
    assert_true(maxrss_mib() < 1024);
    td_ctx_free(cx);
    td_kernels_close(&set);
}

/* td_far_move_param_axis_all: Q, K, V and an output laid out alike at token-major strides
 * (token 7, head 3, dim 1: the heads interleave) move their head axis to ONE far stride,
 * every element where the new strides put it, the parameters written back once; one head
 * (nothing to move) or an implicit stride on the moved axis leaves the case unchanged. */
static void test_far_move_param_axis_all(void **st) {
    (void)st;
    td_case c;
    memset(&c, 0, sizeof c);
    const int regs[3] = {0, 1, 2}, ps[3] = {0, 1, -1};
    for (int r = 0; r < 3; r++) {
        c.r[r].fmt = TD_F32;
        float *x = td_case_alloc(&c, r, 4 * 7 + 1 * 3 + 2 + 1); /* 5 tokens, 2 heads, 3 dims, padded rows */
        for (int e = 0; e < 4 * 7 + 6; e++) x[e] = (float)(100 * r + e);
    }
    c.p[0].i = 7, c.p[1].i = 3;
    uint8_t bytes[8] = {2, 7, 1, 8, 2, 8, 1, 8};
    td_producer p;
    td_prod_init(&p, bytes, sizeof bytes);
    const int64_t one[3] = {5, 1, 3}, n[3] = {5, 2, 3};
    assert_int_equal(td_far_move_param_axis_all(&p, &c, regs, 3, 3, one, ps, 1), 0);
    const int implicit[3] = {0, -1, 1};
    assert_int_equal(td_far_move_param_axis_all(&p, &c, regs, 3, 3, n, implicit, 1), 0);
    assert_int_equal(c.p[0].i, 7), assert_int_equal(c.p[1].i, 3);
    assert_false(c.classes & TD_BC(TD_BC_OFFSET_2_31));
    assert_int_equal(td_far_move_param_axis_all(&p, &c, regs, 3, 3, n, ps, 1), 1);
    int64_t rs = c.p[0].i, hs = c.p[1].i;
    assert_int_equal(rs, 3); /* the tokens packed, dims contiguous */
    assert_true(hs >= TWO31);
    assert_true(c.classes & TD_BC(TD_BC_OFFSET_2_31) && c.classes & TD_BC(TD_BC_STRIDE_GT_ROW));
    for (int r = 0; r < 3; r++) {
        const float *y = c.r[r].data;
        assert_true(c.r[r].mapped > 0);
        assert_int_equal(c.r[r].len, (size_t)(hs + 15));
        for (int64_t t = 0; t < 5; t++)
            for (int64_t h = 0; h < 2; h++)
                for (int64_t d = 0; d < 3; d++) assert_true(y[t * rs + h * hs + d] == (float)(100 * r + t * 7 + h * 3 + d));
    }
    td_case_free(&c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_far_heads),
        cmocka_unit_test(test_far_slabs),
        cmocka_unit_test(test_far_checks_scan_sparse_rows),
        cmocka_unit_test(test_far_axis_moves_every_region),
        cmocka_unit_test(test_far_tier_reaches_the_class),
        cmocka_unit_test(test_far_rows_n),
        cmocka_unit_test(test_campaign_far_cases),
        cmocka_unit_test(test_far_move_rows),
        cmocka_unit_test(test_far_reslab),
        cmocka_unit_test(test_far_move_axis),
        cmocka_unit_test(test_far_move_param_axis),
        cmocka_unit_test(test_int32_offset_mutants_killed),
        cmocka_unit_test(test_ports_pass_far_cases),
        cmocka_unit_test(test_sparse_image_checks),
        cmocka_unit_test(test_sparse_output_checks),
        cmocka_unit_test(test_sparse_inout_checks),
        cmocka_unit_test(test_restride_all),
        cmocka_unit_test(test_device_staging_of_sparse_images),
        cmocka_unit_test(test_device_staging_of_inout_regions),
        cmocka_unit_test(test_far_axis_contracts_reach_the_class),
        cmocka_unit_test(test_far_axis_ports_and_mutants),
        cmocka_unit_test(test_far_tile_stride),
        cmocka_unit_test(test_far_tile_contracts_reach_the_class),
        cmocka_unit_test(test_far_tile_ports_and_mutants),
        cmocka_unit_test(test_far_move_param_axis_all),
        cmocka_unit_test(test_far_eight_heads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
