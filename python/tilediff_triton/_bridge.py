"""The Python half of libtilediff_triton.so (kernels/triton/bridge.c): loads the user's
kernel file, binds each registered kernel to its contract's argument names, and runs
one launch, turning every Python-level outcome into (code, message)."""

import importlib.util
import os
import sys
import traceback

from . import registry
from .tensor import Tensor, BY_FMT

HOST, CUDA = 0, 1
UNSUPPORTED = 77  # TD_TB_UNSUPPORTED
_backend = HOST
_script = None


def load(path, backend):
    """Imports the kernel file; returns one tuple per registered kernel."""
    global _backend, _script
    _backend, _script = backend, os.path.abspath(path)
    if backend == CUDA:
        from . import cuda
        cuda.check_device()  # raises with a clear message where there is no GPU
    # IEEE overflow / invalid in a kernel's arithmetic is the kernel's defined behaviour,
    # judged by the harness; numpy's warnings about it would only bury the report
    import warnings
    warnings.filterwarnings("ignore", category=RuntimeWarning, module="triton.runtime.interpreter")
    d = os.path.dirname(_script)
    if d not in sys.path:
        sys.path.insert(0, d)
    spec = importlib.util.spec_from_file_location("tilediff_user_kernels", _script)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["tilediff_user_kernels"] = mod
    try:
        spec.loader.exec_module(mod)
    except Exception as e:  # the message names the file and line
        raise ImportError(_describe(e, "importing the kernel file failed")) from None
    if not registry._entries:
        raise ImportError("no kernel registered (decorate launches with @tilediff_triton.kernel(\"contract.id\"))")
    if backend == HOST:
        from . import compat
        compat.install_progress()  # deadlines follow the interpreter's program instances
        from . import numerics
        numerics.probe()
        if os.environ.get("TILEDIFF_TRITON_NUMERICS"):
            print(numerics.summary(), file=sys.stderr)
    return [(e.contract, e.variant, e.mutant, e.declares, e.casts, _math(e)) for e in registry._entries]


def _math(e):
    if _backend == HOST:
        # the interpreter's tl.exp & co are numpy's: the model measured to cover them
        from . import numerics
        return numerics.host_math()
    # compiled Triton's lowering (ex2.approx & co): oracle/budget.c's "triton" model
    return e.math or "triton"


def bind(i, pnames, pkinds, rnames, cslots, cdefaults):
    """Binds entry i to its contract's names; returns the cast profiles it runs with."""
    e = registry._entries[i]
    e.pnames, e.pkinds, e.rnames = pnames, pkinds, rnames
    if _backend != HOST:
        return e.casts
    from . import numerics
    casts, why = numerics.host_casts(e.casts, cslots, cdefaults)
    e.not_covered = why
    return casts


def _user_frame(tb):
    """The innermost traceback frame in the user's files (not triton's or ours)."""
    best = None
    for fr in traceback.extract_tb(tb):
        f = fr.filename
        if "site-packages" in f or os.sep + "tilediff_triton" + os.sep in f or f.startswith("<"):
            continue
        best = fr
    return best


def _describe(e, what):
    root = e
    while root.__cause__ is not None:
        root = root.__cause__
    fr = _user_frame(root.__traceback__) or _user_frame(e.__traceback__)
    where = f" at {os.path.basename(fr.filename)}:{fr.lineno} ({fr.line})" if fr else ""
    return f"{what}: {type(root).__name__}: {root}{where}"


def _unsupported_reason(e):
    """Why the interpreter (not the kernel) cannot run this, or None when it is the kernel's fault."""
    from . import limits
    return limits.classify(e)


def launch(i, grid, params, regions, stream):
    e = registry._entries[i]
    if getattr(e, "not_covered", None):
        return (UNSUPPORTED, f"not covered on this backend: {e.not_covered}")
    dev = "cpu" if _backend == HOST else "cuda"
    p = registry.Names(e.pnames, params)
    r = registry.Names(e.rnames, [Tensor(ptr, n, BY_FMT[fmt], dev) for (ptr, n, fmt) in regions])
    if _backend == HOST:
        from . import numerics
        why = numerics.host_load_reason({BY_FMT[fmt].name for (_, _, fmt) in regions})
        if why:
            return (UNSUPPORTED, f"not covered on this backend: {why}")
    g = tuple(x for x in grid)
    while len(g) > 1 and g[-1] == 1:
        g = g[:-1]
    saved = None
    if e.autotuner is not None:  # exactly this variant's config, never a benchmark
        saved = e.autotuner.configs, e.autotuner.cache
        e.autotuner.configs, e.autotuner.cache = [e.config], {}
    try:
        if _backend == CUDA:
            from . import cuda
            cuda.launch(e, g, p, r, stream)
        else:
            e.fn(g, p, r)
        return (0, "")
    except registry.Unsupported as x:
        return (UNSUPPORTED, f"not covered on this backend: {x}")
    except Exception as x:
        why = _unsupported_reason(x)
        if why:
            return (UNSUPPORTED, f"not covered on this backend: {why}")
        return (1, _describe(x, "the kernel raised"))
    finally:
        if saved is not None:
            e.autotuner.configs, e.autotuner.cache = saved
