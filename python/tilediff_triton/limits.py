"""Which failures are the interpreter's limits rather than the kernel's faults.

Triton's interpreter (TRITON_INTERPRET=1) evaluates a kernel with numpy; some of the
language has no numpy form.  A kernel that uses such a feature is correct or not on a
GPU regardless of what the interpreter says, so the case is reported as "not covered on
this backend: <reason>" instead of as a finding of the kernel."""

# (what to look for in the exception chain, the reason reported)
_KNOWN = (
    ("libdevice", "libdevice calls (tl.extra.cuda.libdevice / tl.math externs) have no interpreter implementation"),
    ("extern_elementwise", "extern elementwise calls (libdevice) have no interpreter implementation"),
    ("inline_asm", "inline PTX (tl.inline_asm_elementwise) cannot be interpreted"),
    ("make_block_ptr", "block pointers are not supported by this Triton's interpreter"),
    ("tensor_descriptor", "tensor descriptors (TMA) are not supported by this Triton's interpreter"),
    ("bfloat16 arithmetic", "bfloat16 arithmetic has no numpy type in the interpreter"),
)


def _chain(e):
    seen = []
    while e is not None and e not in seen:
        seen.append(e)
        e = e.__cause__ or e.__context__
    return seen


def _unpatched_builtin(x):
    """The kernel's source line when `x` is the interpreter calling a language builtin it
    does not patch (tl.extra.cuda.libdevice.pow & co): the builtin then runs as if called
    outside a kernel and asks for its `_semantic` argument."""
    if "`_semantic` argument must be provided" not in str(x):
        return None
    import re
    import traceback
    lines = [fr.line or "" for fr in traceback.extract_tb(x.__traceback__)]
    return next((ln for ln in reversed(lines) if re.search(r"\blibdevice\.|\btl\.extra\.", ln)), None)


def classify(e):
    """A reason string when `e` is an interpreter limit, else None."""
    chain = _chain(e)
    for x in reversed(chain):  # the innermost exception's traceback holds the kernel's line
        line = _unpatched_builtin(x)
        if line:
            return f"{_KNOWN[0][1]} ({line.strip()})"
    for x in chain:
        text = f"{type(x).__name__}: {x}"
        for needle, reason in _KNOWN:
            if needle in text:
                return reason
        if isinstance(x, NotImplementedError):
            return f"the interpreter does not implement this: {x}"
    return None
