"""End to end: every payload op, compiled for the CPU, matches schedir.reference.

Each case is a payload written as an MLIR user writes it, at odd sizes, run on seeded
random (non-zero) inputs with NaN-prefilled outputs, and compared with the numpy
reference in float64 at dtype-aware tolerances.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schedir
from tests.helpers import run_and_check


def check(payload: str, seed: int = 0) -> None:
    """Compile `payload`, run it and compare every result with the reference, at the
    payload's own reduction length."""
    run_and_check(payload, seed=seed, reduction=None)


def shape(dims: tuple[int, ...], dtype: str) -> str:
    return f"tensor<{'x'.join(map(str, dims))}x{dtype}>" if dims else f"tensor<{dtype}>"


def zero(dtype: str) -> str:
    return (
        f"arith.constant 0 : {dtype}" if dtype.startswith("i") else f"arith.constant 0.0 : {dtype}"
    )


# --- named contractions ------------------------------------------------------------------


def matmul(m: int, n: int, k: int, in_t: str, acc_t: str) -> str:
    return f"""
func.func @matmul(%a: {shape((m, k), in_t)}, %b: {shape((k, n), in_t)}) -> {shape((m, n), acc_t)} {{
  %z = {zero(acc_t)}
  %e = tensor.empty() : {shape((m, n), acc_t)}
  %f = linalg.fill ins(%z : {acc_t}) outs(%e : {shape((m, n), acc_t)}) -> {shape((m, n), acc_t)}
  %r = linalg.matmul ins(%a, %b : {shape((m, k), in_t)}, {shape((k, n), in_t)})
                     outs(%f : {shape((m, n), acc_t)}) -> {shape((m, n), acc_t)}
  return %r : {shape((m, n), acc_t)}
}}"""


@pytest.mark.parametrize(
    ("in_t", "acc_t"),
    [
        ("f32", "f32"),
        ("f64", "f64"),
        ("f16", "f32"),
        ("f16", "f16"),
        ("bf16", "f32"),
        ("i32", "i32"),
        ("i8", "i32"),
        ("i64", "i64"),
    ],
)
def test_matmul_dtypes(in_t: str, acc_t: str) -> None:
    check(matmul(37, 29, 53, in_t, acc_t))


def test_matmul_transposed_operand() -> None:
    check("""
func.func @mt(%a: tensor<53x37xf32>, %b: tensor<53x29xf32>, %c: tensor<37x29xf32>) -> tensor<37x29xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
                                      affine_map<(d0, d1, d2) -> (d2, d1)>,
                                      affine_map<(d0, d1, d2) -> (d0, d1)>]
         ins(%a, %b : tensor<53x37xf32>, tensor<53x29xf32>) outs(%c : tensor<37x29xf32>) -> tensor<37x29xf32>
  return %r : tensor<37x29xf32>
}""")


def test_batch_matmul_matvec_vecmat_dot() -> None:
    check("""
func.func @contractions(%a: tensor<3x13x17xf32>, %b: tensor<3x17x11xf32>, %c: tensor<3x13x11xf32>,
                        %m: tensor<19x23xf32>, %v: tensor<23xf32>, %w: tensor<19xf32>,
                        %x: tensor<31xf32>, %y: tensor<31xf32>, %s: tensor<f32>)
    -> (tensor<3x13x11xf32>, tensor<19xf32>, tensor<23xf32>, tensor<f32>) {
  %bm = linalg.batch_matmul ins(%a, %b : tensor<3x13x17xf32>, tensor<3x17x11xf32>) outs(%c : tensor<3x13x11xf32>) -> tensor<3x13x11xf32>
  %mv = linalg.matvec ins(%m, %v : tensor<19x23xf32>, tensor<23xf32>) outs(%w : tensor<19xf32>) -> tensor<19xf32>
  %e = tensor.empty() : tensor<23xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<23xf32>) -> tensor<23xf32>
  %vm = linalg.vecmat ins(%w, %m : tensor<19xf32>, tensor<19x23xf32>) outs(%f : tensor<23xf32>) -> tensor<23xf32>
  %d = linalg.dot ins(%x, %y : tensor<31xf32>, tensor<31xf32>) outs(%s : tensor<f32>) -> tensor<f32>
  return %bm, %mv, %vm, %d : tensor<3x13x11xf32>, tensor<19xf32>, tensor<23xf32>, tensor<f32>
}""")


