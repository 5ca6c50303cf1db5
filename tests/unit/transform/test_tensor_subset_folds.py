"""The tensor subset folds (`fold_tensor_subset_ops`, `..._into_vector_transfers`) fold a
transfer read of a slice into a read of its source only where upstream does: unit strides,
an unmasked read in bounds of the slice. An out-of-bounds read of a slice reads padding
where the source holds data, so folding it gives other numbers (main's `fold_tensor_
subset_ops` did, with a second copy of the folder that skipped the in-bounds check).

Generated cases: a slice of a source at random offsets and sizes, read at random indices
into a vector that may run past the slice's end (in_bounds inferred or given), written to
the result. schedir.reference does not evaluate vector transfers, so each case compares
the payload compiled with and without the pattern set on the same non-zero inputs: the
values move unchanged (a read of the source where the slice has padding differs exactly).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import schedir
from schedir import reference
from tests.helpers import ANY, schedule_module

SETS = ("fold_tensor_subset_ops", "fold_tensor_subset_ops_into_vector_transfers")


@st.composite
def cases(draw: st.DrawFn) -> tuple[str, str]:
    rows, cols = draw(st.integers(2, 9)), draw(st.integers(2, 11))
    r0, c0 = draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1))
    sr, sc = draw(st.integers(1, rows - r0)), draw(st.integers(1, cols - c0))
    i, j = draw(st.integers(0, sr - 1)), draw(st.integers(0, sc - 1))
    vr, vc = draw(st.integers(1, 5)), draw(st.integers(1, 6))
    fits = i + vr <= sr and j + vc <= sc
    in_bounds = draw(st.sampled_from(["", " {in_bounds = [true, true]}"] if fits else [""]))
    src, sl, out = f"tensor<{rows}x{cols}xf32>", f"tensor<{sr}x{sc}xf32>", f"tensor<{vr}x{vc}xf32>"
    payload = f"""  func.func @f(%t: {src}, %o: {out}) -> {out} {{
    %c0 = arith.constant 0 : index
    %i = arith.constant {i} : index
    %j = arith.constant {j} : index
    %pad = arith.constant -7.5 : f32
    %s = tensor.extract_slice %t[{r0}, {c0}] [{sr}, {sc}] [1, 1] : {src} to {sl}
    %v = vector.transfer_read %s[%i, %j], %pad{in_bounds} : {sl}, vector<{vr}x{vc}xf32>
    %w = vector.transfer_write %v, %o[%c0, %c0] {{in_bounds = [true, true]}} : vector<{vr}x{vc}xf32>, {out}
    return %w : {out}
  }}"""
    return payload, draw(st.sampled_from(SETS))


def fold(payload: str, pattern_set: str) -> str:
    return schedule_module(
        payload,
        f'    %f = transform.structured.match ops{{["func.func"]}} in %root : ({ANY}) -> {ANY}\n'
        f"    transform.apply_patterns to %f {{\n"
        f"      transform.apply_patterns.tensor.{pattern_set}\n"
        f"    }} : {ANY}\n",
    )


def same_numbers_after(payload: str, pattern_set: str) -> str:
    """Compile `payload` as is and folded; the two agree exactly. The folded IR."""
    plain = schedir.compile(f"module {{\n{payload}\n}}")
    folded = schedir.compile(fold(payload, pattern_set))
    inputs = reference.random_inputs(plain.signature, seed=3)
    (expected,) = plain.run(*inputs, prefill_nan=True)
    (actual,) = folded.run(*inputs, prefill_nan=True)
    np.testing.assert_array_equal(actual, expected)
    return folded.stages["scheduled"]


def test_an_out_of_bounds_read_of_a_slice_is_not_folded() -> None:
    payload = """  func.func @f(%t: tensor<7x9xf32>, %o: tensor<4x6xf32>) -> tensor<4x6xf32> {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %pad = arith.constant -7.5 : f32
    %s = tensor.extract_slice %t[1, 2] [3, 4] [1, 1] : tensor<7x9xf32> to tensor<3x4xf32>
    %v = vector.transfer_read %s[%c0, %c2], %pad : tensor<3x4xf32>, vector<4x6xf32>
    %w = vector.transfer_write %v, %o[%c0, %c0] {in_bounds = [true, true]} : vector<4x6xf32>, tensor<4x6xf32>
    return %w : tensor<4x6xf32>
  }"""
    for pattern_set in SETS:
        ir = same_numbers_after(payload, pattern_set)
        assert "vector.transfer_read %s[" in ir, pattern_set


@settings(max_examples=8)
@given(cases())
def test_subset_folds_keep_the_numbers(case: tuple[str, str]) -> None:
    payload, pattern_set = case
    same_numbers_after(payload, pattern_set)
