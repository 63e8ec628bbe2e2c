"""What Triton's interpreter computes, measured once at start-up with tiny probe kernels.

The interpreter is not compiled Triton: its transcendental functions are numpy's, and its
fp32 -> bf16 / fp8 conversions are its own (numpy bit manipulation), not the GPU's
cvt.rn instructions.  tilediff judges a kernel by the bound of the implementation that
actually ran, so the host backend declares what the interpreter does:

* casts: every probe value is converted by the interpreter and by tilediff's rounding
  library (rounding/, through the bridge's _tilediff_rounding module) under candidate
  profiles of the same format; the first profile that reproduces every probe bit for
  bit is the interpreter's profile for that format.  It is declared for the contract's
  cast slots of that format where a kernel may declare it (only the fp8 overflow policy
  is open; format, rounding and flush-to-zero are the contract's, engine/loader.c).
  Otherwise - no profile reproduces the conversion, or it rounds differently from what
  the slot requires - the contract is "not covered on this backend: interpreter
  deviates from compiled Triton (...)", never a finding of the kernel.
* loads: compiled Triton widens bf16 and fp8 exactly; the interpreter does it with its
  own bit manipulation, so every code of bf16, e4m3fn and e5m2 is widened by it to fp32
  and (fp8) fp16 and compared with the exact value.  Triton 3.9's interpreter gets
  bf16 subnormals, e5m2 subnormals into fp16, e5m2 inf/NaN and the e4m3fn NaN wrong; a
  case with a region of such a format is "not covered on this backend", since a correct
  kernel would otherwise be flagged for what the interpreter read.
* math: each function's error in ulps of binary32 is measured on the probe points
  against numpy's binary64 evaluation (within 2^-29 binary32 ulps of the exact value);
  the host backend declares the tightest of tilediff's math models (oracle/budget.c)
  whose budgets cover every measured error.

TILEDIFF_TRITON_NUMERICS=1 prints the measurement when tilediff loads a kernel file."""

import numpy as np

FORMATS = ("bf16", "fp16", "e4m3fn", "e5m2")
# candidate profiles, most likely first: RNE as compiled Triton on sm_90, then what a
# bit-manipulating conversion tends to do
_CANDIDATES = {f: [f"{f}:{r}:{o}" for r in ("rne", "rtz") for o in ("inf", "sat", "nan")] for f in FORMATS}
_CANDIDATES["e4m3fn"] = [f"e4m3fn:{r}:{o}" for r in ("rne", "rtz") for o in ("sat", "nan")]
# the budgets of tilediff's math models (oracle/budget.c), tightest first
_MODELS = (("libm", {"exp": 0.502, "exp2": 0.502, "log": 0.818, "log2": 0.752, "sin": 0.561, "cos": 0.561,
                     "sqrt": 0.5, "rsqrt": 1.491}),
           ("cuda", {"exp": 2.5, "exp2": 2.5, "log": 1.5, "log2": 1.5, "sin": 2.5, "cos": 2.5, "sqrt": 0.5,
                     "rsqrt": 2.5}))

_result = None


def _probe_values():
    """binary32 values around every format's rounding ties, overflow and underflow."""
    rng = np.random.default_rng(20261201)
    v = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, 1e-45, -1e-45, 3.4e38, -3.4e38, 65504.0, 65520.0, 448.0, 464.0,
         480.0, 57344.0, 61440.0, 2.0 ** -9, 2.0 ** -10, 2.0 ** -7 * 1.0625, 2.0 ** -16, 2.0 ** -17, 2.0 ** -25]
    for k in range(-30, 20):  # ties and near-ties for 3, 2, 7 and 10 mantissa bits
        for mbits in (2, 3, 7, 10):
            for frac in (0.5, 1.5, 0.5 + 2.0 ** -12, 0.5 - 2.0 ** -12):
                x = 2.0 ** k * (1.0 + frac * 2.0 ** -mbits)
                v += [x, -x]
    v += list(rng.standard_normal(2000) * 10.0 ** rng.uniform(-8, 6, 2000))
    return np.array(v, dtype=np.float32)