# --- convolution -------------------------------------------------------------------------


def conv(
    n: int,
    h: int,
    w: int,
    c: int,
    kh: int,
    kw: int,
    f: int,
    stride: int,
    dilation: int,
    dtype: str = "f32",
) -> str:
    oh = (h - dilation * (kh - 1) - 1) // stride + 1
    ow = (w - dilation * (kw - 1) - 1) // stride + 1
    out = shape((n, oh, ow, f), dtype)
    return f"""
func.func @conv(%x: {shape((n, h, w, c), dtype)}, %k: {shape((kh, kw, c, f), dtype)}) -> {out} {{
  %z = {zero(dtype)}
  %e = tensor.empty() : {out}
  %acc = linalg.fill ins(%z : {dtype}) outs(%e : {out}) -> {out}
  %r = linalg.conv_2d_nhwc_hwcf {{dilations = dense<{dilation}> : tensor<2xi64>, strides = dense<{stride}> : tensor<2xi64>}}
     ins(%x, %k : {shape((n, h, w, c), dtype)}, {shape((kh, kw, c, f), dtype)}) outs(%acc : {out}) -> {out}
  return %r : {out}
}}"""


@pytest.mark.parametrize(
    ("stride", "dilation", "dtype"),
    [(1, 1, "f32"), (2, 1, "f32"), (1, 2, "f32"), (2, 2, "f16"), (1, 1, "i32")],
)
def test_conv_2d_nhwc_hwcf(stride: int, dilation: int, dtype: str) -> None:
    check(conv(2, 13, 11, 3, 3, 3, 5, stride, dilation, dtype))


def test_conv_without_attributes_uses_unit_strides() -> None:
    check("""
func.func @c(%x: tensor<1x9x7x2xf32>, %k: tensor<2x3x2x4xf32>, %o: tensor<1x8x5x4xf32>) -> tensor<1x8x5x4xf32> {
  %r = linalg.conv_2d_nhwc_hwcf ins(%x, %k : tensor<1x9x7x2xf32>, tensor<2x3x2x4xf32>) outs(%o : tensor<1x8x5x4xf32>) -> tensor<1x8x5x4xf32>
  return %r : tensor<1x8x5x4xf32>
}""")


# --- elementwise, data movement, reductions ----------------------------------------------


@pytest.mark.parametrize("dtype", ["f32", "f64", "f16", "bf16"])
def test_generic_elementwise_math(dtype: str) -> None:
    t = shape((17, 23), dtype)
    check(f"""
func.func @ew(%a: {t}, %b: {t}) -> {t} {{
  %e = tensor.empty() : {t}
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}}
      ins(%a, %b : {t}, {t}) outs(%e : {t}) {{
  ^bb0(%x: {dtype}, %y: {dtype}, %o: {dtype}):
    %m = arith.mulf %x, %y : {dtype}
    %t = math.tanh %m : {dtype}
    %e2 = math.exp %x : {dtype}
    %s = arith.addf %t, %e2 : {dtype}
    %ab = math.absf %y : {dtype}
    %q = math.sqrt %ab : {dtype}
    %mx = arith.maximumf %s, %q : {dtype}
    %d = arith.divf %mx, %e2 : {dtype}
    linalg.yield %d : {dtype}
  }} -> {t}
  return %r : {t}
}}""")


