"""tilediff's Triton examples: real Triton kernels (elementwise.py, norms.py, ...) registered
as implementations of catalogue contracts, each with a planted-bug twin.

    tilediff certify --kernels examples/triton/kernels.py
    tilediff run --kernels examples/triton/kernels.py --kernel bug_tail add_example.add_kernel_correctness
"""
import triton

import tilediff_triton as td

import attention
import decode
import elementwise as ew
import losses
import matmul
import norms
import rotary


def cdiv(a, b):
    return triton.cdiv(a, b)


# ---- elementwise ----
@td.kernel("add_example.add_kernel_correctness")
def add(grid, p, r):
    ew.add_kernel[grid](r.in_ptr0, r.in_ptr1, r.out_ptr, p.n_elements, BLOCK_SIZE=p.BLOCK_SIZE)


@td.kernel("add_example.add_kernel_correctness", variant="bug_tail", mutant="the mask drops the last element")
def add_bug(grid, p, r):
    ew.add_kernel_bug_tail[grid](r.in_ptr0, r.in_ptr1, r.out_ptr, p.n_elements, BLOCK_SIZE=p.BLOCK_SIZE)


@td.kernel("relu_triton_kernel.relu_kernel_correctness")
def relu(grid, p, r):
    ew.relu_kernel[grid](r.x_ptr, r.out_ptr, p.N, block_size=p.block_size)


@td.kernel("relu_triton_kernel.relu_kernel_correctness", variant="bug_inverted", mutant="x <= 0 instead of x >= 0")
def relu_bug(grid, p, r):
    ew.relu_kernel_bug_strict[grid](r.x_ptr, r.out_ptr, p.N, block_size=p.block_size)


# ---- softmax and norms ----
@td.kernel("softmax_triton1.softmax_kernel_correctness")
def softmax(grid, p, r):
    norms.softmax_kernel[grid](r.output_ptr, r.input_ptr, p.input_row_stride, p.output_row_stride, p.n_cols,
                               BLOCK_SIZE=p.BLOCK_SIZE)


@td.kernel("softmax_triton1.softmax_kernel_correctness", variant="bug_other0", mutant="masked lanes load 0, not -inf")
def softmax_bug(grid, p, r):
    norms.softmax_kernel_bug_nomax[grid](r.output_ptr, r.input_ptr, p.input_row_stride, p.output_row_stride,
                                         p.n_cols, BLOCK_SIZE=p.BLOCK_SIZE)


@td.kernel("rms_norm_triton.rms_norm_kernel_correctness")
def rms_norm(grid, p, r):
    norms.rms_norm_kernel[grid](r.Y, r.X, r.W, p.y_stride_r, p.y_stride_c, p.x_stride_r, p.x_stride_c, p.N, p.eps,
                                BLOCK_SIZE=p.BLOCK_SIZE)


@td.kernel("rms_norm_triton.rms_norm_kernel_correctness", variant="bug_count", mutant="mean over BLOCK_SIZE, not N")
def rms_norm_bug(grid, p, r):
    norms.rms_norm_kernel_bug_count[grid](r.Y, r.X, r.W, p.y_stride_r, p.y_stride_c, p.x_stride_r, p.x_stride_c, p.N,
                                          p.eps, BLOCK_SIZE=p.BLOCK_SIZE)


@td.kernel("swiglu_fwd.swiglu_fwd_kernel_correctness")
def swiglu(grid, p, r):
    ew.swiglu_fwd_kernel[grid](r.X, r.Y, r.OUT, p.stride_x_row, p.stride_y_row, p.stride_out_row, p.ncols,
                               BLOCK_N=p.BLOCK_N)


@td.kernel("swiglu_fwd.swiglu_fwd_kernel_correctness", variant="bug_no_gate", mutant="x * y instead of silu(x) * y")
def swiglu_bug(grid, p, r):
    ew.swiglu_fwd_kernel[grid](r.X, r.Y, r.OUT, p.stride_x_row, p.stride_y_row, p.stride_out_row, p.ncols,
                               BLOCK_N=p.BLOCK_N, BUG_NO_GATE=True)


# The autotuned kernel picks its own block size: the grid comes from the config, as a
# caller of an autotuned kernel writes it (the contract's BLOCK_SIZE is not used).
def _sin_grid(n):
    return lambda meta: (cdiv(n, meta["BLOCK_SIZE"]),)


@td.kernel("sin_kernel.kernel_function_correctness", autotune=ew.sin_kernel)
def sin(grid, p, r):
    ew.sin_kernel[_sin_grid(p.n_elements)](r.x_ptr, r.output_ptr, p.n_elements)


@td.kernel("sin_kernel.kernel_function_correctness", variant="bug_shift", mutant="sin(x + 1e-3)", autotune=ew.sin_kernel)
def sin_bug(grid, p, r):
    ew.sin_kernel[_sin_grid(p.n_elements)](r.x_ptr, r.output_ptr, p.n_elements, BUG_SHIFT=True)


# ---- cross-entropy ----
@td.kernel("cross_entropy1.cross_entropy_fwd_correctness")
def cross_entropy(grid, p, r):
    losses.ce_fwd_kernel[grid](r.loss_ptr, r.lse_ptr, r.logits_ptr, r.labels_ptr, p.smoothing, p.lse_square_scale,
                               p.ignored_index, p.total_classes, p.class_start_idx, p.n_cols, p.n_rows,
                               p.logits_row_stride, BLOCK_SIZE=p.BLOCK_SIZE, HAS_SMOOTHING=p.HAS_SMOOTHING,
                               SPLIT=p.SPLIT)


