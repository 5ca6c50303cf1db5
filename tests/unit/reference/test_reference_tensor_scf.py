"""The reference's tensor, scf, affine, func, memref and bufferization ops against numpy."""

from __future__ import annotations

import numpy as np
import pytest
from reference_helpers import run, run1

from schedir.diagnostics import InputError


def arange(shape: tuple[int, ...], dtype: type = np.float32) -> np.ndarray:
    return (np.arange(int(np.prod(shape))) + 1).reshape(shape).astype(dtype)


# ---- slices --------------------------------------------------------------------------------


def test_extract_slice_static_strided_and_rank_reducing() -> None:
    x = arange((7, 9, 4))
    text = """
func.func @f(%x: tensor<7x9x4xf32>) -> (tensor<3x2x4xf32>, tensor<9xf32>, tensor<2x3xf32>) {
  %a = tensor.extract_slice %x[1, 2, 0] [3, 2, 4] [2, 3, 1] : tensor<7x9x4xf32> to tensor<3x2x4xf32>
  %b = tensor.extract_slice %x[4, 0, 2] [1, 9, 1] [1, 1, 1] : tensor<7x9x4xf32> to tensor<9xf32>
  %c = tensor.extract_slice %x[0, 5, 1] [2, 1, 3] [1, 1, 1] : tensor<7x9x4xf32> to tensor<2x3xf32>
  return %a, %b, %c : tensor<3x2x4xf32>, tensor<9xf32>, tensor<2x3xf32>
}
"""
    a, b, c = run(text, x)
    assert (a == x[1:7:2, 2:6:3, :]).all()
    assert (b == x[4, :, 2]).all()
    assert (c == x[0:2, 5, 1:4]).all()


def test_extract_slice_dynamic_offsets_and_sizes() -> None:
    x = arange((10, 6))
    text = """
func.func @f(%x: tensor<10x6xf32>, %o: index, %n: index) -> tensor<?x6xf32> {
  %s = tensor.extract_slice %x[%o, 0] [%n, 6] [1, 1] : tensor<10x6xf32> to tensor<?x6xf32>
  return %s : tensor<?x6xf32>
}
"""
    got = run1(text, x, np.int64(3), np.int64(4))
    assert got.shape == (4, 6) and (got == x[3:7]).all()
    with pytest.raises(InputError, match="exceeds dimension 0 of size 10"):
        run1(text, x, np.int64(8), np.int64(4))


def test_insert_slice_strided_and_rank_expanding() -> None:
    dest, src = arange((6, 8)), -arange((3, 2))
    row = -arange((5,))
    text = """
func.func @f(%d: tensor<6x8xf32>, %s: tensor<3x2xf32>, %r: tensor<5xf32>) -> (tensor<6x8xf32>, tensor<6x8xf32>) {
  %a = tensor.insert_slice %s into %d[1, 2] [3, 2] [2, 3] : tensor<3x2xf32> into tensor<6x8xf32>
  %b = tensor.insert_slice %r into %d[4, 1] [1, 5] [1, 1] : tensor<5xf32> into tensor<6x8xf32>
  return %a, %b : tensor<6x8xf32>, tensor<6x8xf32>
}
"""
    a, b = run(text, dest, src, row)
    want_a = dest.astype(np.float64)
    want_a[1:6:2, 2:6:3] = src
    want_b = dest.astype(np.float64)
    want_b[4, 1:6] = row
    assert (a == want_a).all() and (b == want_b).all()
    assert (dest == arange((6, 8))).all()  # inputs are never written


def test_pad_static_dynamic_and_index_dependent() -> None:
    x = arange((2, 3))
    text = """
func.func @f(%x: tensor<2x3xf32>, %h: index) -> (tensor<5x4xf32>, tensor<?x5xi64>) {
  %c = arith.constant 7.5 : f32
  %a = tensor.pad %x low[1, 0] high[2, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<2x3xf32> to tensor<5x4xf32>
  %xi = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %b = tensor.pad %xi low[0, 1] high[%h, 1] {
  ^bb0(%i: index, %j: index):
    %t = arith.muli %i, %j : index
    %v = arith.index_cast %t : index to i64
    %n = arith.subi %v, %v : i64
    %m = arith.subi %n, %v : i64
    tensor.yield %m : i64
  } : tensor<2x3xi64> to tensor<?x5xi64>
  return %a, %b : tensor<5x4xf32>, tensor<?x5xi64>
}
"""
    a, b = run(text, x, np.int64(2))
    want_a = np.full((5, 4), 7.5)
    want_a[1:3, 0:3] = x
    assert (a == want_a).all()
    want_b = -np.multiply.outer(np.arange(4), np.arange(5))
    want_b[0:2, 1:4] = [[1, 2, 3], [4, 5, 6]]
    assert b.dtype == np.int64 and (b == want_b).all()


