"""schedir.reference's public API: evaluate's contract, compare and its tolerances, inputs, speed."""

from __future__ import annotations

import math
import time
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from numpy.typing import DTypeLike
from reference_helpers import run1
from xdsl.dialects.builtin import ModuleOp

from schedir import reference
from schedir.diagnostics import InputError, UnsupportedError
from schedir.dialects.syntax import parse_module
from schedir.dialects.types import entry_signature, find_entry
from schedir.reference import (
    CheckResult,
    Expected,
    compare,
    nan_filled,
    random_inputs,
    reduction_length,
    tolerance_floor,
)
from schedir.reference.bounds import unit_roundoff

EXAMPLES = Path(__file__).parents[3] / "examples"

MATMUL = """
func.func @mm(%A: tensor<?x5xf32>, %B: tensor<5x3xf32>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %A, %c0 : tensor<?x5xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x3xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x3xf32>) -> tensor<?x3xf32>
  %r = linalg.matmul ins(%A, %B : tensor<?x5xf32>, tensor<5x3xf32>) outs(%f : tensor<?x3xf32>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
"""


# ---- evaluate ------------------------------------------------------------------------------


def test_evaluate_accepts_text_path_and_module_and_dynamic_dims(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    a, b = (
        rng.uniform(-1, 1, (7, 5)).astype(np.float32),
        rng.uniform(-1, 1, (5, 3)).astype(np.float32),
    )
    want = a.astype(np.float64) @ b.astype(np.float64)
    path = tmp_path / "mm.mlir"
    path.write_text(MATMUL)
    for payload in (MATMUL, path, str(path), parse_module(MATMUL)):
        (got,) = reference.evaluate(payload, None, [a, b])
        assert got.dtype == np.float64 and got.shape == (7, 3)
        np.testing.assert_allclose(got, want, rtol=1e-13)
    (got,) = reference.evaluate(MATMUL, "mm", [a[:2], b])
    assert got.shape == (2, 3)


def test_evaluate_validates_the_arguments() -> None:
    a, b = np.ones((7, 5), np.float32), np.ones((5, 3), np.float32)
    with pytest.raises(InputError, match="takes 2 argument"):
        reference.evaluate(MATMUL, None, [a])
    with pytest.raises(InputError, match=r"argument 1: expected shape \(5, 3\)"):
        reference.evaluate(MATMUL, None, [a, np.ones((5, 4), np.float32)])
    with pytest.raises(InputError, match=r"argument 0: expected shape \(\?, 5\)"):
        reference.evaluate(MATMUL, None, [np.ones((7, 5, 1), np.float32), b])
    with pytest.raises(InputError, match="argument 0: expected dtype float32"):
        reference.evaluate(MATMUL, None, [a.astype(np.float64), b])
    with pytest.raises(InputError, match="no function named 'nope'"):
        reference.evaluate(MATMUL, "nope", [a, b])
    with pytest.raises(InputError, match="cannot read payload"):
        reference.evaluate(Path("/nonexistent/payload.mlir"), None, [a, b])


def test_evaluate_never_modifies_inputs() -> None:
    text = """
func.func @f(%x: tensor<4xf32>, %m: memref<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %v = arith.constant 9.0 : f32
  memref.store %v, %m[%c0] : memref<4xf32>
  %t = tensor.insert %v into %x[%c0] : tensor<4xf32>
  return %t : tensor<4xf32>
}
"""
    x, m = np.arange(4, dtype=np.float32), np.arange(4, dtype=np.float32)
    got = run1(text, x, m)
    assert got.tolist() == [9.0, 1.0, 2.0, 3.0]
    assert x.tolist() == m.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_results_come_back_in_their_types() -> None:
    text = """
func.func @f(%x: tensor<3xf16>, %i: tensor<3xi8>) -> (tensor<3xf16>, tensor<3xi8>, f32, i1, tensor<3xbf16>) {
  %c = arith.constant 2.5 : f32
  %t = arith.constant true
  %e = tensor.empty() : tensor<3xbf16>
  %b = linalg.fill ins(%c : f32) outs(%e : tensor<3xbf16>) -> tensor<3xbf16>
  return %x, %i, %c, %t, %b : tensor<3xf16>, tensor<3xi8>, f32, i1, tensor<3xbf16>
}
""".replace("linalg.fill ins(%c : f32)", "linalg.fill ins(%c16 : bf16)").replace(
        "  %t = arith.constant true\n",
        "  %t = arith.constant true\n  %c16 = arith.constant 2.5 : bf16\n",
    )
    x, i = np.array([1, 2, 3], np.float16), np.array([-1, 0, 1], np.int8)
    f, n, c, t, b = reference.evaluate(text, None, [x, i])
    assert f.dtype == np.float64 and n.dtype == np.int8 and c.dtype == np.float64 and c.shape == ()
    assert t.dtype == np.bool_ and bool(t) and b.dtype == np.float64 and b.tolist() == [2.5] * 3


def test_unknown_op_is_unsupported_at_its_location() -> None:
    text = """
func.func @f(%x: memref<4xf32>) {
  affine.for %i = 0 to 4 {
  }
  return
}
"""
    with pytest.raises(UnsupportedError, match=r"does not support 'affine\.for'") as info:
        reference.evaluate(text, None, [np.zeros(4, np.float32)])
    assert info.value.location is not None and info.value.location.line == 3


def test_out_of_bounds_access_is_an_input_error_at_the_op() -> None:
    text = """
func.func @f(%x: tensor<4xf32>, %i: index) -> f32 {
  %v = tensor.extract %x[%i] : tensor<4xf32>
  return %v : f32
}
"""
    with pytest.raises(InputError, match="out of bounds") as info:
        reference.evaluate(text, None, [np.zeros(4, np.float32), np.int64(4)])
    assert info.value.location is not None and info.value.location.line == 3


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.mlir")))
def test_every_example_evaluates_without_nan(example: str) -> None:
    from reference_helpers import parse_or_skip

    module = parse_or_skip((EXAMPLES / example).read_text())
    sig = entry_signature(find_entry(module, None))
    results = reference.evaluate(module, None, random_inputs(sig, 3))
    assert results and all(np.isfinite(r).all() for r in results)


# ---- speed ---------------------------------------------------------------------------------


def _best_time(text: str, inputs: list[np.ndarray], entry: str | None = None) -> float:
    module = parse_module(text)
    best = math.inf
    for _ in range(3):
        start = time.perf_counter()
        reference.evaluate(module, entry, inputs)
        best = min(best, time.perf_counter() - start)
    return best


def test_large_matmul_and_conv_are_fast() -> None:
    rng = np.random.default_rng(1)
    mm = """
func.func @mm(%A: tensor<128x192xf32>, %B: tensor<192x256xf32>) -> tensor<128x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %C = linalg.matmul ins(%A, %B : tensor<128x192xf32>, tensor<192x256xf32>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %C : tensor<128x256xf32>
}
"""
    a, b = (
        rng.uniform(-1, 1, (128, 192)).astype(np.float32),
        rng.uniform(-1, 1, (192, 256)).astype(np.float32),
    )
    assert _best_time(mm, [a, b]) < 0.25
    generic = mm.replace(
        "linalg.matmul ins(%A, %B : tensor<128x192xf32>, tensor<192x256xf32>) outs(%f : tensor<128x256xf32>) -> tensor<128x256xf32>",
        """linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : tensor<128x192xf32>, tensor<192x256xf32>) outs(%f : tensor<128x256xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %q = math.absf %p : f32
    %s = arith.addf %acc, %q : f32
    linalg.yield %s : f32
  } -> tensor<128x256xf32>""",
    )
    assert _best_time(generic, [a, b]) < 1.0  # materializes the product, chunk by chunk
    conv = """
func.func @conv(%in: tensor<1x34x34x16xf32>, %w: tensor<3x3x16x32xf32>) -> tensor<1x32x32x32xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x32x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x32x32x32xf32>) -> tensor<1x32x32x32xf32>
  %o = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<1x34x34x16xf32>, tensor<3x3x16x32xf32>) outs(%f : tensor<1x32x32x32xf32>) -> tensor<1x32x32x32xf32>
  return %o : tensor<1x32x32x32xf32>
}
"""
    x, w = (
        rng.uniform(-1, 1, (1, 34, 34, 16)).astype(np.float32),
        rng.uniform(-1, 1, (3, 3, 16, 32)).astype(np.float32),
    )
    assert _best_time(conv, [x, w]) < 0.25


# ---- tolerance and compare -----------------------------------------------------------------


def _expected(value: object, error: object, dtype: DTypeLike = np.float32) -> Expected:
    """An Expected with explicit values and bounds."""
    v = np.asarray(value, dtype=np.float64)
    return Expected(
        v, np.broadcast_to(np.asarray(error, dtype=np.float64), v.shape), np.dtype(dtype)
    )


def test_tolerance_floor_is_the_smallest_normal_and_zero_for_integers() -> None:
    assert tolerance_floor(np.float32) == float(np.finfo(np.float32).tiny)
    assert tolerance_floor(np.float16) == float(np.finfo(np.float16).tiny)
    assert tolerance_floor(ml_dtypes.bfloat16) == float(np.finfo(np.float32).tiny)
    for dtype in (np.int8, np.int32, np.int64, np.bool_):
        assert tolerance_floor(dtype) == 0.0


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16, np.float32])
def test_an_infinity_passes_only_where_the_bound_reaches_past_the_largest_value(
    dtype: DTypeLike,
) -> None:
    """An f16 x**3 of x = -110 is -1331000 in float64, -inf in f16: the rounding to the
    result type overflows. -inf passes where |value| + tolerance exceeds the type's largest
    finite value; +inf (wrong sign) and -inf below that range do not."""
    largest = float((ml_dtypes.finfo if dtype == ml_dtypes.bfloat16 else np.finfo)(dtype).max)
    beyond = _expected([-1.5 * largest, 2.0 * largest], [0.1 * largest, 0.1 * largest], dtype)
    got = np.array([-np.inf, np.inf], dtype=dtype)
    assert compare(got, beyond, dtype).ok
    assert not compare(np.array([np.inf, np.inf], dtype=dtype), beyond, dtype).ok
    # |value| + tolerance within the range: an infinity is wrong
    inside = _expected([-0.5 * largest], [0.01 * largest], dtype)
    assert not compare(np.array([-np.inf], dtype=dtype), inside, dtype).ok
    # NaN never passes, overflow or not
    assert not compare(np.array([np.nan, np.inf], dtype=dtype), beyond, dtype).ok


