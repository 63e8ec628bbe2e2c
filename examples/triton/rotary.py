"""Rotary position embedding: the row slice of a flash-attn style rotary kernel that the
rotary_transform statements speak of (one row per program: rm = pid_m * BLOCK_M), with
varlen batches through cu_seqlens and a scalar position offset into the cos/sin tables."""
import triton
import triton.language as tl


@triton.jit
def rotary_row_kernel(OUT, X, COS, SIN, CU_SEQLENS, head, pos_offset, seqlen, rdh, seqlen_ro,
                      s_ob, s_os, s_oh, s_od, s_xb, s_xs, s_xh, s_xd,
                      BLOCK_M: tl.constexpr, BLOCK_HALF: tl.constexpr, IS_VARLEN: tl.constexpr,
                      BUG_NO_OFFSET: tl.constexpr = False):
    pid_m = tl.program_id(0)
    seq = tl.program_id(1)
    if IS_VARLEN:
        first = tl.load(CU_SEQLENS + seq)
        length = tl.load(CU_SEQLENS + seq + 1) - first
        x_row0 = X + first * s_xs + head * s_xh
        o_row0 = OUT + first * s_os + head * s_oh
    else:
        length = seqlen
        x_row0 = X + seq * s_xb + head * s_xh
        o_row0 = OUT + seq * s_ob + head * s_oh
    row = pid_m * BLOCK_M
    d = tl.arange(0, BLOCK_HALF)
    # the row tests as blocks (d * 0 broadcasts the scalar row over the lanes)
    live = (row + d * 0 < length) & (d < rdh)
    if BUG_NO_OFFSET:
        # planted bug: the position offset is ignored, every sequence starts at table row 0
        t = row
    else:
        t = row + pos_offset
    in_table = (t + d * 0 < seqlen_ro) & (d < rdh)
    c = tl.load(COS + t * rdh + d, mask=in_table, other=1.0)
    s = tl.load(SIN + t * rdh + d, mask=in_table, other=0.0)
    lo = tl.load(x_row0 + row * s_xs + d * s_xd, mask=live, other=0.0)
    hi = tl.load(x_row0 + row * s_xs + (d + rdh) * s_xd, mask=live, other=0.0)
    tl.store(o_row0 + row * s_os + d * s_od, lo * c - hi * s, mask=live)
    tl.store(o_row0 + row * s_os + (d + rdh) * s_od, lo * s + hi * c, mask=live)