def _run_cast(x, tdtype):
    import triton
    import triton.language as tl
    from .tensor import Tensor, float32

    @triton.jit
    def cast_kernel(X, Y, n, B: tl.constexpr):
        o = tl.program_id(0) * B + tl.arange(0, B)
        tl.store(Y + o, tl.load(X + o, mask=o < n).to(Y.dtype.element_ty), mask=o < n)

    out = np.zeros(len(x), dtype=tdtype.np_name)
    xs = np.ascontiguousarray(x)
    cast_kernel[(triton.cdiv(len(x), 256),)](Tensor(xs.ctypes.data, len(xs), float32),
                                             Tensor(out.ctypes.data, len(out), tdtype), len(x), B=256)
    return out.view(np.uint16 if tdtype.itemsize == 2 else np.uint8).astype(np.uint64)


def _is_nan_bits(fmt, b):
    if fmt in ("bf16",):
        return (b & 0x7F80) == 0x7F80 and (b & 0x7F) != 0
    if fmt == "fp16":
        return (b & 0x7C00) == 0x7C00 and (b & 0x3FF) != 0
    if fmt == "e5m2":
        return (b & 0x7C) == 0x7C and (b & 0x3) != 0
    return (b & 0x7F) == 0x7F  # e4m3fn


def _measure_casts(x):
    import _tilediff_rounding as rnd
    from . import tensor
    td = {"bf16": tensor.bfloat16, "fp16": tensor.float16, "e4m3fn": tensor.float8_e4m3fn,
          "e5m2": tensor.float8_e5m2}
    found = {}
    for fmt in FORMATS:
        got = _run_cast(x, td[fmt])
        best, best_bad = None, None
        for prof in _CANDIDATES[fmt]:
            bad = [i for i in range(len(x)) if not (
                int(got[i]) == rnd.encode(prof, float(x[i])) or
                (_is_nan_bits(fmt, int(got[i])) and _is_nan_bits(fmt, rnd.encode(prof, float(x[i])))))]
            if best_bad is None or len(bad) < len(best_bad):
                best, best_bad = prof, bad
            if not bad:
                break
        ex = [f"{float(x[i])!r} -> 0x{int(got[i]):x} (tilediff {best}: 0x{rnd.encode(best, float(x[i])):x})"
              for i in best_bad[:3]]
        found[fmt] = (best, len(best_bad), ex)
    return found


def _exact_codes(fmt):
    """Every code of fmt and its exact value (binary64; NaN for NaN codes)."""
    if fmt == "bf16":
        c = np.arange(1 << 16, dtype=np.uint32)
        return c.astype(np.uint16), (c << 16).view(np.float32).astype(np.float64)
    e, m, bias = (5, 2, 15) if fmt == "e5m2" else (4, 3, 7)
    c = np.arange(256, dtype=np.uint32)
    sign = np.where(c >> 7, -1.0, 1.0)
    ex, man = (c >> m) & ((1 << e) - 1), (c & ((1 << m) - 1)).astype(np.float64)
    val = np.where(ex == 0, man * 2.0 ** (1 - bias - m), (1.0 + man / 2 ** m) * 2.0 ** (ex.astype(np.float64) - bias))
    val = sign * val
    top = ex == (1 << e) - 1
    if fmt == "e5m2":
        val = np.where(top & (man == 0), sign * np.inf, np.where(top, np.nan, val))
    else:  # e4m3fn: only S.1111.111 is NaN, no infinities
        val = np.where(top & (man == (1 << m) - 1), np.nan, val)
    return c.astype(np.uint8), val


