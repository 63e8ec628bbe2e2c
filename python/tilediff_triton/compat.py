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
evaluated lazily with compiled Triton's rule."""


def install():
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