@pytest.mark.parametrize("dtype", ["i32", "i8", "i64"])
def test_generic_integer_ops(dtype: str) -> None:
    t = shape((13, 19), dtype)
    check(f"""
func.func @ints(%a: {t}, %b: {t}) -> {t} {{
  %e = tensor.empty() : {t}
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}}
      ins(%a, %b : {t}, {t}) outs(%e : {t}) {{
  ^bb0(%x: {dtype}, %y: {dtype}, %o: {dtype}):
    %m = arith.muli %x, %y : {dtype}
    %s = arith.subi %m, %y : {dtype}
    %mx = arith.maxsi %s, %x : {dtype}
    %c = arith.cmpi slt, %mx, %y : {dtype}
    %sel = arith.select %c, %mx, %m : {dtype}
    %seven = arith.constant 7 : {dtype}
    %amount = arith.andi %x, %seven : {dtype}
    %sh = arith.shli %sel, %amount : {dtype}
    %r = arith.xori %sh, %y : {dtype}
    linalg.yield %r : {dtype}
  }} -> {t}
  return %r : {t}
}}""")


def test_generic_with_broadcast_transpose_and_index() -> None:
    check("""
func.func @maps(%a: tensor<7x11xf32>, %b: tensor<11xf32>) -> tensor<11x7xf32> {
  %e = tensor.empty() : tensor<11x7xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<7x11xf32>, tensor<11xf32>) outs(%e : tensor<11x7xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    %si = arith.index_cast %s : index to i32
    %sf = arith.sitofp %si : i32 to f32
    %p = arith.addf %x, %y : f32
    %q = arith.mulf %p, %sf : f32
    linalg.yield %q : f32
  } -> tensor<11x7xf32>
  return %r : tensor<11x7xf32>
}""")


def test_generic_reduction_and_non_commutative_combiner() -> None:
    check("""
func.func @red(%a: tensor<9x37xf32>, %init: tensor<9xf32>) -> (tensor<9xf32>, tensor<9xf32>) {
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<9x37xf32>) outs(%init : tensor<9xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<9xf32>
  %diff = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                          iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<9x37xf32>) outs(%init : tensor<9xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.subf %acc, %x : f32
    linalg.yield %s : f32
  } -> tensor<9xf32>
  return %sum, %diff : tensor<9xf32>, tensor<9xf32>
}""")


def test_transpose_broadcast_copy_map_reduce_fill() -> None:
    check("""
func.func @moves(%a: tensor<5x7x3xf32>, %v: tensor<7xf32>, %h: tensor<6x9xf16>)
    -> (tensor<3x5x7xf32>, tensor<4x7xf32>, tensor<6x9xf32>, tensor<7xf32>, tensor<5x3xf32>, tensor<2x3xi32>) {
  %e0 = tensor.empty() : tensor<3x5x7xf32>
  %t = linalg.transpose ins(%a : tensor<5x7x3xf32>) outs(%e0 : tensor<3x5x7xf32>) permutation = [2, 0, 1]
  %e1 = tensor.empty() : tensor<4x7xf32>
  %b = linalg.broadcast ins(%v : tensor<7xf32>) outs(%e1 : tensor<4x7xf32>) dimensions = [0]
  %e2 = tensor.empty() : tensor<6x9xf32>
  %c = linalg.copy ins(%h : tensor<6x9xf16>) outs(%e2 : tensor<6x9xf32>) -> tensor<6x9xf32>
  %e3 = tensor.empty() : tensor<7xf32>
  %m = linalg.map { arith.mulf } ins(%v, %v : tensor<7xf32>, tensor<7xf32>) outs(%e3 : tensor<7xf32>)
  %e4 = tensor.empty() : tensor<5x3xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %f4 = linalg.fill ins(%ninf : f32) outs(%e4 : tensor<5x3xf32>) -> tensor<5x3xf32>
  %r = linalg.reduce { arith.maximumf } ins(%a : tensor<5x7x3xf32>) outs(%f4 : tensor<5x3xf32>) dimensions = [1]
  %e5 = tensor.empty() : tensor<2x3xi32>
  %seven = arith.constant 7 : i32
  %fi = linalg.fill ins(%seven : i32) outs(%e5 : tensor<2x3xi32>) -> tensor<2x3xi32>
  return %t, %b, %c, %m, %r, %fi : tensor<3x5x7xf32>, tensor<4x7xf32>, tensor<6x9xf32>, tensor<7xf32>, tensor<5x3xf32>, tensor<2x3xi32>
}""")


