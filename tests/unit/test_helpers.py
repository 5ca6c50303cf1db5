"""The shared numeric harness (tests/helpers.py) fails where a result is wrong."""

from __future__ import annotations

import numpy as np
import pytest

import schedir
from schedir import reference
from tests.helpers import check_kernel, check_results, run_and_check

ADD = """
func.func @f(%a: tensor<5xf32>, %b: tensor<5xf32>) -> tensor<5xf32> {
  %e = tensor.empty() : tensor<5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<5xf32>, tensor<5xf32>) outs(%e : tensor<5xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %v = arith.addf %x, %y : f32
    linalg.yield %v : f32
  } -> tensor<5xf32>
  return %r : tensor<5xf32>
}
"""


def test_a_right_kernel_passes() -> None:
    assert "arith.addf" in run_and_check(ADD, seed=4)


def test_a_wrong_kernel_fails_with_the_result_and_the_payload() -> None:
    kernel = schedir.compile(ADD.replace("arith.addf", "arith.subf"))
    with pytest.raises(AssertionError, match=r"result 0: .*\n\nfunc.func @f"):
        check_kernel(kernel, ADD)


def test_check_results_counts_and_tolerances() -> None:
    f32 = np.dtype(np.float32)
    one = np.ones(3, np.float32)
    exact = reference.Expected(one.astype(np.float64), np.zeros(3), f32)
    check_results([one], [exact], [f32])
    with pytest.raises(AssertionError, match="1 results, reference has 2"):
        check_results([one], [exact, exact], [f32, f32])
    with pytest.raises(AssertionError, match="result 1: "):
        check_results([one, one + 1e-3], [exact, exact], [f32, f32])
    with pytest.raises(AssertionError, match="result 0: "):
        check_results([np.full(3, np.nan, np.float32)], [exact], [f32])
