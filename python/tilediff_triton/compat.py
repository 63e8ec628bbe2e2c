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