# ---- element access, reshapes --------------------------------------------------------------


def test_dim_extract_insert_cast() -> None:
    x = arange((4, 5))
    text = """
func.func @f(%x: tensor<?x5xf32>, %i: index) -> (index, f32, tensor<?x5xf32>, tensor<4x5xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %d = tensor.dim %x, %c0 : tensor<?x5xf32>
  %e = tensor.extract %x[%i, %c2] : tensor<?x5xf32>
  %v = arith.constant -1.0 : f32
  %n = tensor.insert %v into %x[%c2, %i] : tensor<?x5xf32>
  %s = tensor.cast %x : tensor<?x5xf32> to tensor<4x5xf32>
  return %d, %e, %n, %s : index, f32, tensor<?x5xf32>, tensor<4x5xf32>
}
"""
    d, e, n, s = run(text, x, np.int64(3))
    assert int(d) == 4 and float(e) == x[3, 2]
    want = x.astype(np.float64)
    want[2, 3] = -1
    assert (n == want).all() and (s == x).all()
    with pytest.raises(InputError, match="out of bounds"):
        run(text, x, np.int64(7))
    with pytest.raises(InputError, match="does not match tensor<4x5xf32>"):
        run(text, arange((3, 5)), np.int64(0))


def test_collapse_expand_from_elements_splat() -> None:
    x = arange((2, 3, 4), np.int32)
    text = """
func.func @f(%x: tensor<2x3x4xi32>, %a: f32, %b: f32, %n: index) -> (tensor<6x4xi32>, tensor<2x3x2x2xi32>, tensor<2x2xf32>, tensor<?x3xf32>, tensor<4x?x2xi32>) {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x3x4xi32> into tensor<6x4xi32>
  %e = tensor.expand_shape %c [[0, 1], [2, 3]] output_shape [2, 3, 2, 2] : tensor<6x4xi32> into tensor<2x3x2x2xi32>
  %f = tensor.from_elements %a, %b, %b, %a : tensor<2x2xf32>
  %s = tensor.splat %a[%n] : tensor<?x3xf32>
  %flat = tensor.collapse_shape %x [[0, 1, 2]] : tensor<2x3x4xi32> into tensor<24xi32>
  %dyn = tensor.cast %flat : tensor<24xi32> to tensor<?xi32>
  %three = arith.constant 3 : index
  %g = tensor.expand_shape %dyn [[0, 1, 2]] output_shape [4, %three, 2] : tensor<?xi32> into tensor<4x?x2xi32>
  return %c, %e, %f, %s, %g : tensor<6x4xi32>, tensor<2x3x2x2xi32>, tensor<2x2xf32>, tensor<?x3xf32>, tensor<4x?x2xi32>
}
"""
    c, e, f, s, g = run(text, x, np.float32(1.5), np.float32(-2.0), np.int64(2))
    assert c.dtype == np.int32 and (c == x.reshape(6, 4)).all()
    assert (e == x.reshape(2, 3, 2, 2)).all()
    assert f.tolist() == [[1.5, -2.0], [-2.0, 1.5]]
    assert s.shape == (2, 3) and (s == 1.5).all()
    assert (g == x.reshape(4, 3, 2)).all()


def test_tensor_generate() -> None:
    text = """
func.func @f(%n: index) -> tensor<?x4xindex> {
  %t = tensor.generate %n {
  ^bb0(%i: index, %j: index):
    %c = arith.constant 10 : index
    %m = arith.muli %i, %c : index
    %v = arith.addi %m, %j : index
    tensor.yield %v : index
  } : tensor<?x4xindex>
  return %t : tensor<?x4xindex>
}
"""
    got = run1(text, np.int64(3))
    assert got.tolist() == [[10 * i + j for j in range(4)] for i in range(3)]


def test_concat() -> None:
    a, b = arange((2, 3)), -arange((4, 3))
    text = """
func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<6x3xf32> {
  %c = tensor.concat dim(0) %a, %b : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  return %c : tensor<6x3xf32>
}
"""
    assert (run1(text, a, b) == np.concatenate([a, b])).all()


# ---- scf -----------------------------------------------------------------------------------


def test_scf_for_iter_args_tiled_matmul_example() -> None:
    from pathlib import Path

    text = (Path(__file__).parents[3] / "examples" / "tiled_matmul_loops.mlir").read_text()
    rng = np.random.default_rng(0)
    a, b, c = (rng.uniform(-1, 1, s).astype(np.float32) for s in ((50, 23), (23, 31), (50, 31)))
    got = run1(text, a, b, c)
    np.testing.assert_allclose(
        got, c.astype(np.float64) + a.astype(np.float64) @ b.astype(np.float64), rtol=1e-13
    )


