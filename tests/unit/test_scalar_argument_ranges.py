"""Scalar arguments out of their type's range are rejected, never wrapped (issue 14,
defect 5): through `schedir.compile(...)(...)`, `Kernel.run`, the reference and
`schedir-run --inputs` (whose .npy arrays go through the same check), with a diagnostic
naming the argument; arrays of another dtype than declared are an error, never cast."""

from __future__ import annotations

import functools
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schedir
from schedir import reference
from schedir.abi import DTYPES, ScalarSpec, scalar_value
from schedir.cli import run_main
from schedir.diagnostics import InputError

TYPES = {
    "i1": np.dtype(np.bool_),
    "i8": np.dtype(np.int8),
    "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
    "index": np.dtype(np.int64),
}


def _payload(t: str) -> str:
    """x + n elementwise (xor for i1), n a scalar argument of type `t`."""
    op = "arith.xori" if t == "i1" else "arith.addi"
    return f"""
func.func @f(%x: tensor<5x{t}>, %n: {t}) -> tensor<5x{t}> {{
  %e = tensor.empty() : tensor<5x{t}>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}}
      ins(%x : tensor<5x{t}>) outs(%e : tensor<5x{t}>) {{
  ^bb0(%a: {t}, %o: {t}):
    %s = {op} %a, %n : {t}
    linalg.yield %s : {t}
  }} -> tensor<5x{t}>
  return %r : tensor<5x{t}>
}}
"""


@functools.cache
def _kernel(t: str) -> schedir.Kernel:
    return schedir.compile(_payload(t))


def _bounds(dtype: np.dtype) -> tuple[int, int]:
    if dtype == np.dtype(np.bool_):
        return 0, 1
    info = np.iinfo(dtype)
    return int(info.min), int(info.max)


@st.composite
def _type_and_value(draw: st.DrawFn) -> tuple[str, int, bool]:
    """A type, a value at, inside or beyond its bounds, and whether it fits."""
    t = draw(st.sampled_from(sorted(TYPES)))
    lo, hi = _bounds(TYPES[t])
    value = draw(
        st.one_of(
            st.sampled_from([lo, hi, lo - 1, hi + 1, lo - 2**70, hi + 2**70]),
            st.integers(lo - 1000, hi + 1000),
        )
    )
    return t, value, lo <= value <= hi


@settings(max_examples=60)
@given(case=_type_and_value(), as_numpy=st.booleans())
def test_compile_rejects_out_of_range_and_computes_in_range(
    case: tuple[str, int, bool], as_numpy: bool
) -> None:
    t, value, fits = case
    kernel = _kernel(t)
    x = reference.random_inputs(kernel.signature, seed=value % 97)[0]
    arg: object = value
    if as_numpy and -(2**63) <= value < 2**63:
        arg = np.int64(value)  # a numpy integer of another width than declared
    if not fits:
        with pytest.raises(InputError, match=rf"argument 1 \(%n: {t}\)"):
            kernel(x, arg)
        with pytest.raises(InputError, match="argument 1"):
            reference.evaluate(_payload(t), None, [x, arg])
        return
    got = kernel.run(x, arg, prefill_nan=True)
    expected = reference.evaluate(_payload(t), None, [x, bool(value) if t == "i1" else value])
    np.testing.assert_array_equal(got[0], expected[0])


def test_the_reported_example_is_rejected_not_wrapped() -> None:
    kernel = _kernel("i8")
    x = np.arange(5, dtype=np.int8)
    with pytest.raises(InputError) as err:
        kernel(x, 300)
    assert "argument 1 (%n: i8): 300 is out of range for i8 [-128, 127]" in str(err.value)
    np.testing.assert_array_equal(kernel(x, 44), x + 44)


def test_floats_are_not_truncated_into_integer_scalars() -> None:
    kernel = _kernel("i32")
    x = np.arange(5, dtype=np.int32)
    for bad in (1.5, np.float32(2.0), np.array(3.0)):
        with pytest.raises(InputError, match="must be an integer"):
            kernel(x, bad)


UNSIGNED_AND_SIGNED = sorted(
    (d for d in DTYPES if d.kind in "iu"), key=lambda d: (d.kind, d.itemsize)
)


@settings(max_examples=200)
@given(
    dtype=st.sampled_from(UNSIGNED_AND_SIGNED),
    offset=st.integers(-3, 3),
    at_high=st.booleans(),
)
def test_scalar_value_at_and_beyond_every_integer_bound(
    dtype: np.dtype, offset: int, at_high: bool
) -> None:
    lo, hi = _bounds(dtype)
    value = (hi if at_high else lo) + offset
    spec = ScalarSpec(dtype, f"t{dtype}", "%s")
    if lo <= value <= hi:
        converted = scalar_value(0, spec, value)
        assert converted.dtype == dtype and int(converted) == value
    else:
        with pytest.raises(InputError, match=r"argument 0 \(%s: t.*\): .* is out of range"):
            scalar_value(0, spec, value)


def test_float_scalars_reject_overflow_and_inexact_integers() -> None:
    for dtype, big in ((np.float16, 1e5), (np.float32, 1e39), (ml_dtypes.bfloat16, 1e39)):
        spec = ScalarSpec(dtype, "f")
        with pytest.raises(InputError, match="overflows"):
            scalar_value(0, spec, big)
        assert float(scalar_value(0, spec, 1.5)) == 1.5
        assert np.isnan(float(scalar_value(0, spec, float("nan"))))
    with pytest.raises(InputError, match="not exactly"):
        scalar_value(0, ScalarSpec(np.float32, "f32"), 2**24 + 1)


def _run_cli(tmp_path: Path, t: str, x: np.ndarray, n: np.ndarray) -> int:
    payload = tmp_path / "f.mlir"
    payload.write_text(_payload(t))
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "n.npy", n)
    return run_main([str(payload), "--inputs", f"{tmp_path / 'x.npy'},{tmp_path / 'n.npy'}"])


@pytest.mark.parametrize(
    ("t", "x", "n", "fragment"),
    [
        (
            "i8",
            np.arange(5, dtype=np.int8),
            np.array(300),
            "argument 1 (%n: i8): 300 is out of range",
        ),
        ("i16", np.arange(5, dtype=np.int16), np.array(-40000), "-40000 is out of range for i16"),
        ("i8", np.arange(5, dtype=np.int8), np.array(2.0), "must be an integer"),
        ("i8", np.arange(5, dtype=np.int16), np.array(1), "expected an array of dtype int8"),
        ("i32", np.arange(5, dtype=np.int64), np.array(1), "(%x: tensor<5xi32>), got int64"),
    ],
    ids=["i8-300", "i16-low", "float-for-int", "array-dtype", "array-named"],
)
def test_schedir_run_inputs_are_checked(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    t: str,
    x: np.ndarray,
    n: np.ndarray,
    fragment: str,
) -> None:
    assert _run_cli(tmp_path, t, x, n) == 1
    err = capsys.readouterr().err
    assert "error:" in err and fragment in err and "Traceback" not in err


def test_schedir_run_accepts_in_range_npy_scalars(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A 0-d int64 array whose value fits i8 is taken exactly.
    assert _run_cli(tmp_path, "i8", np.arange(5, dtype=np.int8), np.array(-128)) == 0
    assert "[-128 -127 -126 -125 -124]" in capsys.readouterr().out
