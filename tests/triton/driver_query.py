"""A kernel file that asks Triton's driver about the device at import, as many real
files do (config choice by target, a persistent grid sized by the SM count).  Under the
interpreter Triton has no active driver; tests/triton/check_errors.sh expects this file
to load and its persistent add to agree on the host backend (compat.HostDriver)."""
import triton
import triton.language as tl

import tilediff_triton as td

_drv = triton.runtime.driver.active
_IS_CUDA = _drv.get_current_target().backend == "cuda"
_SMS = _drv.utils.get_device_properties(_drv.get_current_device())["multiprocessor_count"]


@triton.jit
def add_persistent(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # each program walks the tiles pid, pid + num_programs, ...
    tiles = tl.cdiv(n, BLOCK)
    for t in range(tl.program_id(0), tiles, tl.num_programs(0)):
        offs = t * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n)
        y = tl.load(y_ptr + offs, mask=offs < n)
        tl.store(out_ptr + offs, x + y, mask=offs < n)


@td.kernel("add_example.add_kernel_correctness", variant="persistent")
def k_persistent(grid, p, r):
    assert _IS_CUDA, "the stand-in driver describes a CUDA target"
    programs = max(1, min(_SMS, triton.cdiv(p.n_elements, p.BLOCK_SIZE)))
    add_persistent[(programs,)](r.in_ptr0, r.in_ptr1, r.out_ptr, p.n_elements, BLOCK=p.BLOCK_SIZE)
