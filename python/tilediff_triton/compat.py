"""Shims for Triton interpreter behaviour that real kernel files trip over.

String annotations: a parameter written `BLOCK: "tl.constexpr"` reaches the
interpreter's GridExecutor as the annotation "'tl.constexpr'" (the interpreter
re-executes the kernel's source, which quotes the string once more), so the parameter
is not recognised as a constexpr and `tl.arange(0, BLOCK)` fails.  Compiled Triton
reads the same annotation correctly.  We strip the extra quotes before Triton
normalises the annotation.

Scalar masks: `tl.load(block_ptrs, mask=pid < n)` (a scalar condition over a block of
pointers) reaches the interpreter's masked load/store as an int32 array of 0/1 after the
splat, and its C++ helper rejects it ("mask has unsupported dtype"); compiled Triton
broadcasts the i1 scalar.  The mask is an i1 value either way, so it is handed on as
numpy bool (nonzero = true).

`and` / `or` on tensors: compiled Triton's code generator turns `a and b` into
logical_and(a, b) elementwise (with a deprecation warning; constexpr operands still
short-circuit).  The interpreter runs the kernel's source as Python, where `and` calls
bool() on the first block (all() of it) and returns one operand unchanged: upstream
log_softmax's `mask = m_offset[:, None] < M and n_offset[None, :] < N` became a mask of
the wrong shape and the interpreter aborted the process.  The interpreter already
rewrites the kernel's AST (chained comparisons); `_install_boolops` adds `and`/`or`,
evaluated lazily with compiled Triton's rule.

No active driver: kernel files often ask Triton's driver about the device at import
(`triton.runtime.driver.active.get_current_target().backend == "cuda"` to pick autotune
configs, `driver.active.utils.get_device_properties(dev)["multiprocessor_count"]` to size
a persistent grid).  Under the interpreter Triton has no active driver and the property
raises ("0 active drivers"), so the file cannot even be imported.  `_install_driver`
makes a host-backend stand-in the active driver (see HostDriver), only in interpreter
mode (TRITON_INTERPRET=1, which the bridge sets for --backend host only), so compiled
Triton (--backend cuda) always sees the real driver."""


def install():
    _install_driver()
    _install_annotations()
    _install_masks()
    _install_boolops()


def _boolop(is_and, *thunks):
    """compiled Triton's `and`/`or` (code_generator._apply_boolean_values): a non-tensor
    operand short-circuits as in Python, tensor operands combine elementwise."""
    import triton.language as tl
    tensors, value = [], None
    for thunk in thunks:
        value = thunk()
        if not isinstance(value, tl.tensor):
            if bool(value) != is_and:
                return value
        else:
            tensors.append(value)
    if not tensors:
        return value
    while len(tensors) >= 2:
        rhs, lhs = tensors.pop(), tensors.pop()
        tensors.append(lhs.logical_and(rhs) if is_and else lhs.logical_or(rhs))
    return tensors[0]


def _install_boolops():
    import ast
    from triton.runtime import interpreter
    tr = interpreter.ASTTransformer
    if getattr(tr, "_tilediff_boolop", False):
        return

    def visit_BoolOp(self, node):
        node = self.generic_visit(node)
        thunks = [ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[],
                                                defaults=[]), body=v) for v in node.values]
        call = ast.Call(func=ast.Name(id="_tilediff_boolop", ctx=ast.Load()),
                        args=[ast.Constant(value=isinstance(node.op, ast.And))] + thunks, keywords=[])
        return ast.copy_location(call, node)

    # the rewritten kernel's globals receive the interpreter module's names
    interpreter._tilediff_boolop = _boolop
    tr.visit_BoolOp = visit_BoolOp
    tr._tilediff_boolop = True