def test_compare_is_per_element_never_scaled_by_the_largest_value() -> None:
    # The old oracle let a large neighbour widen every element's tolerance.
    expected = _expected([1e6, 1.0, 2.0], [1e-1, 1e-7, 2e-7])
    actual = np.array([1e6, 1.0, 0.0], np.float32)
    result = compare(actual, expected, np.float32)
    assert not result.ok and result.first_mismatch == (2,) and result.num_mismatches == 1
    assert "tolerance 4e-07" in result.message
    near = np.array([1e6 + 0.125, 1.0 + 2.0**-23, 2.0], np.float32)  # within 2 x bound
    assert compare(near, expected, np.float32).ok


def test_compare_tolerance_is_safety_times_bound_plus_floor() -> None:
    expected = _expected([3.0, -5.0], [1e-6, 0.0])
    ok = compare(np.array([3.0 + 1.9e-6, -5.0], np.float32), expected, np.float32)
    assert ok.ok and ok.max_tolerance == pytest.approx(2e-6 + tolerance_floor(np.float32))
    assert ok.rule.startswith("per element: 2 x forward error bound")
    assert not compare(np.array([3.0 + 2.5e-6, -5.0], np.float32), expected, np.float32).ok
    # An element with bound 0 (a copy) must match to the floor.
    assert not compare(np.array([3.0, -5.000001], np.float32), expected, np.float32).ok


