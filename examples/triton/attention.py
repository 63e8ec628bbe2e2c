"""Attention forward with per-block quantisation scales (SageAttention style): online
softmax in base 2, the P.V product of each key block rounded to fp16 once."""
import triton
import triton.language as tl


@triton.jit
def attn_fwd_kernel(Q, K, V, Q_scale, K_scale, Out, stride_qz, stride_qh, H, HEAD_DIM, HEAD_ACTIVE,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_DMODEL: tl.constexpr,
                    NUM_KV: tl.constexpr, BUG_NO_RESCALE: tl.constexpr = False):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    n_ctx = BLOCK_N * NUM_KV
    base = (off_hz // H) * stride_qz + (off_hz % H) * stride_qh
    rows = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    keys = tl.arange(0, BLOCK_N)
    lanes = tl.arange(0, BLOCK_DMODEL)
    lane_ok = lanes < HEAD_ACTIVE
    q_mask = (rows[:, None] < n_ctx) & lane_ok[None, :]
    q = tl.load(Q + base + rows[:, None] * HEAD_DIM + lanes[None, :], mask=q_mask, other=0.0)
    q_scale = tl.load(Q_scale + off_hz * tl.cdiv(n_ctx, BLOCK_M) + start_m)
    m_i = tl.full((BLOCK_M,), -float("inf"), tl.float32)
    l_i = tl.full((BLOCK_M,), 1.0, tl.float32)
    acc = tl.zeros((BLOCK_M, BLOCK_DMODEL), tl.float32)
    for blk in range(0, NUM_KV):
        kv_rows = blk * BLOCK_N + keys
        k_t = tl.load(K + base + kv_rows[None, :] * HEAD_DIM + lanes[:, None], mask=lane_ok[:, None], other=0.0)
        k_scale = tl.load(K_scale + off_hz * tl.cdiv(n_ctx, BLOCK_N) + blk)
        s = tl.dot(q, k_t) * q_scale * k_scale
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        if BUG_NO_RESCALE:
            alpha = alpha * 0.0 + 1.0  # planted bug: earlier blocks are not rescaled to the new max
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + base + kv_rows[:, None] * HEAD_DIM + lanes[None, :], mask=lane_ok[None, :], other=0.0)
        # the block's P.V in fp32, rounded to fp16 once (what out_dtype=fp16 computes on a GPU)
        pv = tl.dot(p.to(tl.float16), v).to(tl.float16)
        acc = acc * alpha[:, None] + pv
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(Out + base + rows[:, None] * HEAD_DIM + lanes[None, :], out.to(Out.dtype.element_ty), mask=q_mask)
