"""The bufferization cases compiled to native code (`schedir.compile`, the whole CPU
pipeline) and checked against `schedir.reference.evaluate` at odd sizes, with the outputs
NaN-prefilled so an element nobody writes cannot pass; inputs must come back unmodified.
Also the reference schedules that end in the CPU pipeline (tiling, fusion, foralls)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_bufferization import FORALL, MATMUL_FILL_EMPTY, TILED
from test_bufferization_executed import (
    DOUBLE_TILE,
    FORALL_IN_FOR,
    IF_IN_LOOP,
    IF_VIEWS,
    NESTED_TILES,
    TRANSPOSE_IN_PLACE,
)

from schedir.dialects.syntax import parse_module
from tests.helpers import run_and_check

SCHEDULES = Path(__file__).parents[2] / "data" / "reference_schedules"

MATMUL_BIAS_RELU_ODD = """
func.func @matmul_bias_relu(%A: tensor<61x47xf32>, %B: tensor<47x35xf32>, %bias: tensor<35xf32>) -> tensor<61x35xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<61x35xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<61x35xf32>) -> tensor<61x35xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<61x47xf32>, tensor<47x35xf32>) outs(%acc : tensor<61x35xf32>) -> tensor<61x35xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<61x35xf32>, tensor<35xf32>) outs(%init : tensor<61x35xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<61x35xf32>
  return %out : tensor<61x35xf32>
}
"""

SOFTMAX_ODD = """
func.func @softmax(%x: tensor<33x65xf32>) -> tensor<33x65xf32> {
  %init = tensor.empty() : tensor<33x65xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<33x65xf32>) outs(%init : tensor<33x65xf32>) -> tensor<33x65xf32>
  return %y : tensor<33x65xf32>
}
"""

TENSOR_OPS = """
func.func @tensor_ops(%a: tensor<3x5xf32>, %v: f32, %n: index) -> (tensor<5x9xf32>, tensor<15xf32>, tensor<2x3xf32>, tensor<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = tensor.pad %a low[1, 2] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<3x5xf32> to tensor<5x9xf32>
  %flat = tensor.collapse_shape %a [[0, 1]] : tensor<3x5xf32> into tensor<15xf32>
  %x = tensor.extract %a[%c1, %c1] : tensor<3x5xf32>
  %fe = tensor.from_elements %x, %v, %x, %v, %v, %x : tensor<2x3xf32>
  %w = tensor.insert %v into %fe[%c0, %c0] : tensor<2x3xf32>
  %g = tensor.generate %n {
  ^bb0(%i: index, %j: index):
    %s = arith.addi %i, %j : index
    %t = arith.index_cast %s : index to i32
    %f = arith.sitofp %t : i32 to f32
    tensor.yield %f : f32
  } : tensor<?x4xf32>
  return %p, %flat, %w, %g : tensor<5x9xf32>, tensor<15xf32>, tensor<2x3xf32>, tensor<?x4xf32>
}
"""


def _check(payload: str | Path, inputs: list[object]) -> None:
    """Compile `payload` (MLIR text or a path), run it, compare with the reference; the
    inputs must come back unmodified."""
    before = [np.array(x, copy=True) for x in inputs]
    run_and_check(payload, inputs=inputs, reduction=None)
    for old, new in zip(before, inputs, strict=True):
        np.testing.assert_array_equal(old, new)


@pytest.mark.parametrize(
    ("payload", "shapes"),
    [
        (MATMUL_FILL_EMPTY, [(4, 8), (8, 5)]),
        (MATMUL_BIAS_RELU_ODD, [(61, 47), (47, 35), (35,)]),
        (TILED.replace("WRITABLE", ""), [(50, 23), (23, 31), (50, 31)]),
        (FORALL, [(64, 32)]),
        (SOFTMAX_ODD, [(33, 65)]),
        (DOUBLE_TILE, [(24, 20), (20, 16), (24, 16)]),
        (NESTED_TILES, [(12, 10), (12, 10)]),
        (TRANSPOSE_IN_PLACE, [(7, 7)]),
    ],
    ids=[
        "matmul-fill-empty",
        "matmul-bias-relu",
        "tiled-loop",
        "forall",
        "softmax",
        "forall-for-matmul",
        "nested-tiles",
        "transpose",
    ],
)
def test_compiled_matches_reference(payload: str, shapes: list[tuple[int, ...]]) -> None:
    rng = np.random.default_rng(7)
    _check(payload, [rng.standard_normal(s).astype(np.float32) for s in shapes])


@pytest.mark.parametrize("flag", [True, False])
def test_compiled_control_flow(flag: bool) -> None:
    rng = np.random.default_rng(3)
    _check(
        IF_VIEWS,
        [
            np.bool_(flag),
            rng.standard_normal(8).astype(np.float32),
            rng.standard_normal(4).astype(np.float32),
            np.float32(2.5),
        ],
    )
    _check(IF_IN_LOOP, [rng.standard_normal(16).astype(np.float32), np.float32(-1.0)])
    _check(FORALL_IN_FOR, [rng.standard_normal((4, 64)).astype(np.float32), np.float32(0.5)])


def test_compiled_tensor_ops_with_dynamic_result() -> None:
    rng = np.random.default_rng(5)
    _check(
        TENSOR_OPS, [rng.standard_normal((3, 5)).astype(np.float32), np.float32(0.75), np.int64(6)]
    )


@pytest.mark.parametrize("name", ["a_matmul_bias_relu_tile_fuse.mlir", "c_softmax_rows.mlir"])
def test_reference_schedule_compiles_and_matches(name: str) -> None:
    path = SCHEDULES / name
    module = parse_module(path.read_text())
    fn = next(op for op in module.walk() if op.name == "func.func")
    rng = np.random.default_rng(11)
    shapes = [t.get_shape() for t in fn.function_type.inputs.data]  # type: ignore[attr-defined]
    _check(path, [rng.standard_normal(s).astype(np.float32) for s in shapes])


PAD_DYNAMIC = """
func.func @pad_dynamic(%a: tensor<?x5xf32>, %lo: index, %hi: index) -> tensor<?x9xf32> {
  %p = tensor.pad %a low[%lo, 1] high[%hi, 3] {
  ^bb0(%i: index, %j: index):
    %s = arith.muli %i, %j : index
    %t = arith.index_cast %s : index to i32
    %f = arith.sitofp %t : i32 to f32
    tensor.yield %f : f32
  } : tensor<?x5xf32> to tensor<?x9xf32>
  return %p : tensor<?x9xf32>
}
"""


def test_compiled_pad_with_dynamic_sizes_and_index_dependent_padding() -> None:
    rng = np.random.default_rng(9)
    _check(PAD_DYNAMIC, [rng.standard_normal((3, 5)).astype(np.float32), np.int64(2), np.int64(1)])
