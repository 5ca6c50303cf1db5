"""The i64 fields compiled host code packs for a TMA descriptor (lower-tma-descriptors)
read back as the layout the driver is asked for; malformed fields are errors; kernels
that use sm_90a-only instructions compile for sm_90a."""

from __future__ import annotations

import numpy as np
import pytest

from schedir.diagnostics import InputError
from schedir.gpu.tma import (
    DTYPE_CODES,
    FIELDS_HEADER,
    INTERLEAVE_CODES,
    L2PROMO_CODES,
    OOB_CODES,
    SWIZZLE_CODES,
    TensorMapLayout,
    dtype_name,
    layout_of_fields,
)
from schedir.lowering.nvvm.nvgpu_ops import kernel_arch


def _fields(
    address: int, dtype: str, shape: tuple[int, ...], box: tuple[int, ...], swizzle: str
) -> list[int]:
    itemsize = np.dtype(dtype).itemsize
    strides = [itemsize] * len(shape)
    for dim in reversed(range(len(shape) - 1)):
        strides[dim] = strides[dim + 1] * shape[dim + 1]
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
    address, layout = layout_of_fields(fields)
    assert address == 0x7F0000001000
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


def test_fields_the_driver_would_refuse_are_errors() -> None:
    # 4097 f16 per row: a row stride of 8194 bytes is not a multiple of 16.
    with pytest.raises(InputError, match="multiples of 16 bytes"):
        layout_of_fields(_fields(0x1000, "float16", (4096, 4097), (64, 64), "swizzle_128b"))


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
