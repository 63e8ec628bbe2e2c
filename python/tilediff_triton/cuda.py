"""The cuda backend: compiled Triton launched on tilediff's device buffers.

The facades carry device addresses (the harness allocates and uploads each region);
compiled Triton's launcher reads data_ptr() and dtype only.  The launch runs on
tilediff's stream when Triton's driver can be told one, and tilediff synchronises
afterwards before it copies the regions back."""


class NoDevice(RuntimeError):
    pass


def check_device():
    """Raises NoDevice with a clear message unless compiled Triton has a CUDA device."""
    try:
        from triton.runtime import driver
        active = driver.active
        target = active.get_current_target()
    except Exception as e:  # no driver, no libcuda, no device
        raise NoDevice(f"compiled Triton has no CUDA device here ({type(e).__name__}: {e}); "
                       "use --backend host (Triton's interpreter)") from None
    if getattr(target, "backend", None) != "cuda":
        raise NoDevice(f"compiled Triton's active target is {target}, not a CUDA device")


def launch(entry, grid, p, r, stream):
    """Runs the registered launch with compiled Triton on tilediff's stream.

    Torch-free, Triton's launcher asks its driver for the current stream of the device
    (the default stream of the primary context, which tilediff's CUDA runtime also
    uses); it is pointed at tilediff's stream for the duration of the launch, so the
    harness's synchronisation after the launch covers the kernel."""
    from triton.runtime import driver
    active = driver.active
    saved = active.get_current_stream
    if stream:
        active.get_current_stream = lambda device=None: stream
    try:
        entry.fn(grid, p, r)
    finally:
        active.get_current_stream = saved
