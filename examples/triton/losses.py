"""Cross-entropy forward over a split vocabulary: program (row, column block) stores the
block's log-sum-exp and its share of the row's loss."""
import triton
import triton.language as tl


@triton.jit
def ce_fwd_kernel(loss_ptr, lse_ptr, logits_ptr, labels_ptr, smoothing, lse_square_scale, ignored_index,
                  total_classes, class_start_idx, n_cols, n_rows, logits_row_stride,
                  BLOCK_SIZE: tl.constexpr, HAS_SMOOTHING: tl.constexpr, SPLIT: tl.constexpr,
                  BUG_LABEL_SHIFT: tl.constexpr = False):
    row = tl.program_id(0)
    blk = tl.program_id(1)
    base = logits_ptr + row * logits_row_stride
    cols = blk * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    valid = cols < n_cols
    x = tl.load(base + cols, mask=valid, other=-float("inf")).to(tl.float32)
    m = tl.max(x, 0)
    lse = m + tl.log(tl.sum(tl.exp(x - m), 0))
    out = blk * n_rows + row
    tl.store(lse_ptr + out, lse)
    # the LSE term of this block's loss: the full LSE unless the caller sums split blocks
    own = 0.0 if SPLIT else lse
    label = tl.load(labels_ptr + row)
    loss = 0.0
    if label != ignored_index:
        local = label - class_start_idx
        if BUG_LABEL_SHIFT:
            local = label  # planted bug: class_start_idx is not subtracted
        in_block = (local >= blk * BLOCK_SIZE) & (local < tl.minimum(n_cols, (blk + 1) * BLOCK_SIZE))
        if HAS_SMOOTHING:
            total = tl.sum(tl.where(valid, x, 0.0), 0)
            if in_block:
                xl = tl.load(base + local).to(tl.float32)
                loss = (own - smoothing * total / total_classes) - (1 - smoothing) * xl
            else:
                loss = smoothing * (own - total / total_classes)
        else:
            if in_block:
                loss = own - tl.load(base + local).to(tl.float32)
        if not SPLIT:
            loss += lse_square_scale * lse * lse
    tl.store(loss_ptr + out, loss)
