"""The tensor facade: what Triton's launcher and interpreter need from a tensor argument,
over memory tilediff owns (a region of a case, between its guard zones).

Triton reads `data_ptr()` and `dtype` (str(dtype) is "torch.<name>", from which it derives
the pointer type); the interpreter also asks for the untyped storage, makes an empty
"cpu copy" and sets it to the same storage, and copies it back after the launch.  Host
memory is already the CPU's, so those copies are no-ops on the same bytes: loads and
stores of the kernel go straight to tilediff's buffers, so guard zones, sentinels and the
write-set check see exactly what the kernel did."""

import ctypes


class dtype:
    """One object per element format; hashable, compared by identity like torch's."""

    def __init__(self, name, abi_fmt, itemsize, np_name, is_floating):
        self.name = name
        self.abi_fmt = abi_fmt
        self.itemsize = itemsize
        self.np_name = np_name  # numpy dtype name of the element's bits
        self.is_floating_point = is_floating

    def __str__(self):
        return "torch." + self.name

    __repr__ = __str__

    def __reduce__(self):
        return (_by_name, (self.name,))


# ABI format codes (kernels/kernel_abi.h, enum td_abi_fmt)
float64 = dtype("float64", 0, 8, "float64", True)
float32 = dtype("float32", 1, 4, "float32", True)
float16 = dtype("float16", 2, 2, "float16", True)
bfloat16 = dtype("bfloat16", 3, 2, "uint16", True)
float8_e4m3fn = dtype("float8_e4m3fn", 4, 1, "uint8", True)
float8_e5m2 = dtype("float8_e5m2", 5, 1, "uint8", True)
int8 = dtype("int8", 6, 1, "int8", False)
uint8 = dtype("uint8", 7, 1, "uint8", False)
int32 = dtype("int32", 8, 4, "int32", False)
int64 = dtype("int64", 9, 8, "int64", False)
bool_ = dtype("bool", 10, 1, "bool", False)

BY_FMT = {d.abi_fmt: d for d in (float64, float32, float16, bfloat16, float8_e4m3fn, float8_e5m2,
                                 int8, uint8, int32, int64, bool_)}


def _by_name(name):
    for d in BY_FMT.values():
        if d.name == name:
            return d
    raise KeyError(name)


class _Storage:
    """The untyped storage of a facade: the same bytes; copies are no-ops on host memory."""

    def __init__(self, owner):
        self.owner = owner

    def data_ptr(self):
        return self.owner._ptr

    def cpu(self):
        return self

    def copy_(self, other):
        if other.data_ptr() != self.data_ptr():
            ctypes.memmove(self.data_ptr(), other.data_ptr(), self.owner.nbytes)
        return self

    def size(self):
        return self.owner.nbytes

    def nbytes(self):
        return self.owner.nbytes


class Tensor:
    """A 1-D view of `numel` elements of `dtype` at address `ptr` (host or device memory).
    Kernels receive their strides as parameters (the contracts' layouts), so one
    dimension is what the launch needs; reshape() gives other views of the same bytes."""

    def __init__(self, ptr, numel, dt, device="cpu", shape=None):
        self._ptr = int(ptr)
        self.dtype = dt
        self._numel = int(numel)
        self.shape = tuple(shape) if shape is not None else (self._numel,)
        self.device = device
        self.is_cuda = device != "cpu"

    # what the launcher and the interpreter read
    def data_ptr(self):
        return self._ptr

    def numel(self):
        return self._numel

    def element_size(self):
        return self.dtype.itemsize

    @property
    def nbytes(self):
        return self._numel * self.dtype.itemsize

    def dim(self):
        return len(self.shape)

    @property
    def ndim(self):
        return len(self.shape)

    def size(self, d=None):
        return self.shape if d is None else self.shape[d]

    def stride(self, d=None):
        st, acc = [], 1
        for n in reversed(self.shape):
            st.insert(0, acc)
            acc *= n
        return tuple(st) if d is None else st[d]

    def storage_offset(self):
        return 0

    def untyped_storage(self):
        return _Storage(self)

    def is_contiguous(self):
        return True

    # the interpreter's host copy: an empty tensor set to the same storage
    def new_empty(self, *sizes, **kwargs):
        return Tensor(0, 0, self.dtype, self.device)

    def set_(self, storage, offset=0, size=None, stride=None):
        self._ptr = storage.data_ptr() + int(offset) * self.dtype.itemsize
        self._numel = storage.owner._numel - int(offset)
        self.shape = tuple(size) if size is not None else (self._numel,)
        return self

    def cpu(self):
        return self

    def copy_(self, other):
        self.untyped_storage().copy_(other.untyped_storage())
        return self

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        n = 1
        for s in shape:
            n *= s
        if n != self._numel:
            raise ValueError(f"cannot view {self._numel} elements as {shape}")
        return Tensor(self._ptr, self._numel, self.dtype, self.device, shape)

    view = reshape

    def numpy(self):
        """A numpy array over the same bytes (host memory only)."""
        import numpy as np
        if self.is_cuda:
            raise RuntimeError("numpy() of device memory")
        buf = (ctypes.c_char * self.nbytes).from_address(self._ptr)
        return np.frombuffer(buf, dtype=self.dtype.np_name).reshape(self.shape)

    def __repr__(self):
        return f"tilediff_triton.Tensor({self.dtype}, shape={self.shape}, ptr=0x{self._ptr:x})"
