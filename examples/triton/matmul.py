"""Tiled GEMM kernels: grouped program order, clamped edge rows/columns, fp32 accumulation
with tl.dot, the store cast to C's element type (fp16 or fp8 e4m3)."""
import triton
import triton.language as tl


@triton.jit
def _tile_ids(pid, M, N, BM: tl.constexpr, BN: tl.constexpr, GM: tl.constexpr):
    # GM row-tiles form a group; programs walk a group column by column
    tiles_m = tl.cdiv(M, BM)
    tiles_n = tl.cdiv(N, BN)
    per_group = GM * tiles_n
    first_m = (pid // per_group) * GM
    rows_in_group = tl.minimum(tiles_m - first_m, GM)
    return first_m + pid % rows_in_group, (pid % per_group) // rows_in_group


@triton.jit
def gemm_kernel(A, B, C, M, N, sam, sak, sbk, sbn, scm, scn,
                BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GM: tl.constexpr, NUM_KB: tl.constexpr):
    pid_m, pid_n = _tile_ids(tl.program_id(0), M, N, BM, BN, GM)
    rows = pid_m * BM + tl.arange(0, BM)
    cols = pid_n * BN + tl.arange(0, BN)
    # rows/columns past the edge read row/column 0 (in bounds); their results are masked
    ra = tl.where(rows < M, rows, 0)
    cb = tl.where(cols < N, cols, 0)
    ks = tl.arange(0, BK)
    a_ptrs = A + ra[:, None] * sam + ks[None, :] * sak
    b_ptrs = B + ks[:, None] * sbk + cb[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, NUM_KB):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    c = acc.to(C.dtype.element_ty)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    tl.store(C + rows[:, None] * scm + cols[None, :] * scn, c, mask=mask)


@triton.jit
def gemm_kernel_bug_lastk(A, B, C, M, N, sam, sak, sbk, sbn, scm, scn,
                          BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GM: tl.constexpr,
                          NUM_KB: tl.constexpr):
    # planted bug: the K loop stops one block early when there is more than one
    pid_m, pid_n = _tile_ids(tl.program_id(0), M, N, BM, BN, GM)
    rows = pid_m * BM + tl.arange(0, BM)
    cols = pid_n * BN + tl.arange(0, BN)
    ra = tl.where(rows < M, rows, 0)
    cb = tl.where(cols < N, cols, 0)
    ks = tl.arange(0, BK)
    a_ptrs = A + ra[:, None] * sam + ks[None, :] * sak
    b_ptrs = B + ks[:, None] * sbk + cb[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for _ in range(0, tl.maximum(NUM_KB - 1, 1)):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    c = acc.to(C.dtype.element_ty)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    tl.store(C + rows[:, None] * scm + cols[None, :] * scn, c, mask=mask)