@pytest.mark.parametrize(("dtype", "dim"), [("f32", 1), ("f32", 0), ("f16", 1)])
def test_softmax(dtype: str, dim: int) -> None:
    t = shape((19, 43), dtype)
    check(f"""
func.func @sm(%x: {t}) -> {t} {{
  %e = tensor.empty() : {t}
  %y = linalg.softmax dimension({dim}) ins(%x : {t}) outs(%e : {t}) -> {t}
  return %y : {t}
}}""")


def test_i1_select_and_compare() -> None:
    check("""
func.func @masks(%a: tensor<8x5xf32>, %b: tensor<8x5xf32>) -> (tensor<8x5xi1>, tensor<8x5xf32>) {
  %e0 = tensor.empty() : tensor<8x5xi1>
  %lt = linalg.map { arith.cmpf {predicate = 4 : i64} } ins(%a, %b : tensor<8x5xf32>, tensor<8x5xf32>) outs(%e0 : tensor<8x5xi1>)
  %e1 = tensor.empty() : tensor<8x5xf32>
  %sel = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%lt, %a, %b : tensor<8x5xi1>, tensor<8x5xf32>, tensor<8x5xf32>) outs(%e1 : tensor<8x5xf32>) {
  ^bb0(%c: i1, %x: f32, %y: f32, %o: f32):
    %r = arith.select %c, %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<8x5xf32>
  return %lt, %sel : tensor<8x5xi1>, tensor<8x5xf32>
}""")


# --- tensor ops, control flow, affine ----------------------------------------------------


def test_slices_pad_and_insert() -> None:
    check("""
func.func @slices(%a: tensor<13x17xf32>, %b: tensor<4x5xf32>) -> (tensor<4x6xf32>, tensor<19x22xf32>, tensor<13x17xf32>) {
  %s = tensor.extract_slice %a[2, 3] [4, 6] [2, 1] : tensor<13x17xf32> to tensor<4x6xf32>
  %pv = arith.constant 1.5 : f32
  %p = tensor.pad %a low[2, 1] high[4, 4] {
  ^bb0(%i: index, %j: index):
    tensor.yield %pv : f32
  } : tensor<13x17xf32> to tensor<19x22xf32>
  %ins = tensor.insert_slice %b into %a[5, 7] [4, 5] [1, 2] : tensor<4x5xf32> into tensor<13x17xf32>
  return %s, %p, %ins : tensor<4x6xf32>, tensor<19x22xf32>, tensor<13x17xf32>
}""")


def test_scf_for_if_and_affine_bounds() -> None:
    check("""
#tile = affine_map<(i) -> (-i + 23, 5)>
func.func @loops(%a: tensor<23x7xf32>, %flag: i1) -> tensor<23x7xf32> {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c23 = arith.constant 23 : index
  %two = arith.constant 2.0 : f32
  %r = scf.for %i = %c0 to %c23 step %c5 iter_args(%acc = %a) -> (tensor<23x7xf32>) {
    %n = affine.min #tile(%i)
    %tile = tensor.extract_slice %acc[%i, 0] [%n, 7] [1, 1] : tensor<23x7xf32> to tensor<?x7xf32>
    %scaled = scf.if %flag -> (tensor<?x7xf32>) {
      %m = linalg.map { arith.addf } ins(%tile, %tile : tensor<?x7xf32>, tensor<?x7xf32>) outs(%tile : tensor<?x7xf32>)
      scf.yield %m : tensor<?x7xf32>
    } else {
      scf.yield %tile : tensor<?x7xf32>
    }
    %u = tensor.insert_slice %scaled into %acc[%i, 0] [%n, 7] [1, 1] : tensor<?x7xf32> into tensor<23x7xf32>
    scf.yield %u : tensor<23x7xf32>
  }
  return %r : tensor<23x7xf32>
}""")