def test_compare_line_reports_the_tolerance() -> None:
    expected = _expected([1.0, 2.0], [1e-6, 1e-6])
    line = compare(np.array([1.0, 2.0], np.float32), expected, np.float32).line()
    assert line.startswith("check: OK max_abs_err=0 max_rel_err=0 tol=2e-06 err/tol=0 (")
    bad = compare(np.array([1.0, 0.0], np.float32), expected, np.float32).line("result 1:")
    assert bad.startswith("check: result 1: MISMATCH") and "first at (1,)" in bad


def test_compare_unbounded_elements_pass_unless_nan_and_are_counted() -> None:
    expected = _expected([1.0, 2.0], [np.inf, 0.0])
    result = compare(np.array([7.0, 2.0], np.float32), expected, np.float32)
    assert result.ok and result.unbounded == 1 and "without a finite bound" in result.line()
    assert not compare(np.array([np.nan, 2.0], np.float32), expected, np.float32).ok


def test_compare_needs_bounds_for_floats() -> None:
    with pytest.raises(TypeError, match="evaluate_with_bounds"):
        compare(np.ones(3, np.float32), np.ones(3), np.float32)


def test_compare_nan_in_actual_never_passes() -> None:
    expected = _expected(np.ones((3, 4)), 1e30)
    actual = np.ones((3, 4), np.float32)
    actual[1, 2] = np.nan
    result = compare(actual, expected, np.float32)
    assert not result.ok and result.first_mismatch == (1, 2) and "NaN" in result.message
    assert result.num_mismatches == 1


