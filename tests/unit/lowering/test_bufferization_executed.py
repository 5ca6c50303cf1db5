"""Bufferized payloads executed op by op with memory checks (no use after free, no double
free, no leak, no write to a read-only buffer; see test_bufferization_runtime) and compared
with the numpy reference, with entry arguments read-only (as the compile driver marks them)
and writable."""

from __future__ import annotations

import numpy as np
import pytest
from test_bufferization import FORALL, MATMUL_FILL_EMPTY, TILED, bufferize, is_structured, ops
from test_bufferization_runtime import run_and_compare
from xdsl.dialects import func, memref, scf

# ---------------------------------------------------------------------------------------
# executed with memory checks, against the numpy reference (odd sizes)


def _rand(*shape: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed + sum(shape)).standard_normal(shape).astype(np.float32)


def test_run_matmul_fill_empty() -> None:
    run_and_compare(MATMUL_FILL_EMPTY, "f", [_rand(4, 8), _rand(8, 5)])


def test_run_tiled_matmul_on_read_only_init() -> None:
    run_and_compare(
        TILED.replace("WRITABLE", ""), "tiled", [_rand(50, 23), _rand(23, 31), _rand(50, 31)]
    )


def test_run_forall() -> None:
    run_and_compare(FORALL, "f", [_rand(64, 32)])


def test_run_softmax_odd_sizes() -> None:
    text = """
    func.func @softmax(%x: tensor<33x65xf32>) -> tensor<33x65xf32> {
      %init = tensor.empty() : tensor<33x65xf32>
      %y = linalg.softmax dimension(1) ins(%x : tensor<33x65xf32>) outs(%init : tensor<33x65xf32>) -> tensor<33x65xf32>
      return %y : tensor<33x65xf32>
    }"""
    run_and_compare(text, "softmax", [_rand(33, 65)])


def test_run_tensor_ops_mix() -> None:
    text = """
    func.func @f(%a: tensor<3x5xf32>, %v: f32) -> (tensor<5x9xf32>, tensor<15xf32>, tensor<2x3xf32>) {
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
      return %p, %flat, %w : tensor<5x9xf32>, tensor<15xf32>, tensor<2x3xf32>
    }"""
    run_and_compare(text, "f", [_rand(3, 5), np.float32(0.5)])


def test_run_if_and_loops_with_temporaries() -> None:
    text = """
    #id = affine_map<(i) -> (i)>
    func.func @f(%c: i1, %a: tensor<7xf32>) -> (tensor<7xf32>, tensor<7xf32>) {
      %cst = arith.constant 1.5 : f32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %r = scf.if %c -> (tensor<7xf32>) {
        %e = tensor.empty() : tensor<7xf32>
        %f = linalg.fill ins(%cst : f32) outs(%e : tensor<7xf32>) -> tensor<7xf32>
        scf.yield %f : tensor<7xf32>
      } else {
        scf.yield %a : tensor<7xf32>
      }
      %l = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %r) -> (tensor<7xf32>) {
        %e = tensor.empty() : tensor<7xf32>
        %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
            ins(%acc, %a : tensor<7xf32>, tensor<7xf32>) outs(%e : tensor<7xf32>) {
        ^bb0(%x: f32, %y: f32, %o: f32):
          %z = arith.addf %x, %y : f32
          linalg.yield %z : f32
        } -> tensor<7xf32>
        scf.yield %g : tensor<7xf32>
      }
      return %l, %r : tensor<7xf32>, tensor<7xf32>
    }"""
    for flag in (True, False):
        run_and_compare(text, "f", [np.bool_(flag), _rand(7)])


def test_run_dynamic_shapes() -> None:
    text = """
    #id = affine_map<(i, j) -> (i, j)>
    func.func @f(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %m = tensor.dim %a, %c0 : tensor<?x?xf32>
      %n = tensor.dim %a, %c1 : tensor<?x?xf32>
      %e = tensor.empty(%m, %n) : tensor<?x?xf32>
      %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%a : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
      ^bb0(%x: f32, %o: f32):
        %i = linalg.index 0 : index
        %ii = arith.index_cast %i : index to i32
        %f = arith.sitofp %ii : i32 to f32
        %z = arith.addf %x, %f : f32
        linalg.yield %z : f32
      } -> tensor<?x?xf32>
      return %g : tensor<?x?xf32>
    }"""
    run_and_compare(text, "f", [_rand(5, 3)])


