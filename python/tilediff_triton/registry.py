"""The kernel registry: @kernel records launches; the C bridge reads the records
(`_entries`) and calls `_launch` for each case."""

import inspect


class Unsupported(Exception):
    """Raised by a launch (or by tilediff) when this backend cannot run the kernel: the
    case is reported as "not covered on this backend: <reason>", not as a finding."""


class Names:
    """Attribute and item access to launch arguments by the contract's names."""

    def __init__(self, names, values):
        self._d = dict(zip(names, values))

    def __getattr__(self, name):
        try:
            return self.__dict__["_d"][name]
        except KeyError:
            raise AttributeError(f"the contract has no argument named {name!r} "
                                 f"(it has {', '.join(self.__dict__['_d'])})") from None

    def __getitem__(self, name):
        return self._d[name]

    def __contains__(self, name):
        return name in self._d

    def keys(self):
        return self._d.keys()

    def __repr__(self):
        return "Names(" + ", ".join(f"{k}={v!r}" for k, v in self._d.items()) + ")"


class Entry:
    def __init__(self, contract, variant, fn, mutant, declares, casts, math, autotuner, config):
        self.contract = contract
        self.variant = variant
        self.fn = fn
        self.mutant = mutant
        self.declares = declares
        self.casts = casts
        self.math = math
        self.autotuner = autotuner  # a triton Autotuner whose configs become variants
        self.config = config        # the one config this entry launches with (or None)
        self.pnames = self.rnames = ()
        where = inspect.getsourcefile(fn) or "?"
        try:
            line = inspect.getsourcelines(fn)[1]
        except (OSError, TypeError):
            line = 0
        self.where = f"{where}:{line}"


_entries = []


def _config_name(cfg):
    parts = [f"{k}={v}" for k, v in cfg.kwargs.items()]
    parts.append(f"num_warps={cfg.num_warps}")
    return ",".join(parts)


def _autotuner_of(obj):
    """The Autotuner in a (possibly heuristics-wrapped) jit function, or None."""
    from triton.runtime.autotuner import Autotuner
    seen = 0
    while obj is not None and seen < 8:
        if isinstance(obj, Autotuner):
            return obj
        obj = getattr(obj, "fn", None)
        seen += 1
    return None


def kernel(contract, variant="triton", mutant=None, declares=None, casts=None, math=None, autotune=None):
    """Registers `launch(grid, p, r)` as a kernel for `contract`.

    variant   a name (`--kernel VARIANT` selects it)
    mutant    None, or a one-line description of a planted bug (`selftest` must flag it)
    declares  narrowing declarations, "order=seq;fma=off" (kernels/kernel_abi.h)
    casts     the kernel's cast profiles, "store=bf16:rne:inf"
    math      "libm" | "cuda" | "cuda-approx"; default: the backend's model
    autotune  an @triton.autotune kernel the launch calls: every config becomes its own
              variant "<variant>[K=V,...]" launched with exactly that config; nothing
              is benchmarked."""

    def deco(fn):
        if autotune is None:
            _entries.append(Entry(contract, variant, fn, mutant, declares, casts, math, None, None))
            return fn
        tuner = _autotuner_of(autotune)
        if tuner is None:
            raise TypeError(f"autotune= of {contract}/{variant} is not an @triton.autotune kernel")
        for cfg in tuner.configs:
            _entries.append(Entry(contract, f"{variant}[{_config_name(cfg)}]", fn, mutant, declares, casts, math,
                                  tuner, cfg))
        return fn

    return deco


def registered():
    return list(_entries)