def test_compare_nan_or_inf_in_expected_is_a_setup_failure() -> None:
    value = np.ones(5)
    value[3] = np.nan
    result = compare(np.ones(5, np.float32), _expected(value, 1.0), np.float32)
    assert (
        not result.ok and result.message.startswith("check setup") and result.first_mismatch == (3,)
    )
    value[3] = np.inf
    assert (
        "check setup" in compare(np.ones(5, np.float32), _expected(value, 1.0), np.float32).message
    )


def test_compare_integers_and_bools_exactly() -> None:
    expected = np.array([1, -5, 2**31 - 1], np.int32)
    assert compare(expected.copy(), expected, np.int32).ok
    assert compare(expected.copy(), Expected(expected, None, np.dtype(np.int32)), np.int32).ok
    off = expected.copy()
    off[2] -= 1
    result = compare(off, expected, np.int32)
    assert not result.ok and result.first_mismatch == (2,) and result.max_abs_err == 1.0
    flags = np.array([True, False])
    assert compare(flags, flags, np.bool_).ok
    assert not compare(~flags, flags, np.bool_).ok


def test_compare_shape_and_dtype_mismatch() -> None:
    expected = _expected(np.zeros((2, 3)), 1.0)
    assert "shape" in compare(np.zeros((3, 2), np.float32), expected, np.float32).message
    assert "dtype" in compare(np.zeros((2, 3)), expected, np.float32).message
    assert not compare(np.zeros((2, 3), np.int32), np.zeros((2, 3)), np.int32).ok


def test_compare_half_precisions_and_empty() -> None:
    value = np.array([1.0, 2.0, -3.0, 0.1])
    for dtype in (np.float16, ml_dtypes.bfloat16):
        # Rounding the value to the type is within one rounding's bound.
        bound = unit_roundoff(dtype) * np.abs(value)
        assert compare(value.astype(dtype), _expected(value, bound, dtype), dtype).ok
    bound = unit_roundoff(np.float16) * np.abs(value)
    assert not compare((value * 1.05).astype(np.float16), _expected(value, bound), np.float16).ok
    result = compare(np.zeros((0, 3), np.float32), _expected(np.zeros((0, 3)), 0.0), np.float32)
    assert isinstance(result, CheckResult) and result.ok


# ---- reduction_length ----------------------------------------------------------------------


def _module(name: str) -> ModuleOp:
    from reference_helpers import parse_or_skip

    return parse_or_skip((EXAMPLES / name).read_text())


def test_reduction_length() -> None:
    assert reduction_length(_module("matmul.mlir"), None) == 53
    assert reduction_length(_module("conv2d.mlir"), None) == 3 * 3 * 5
    assert reduction_length(_module("row_max.mlir"), None) == 77
    assert reduction_length(_module("matmul_bias_relu.mlir"), None) == 47
    elementwise = """
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""
    assert reduction_length(parse_module(elementwise), None) == 1
    assert reduction_length(parse_module(MATMUL), None) == 5
    dynamic_k = MATMUL.replace("tensor<?x5xf32>", "tensor<5x?xf32>").replace(
        "tensor<5x3xf32>", "tensor<?x3xf32>"
    )
    assert reduction_length(parse_module(dynamic_k), None) == reference.DYNAMIC_REDUCTION_EXTENT
    called = """
