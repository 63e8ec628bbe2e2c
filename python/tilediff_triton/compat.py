"""Shims for Triton interpreter behaviour that real kernel files trip over.

String annotations: a parameter written `BLOCK: "tl.constexpr"` reaches the
interpreter's GridExecutor as the annotation "'tl.constexpr'" (the interpreter
re-executes the kernel's source, which quotes the string once more), so the parameter
is not recognised as a constexpr and `tl.arange(0, BLOCK)` fails.  Compiled Triton
reads the same annotation correctly.  We strip the extra quotes before Triton
normalises the annotation."""


def install():
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