@td.kernel("cross_entropy1.cross_entropy_fwd_correctness", variant="bug_label_shift",
           mutant="class_start_idx is not subtracted from the label")
def cross_entropy_bug(grid, p, r):
    losses.ce_fwd_kernel[grid](r.loss_ptr, r.lse_ptr, r.logits_ptr, r.labels_ptr, p.smoothing, p.lse_square_scale,
                               p.ignored_index, p.total_classes, p.class_start_idx, p.n_cols, p.n_rows,
                               p.logits_row_stride, BLOCK_SIZE=p.BLOCK_SIZE, HAS_SMOOTHING=p.HAS_SMOOTHING,
                               SPLIT=p.SPLIT, BUG_LABEL_SHIFT=True)


# ---- matmul: fp16 and fp8 e4m3 operands, fp32 accumulation ----
def _gemm(kernel, grid, p, r):
    kernel[grid](r.A, r.B, r.C, p.M, p.N, p.sam, p.sak, p.sbk, p.sbn, p.scm, p.scn, BM=p.BM, BN=p.BN, BK=p.BLOCK_K,
                 GM=p.GM, NUM_KB=p.numKBlocks)


for _dt in ("f16", "f8"):
    _id = f"triton_matmul.triton_matmul_{_dt}_closed_form_correct"
    td.kernel(_id)(lambda grid, p, r: _gemm(matmul.gemm_kernel, grid, p, r))
    td.kernel(_id, variant="bug_last_k", mutant="the K loop skips the last block")(
        lambda grid, p, r: _gemm(matmul.gemm_kernel_bug_lastk, grid, p, r))


# ---- flash decoding, stage 2: the normalisation store ----
def _decode(grid, p, r, bug):
    decode.decode_normalize_kernel[grid](r.Acc, r.SumExp, r.O, p.stride_acc_b, p.stride_acc_h, p.stride_acc_d,
                                         p.stride_sum_b, p.stride_sum_h, p.stride_obs, p.stride_oh, p.stride_od,
                                         BLOCK_DMODEL=p.BLOCK_DMODEL, BUG_SUM_ROW=bug)


_DEC = "flash_decode2_llama.flash_decode2_llama_normalization_output_summary_general"
td.kernel(_DEC)(lambda grid, p, r: _decode(grid, p, r, False))
td.kernel(_DEC, variant="bug_sum_row", mutant="SumExp read without the head offset")(
    lambda grid, p, r: _decode(grid, p, r, True))


# ---- layer norm ----
def _layernorm(grid, p, r, bug):
    norms.layernorm_fwd_kernel[grid](r.Y, r.X, r.W, r.bias, r.r, r.mu, p.Y_row_stride, p.X_row_stride, p.n_cols,
                                     p.eps, BLOCK_SIZE=p.BLOCK_SIZE, BUG_NO_BIAS=bug)


td.kernel("fast_layernorm.layernorm_forward_correctness")(lambda grid, p, r: _layernorm(grid, p, r, False))
td.kernel("fast_layernorm.layernorm_forward_correctness", variant="bug_no_bias",
          mutant="the bias is never added")(lambda grid, p, r: _layernorm(grid, p, r, True))


# ---- attention forward ----
def _attn(grid, p, r, bug):
    attention.attn_fwd_kernel[grid](r.Q, r.K, r.V, r.Q_scale, r.K_scale, r.Out, p.stride_qz, p.stride_qh, p.H,
                                    p.HEAD_DIM, p.HEAD_ACTIVE, BLOCK_M=p.BLOCK_M, BLOCK_N=p.BLOCK_N,
                                    BLOCK_DMODEL=p.BLOCK_DMODEL, NUM_KV=p.numKVBlocks, BUG_NO_RESCALE=bug)


_ATT = "attention_forward_triton.attention_forward_triton_closed_form_correct"
td.kernel(_ATT)(lambda grid, p, r: _attn(grid, p, r, False))
td.kernel(_ATT, variant="bug_no_rescale", mutant="the accumulator is not rescaled when the row max grows")(
    lambda grid, p, r: _attn(grid, p, r, True))


# ---- rotary: the metadata statement (varlen through cu_seqlens, head HEAD_IDX) ----
_ROT = "rotary_transform.rotary_transform_meta_implements"


def _rotary(grid, p, r, bug):
    rotary.rotary_row_kernel[grid](r.OUT, r.X, r.COS, r.SIN, r.CU_SEQLENS, p.HEAD_IDX, p.SEQLEN_OFFSETS, p.seqlen,
                                   p.rotary_dim_half, p.seqlen_ro, p.stride_out_batch, p.stride_out_seqlen,
                                   p.stride_out_nheads, p.stride_out_headdim, p.stride_x_batch, p.stride_x_seqlen,
                                   p.stride_x_nheads, p.stride_x_headdim, BLOCK_M=p.BLOCK_M, BLOCK_HALF=p.BLOCK_HALF,
                                   IS_VARLEN=bool(p.IS_VARLEN), BUG_NO_OFFSET=bug)


td.kernel(_ROT)(lambda grid, p, r: _rotary(grid, p, r, False))
td.kernel(_ROT, variant="bug_no_offset", mutant="SEQLEN_OFFSETS ignored: cos/sin read at table row rm")(
    lambda grid, p, r: _rotary(grid, p, r, True))
