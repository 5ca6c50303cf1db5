"""TMA tensor-map descriptors built on the host (the driver's cuTensorMapEncodeTiled).

A TMA copy (`cp.async.bulk.tensor`, nvgpu's `tma.async.load/store`) reads a 128-byte
descriptor of the global tensor: its element type, shape and byte strides, the box (tile)
one copy moves, the shared-memory swizzle, L2 promotion and the out-of-bounds fill. The
kernel takes it as a `.param .align 64 .b8 [128]` parameter (in LLVM IR a
`ptr byval([128 x i8]) align 64 "nvvm.grid_constant"` argument), so `launch` passes the
bytes `encode_tiled` returns.

`TensorMapLayout` holds a descriptor's fields in numpy order (outermost dimension first,
strides in bytes) and checks the driver's rules without a GPU, so a bad tile choice is an
`InputError` naming the rule rather than a CUDA_ERROR_INVALID_VALUE; `driver_arguments`
gives them in the driver's order (innermost first, the innermost stride left out).
The keywords are those of nvgpu's `!nvgpu.tensormap.descriptor` type (`swizzle_128b`,
`l2promo_256b`, `oob = zero | nan`, `interleave_16b`, ...).
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any

import numpy as np

from schedir.diagnostics import InputError
from schedir.gpu.context import GpuContext

DESCRIPTOR_BYTES = 128
"""Size of a CUtensorMap (its alignment is 64)."""
MAX_RANK = 5
MAX_BOX = 256
SWIZZLE_BYTES = {"none": 0, "swizzle_32b": 32, "swizzle_64b": 64, "swizzle_128b": 128}
_SWIZZLE_ENUMS = {
    "none": "CU_TENSOR_MAP_SWIZZLE_NONE",
    "swizzle_32b": "CU_TENSOR_MAP_SWIZZLE_32B",
    "swizzle_64b": "CU_TENSOR_MAP_SWIZZLE_64B",
    "swizzle_128b": "CU_TENSOR_MAP_SWIZZLE_128B",
}
_L2_ENUMS = {
    "none": "CU_TENSOR_MAP_L2_PROMOTION_NONE",
    "l2promo_64b": "CU_TENSOR_MAP_L2_PROMOTION_L2_64B",
    "l2promo_128b": "CU_TENSOR_MAP_L2_PROMOTION_L2_128B",
    "l2promo_256b": "CU_TENSOR_MAP_L2_PROMOTION_L2_256B",
}
_OOB_ENUMS = {
    "zero": "CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE",
    "nan": "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA",
}
_INTERLEAVE_ENUMS = {
    "none": "CU_TENSOR_MAP_INTERLEAVE_NONE",
    "interleave_16b": "CU_TENSOR_MAP_INTERLEAVE_16B",
    "interleave_32b": "CU_TENSOR_MAP_INTERLEAVE_32B",
}
_DTYPE_ENUMS = {
    "uint8": "CU_TENSOR_MAP_DATA_TYPE_UINT8",
    "int8": "CU_TENSOR_MAP_DATA_TYPE_UINT8",
    "uint16": "CU_TENSOR_MAP_DATA_TYPE_UINT16",
    "uint32": "CU_TENSOR_MAP_DATA_TYPE_UINT32",
    "int32": "CU_TENSOR_MAP_DATA_TYPE_INT32",
    "uint64": "CU_TENSOR_MAP_DATA_TYPE_UINT64",
    "int64": "CU_TENSOR_MAP_DATA_TYPE_INT64",
    "float16": "CU_TENSOR_MAP_DATA_TYPE_FLOAT16",
    "float32": "CU_TENSOR_MAP_DATA_TYPE_FLOAT32",
    "float64": "CU_TENSOR_MAP_DATA_TYPE_FLOAT64",
    "bfloat16": "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16",
}
"""numpy dtype names (ml_dtypes' bfloat16 included) and the driver's data types; int8
moves as uint8 (a copy does not interpret the bits)."""


DTYPE_CODES: tuple[str, ...] = tuple(_DTYPE_ENUMS)
"""The element types by code, as compiled host code passes them (see `layout_of_fields`)."""
SWIZZLE_CODES: tuple[str, ...] = tuple(_SWIZZLE_ENUMS)
L2PROMO_CODES: tuple[str, ...] = tuple(_L2_ENUMS)
OOB_CODES: tuple[str, ...] = tuple(_OOB_ENUMS)
INTERLEAVE_CODES: tuple[str, ...] = tuple(_INTERLEAVE_ENUMS)
FIELDS_HEADER = 7
"""Fields before the sizes: address, rank, dtype, swizzle, L2 promotion, OOB fill, interleave."""


def dtype_name(element_type: object) -> str | None:
    """The numpy dtype name of an MLIR float/integer element type (its printed form)."""
    return {
        "f16": "float16",
        "bf16": "bfloat16",
        "f32": "float32",
        "f64": "float64",
        "i8": "int8",
        "i32": "int32",
        "i64": "int64",
    }.get(str(element_type))


def layout_of_fields(fields: list[int]) -> tuple[int, TensorMapLayout, Staging | None]:
    """The global address and layout that compiled host code packed as i64 fields:
    address, rank, the codes of dtype, swizzle, L2 promotion, OOB fill and interleave,
    then rank sizes, rank byte strides and rank box sizes (outermost first); where TMA
    cannot describe the tensor where it lies, the layout is that of its staged copy and
    the `Staging` says how to make it (see `plan_staging`)."""
    address, rank = fields[0], fields[1]
    if not 1 <= rank <= MAX_RANK or len(fields) != FIELDS_HEADER + 3 * rank:
        raise InputError(f"malformed TMA descriptor fields {fields}")
    codes = fields[2:FIELDS_HEADER]
    tables = (DTYPE_CODES, SWIZZLE_CODES, L2PROMO_CODES, OOB_CODES, INTERLEAVE_CODES)
    if any(not 0 <= c < len(t) for c, t in zip(codes, tables, strict=True)):
        raise InputError(f"malformed TMA descriptor codes {codes}")
    dtype, swizzle, l2promo, oob, interleave = (t[c] for c, t in zip(codes, tables, strict=True))
    rest = fields[FIELDS_HEADER:]
    shape, strides, box = rest[:rank], rest[rank : 2 * rank], rest[2 * rank :]
    numpy_dtype = _numpy_dtype(dtype)
    staging = plan_staging(address, numpy_dtype.itemsize, tuple(shape), tuple(strides))
    if staging is not None:
        strides = list(staging.strides(tuple(shape), numpy_dtype.itemsize))
    layout = TensorMapLayout(
        numpy_dtype,
        tuple(shape),
        tuple(strides),
        tuple(box),
        swizzle,
        l2promo,
        oob,
        interleave,
    )
    return address, layout, staging


STRIDE_ALIGNMENT = 16
"""Bytes a TMA tensor's address and every row stride must be a multiple of (the driver's
rule for cuTensorMapEncodeTiled's globalAddress and globalStrides)."""


def round_up(value: int, multiple: int) -> int:
    """`value` rounded up to a multiple of `multiple`."""
    return -(-value // multiple) * multiple


@dataclass(frozen=True)
class Staging:
    """A copy of a tensor TMA cannot describe where it lies into a buffer it can.

    An f16 matrix of N = 4097 columns has rows of 8194 bytes, not a multiple of 16:
    cuTensorMapEncodeTiled refuses it. The host copies the `rows` rows of `row_bytes`
    bytes (`source_pitch` bytes apart at device address `source`) to a fresh buffer at
    `pitch` bytes apart (`row_bytes` rounded up to 16) with a copy kernel on the launch
    stream (`schedir.gpu.staging`), zero-fills the pad, and describes that buffer with the tensor's real
    sizes: TMA fills what lies past them itself, so the pad is never read as data. The
    source is only read (inputs are never modified).

    Attributes:
        source: device address of the first row.
        source_pitch: bytes between rows there.
        rows: number of rows (the product of every dimension but the innermost).
        row_bytes: bytes of one row (innermost size x element size).
        pitch: bytes between rows of the staged buffer.
    """

    source: int
    source_pitch: int
    rows: int
    row_bytes: int
    pitch: int

    @property
    def nbytes(self) -> int:
        """Size of the staged buffer."""
        return self.rows * self.pitch

    def strides(self, shape: tuple[int, ...], itemsize: int) -> tuple[int, ...]:
        """The staged buffer's byte strides (numpy order): rows `pitch` apart, outer
        dimensions packed."""
        strides = [itemsize]
        if len(shape) > 1:
            strides.append(self.pitch)
        for size in reversed(shape[1:-1]):
            strides.append(strides[-1] * size)
        return tuple(reversed(strides))


def plan_staging(
    address: int, itemsize: int, shape: tuple[int, ...], strides: tuple[int, ...]
) -> Staging | None:
    """None where TMA can describe the tensor where it lies (16-byte aligned address and
    row strides), else the `Staging` that copies it to rows of a 16-byte pitch; an
    InputError where the rows are not evenly spaced (a view a 2-D copy cannot gather)."""
    outer = strides[:-1]
    if address % STRIDE_ALIGNMENT == 0 and all(s > 0 and s % STRIDE_ALIGNMENT == 0 for s in outer):
        return None
    if not shape or len(strides) != len(shape) or strides[-1] != itemsize:
        return None  # not a row-major tensor: TensorMapLayout.check says why
    row_bytes = shape[-1] * itemsize
    rows = 1
    for size in shape[:-1]:
        rows *= size
    # The rows must lie one pitch apart: each outer dimension of more than one index
    # steps over the whole of the ones inside it (a dimension of size 1 never steps).
    source_pitch: int | None = None
    expected = 0
    for size, stride in zip(reversed(shape[:-1]), reversed(outer), strict=True):
        if size == 1:
            continue
        if source_pitch is None:
            source_pitch = stride
        elif stride != expected:
            source_pitch = -1
            break
        expected = stride * size
    if source_pitch is None:
        source_pitch = row_bytes  # a single row
    if source_pitch < row_bytes:
        raise InputError(
            f"TMA cannot describe a tensor of shape {shape} with byte strides {strides} at "
            f"{address:#x} (its address and row strides must be multiples of "
            f"{STRIDE_ALIGNMENT} bytes), and its rows are not evenly spaced without overlap "
            "to stage it into one that it can: pass a C-contiguous array"
        )
    return Staging(address, source_pitch, rows, row_bytes, round_up(row_bytes, STRIDE_ALIGNMENT))


def _numpy_dtype(name: str) -> np.dtype[Any]:
    if name != "bfloat16":
        return np.dtype(name)
    try:
        import ml_dtypes
    except ImportError:
        raise InputError("a bf16 TMA descriptor needs the ml_dtypes package") from None
    return np.dtype(ml_dtypes.bfloat16)


def _choice(what: str, value: str, table: dict[str, str]) -> None:
    if value not in table:
        raise InputError(f"TMA {what} '{value}' is not one of {', '.join(table)}")


@dataclass(frozen=True)
class TensorMapLayout:
    """The fields of one tiled tensor-map descriptor, numpy order (outermost first).

    Attributes:
        dtype: element type of the global tensor.
        shape: the global tensor's shape.
        strides: its byte strides (numpy's); the innermost must be the element size.
        box: the tile one TMA copy moves (the shared-memory box), one size per dimension.
        swizzle, l2promo, oob, interleave: nvgpu's keywords for the driver's enums.
    """

    dtype: np.dtype[Any]
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    box: tuple[int, ...]
    swizzle: str = "none"
    l2promo: str = "none"
    oob: str = "zero"
    interleave: str = "none"

    def __post_init__(self) -> None:
        object.__setattr__(self, "dtype", np.dtype(self.dtype))
        for name in ("shape", "strides", "box"):
            object.__setattr__(self, name, tuple(int(v) for v in getattr(self, name)))
        self.check()

    @classmethod
    def of(cls, array: Any, box: tuple[int, ...], **options: str) -> TensorMapLayout:
        """The layout of an array with `shape`, `strides` and `dtype` (numpy, a
        DeviceArray, PyTorch/CuPy through the same attributes)."""
        strides = getattr(array, "strides", None)
        if strides is None:
            raise InputError(f"a {type(array).__name__} has no byte strides for a TMA descriptor")
        return cls(np.dtype(array.dtype), tuple(array.shape), tuple(strides), box, **options)

    def check(self) -> None:
        """InputError unless the driver accepts these fields (cuTensorMapEncodeTiled's rules)."""
        rank = len(self.shape)
        if not 1 <= rank <= MAX_RANK:
            raise InputError(f"a TMA tensor has 1 to {MAX_RANK} dimensions, not {rank}")
        if len(self.strides) != rank or len(self.box) != rank:
            raise InputError(
                f"a TMA descriptor needs one stride and one box size per dimension: shape "
                f"{self.shape}, strides {self.strides}, box {self.box}"
            )
        if self.dtype.name not in _DTYPE_ENUMS:
            raise InputError(f"TMA does not copy elements of type {self.dtype.name}")
        _choice("swizzle", self.swizzle, _SWIZZLE_ENUMS)
        _choice("L2 promotion", self.l2promo, _L2_ENUMS)
        _choice("out-of-bounds fill", self.oob, _OOB_ENUMS)
        _choice("interleave", self.interleave, _INTERLEAVE_ENUMS)
        itemsize = self.dtype.itemsize
        for size in self.shape:
            if not 1 <= size <= 2**32:
                raise InputError(f"TMA tensor dimensions are 1 to 2^32, not {size}")
        if self.strides[-1] != itemsize:
            raise InputError(
                f"the innermost dimension of a TMA tensor must be contiguous (stride {itemsize} "
                f"bytes), not {self.strides[-1]} bytes"
            )
        for stride in self.strides[:-1]:
            if stride <= 0 or stride % 16 or stride >= 2**40:
                raise InputError(
                    f"TMA tensor strides must be positive multiples of 16 bytes below 2^40, "
                    f"not {stride} (strides {self.strides})"
                )
        for size in self.box:
            if not 1 <= size <= MAX_BOX:
                raise InputError(f"TMA box sizes are 1 to {MAX_BOX}, not {size} (box {self.box})")
        inner_bytes = self.box[-1] * itemsize
        if self.interleave == "none" and inner_bytes % 16:
            raise InputError(
                f"the innermost TMA box row must be a multiple of 16 bytes, not {inner_bytes} "
                f"({self.box[-1]} x {itemsize})"
            )
        span = SWIZZLE_BYTES[self.swizzle]
        if span and self.interleave == "none" and inner_bytes > span:
            raise InputError(
                f"with {self.swizzle} the innermost TMA box row is at most {span} bytes, not "
                f"{inner_bytes}"
            )
        if self.oob == "nan" and self.dtype.kind not in "fV":
            raise InputError(
                f"the NaN out-of-bounds fill needs a float type, not {self.dtype.name}"
            )

    @property
    def box_bytes(self) -> int:
        """Bytes one copy of the box writes to shared memory (the mbarrier's tx count)."""
        return int(np.prod(self.box)) * self.dtype.itemsize

    def driver_arguments(self) -> dict[str, Any]:
        """The sizes in cuTensorMapEncodeTiled's order: innermost dimension first, the
        innermost stride left out (it is the element size), element strides of 1."""
        return {
            "rank": len(self.shape),
            "global_dim": list(reversed(self.shape)),
            "global_strides": list(reversed(self.strides[:-1])),
            "box_dim": list(reversed(self.box)),
            "element_strides": [1] * len(self.shape),
        }


def encode_tiled(context: GpuContext, address: int, layout: TensorMapLayout) -> bytes:
    """The 128 descriptor bytes of the tensor at device `address` (16-byte aligned),
    from the driver's cuTensorMapEncodeTiled."""
    if address % 16:
        raise InputError(f"a TMA tensor's address must be 16-byte aligned, not {address:#x}")
    driver = context.driver
    sizes = layout.driver_arguments()
    tensor_map = context.call(
        "cuTensorMapEncodeTiled",
        getattr(driver.CUtensorMapDataType, _DTYPE_ENUMS[layout.dtype.name]),
        sizes["rank"],
        address,
        # The bindings take these arrays as lists of their own fixed-width integer types.
        [driver.cuuint64_t(n) for n in sizes["global_dim"]],
        [driver.cuuint64_t(n) for n in sizes["global_strides"]],
        [driver.cuuint32_t(n) for n in sizes["box_dim"]],
        [driver.cuuint32_t(n) for n in sizes["element_strides"]],
        getattr(driver.CUtensorMapInterleave, _INTERLEAVE_ENUMS[layout.interleave]),
        getattr(driver.CUtensorMapSwizzle, _SWIZZLE_ENUMS[layout.swizzle]),
        getattr(driver.CUtensorMapL2promotion, _L2_ENUMS[layout.l2promo]),
        getattr(driver.CUtensorMapFloatOOBfill, _OOB_ENUMS[layout.oob]),
        during=f"encoding a TMA descriptor of a {layout.shape} {layout.dtype.name} tensor "
        f"with box {layout.box}",
    )
    return ctypes.string_at(int(tensor_map.getPtr()), DESCRIPTOR_BYTES)


__all__ = [
    "DESCRIPTOR_BYTES",
    "DTYPE_CODES",
    "FIELDS_HEADER",
    "INTERLEAVE_CODES",
    "L2PROMO_CODES",
    "MAX_BOX",
    "MAX_RANK",
    "OOB_CODES",
    "STRIDE_ALIGNMENT",
    "SWIZZLE_BYTES",
    "SWIZZLE_CODES",
    "Staging",
    "TensorMapLayout",
    "dtype_name",
    "encode_tiled",
    "layout_of_fields",
    "plan_staging",
    "round_up",
]
