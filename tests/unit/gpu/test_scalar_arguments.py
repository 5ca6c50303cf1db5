"""Scalar kernel/entry arguments are converted exactly or rejected with a message naming
the argument (shared by the launch path and the host entry path; no GPU needed)."""

from __future__ import annotations

import numpy as np
import pytest

from schedir.abi import ScalarSpec
from schedir.diagnostics import InputError
from schedir.gpu.function import convert_scalar


def test_integers_convert_exactly() -> None:
    assert convert_scalar("argument #1", ScalarSpec(np.dtype(np.int32)), 37).dtype == np.int32
    assert int(convert_scalar("argument #1", ScalarSpec(np.dtype(np.int64)), np.int8(-5))) == -5
    assert bool(convert_scalar("argument #1", ScalarSpec(np.dtype(np.bool_)), True))


def test_floats_convert_to_the_parameter_dtype() -> None:
    got = convert_scalar("argument #2", ScalarSpec(np.dtype(np.float32)), 1.5)
    assert got.dtype == np.float32 and float(got) == 1.5


@pytest.mark.parametrize(
    ("dtype", "value", "message"),
    [
        (np.int32, 2**40, "argument #0 of @f: 1099511627776 does not fit in int32"),
        (np.int64, 2.5, "argument #0 of @f must be an integer or bool, got float64"),
        (np.float32, np.ones(3), "argument #0 of @f must be a scalar, got an array of shape (3,)"),
        (np.float32, "x", "argument #0 of @f: cannot convert 'x' to float32"),
    ],
)
def test_bad_scalars_are_input_errors(dtype: type, value: object, message: str) -> None:
    with pytest.raises(InputError) as info:
        convert_scalar("argument #0 of @f", ScalarSpec(np.dtype(dtype)), value)
    assert message in info.value.message