def _measure_loads():
    """{(fmt, wide): (differing codes, example)} for the interpreter's widening conversions."""
    import triton
    import triton.language as tl
    from . import tensor

    @triton.jit
    def widen_kernel(X, Y, n, B: tl.constexpr):
        o = tl.program_id(0) * B + tl.arange(0, B)
        tl.store(Y + o, tl.load(X + o, mask=o < n).to(Y.dtype.element_ty), mask=o < n)

    src = {"bf16": tensor.bfloat16, "e4m3fn": tensor.float8_e4m3fn, "e5m2": tensor.float8_e5m2}
    dst = {"fp32": (tensor.float32, np.float32), "fp16": (tensor.float16, np.float16)}
    out = {}
    for fmt, sd in src.items():
        codes, exact = _exact_codes(fmt)
        for wide in (("fp32",) if fmt == "bf16" else ("fp32", "fp16")):
            dd, npd = dst[wide]
            y = np.zeros(len(codes), dtype=npd)
            widen_kernel[(triton.cdiv(len(codes), 4096),)](tensor.Tensor(codes.ctypes.data, len(codes), sd),
                                                           tensor.Tensor(y.ctypes.data, len(y), dd), len(codes),
                                                           B=4096)
            got = y.astype(np.float64)
            ok = (got == exact) | (np.isnan(got) & np.isnan(exact))
            bad = np.flatnonzero(~ok)
            ex = f"0x{int(codes[bad[0]]):x} -> {float(got[bad[0]])!r} (exact {float(exact[bad[0]])!r})" if len(bad) else ""
            out[(fmt, wide)] = (len(bad), ex)
    return out


def host_load_reason(fmts):
    """Why a case with regions of these formats (tilediff_triton.tensor names) cannot be
    run faithfully by the interpreter, or None."""
    names = {"bfloat16": "bf16", "float8_e4m3fn": "e4m3fn", "float8_e5m2": "e5m2"}
    loads = probe()["loads"]
    for f in fmts:
        fmt = names.get(f)
        for wide in ("fp32", "fp16"):
            nbad, ex = loads.get((fmt, wide), (0, ""))
            if nbad:
                return (f"interpreter deviates from compiled Triton: its {fmt} -> {wide} conversion of loaded "
                        f"values is not exact ({nbad} of the format's codes differ, e.g. {ex})")
    return None


def _ulp32(ref):
    a = np.abs(ref).astype(np.float32)
    a = np.where(a < np.float32(2.0 ** -126), np.float32(2.0 ** -126), a)
    return np.spacing(a).astype(np.float64)


def _measure_math():
    import triton
    import triton.language as tl
    from .tensor import Tensor, float32

    @triton.jit
    def math_kernel(X, Y, n, F: tl.constexpr, B: tl.constexpr):
        o = tl.program_id(0) * B + tl.arange(0, B)
        x = tl.load(X + o, mask=o < n, other=1.0)
        if F == 0:
            y = tl.exp(x)
        elif F == 1:
            y = tl.exp2(x)
        elif F == 2:
            y = tl.log(x)
        elif F == 3:
            y = tl.log2(x)
        elif F == 4:
            y = tl.sin(x)
        elif F == 5:
            y = tl.cos(x)
        elif F == 6:
            y = tl.sqrt(x)
        else:
            y = tl.rsqrt(x)
        tl.store(Y + o, y, mask=o < n)

    rng = np.random.default_rng(7)
    fns = (("exp", np.exp, (-87.0, 88.0)), ("exp2", np.exp2, (-125.0, 127.0)), ("log", np.log, (1e-30, 1e30)),
           ("log2", np.log2, (1e-30, 1e30)), ("sin", np.sin, (-1e4, 1e4)), ("cos", np.cos, (-1e4, 1e4)),
           ("sqrt", np.sqrt, (0.0, 1e30)), ("rsqrt", lambda v: 1.0 / np.sqrt(v), (1e-30, 1e30)))
    out = {}
    for f, (name, ref_fn, (lo, hi)) in enumerate(fns):
        if lo > 0:
            x = np.exp(rng.uniform(np.log(lo), np.log(hi), 4096)).astype(np.float32)
        else:
            x = np.concatenate([rng.uniform(lo, hi, 2048), rng.uniform(-4.0, 4.0, 2048)]).astype(np.float32)
            if name == "sqrt":
                x = np.abs(x)
        y = np.zeros_like(x)
        math_kernel[(triton.cdiv(len(x), 512),)](Tensor(x.ctypes.data, len(x), float32),
                                                 Tensor(y.ctypes.data, len(y), float32), len(x), F=f, B=512)
        ref = ref_fn(x.astype(np.float64))
        err = np.abs(y.astype(np.float64) - ref) / _ulp32(ref)
        i = int(np.argmax(err))
        out[name] = (float(err[i]), float(x[i]))
    return out


