"""Row-wise softmax and normalisation kernels (one program per row, one tile)."""
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)  # row * stride passes 2^31 on large tensors
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(input_ptr + row * input_row_stride + cols, mask=mask, other=-float("inf"))
    z = x - tl.max(x, axis=0)
    num = tl.exp(z)
    den = tl.sum(num, axis=0)
    tl.store(output_ptr + row * output_row_stride + cols, num / den, mask=mask)


@triton.jit
def softmax_kernel_bug_nomax(output_ptr, input_ptr, input_row_stride, output_row_stride, n_cols,
                             BLOCK_SIZE: tl.constexpr):
    # planted bug: masked lanes load 0 instead of -inf, so they join the sum as exp(0 - max)
    row = tl.program_id(0).to(tl.int64)  # row * stride passes 2^31 on large tensors
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(input_ptr + row * input_row_stride + cols, mask=mask, other=0.0)
    z = x - tl.max(x, axis=0)
    num = tl.exp(z)
    den = tl.sum(num, axis=0)
    tl.store(output_ptr + row * output_row_stride + cols, num / den, mask=mask)


@triton.jit
def rms_norm_kernel(Y, X, W, y_stride_r, y_stride_c, x_stride_r, x_stride_c, N, eps, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)  # pid * stride passes 2^31 on large tensors
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    x = tl.load(X + pid * x_stride_r + cols * x_stride_c, mask=mask, other=0.0).to(tl.float32)
    var = tl.sum(x * x, axis=0) / N
    rrms = 1 / tl.sqrt(var + eps)
    w = tl.load(W + cols, mask=mask, other=0.0)
    y = (x * rrms).to(Y.dtype.element_ty) * w
    tl.store(Y + pid * y_stride_r + cols * y_stride_c, y, mask=mask)


@triton.jit
def rms_norm_kernel_bug_count(Y, X, W, y_stride_r, y_stride_c, x_stride_r, x_stride_c, N, eps,
                              BLOCK_SIZE: tl.constexpr):
    # planted bug: the mean of squares divides by the padded tile width, not N
    pid = tl.program_id(0).to(tl.int64)  # pid * stride passes 2^31 on large tensors
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    x = tl.load(X + pid * x_stride_r + cols * x_stride_c, mask=mask, other=0.0).to(tl.float32)
    var = tl.sum(x * x, axis=0) / BLOCK_SIZE
    rrms = 1 / tl.sqrt(var + eps)
    w = tl.load(W + cols, mask=mask, other=0.0)
    y = (x * rrms).to(Y.dtype.element_ty) * w
    tl.store(Y + pid * y_stride_r + cols * y_stride_c, y, mask=mask)


@triton.jit
def layernorm_fwd_kernel(Y, X, W, b, r, mu, Y_row_stride, X_row_stride, n_cols, eps, BLOCK_SIZE: tl.constexpr,
                         BUG_NO_BIAS: tl.constexpr = False):
    # The catalogued kernel (its contract says so, contracts/fast_layernorm.c): the padding
    # lanes hold x = 0, so their deviation -mean enters the variance sum; the contract's
    # variance keeps that term.
    row = tl.program_id(0).to(tl.int64)  # row * stride passes 2^31 on large tensors
    cols = tl.arange(0, BLOCK_SIZE)
    m = cols < n_cols
    x = tl.load(X + row * X_row_stride + cols, mask=m, other=0.0).to(tl.float32)
    w = tl.load(W + cols, mask=m, other=0.0).to(tl.float32)
    bias = tl.load(b + cols, mask=m, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    d = x - mean
    var = tl.sum(d * d, axis=0) / n_cols
    inv = tl.math.rsqrt(var + eps)
    tl.store(r + row, inv)
    tl.store(mu + row, mean)
    y = d * inv * w
    if not BUG_NO_BIAS:
        y = y + bias
    tl.store(Y + row * Y_row_stride + cols, y, mask=m)