def test_scf_for_on_integers_and_scf_if() -> None:
    text = """
func.func @f(%n: i32, %flag: i1) -> (i32, f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
    %sq = arith.muli %i, %i : i32
    %nx = arith.addi %acc, %sq : i32
    scf.yield %nx : i32
  }
  %r = scf.if %flag -> (f32) {
    %a = arith.constant 1.5 : f32
    scf.yield %a : f32
  } else {
    %b = arith.constant -2.5 : f32
    scf.yield %b : f32
  }
  return %s, %r : i32, f32
}
"""
    s, r = run(text, np.int32(10), np.bool_(False))
    assert s.dtype == np.int32 and int(s) == sum(i * i for i in range(10)) and float(r) == -2.5
    assert float(run(text, np.int32(0), np.bool_(True))[1]) == 1.5


def test_scf_while_computes_gcd() -> None:
    text = """
func.func @f(%a: i64, %b: i64) -> i64 {
  %r:2 = scf.while (%x = %a, %y = %b) : (i64, i64) -> (i64, i64) {
    %c0 = arith.constant 0 : i64
    %go = arith.cmpi ne, %y, %c0 : i64
    scf.condition(%go) %x, %y : i64, i64
  } do {
  ^bb0(%x: i64, %y: i64):
    %m = arith.remsi %x, %y : i64
    scf.yield %y, %m : i64, i64
  }
  return %r#0 : i64
}
"""
    assert int(run1(text, np.int64(1071), np.int64(462))) == 21


def test_scf_forall_shared_outs_in_order() -> None:
    x = arange((8, 6))
    text = """
func.func @f(%x: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %e = tensor.empty() : tensor<8x6xf32>
  %r = scf.forall (%i, %j) in (4, 2) shared_outs(%o = %e) -> (tensor<8x6xf32>) {
    %oi = affine.apply affine_map<(d0) -> (d0 * 2)>(%i)
    %oj = affine.apply affine_map<(d0) -> (d0 * 3)>(%j)
    %s = tensor.extract_slice %x[%oi, %oj] [2, 3] [1, 1] : tensor<8x6xf32> to tensor<2x3xf32>
    %t = tensor.extract_slice %o[%oi, %oj] [2, 3] [1, 1] : tensor<8x6xf32> to tensor<2x3xf32>
    %d = linalg.generic {indexing_maps = [affine_map<(a, b) -> (a, b)>, affine_map<(a, b) -> (a, b)>], iterator_types = ["parallel", "parallel"]}
        ins(%s : tensor<2x3xf32>) outs(%t : tensor<2x3xf32>) {
    ^bb0(%v: f32, %w: f32):
      %two = arith.constant 2.0 : f32
      %m = arith.mulf %v, %two : f32
      linalg.yield %m : f32
    } -> tensor<2x3xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %d into %o[%oi, %oj] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<8x6xf32>
    }
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return %r : tensor<8x6xf32>
}
"""
    assert (run1(text, x) == 2 * x.astype(np.float64)).all()


def test_scf_forall_with_bounds_and_steps_and_a_gap_reads_nan() -> None:
    text = """
func.func @f(%lb: index) -> tensor<10xf32> {
  %e = tensor.empty() : tensor<10xf32>
  %r = scf.forall (%i) = (%lb) to (10) step (3) shared_outs(%o = %e) -> (tensor<10xf32>) {
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    %t = tensor.from_elements %f : tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%i] [1] [1] : tensor<1xf32> into tensor<10xf32>
    }
  }
  return %r : tensor<10xf32>
}
"""
    got = run1(text, np.int64(1))
    written = [1, 4, 7]
    assert [got[i] for i in written] == [1.0, 4.0, 7.0]
    assert all(np.isnan(got[i]) for i in range(10) if i not in written)


def test_scf_parallel_with_reduce() -> None:
    x = arange((5, 7))
    text = """
func.func @f(%x: tensor<5x7xf32>) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %r:2 = scf.parallel (%i, %j) = (%c0, %c0) to (%c5, %c7) step (%c1, %c1) init (%zero, %ninf) -> (f32, f32) {
    %v = tensor.extract %x[%i, %j] : tensor<5x7xf32>
    scf.reduce(%v, %v : f32, f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%a: f32, %b: f32):
      %m = arith.maximumf %a, %b : f32
      scf.reduce.return %m : f32
    }
  }
  return %r#0, %r#1 : f32, f32
}
"""
    s, m = run(text, x)
    assert float(s) == x.astype(np.float64).sum() and float(m) == x.max()


