"""Stage 2 of flash decoding: the normalisation of the accumulated output, one program per
(batch, head), stored as fp16."""
import triton
import triton.language as tl


@triton.jit
def decode_normalize_kernel(Acc, SumExp, O, stride_acc_b, stride_acc_h, stride_acc_d, stride_sum_b, stride_sum_h,
                            stride_obs, stride_oh, stride_od, BLOCK_DMODEL: tl.constexpr,
                            BUG_SUM_ROW: tl.constexpr = False):
    b = tl.program_id(0)
    h = tl.program_id(1)
    d = tl.arange(0, BLOCK_DMODEL)
    acc = tl.load(Acc + b * stride_acc_b + h * stride_acc_h + d * stride_acc_d)
    if BUG_SUM_ROW:
        s = tl.load(SumExp + b * stride_sum_b)  # planted bug: the head's offset is dropped
    else:
        s = tl.load(SumExp + b * stride_sum_b + h * stride_sum_h)
    tl.store(O + b * stride_obs + h * stride_oh + d * stride_od, (acc / s).to(O.dtype.element_ty))