def test_scf_forall_with_shared_outs() -> None:
    check("""
func.func @forall(%a: tensor<12x10xf32>, %out: tensor<12x10xf32>) -> tensor<12x10xf32> {
  %r = scf.forall (%i, %j) in (3, 2) shared_outs(%o = %out) -> (tensor<12x10xf32>) {
    %oi = affine.apply affine_map<(d0) -> (d0 * 4)>(%i)
    %oj = affine.apply affine_map<(d0) -> (d0 * 5)>(%j)
    %s = tensor.extract_slice %a[%oi, %oj] [4, 5] [1, 1] : tensor<12x10xf32> to tensor<4x5xf32>
    %d = tensor.extract_slice %o[%oi, %oj] [4, 5] [1, 1] : tensor<12x10xf32> to tensor<4x5xf32>
    %e = linalg.map { math.exp } ins(%s : tensor<4x5xf32>) outs(%d : tensor<4x5xf32>)
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %e into %o[%oi, %oj] [4, 5] [1, 1] : tensor<4x5xf32> into tensor<12x10xf32>
    }
  }
  return %r : tensor<12x10xf32>
}""")


def test_scf_parallel_on_scalars_and_dynamic_shapes() -> None:
    check("""
func.func @dyn(%a: tensor<?x9xf32>) -> (tensor<?x9xf32>, index) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x9xf32>
  %e = tensor.empty(%n) : tensor<?x9xf32>
  %r = linalg.map { math.sin } ins(%a : tensor<?x9xf32>) outs(%e : tensor<?x9xf32>)
  return %r, %n : tensor<?x9xf32>, index
}""")


# --- hypothesis over shapes ----------------------------------------------------------------

_FAST = settings(max_examples=12)


@cache
def _compiled(payload: str) -> schedir.Kernel:
    return schedir.compile(payload)


@_FAST
@given(st.integers(1, 40), st.integers(1, 40), st.integers(1, 40))
def test_matmul_shapes(m: int, n: int, k: int) -> None:
    check(matmul(m, n, k, "f32", "f32"))


@_FAST
@given(
    st.integers(1, 9),
    st.integers(1, 9),
    st.integers(1, 9),
    st.integers(1, 3),
    st.integers(1, 3),
    st.integers(1, 2),
    st.integers(1, 2),
)
def test_conv_shapes(h: int, w: int, c: int, kh: int, kw: int, stride: int, dilation: int) -> None:
    if h < dilation * (kh - 1) + 1 or w < dilation * (kw - 1) + 1:
        return
    check(conv(1, h, w, c, kh, kw, 2, stride, dilation))


@_FAST
@given(st.lists(st.integers(1, 12), min_size=1, max_size=3))
def test_elementwise_shapes(dims: list[int]) -> None:
    t = shape(tuple(dims), "f32")
    check(f"""
func.func @ew(%a: {t}, %b: {t}) -> {t} {{
  %e = tensor.empty() : {t}
  %r = linalg.map ins(%a, %b : {t}, {t}) outs(%e : {t})
    (%x: f32, %y: f32, %o: f32) {{
      %s = arith.subf %x, %y : f32
      %t = math.tanh %s : f32
      linalg.yield %t : f32
    }}
  return %r : {t}
}}""")


@_FAST
@given(
    st.integers(1, 17),
    st.integers(1, 33),
    st.sampled_from(["arith.addf", "arith.maximumf", "arith.minimumf"]),
)
def test_reduction_shapes(rows: int, cols: int, combiner: str) -> None:
    check(f"""
func.func @red(%a: tensor<{rows}x{cols}xf32>, %init: tensor<{rows}xf32>) -> tensor<{rows}xf32> {{
  %r = linalg.reduce {{ {combiner} }} ins(%a : tensor<{rows}x{cols}xf32>) outs(%init : tensor<{rows}xf32>) dimensions = [1]
  return %r : tensor<{rows}xf32>
}}""")