IF_IN_LOOP = """
func.func @if_in_loop(%t: tensor<16xf32>, %v: f32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%a = %t) -> (tensor<16xf32>) {
    %p = arith.cmpi slt, %i, %c8 : index
    %n = scf.if %p -> (tensor<16xf32>) {
      %w = tensor.insert %v into %a[%i] : tensor<16xf32>
      scf.yield %w : tensor<16xf32>
    } else {
      scf.yield %a : tensor<16xf32>
    }
    scf.yield %n : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}
"""

FORALL_IN_FOR = """
func.func @forall_in_for(%t: tensor<4x64xf32>, %v: f32) -> tensor<4x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %t) -> (tensor<4x64xf32>) {
    %row = tensor.extract_slice %a[%i, 0] [1, 64] [1, 1] : tensor<4x64xf32> to tensor<64xf32>
    %f = scf.forall (%j) in (8) shared_outs(%o = %row) -> (tensor<64xf32>) {
      %off = affine.apply affine_map<(d0) -> (d0 * 8)>(%j)
      %s = tensor.extract_slice %o[%off] [8] [1] : tensor<64xf32> to tensor<8xf32>
      %x = arith.index_cast %j : index to i32
      %y = arith.sitofp %x : i32 to f32
      %z = arith.addf %y, %v : f32
      %g = linalg.fill ins(%z : f32) outs(%s : tensor<8xf32>) -> tensor<8xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %g into %o[%off] [8] [1] : tensor<8xf32> into tensor<64xf32>
      }
    }
    %u = tensor.insert_slice %f into %a[%i, 0] [1, 64] [1, 1] : tensor<64xf32> into tensor<4x64xf32>
    scf.yield %u : tensor<4x64xf32>
  }
  return %r : tensor<4x64xf32>
}
"""

DOUBLE_TILE = """
func.func @double_tile(%A: tensor<24x20xf32>, %B: tensor<20x16xf32>, %C: tensor<24x16xf32>) -> tensor<24x16xf32> {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c20 = arith.constant 20 : index
  %r = scf.forall (%i, %j) in (3, 2) shared_outs(%o = %C) -> (tensor<24x16xf32>) {
    %oi = affine.apply affine_map<(d0) -> (d0 * 8)>(%i)
    %oj = affine.apply affine_map<(d0) -> (d0 * 8)>(%j)
    %cs = tensor.extract_slice %o[%oi, %oj] [8, 8] [1, 1] : tensor<24x16xf32> to tensor<8x8xf32>
    %acc = scf.for %k = %c0 to %c20 step %c5 iter_args(%t = %cs) -> (tensor<8x8xf32>) {
      %as = tensor.extract_slice %A[%oi, %k] [8, 5] [1, 1] : tensor<24x20xf32> to tensor<8x5xf32>
      %bs = tensor.extract_slice %B[%k, %oj] [5, 8] [1, 1] : tensor<20x16xf32> to tensor<5x8xf32>
      %m = linalg.matmul ins(%as, %bs : tensor<8x5xf32>, tensor<5x8xf32>) outs(%t : tensor<8x8xf32>) -> tensor<8x8xf32>
      scf.yield %m : tensor<8x8xf32>
    }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %acc into %o[%oi, %oj] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<24x16xf32>
    }
  }
  return %r : tensor<24x16xf32>
}
"""

TRANSPOSE_IN_PLACE = """
func.func @transpose_in_place(%a: tensor<7x7xf32>) -> tensor<7x7xf32> {
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]} ins(%a : tensor<7x7xf32>) outs(%a : tensor<7x7xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<7x7xf32>
  return %g : tensor<7x7xf32>
}
"""