def test_execute_region_with_branches_and_index_switch() -> None:
    text = """
func.func @f(%c: i1, %k: index) -> (i32, i32) {
  %r = scf.execute_region -> i32 {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    %a = arith.constant 10 : i32
    cf.br ^bb3(%a : i32)
  ^bb2:
    %b = arith.constant 20 : i32
    cf.br ^bb3(%b : i32)
  ^bb3(%v: i32):
    scf.yield %v : i32
  }
  %s = scf.index_switch %k -> i32
  case 2 {
    %x = arith.constant 200 : i32
    scf.yield %x : i32
  }
  case 5 {
    %x = arith.constant 500 : i32
    scf.yield %x : i32
  }
  default {
    %x = arith.constant -1 : i32
    scf.yield %x : i32
  }
  return %r, %s : i32, i32
}
"""
    assert [int(v) for v in run(text, np.bool_(True), np.int64(5))] == [10, 500]
    assert [int(v) for v in run(text, np.bool_(False), np.int64(3))] == [20, -1]


# ---- affine, func --------------------------------------------------------------------------


@pytest.mark.parametrize("d", [-7, -4, -1, 0, 3, 9])
def test_affine_apply_and_min_semantics(d: int) -> None:
    text = """
func.func @f(%d: index, %s: index) -> (index, index, index, index, index) {
  %a = affine.apply affine_map<(d0) -> (d0 floordiv 4)>(%d)
  %b = affine.apply affine_map<(d0) -> (d0 ceildiv 4)>(%d)
  %c = affine.apply affine_map<(d0) -> (d0 mod 4)>(%d)
  %e = affine.apply affine_map<(d0)[s0] -> (d0 * 3 + s0 - 1)>(%d)[%s]
  %m = affine.min affine_map<(d0)[s0] -> (16, s0 - d0, d0 * 2)>(%d)[%s]
  return %a, %b, %c, %e, %m : index, index, index, index, index
}
"""
    s = 11
    got = [int(v) for v in run(text, np.int64(d), np.int64(s))]
    # Affine's floordiv rounds down, ceildiv up, and mod is never negative for 4.
    assert got == [d // 4, -((-d) // 4), d % 4, 3 * d + s - 1, min(16, s - d, 2 * d)]


def test_affine_max() -> None:
    text = """
func.func @f(%d: index, %s: index) -> index {
  %x = affine.max affine_map<(d0)[s0] -> (16, s0 - d0, d0 * 2)>(%d)[%s]
  return %x : index
}
"""
    assert [int(run1(text, np.int64(d), np.int64(11))) for d in (-7, 3, 9)] == [18, 16, 18]


def test_func_call_and_recursion() -> None:
    text = """
func.func private @fact(%n: i64) -> i64 {
  %c1 = arith.constant 1 : i64
  %le = arith.cmpi sle, %n, %c1 : i64
  %r = scf.if %le -> (i64) {
    scf.yield %c1 : i64
  } else {
    %m = arith.subi %n, %c1 : i64
    %f = func.call @fact(%m) : (i64) -> i64
    %p = arith.muli %n, %f : i64
    scf.yield %p : i64
  }
  return %r : i64
}
func.func @main(%n: i64) -> i64 {
  %r = func.call @fact(%n) : (i64) -> i64
  return %r : i64
}
"""
    assert int(run1(text, np.int64(20))) == 2432902008176640000
    # 21! wraps around in i64.
    assert int(run1(text, np.int64(21))) == (51090942171709440000 + 2**63) % 2**64 - 2**63


# ---- memref and bufferization --------------------------------------------------------------


def test_memref_alloc_copy_subview_load_store() -> None:
    text = """
func.func @f(%x: memref<4x6xf32>) -> (tensor<4x6xf32>, f32) {
  %m = memref.alloc() : memref<4x6xf32>
  "memref.copy"(%x, %m) : (memref<4x6xf32>, memref<4x6xf32>) -> ()
  %v = memref.subview %m[1, 2] [2, 3] [1, 1] : memref<4x6xf32> to memref<2x3xf32, strided<[6, 1], offset: 8>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %neg = arith.constant -5.0 : f32
  memref.store %neg, %v[%c1, %c0] : memref<2x3xf32, strided<[6, 1], offset: 8>>
  %l = memref.load %m[%c0, %c1] : memref<4x6xf32>
  %t = bufferization.to_tensor %m restrict : memref<4x6xf32> to tensor<4x6xf32>
  return %t, %l : tensor<4x6xf32>, f32
}
"""
    x = arange((4, 6))
    t, loaded = run(text, x)
    want = x.astype(np.float64)
    want[2, 2] = -5.0  # written through the subview
    assert (t == want).all() and float(loaded) == x[0, 1]
    assert (x == arange((4, 6))).all()


def test_materialize_in_destination() -> None:
    text = """
func.func @f(%x: tensor<3xf32>, %d: tensor<3xf32>) -> tensor<3xf32> {
  %r = bufferization.materialize_in_destination %x in %d : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
"""
    x = arange((3,))
    assert (run1(text, x, -x) == x).all()