class HostDriver:
    """A stand-in for Triton's active driver under the interpreter (host backend).

    It describes a nominal device, an NVIDIA H100 (compute capability 9.0), because the
    catalogue's kernels were written for CUDA GPUs and their host code picks CUDA configs
    when the target says "cuda"; the interpreter runs whichever config the registration
    pins, so these numbers only steer a kernel file's own host-side choices (config
    lists, persistent grid sizes), never the arithmetic tilediff checks.  Sources: CUDA C
    Programming Guide, "Technical Specifications per Compute Capability" (9.0: 64 K
    32-bit registers per block, 227 KB = 232448 B opt-in shared memory per block, warp
    size 32) and the H100 SXM5 datasheet (132 SMs).  Properties no kernel file of the
    catalogue queries (clock rates, bus width) are absent rather than invented: a file
    asking for them gets a KeyError naming the key."""

    PROPERTIES = {"multiprocessor_count": 132, "max_shared_mem": 232448, "max_num_regs": 65536,
                  "warpSize": 32}

    def __init__(self):
        self.utils = self  # compiled drivers expose get_device_properties on .utils

    @staticmethod
    def is_active():
        return True

    def get_current_target(self):
        from triton.backends.compiler import GPUTarget
        return GPUTarget("cuda", 90, 32)

    def get_current_device(self):
        return 0

    def set_current_device(self, device):
        if device != 0:
            raise ValueError(f"the host backend's stand-in driver has one device (0), not {device}")

    def get_current_stream(self, device=None):
        return 0

    def get_device_properties(self, device=0):
        return dict(self.PROPERTIES)

    def get_benchmarker(self):
        raise RuntimeError("benchmarking needs compiled Triton on a GPU; the host backend runs pinned configs")


def _install_driver():
    """Not probing for a real driver on purpose: probing initialises CUDA (cuInit) in a
    process tilediff later forks, and the host backend's answers must not depend on the
    machine it runs on."""
    from triton import knobs
    from triton.runtime import driver
    if knobs.runtime.interpret and driver._active is None:
        driver.set_active(HostDriver())


def _install_masks():
    import numpy as np
    from triton.runtime import interpreter
    b = interpreter.InterpreterBuilder
    if getattr(b.create_masked_load, "_tilediff", False):
        return
    load, store = b.create_masked_load, b.create_masked_store

    def as_bool(mask):
        if mask is not None and mask.data.dtype != np.bool_:
            return interpreter.TensorHandle(mask.data != 0, mask.dtype)
        return mask

    def masked_load(self, ptrs, mask, other, cache_policy, is_volatile):
        return load(self, ptrs, as_bool(mask), other, cache_policy, is_volatile)

    def masked_store(self, ptrs, value, mask, cache_policy):
        return store(self, ptrs, value, as_bool(mask), cache_policy)

    masked_load._tilediff = masked_store._tilediff = True
    b.create_masked_load, b.create_masked_store = masked_load, masked_store


def _install_annotations():
    import triton.runtime.jit as jit
    if getattr(jit._normalize_ty, "_tilediff", False):
        return
    orig = jit._normalize_ty

    def normalize(ty):
        if isinstance(ty, str):
            s = ty.strip()
            while len(s) >= 2 and s[0] == s[-1] and s[0] in "'\"":
                s = s[1:-1].strip()
            ty = s
        return orig(ty)

    normalize._tilediff = True
    jit._normalize_ty = normalize


def install_progress():
    """Ticks tilediff's progress counter once per program instance the interpreter starts.

    tilediff's deadlines (certify's per-row deadline, run --timeout) count time without
    progress, so a correct kernel that is merely slow under the interpreter (~1-3 ms per
    program instance, a large grid: minutes) is never taken for a hang, while a program
    that never finishes (an infinite loop) stops the ticks and is.  The interpreter
    starts each program instance with InterpreterBuilder.set_grid_idx; the counter is
    the bridge's (_tilediff_progress, a builtin module of libtilediff_triton.so), absent
    when this package runs outside tilediff (an --emit-python script)."""
    try:
        import _tilediff_progress
    except ImportError:
        return
    from triton.runtime import interpreter
    cls = interpreter.InterpreterBuilder
    if getattr(cls.set_grid_idx, "_tilediff", False):
        return
    orig = cls.set_grid_idx
    tick = _tilediff_progress.tick

    def set_grid_idx(self, x, y, z):
        tick()
        return orig(self, x, y, z)

    set_grid_idx._tilediff = True
    cls.set_grid_idx = set_grid_idx
