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
numpy bool (nonzero = true)."""


def install():
    _install_annotations()
    _install_masks()


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