IF_VIEWS = """
func.func @if_views(%c: i1, %a: tensor<8xf32>, %b: tensor<4xf32>, %v: f32) -> tensor<4xf32> {
  %r = scf.if %c -> (tensor<4xf32>) {
    %s = tensor.extract_slice %a[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  } else {
    scf.yield %b : tensor<4xf32>
  }
  %c0 = arith.constant 0 : index
  %w = tensor.insert %v into %r[%c0] : tensor<4xf32>
  return %w : tensor<4xf32>
}
"""

NESTED_TILES = """
func.func @nested(%A: tensor<12x10xf32>, %C: tensor<12x10xf32>) -> tensor<12x10xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c12 = arith.constant 12 : index
  %c10 = arith.constant 10 : index
  %r = scf.for %i = %c0 to %c12 step %c4 iter_args(%acc = %C) -> (tensor<12x10xf32>) {
    %r2 = scf.for %j = %c0 to %c10 step %c5 iter_args(%acc2 = %acc) -> (tensor<12x10xf32>) {
      %a = tensor.extract_slice %A[%i, %j] [4, 5] [1, 1] : tensor<12x10xf32> to tensor<4x5xf32>
      %c = tensor.extract_slice %acc2[%i, %j] [4, 5] [1, 1] : tensor<12x10xf32> to tensor<4x5xf32>
      %p = linalg.map { arith.addf } ins(%a, %c : tensor<4x5xf32>, tensor<4x5xf32>) outs(%c : tensor<4x5xf32>)
      %u = tensor.insert_slice %p into %acc2[%i, %j] [4, 5] [1, 1] : tensor<4x5xf32> into tensor<12x10xf32>
      scf.yield %u : tensor<12x10xf32>
    }
    scf.yield %r2 : tensor<12x10xf32>
  }
  return %r : tensor<12x10xf32>
}
"""


@pytest.mark.parametrize("flag", [True, False])
@pytest.mark.parametrize("writable", [False, True], ids=["read-only-args", "writable-args"])
def test_run_if_merging_a_view_and_an_argument(flag: bool, writable: bool) -> None:
    inputs = [np.bool_(flag), _rand(8), _rand(4), np.float32(3.0)]
    run_and_compare(IF_VIEWS, "if_views", inputs, mark_read_only=not writable)


@pytest.mark.parametrize("writable", [False, True], ids=["read-only-args", "writable-args"])
def test_run_nested_tile_loops(writable: bool) -> None:
    module = run_and_compare(
        NESTED_TILES, "nested", [_rand(12, 10), _rand(12, 10)], mark_read_only=not writable
    )
    loops = ops(module, scf.ForOp)
    outer = [
        op for op in loops if op.parent_op() is not None and isinstance(op.parent_op(), func.FuncOp)
    ]
    # Neither tile loop copies or allocates: the tiles are views of one buffer.
    assert not [
        op for loop in outer for op in loop.walk() if isinstance(op, memref.AllocOp | memref.CopyOp)
    ]


@pytest.mark.parametrize("writable", [False, True], ids=["read-only-args", "writable-args"])
@pytest.mark.parametrize(
    ("text", "entry", "shapes"),
    [
        (IF_IN_LOOP, "if_in_loop", [(16,), ()]),
        (FORALL_IN_FOR, "forall_in_for", [(4, 64), ()]),
        (DOUBLE_TILE, "double_tile", [(24, 20), (20, 16), (24, 16)]),
        (TRANSPOSE_IN_PLACE, "transpose_in_place", [(7, 7)]),
    ],
    ids=["if-in-loop", "forall-in-for", "forall-for-matmul", "transpose-same-buffer"],
)
def test_run_nested_patterns(
    text: str, entry: str, shapes: list[tuple[int, ...]], writable: bool
) -> None:
    inputs = [_rand(*s) if s else np.float32(0.25) for s in shapes]
    run_and_compare(text, entry, inputs, mark_read_only=not writable)


def test_transpose_reading_its_own_output_buffer_copies() -> None:
    module = bufferize(TRANSPOSE_IN_PLACE)
    (generic,) = [op for op in module.walk() if is_structured(op)]
    assert generic.operands[0] is not generic.operands[1]
