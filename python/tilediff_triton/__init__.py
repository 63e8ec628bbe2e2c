"""tilediff's Triton backend: register Triton kernels as implementations of tilediff
contracts, and the tensor facade they are launched on.

    import tilediff_triton as td

    @td.kernel("add_example.add_kernel_correctness")
    def add(grid, p, r):          # p: parameters by name, r: regions by name (facades)
        add_kernel[grid](r.in_ptr0, r.in_ptr1, r.out_ptr, p.n_elements, BLOCK_SIZE=p.BLOCK_SIZE)

tilediff loads such a file with `--kernels path/kernels.py` through its C bridge
(libtilediff_triton.so), which embeds CPython, sets TRITON_INTERPRET=1 for the host
backend before triton is imported, and calls the registered launches with facades over
its own buffers.  docs/triton.md is the manual."""

from .tensor import Tensor, dtype, BY_FMT  # noqa: F401
from .tensor import (float64, float32, float16, bfloat16, float8_e4m3fn, float8_e5m2,  # noqa: F401
                     int8, uint8, int32, int64, bool_)
from .registry import kernel, registered, Unsupported  # noqa: F401

from . import compat as _compat

_compat.install()