func.func private @inner(%x: tensor<6x11xf32>, %o: tensor<6xf32>) -> tensor<6xf32> {
  %r = linalg.reduce ins(%x : tensor<6x11xf32>) outs(%o : tensor<6xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<6xf32>
}
func.func @outer(%x: tensor<6x11xf32>, %o: tensor<6xf32>) -> tensor<6xf32> {
  %r = func.call @inner(%x, %o) : (tensor<6x11xf32>, tensor<6xf32>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}
"""
    assert reduction_length(parse_module(called), "outer") == 11


# ---- random inputs and NaN-filled outputs --------------------------------------------------


def test_random_inputs_are_seeded_typed_and_never_zero() -> None:
    text = """
func.func @f(%a: tensor<40x?xf32>, %b: tensor<300xf16>, %c: tensor<300xbf16>, %d: tensor<?xi8>,
             %e: tensor<50xi32>, %f: tensor<20xi1>, %g: index, %h: f64) {
  return
}
"""
    sig = entry_signature(find_entry(parse_module(text), None))
    first = random_inputs(sig, 7)
    again = random_inputs(sig, 7)
    other = random_inputs(sig, 8)
    assert all((x == y).all() for x, y in zip(first, again, strict=True))
    assert not (first[0] == other[0]).all()
    a, b, c, d, e, f, g, h = first
    assert a.shape == (40, reference.DEFAULT_DYNAMIC_SIZE) and a.dtype == np.float32
    assert b.dtype == np.float16 and c.dtype == ml_dtypes.bfloat16 and d.dtype == np.int8
    for x in (a, b, c, h):
        values = x.astype(np.float64)
        assert (values != 0).all() and (np.abs(values) <= 1).all()
    for x in (d, e):
        assert (x != 0).all() and (np.abs(x) <= 8).all()
    assert f.dtype == np.bool_ and f.any() and not f.all()
    assert g.shape == () and g.dtype == np.int64 and 1 <= int(g) <= 8
    assert h.shape == () and h.dtype == np.float64
    assert random_inputs(sig, 0, dynamic_sizes=5)[0].shape == (40, 5)
    sized = random_inputs(sig, 0, dynamic_sizes=[3, 9])
    assert sized[0].shape == (40, 3) and sized[3].shape == (9,)
    with pytest.raises(InputError, match="not enough dynamic sizes"):
        random_inputs(sig, 0, dynamic_sizes=[3])


def test_nan_filled() -> None:
    text = """
func.func @f() -> (tensor<2x3xf32>, tensor<4xi32>, tensor<2xbf16>, tensor<3xi8>, tensor<?xf32>) {
  %a = tensor.empty() : tensor<2x3xf32>
  %b = tensor.empty() : tensor<4xi32>
  %c = tensor.empty() : tensor<2xbf16>
  %d = tensor.empty() : tensor<3xi8>
  %n = arith.constant 2 : index
  %e = tensor.empty(%n) : tensor<?xf32>
  return %a, %b, %c, %d, %e : tensor<2x3xf32>, tensor<4xi32>, tensor<2xbf16>, tensor<3xi8>, tensor<?xf32>
}
"""
    sig = entry_signature(find_entry(parse_module(text), None))
    a, b, c, d = (nan_filled(spec) for spec in sig.results[:4])
    assert a.dtype == np.float32 and a.shape == (2, 3) and np.isnan(a).all()
    assert b.dtype == np.int32 and (b == np.int32(-559038737)).all()
    assert c.dtype == ml_dtypes.bfloat16 and np.isnan(c.astype(np.float32)).all()
    assert d.dtype == np.int8 and (d == np.int8(-17)).all()  # 0xEF
    with pytest.raises(InputError, match="dynamic"):
        nan_filled(sig.results[4])
    # What the reference itself returns for never-written data, compare() rejects.
    results = reference.evaluate_with_bounds(text, None, [])
    assert not compare(a, results[0], np.float32).ok