def probe():
    """Measures once per process (the bridge calls it when it loads a kernel file)."""
    global _result
    if _result is None:
        import warnings
        x = _probe_values()
        with warnings.catch_warnings():  # the probes overflow on purpose
            warnings.simplefilter("ignore", RuntimeWarning)
            casts = _measure_casts(x)
            math = _measure_math()
            loads = _measure_loads()
        model = None
        for name, budget in _MODELS:
            if all(math[f][0] <= budget[f] for f in budget):
                model = name
                break
        _result = {"casts": casts, "math": math, "model": model, "loads": loads}
    return _result


def host_math():
    r = probe()
    # no model covers the interpreter: the tightest bound tilediff has is still the
    # honest choice; the report of the start-up line says which function exceeds it
    return r["model"] or "cuda"


def _parts(prof):
    f = prof.split(":")
    return f[0], f[1], f[2], len(f) > 3 and f[3] == "ftz"


def host_casts(user, slots, defaults):
    """(casts string, not-covered reason or None) for a contract's cast slots.

    A kernel may declare only what the contract leaves open (engine/loader.c): the
    format, rounding and flush-to-zero of a slot are the contract's; the overflow policy
    of the fp8 formats is free.  The interpreter's measured profile is declared where it
    fits that rule; where it does not (bf16 truncation for a round-to-nearest slot, the
    fp8 conversions no profile reproduces), the contract is not covered on this backend."""
    r = probe()
    out = []
    for slot, dflt in zip(slots, defaults):
        fmt = dflt.split(":")[0]
        if fmt not in r["casts"]:
            continue  # fp32 and integer slots: the interpreter's numpy casts are IEEE's
        prof, nbad, ex = r["casts"][fmt]
        if nbad:
            return user, (f"interpreter deviates from compiled Triton: its fp32 -> {fmt} conversion matches no "
                          f"cast profile (closest {prof}, {nbad} probe values differ, e.g. {ex[0]})")
        m, d = _parts(prof), _parts(dflt)
        fp8 = fmt in ("e4m3fn", "e5m2")
        if m[1] != d[1] or m[3] != d[3] or (m[2] != d[2] and not fp8):
            return user, (f"interpreter deviates from compiled Triton: its fp32 -> {fmt} conversion is {prof}, "
                          f"cast slot '{slot}' requires {dflt}")
        if m != d:
            out.append(f"{slot}={prof}")
    return (";".join(out) or None), None


def summary():
    r = probe()
    lines = ["Triton interpreter numerics (measured at start-up against tilediff's rounding library):"]
    for fmt, (prof, nbad, ex) in r["casts"].items():
        lines.append(f"  fp32 -> {fmt:6s}: " + (f"behaves as {prof}" if not nbad else
                                                  f"no profile matches (closest {prof}: {nbad} differ; {ex[0]})"))
    for (fmt, wide), (nbad, ex) in r["loads"].items():
        lines.append(f"  {fmt:6s} -> {wide}: " + ("exact" if not nbad else f"{nbad} codes differ; {ex}"))
    worst = ", ".join(f"{f} {e:.3f}" for f, (e, _) in r["math"].items())
    lines.append(f"  math (max ulp error on the probe points): {worst}")
    lines.append(f"  declared math model: {r['model'] or 'none covers it'}")
    return "\n".join(lines)

