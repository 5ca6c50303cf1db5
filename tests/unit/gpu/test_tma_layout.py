"""TMA descriptor fields checked on the host without a GPU: the driver's rules as
InputErrors naming the rule, and the driver's argument order (innermost first)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedir.diagnostics import InputError
from schedir.gpu.tma import SWIZZLE_BYTES, TensorMapLayout

F16 = np.dtype(np.float16)


@st.composite
def valid_layouts(draw: st.DrawFn) -> TensorMapLayout:
    dtype = np.dtype(draw(st.sampled_from([np.float16, np.float32, np.int8, ml_dtypes.bfloat16])))
    rank = draw(st.integers(1, 5))
    # Outer extents small enough that the byte strides stay below the driver's 2^40.
    outer_shape = draw(st.lists(st.integers(1, 300), min_size=rank - 1, max_size=rank - 1))
    shape = (*outer_shape, draw(st.integers(1, 5000)))
    swizzle = draw(st.sampled_from(list(SWIZZLE_BYTES)))
    span = SWIZZLE_BYTES[swizzle] or 256 * dtype.itemsize
    # Row pitch: the tensor's innermost extent padded to 16 bytes (a pitched allocation).
    pitch = -(-shape[-1] * dtype.itemsize // 16) * 16
    strides = [dtype.itemsize]
    running = pitch
    for size in reversed(shape[:-1]):
        strides.append(running)
        running *= size
    inner_max = min(256, span // dtype.itemsize)
    inner = draw(
        st.sampled_from(
            [n for n in range(16 // dtype.itemsize, inner_max + 1, 16 // dtype.itemsize)]
        )
    )
    outer = draw(st.lists(st.integers(1, 256), min_size=rank - 1, max_size=rank - 1))
    return TensorMapLayout(dtype, shape, tuple(reversed(strides)), (*outer, inner), swizzle=swizzle)


@settings(max_examples=200)
@given(valid_layouts())
def test_driver_arguments_are_innermost_first(layout: TensorMapLayout) -> None:
    args = layout.driver_arguments()
    rank = len(layout.shape)
    assert args["rank"] == rank
    assert args["global_dim"] == list(layout.shape[::-1])
    assert args["global_strides"] == list(layout.strides[:-1][::-1])
    assert len(args["global_strides"]) == rank - 1
    assert args["box_dim"] == list(layout.box[::-1])
    assert args["element_strides"] == [1] * rank
    assert layout.box_bytes == int(np.prod(layout.box)) * layout.dtype.itemsize


def test_layout_of_an_array() -> None:
    a = np.zeros((100, 72), np.float16)
    layout = TensorMapLayout.of(a, (64, 64), swizzle="swizzle_128b")
    assert layout.strides == (144, 2)
    assert layout.box_bytes == 8192


@pytest.mark.parametrize(
    ("shape", "strides", "box", "options", "message"),
    [
        (
            (64, 64),
            (128, 2),
            (64, 64),
            {"swizzle": "swizzle_64b"},
            "with swizzle_64b the innermost TMA box row is at most 64 bytes, not 128",
        ),
        ((64, 63), (126, 2), (64, 64), {}, "strides must be positive multiples of 16 bytes"),
        (
            (64, 64),
            (256, 4),
            (64, 64),
            {},
            "innermost dimension of a TMA tensor must be contiguous",
        ),
        ((64, 64), (128, 2), (300, 64), {}, "TMA box sizes are 1 to 256, not 300"),
        (
            (64, 64),
            (128, 2),
            (64, 4),
            {},
            "innermost TMA box row must be a multiple of 16 bytes, not 8",
        ),
        ((64, 64), (128, 2), (64,), {}, "one stride and one box size per dimension"),
        ((2,) * 6, (64,) * 5 + (2,), (1,) * 6, {}, "1 to 5 dimensions, not 6"),
        (
            (64, 64),
            (128, 2),
            (64, 64),
            {"swizzle": "swizzle_256b"},
            "TMA swizzle 'swizzle_256b' is not one of",
        ),
        ((64, 64), (128, 2), (64, 64), {"oob": "one"}, "out-of-bounds fill 'one' is not one of"),
        ((0, 64), (128, 2), (1, 64), {}, "dimensions are 1 to 2^32, not 0"),
    ],
)
def test_driver_rules_are_input_errors(
    shape: tuple[int, ...],
    strides: tuple[int, ...],
    box: tuple[int, ...],
    options: dict[str, str],
    message: str,
) -> None:
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace("^", r"\^")):
        TensorMapLayout(F16, shape, strides, box, **options)


def test_nan_fill_needs_floats_and_types_must_be_copyable() -> None:
    with pytest.raises(InputError, match="NaN out-of-bounds fill needs a float type"):
        TensorMapLayout(np.dtype(np.int32), (8, 8), (32, 4), (8, 8), oob="nan")
    with pytest.raises(InputError, match="TMA does not copy elements of type complex64"):
        TensorMapLayout(np.dtype(np.complex64), (8, 8), (64, 8), (8, 8))
