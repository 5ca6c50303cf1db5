"""The i64 fields compiled host code packs for a TMA descriptor (lower-tma-descriptors)
read back as the layout the driver is asked for; tensors whose address or row strides TMA
cannot describe are staged into 16-byte-pitched rows (any M, N, K, f16/bf16/f32/int8,
rank 1 to 5, views); malformed fields are errors; kernels that use sm_90a-only
instructions compile for sm_90a."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedir.diagnostics import InputError
from schedir.gpu.tma import (
    DTYPE_CODES,
    FIELDS_HEADER,
    INTERLEAVE_CODES,
    L2PROMO_CODES,
    OOB_CODES,
    SWIZZLE_CODES,
    Staging,
    TensorMapLayout,
    dtype_name,
    layout_of_fields,
    plan_staging,
)
from schedir.lowering.nvvm.nvgpu_ops import kernel_arch


def _strides(itemsize: int, shape: tuple[int, ...]) -> list[int]:
    """C-contiguous byte strides."""
    strides = [itemsize] * len(shape)
    for dim in reversed(range(len(shape) - 1)):
        strides[dim] = strides[dim + 1] * shape[dim + 1]
    return strides


def _fields(
    address: int, dtype: str, shape: tuple[int, ...], box: tuple[int, ...], swizzle: str
) -> list[int]:
    strides = _strides(np.dtype(dtype).itemsize, shape)
    return [
        address,
        len(shape),
        DTYPE_CODES.index(dtype),
        SWIZZLE_CODES.index(swizzle),
        L2PROMO_CODES.index("none"),
        OOB_CODES.index("zero"),
        INTERLEAVE_CODES.index("none"),
        *shape,
        *strides,
        *box,
    ]


@pytest.mark.parametrize(
    ("dtype", "shape", "box", "swizzle"),
    [
        ("float16", (4096, 4096), (128, 64), "swizzle_128b"),
        ("float16", (1000, 1016), (64, 64), "swizzle_128b"),
        ("float32", (64, 8), (64, 8), "none"),
        ("float16", (3, 40, 72), (1, 8, 32), "swizzle_64b"),
        ("int8", (17, 4096), (5, 128), "swizzle_128b"),
        ("float32", (2, 3, 4, 5, 8), (1, 1, 2, 5, 4), "none"),
    ],
)
def test_fields_read_back_as_the_layout(
    dtype: str, shape: tuple[int, ...], box: tuple[int, ...], swizzle: str
) -> None:
    fields = _fields(0x7F0000001000, dtype, shape, box, swizzle)
    assert len(fields) == FIELDS_HEADER + 3 * len(shape)
    address, layout, staging = layout_of_fields(fields)
    assert address == 0x7F0000001000 and staging is None
    strides = tuple(fields[FIELDS_HEADER + len(shape) : FIELDS_HEADER + 2 * len(shape)])
    assert layout == TensorMapLayout(np.dtype(dtype), shape, strides, box, swizzle)
    # The driver gets the innermost dimension first.
    assert layout.driver_arguments()["global_dim"] == list(reversed(shape))
    assert layout.driver_arguments()["box_dim"] == list(reversed(box))


@pytest.mark.parametrize(
    "damage",
    [
        lambda f: f.__setitem__(1, 0),  # rank 0
        lambda f: f.__setitem__(1, 6),  # rank above 5
        lambda f: f.__setitem__(2, len(DTYPE_CODES)),  # unknown dtype code
        lambda f: f.__setitem__(3, -1),  # unknown swizzle code
        lambda f: f.pop(),  # a box size missing
    ],
)
def test_malformed_fields_are_errors(damage: object) -> None:
    fields = _fields(0x1000, "float16", (256, 512), (128, 64), "swizzle_128b")
    damage(fields)  # type: ignore[operator]  # the parametrized lambdas
    with pytest.raises(InputError, match="malformed TMA descriptor"):
        layout_of_fields(fields)


def test_rows_tma_cannot_describe_are_staged() -> None:
    # 4097 f16 per row: a row stride of 8194 bytes is not a multiple of 16; the staged copy
    # has rows of 8208 bytes and the tensor's real sizes (TMA fills past them).
    address, layout, staging = layout_of_fields(
        _fields(0x1000, "float16", (4096, 4097), (64, 64), "swizzle_128b")
    )
    assert address == 0x1000 and staging is not None
    assert staging == Staging(0x1000, 8194, 4096, 8194, 8208)
    assert staging.nbytes == 4096 * 8208
    assert layout.shape == (4096, 4097) and layout.strides == (8208, 2)
    assert layout.driver_arguments()["global_strides"] == [8208]


_DTYPES = {"f16": np.float16, "bf16": np.uint16, "f32": np.float32, "i8": np.int8}
"""Element sizes of the types TMA moves (bf16's 2 bytes stand in as uint16)."""


@settings(max_examples=300)
@given(
    m=st.integers(1, 5000),
    n=st.integers(1, 5000),
    k=st.integers(1, 5000),
    element=st.sampled_from(sorted(_DTYPES)),
    offset=st.sampled_from([0, 16, 2, 6]),
)
def test_matmul_operands_are_staged_exactly_when_tma_cannot_describe_them(
    m: int, n: int, k: int, element: str, offset: int
) -> None:
    """A (M x K) and B (K x N), C-contiguous at a base `offset` bytes past 16-byte
    alignment: staged iff a row or the address is not a multiple of 16 bytes; the staged
    rows are the source's, at the smallest 16-byte multiple pitch that holds them, and the
    staged layout is one the driver accepts."""
    itemsize = np.dtype(_DTYPES[element]).itemsize
    offset -= offset % itemsize
    for rows, cols in ((m, k), (k, n)):
        shape = (rows, cols)
        strides = tuple(_strides(itemsize, shape))
        address = 0x7F0000000000 + offset
        staging = plan_staging(address, itemsize, shape, strides)
        aligned = address % 16 == 0 and cols * itemsize % 16 == 0
        assert (staging is None) == aligned
        if staging is None:
            continue
        assert staging.source == address
        assert staging.rows == rows and staging.row_bytes == cols * itemsize
        assert staging.source_pitch == cols * itemsize
        assert staging.pitch % 16 == 0 and 0 <= staging.pitch - staging.row_bytes < 16
        assert staging.nbytes == rows * staging.pitch
        staged = staging.strides(shape, itemsize)
        assert staged == (staging.pitch, itemsize)
        TensorMapLayout(np.dtype(_DTYPES[element]), shape, staged, (min(rows, 64), 16 // itemsize))


@settings(max_examples=200)
@given(
    shape=st.lists(st.integers(1, 40), min_size=1, max_size=5).map(tuple),
    itemsize=st.sampled_from([1, 2, 4]),
    pad=st.integers(0, 40),
)
def test_evenly_spaced_rows_stage_as_one_pitched_copy(
    shape: tuple[int, ...], itemsize: int, pad: int
) -> None:
    """Any rank: rows `pad` elements longer than the data (a view of a wider array) are
    gathered by one 2-D copy of prod(outer) rows; the staged strides pack the outer
    dimensions over the 16-byte pitch."""
    padded = (*shape[:-1], shape[-1] + pad)
    strides = tuple(_strides(itemsize, padded))
    staging = plan_staging(0x1000, itemsize, shape, strides)
    row_bytes = shape[-1] * itemsize
    if len(shape) == 1 or all(s % 16 == 0 for s in strides[:-1]):
        assert staging is None
        return
    assert staging is not None
    assert staging.rows == int(np.prod(shape[:-1])) and staging.row_bytes == row_bytes
    inner_rows = [d for d in shape[:-1] if d > 1]
    if inner_rows:
        assert staging.source_pitch == (shape[-1] + pad) * itemsize
    staged = staging.strides(shape, itemsize)
    assert staged[-1] == itemsize and all(s % 16 == 0 for s in staged[:-1])
    for dim in range(len(shape) - 2):
        assert staged[dim] == staged[dim + 1] * shape[dim + 1]


@pytest.mark.parametrize(
    ("shape", "strides"),
    [
        ((4, 3, 5), (100, 10, 2)),  # the outer dimension does not step over the rows
        ((8, 5), (6, 2)),  # rows overlap
        ((8, 5), (-10, 2)),  # rows run backwards
    ],
)
def test_rows_a_pitched_copy_cannot_gather_are_errors(
    shape: tuple[int, ...], strides: tuple[int, ...]
) -> None:
    with pytest.raises(InputError, match="pass a C-contiguous array"):
        plan_staging(0x1000, 2, shape, strides)


@pytest.mark.parametrize(
    ("element", "name"),
    [
        ("f16", "float16"),
        ("bf16", "bfloat16"),
        ("f32", "float32"),
        ("i8", "int8"),
        ("f8E4M3FN", None),
    ],
)
def test_dtype_names(element: str, name: str | None) -> None:
    assert dtype_name(element) == name
    assert name is None or name in DTYPE_CODES


@pytest.mark.parametrize(
    ("chip", "ir", "arch"),
    [
        ("sm_90", 'call void asm sideeffect "wgmma.fence.sync.aligned;", ""()', "sm_90a"),
        ("sm_90", "call void @llvm.nvvm.wgmma.commit_group.sync.aligned()", "sm_90a"),
        ("sm_90", "call void @llvm.nvvm.setmaxnreg.inc.sync.aligned.u32(i32 232)", "sm_90a"),
        ("sm_90", "call void @llvm.nvvm.barrier0()", "sm_90"),
        ("sm_90a", "call void @llvm.nvvm.barrier0()", "sm_90a"),
        ("sm_80", "call void @llvm.nvvm.barrier0()", "sm_80"),
    ],
)
def test_kernel_arch(chip: str, ir: str, arch: str) -> None:
    assert kernel_arch(chip, ir) == arch
