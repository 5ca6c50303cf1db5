"""Vector-level kernels compiled for the CPU compute what numpy computes.

Hand-written memref + vector payloads (a vectorized saxpy, tiled matmuls on vector
contractions, multi-reductions, masked transfers of partial tiles, transposes, shape
casts, reductions) go through `schedir.compile` (the CPU pipeline: `lower-vector`,
`convert-vector-to-llvm`, ...) and run at odd sizes, so tails are partial tiles that
only masks and out-of-bounds transfers get right. Some payloads carry a schedule that
lowers the vector ops with the `apply_patterns.vector.*` descriptors instead of the
pipeline's default; the property test draws tile sizes, problem sizes and the contraction
lowering at random.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schedir

RNG = np.random.default_rng(7)


@cache
def kernel(text: str, entry: str | None = None) -> schedir.Kernel:
    return schedir.compile(text, entry=entry)


def rand(*shape: int, dtype: type = np.float32) -> np.ndarray:
    if np.issubdtype(dtype, np.integer):
        return RNG.integers(-50, 50, size=shape).astype(dtype)
    return RNG.standard_normal(shape).astype(dtype)


# --- elementwise and transfers ------------------------------------------------------------------

SAXPY = """
func.func @saxpy(%a: {t}, %x: memref<?x{t}>, %y: memref<?x{t}>) {{
  %c0 = arith.constant 0 : index
  %step = arith.constant {w} : index
  %n = memref.dim %x, %c0 : memref<?x{t}>
  %pad = arith.constant 0.0 : {t}
  %av = vector.broadcast %a : {t} to vector<{w}x{t}>
  scf.for %i = %c0 to %n step %step {{
    %xv = vector.transfer_read %x[%i], %pad : memref<?x{t}>, vector<{w}x{t}>
    %yv = vector.transfer_read %y[%i], %pad : memref<?x{t}>, vector<{w}x{t}>
    %r = vector.fma %av, %xv, %yv : vector<{w}x{t}>
    vector.transfer_write %r, %y[%i] : vector<{w}x{t}>, memref<?x{t}>
  }}
  return
}}
"""


@pytest.mark.parametrize("dtype,width", [("f32", 8), ("f64", 4), ("f32", 5)])
@pytest.mark.parametrize("n", [1, 7, 8, 13, 37])
def test_saxpy_with_tail(dtype: str, width: int, n: int) -> None:
    np_t = {"f32": np.float32, "f64": np.float64}[dtype]
    k = kernel(SAXPY.format(t=dtype, w=width))
    x, y = rand(n, dtype=np_t), rand(n, dtype=np_t)
    expected = np_t(2.5) * x + y
    k(np_t(2.5), x, y)
    np.testing.assert_allclose(y, expected, rtol=1e-6)


MASKED_COPY = """
func.func @masked_copy(%src: memref<?xf32>, %dst: memref<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %n = memref.dim %src, %c0 : memref<?xf32>
  %pad = arith.constant -1.0 : f32
  scf.for %i = %c0 to %n step %c8 {
    %left = arith.subi %n, %i : index
    %mask = vector.create_mask %left : vector<8xi1>
    %v = vector.transfer_read %src[%i], %pad, %mask {in_bounds = [true]} : memref<?xf32>, vector<8xf32>
    %row = arith.divui %i, %c8 : index
    vector.transfer_write %v, %dst[%row, %c0] {in_bounds = [true]} : vector<8xf32>, memref<?x8xf32>
  }
  return
}
"""


@pytest.mark.parametrize("n", [3, 8, 11, 29])
def test_masked_transfer_pads_the_partial_tile(n: int) -> None:
    """Lanes the mask leaves out read the padding (-1), in bounds or not."""
    k = kernel(MASKED_COPY)
    src = rand(n)
    rows = (n + 7) // 8
    dst = np.zeros((rows, 8), np.float32)
    k(src, dst)
    expected = np.full(rows * 8, -1.0, np.float32)
    expected[:n] = src
    np.testing.assert_array_equal(dst.reshape(-1), expected)


MASKED_STORE = """
func.func @masked_store(%src: memref<?xf32>, %dst: memref<?xf32>, %limit: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %src, %c0 : memref<?xf32>
  %pad = arith.constant 0.0 : f32
  scf.for %i = %c0 to %n step %c4 {
    %v = vector.transfer_read %src[%i], %pad : memref<?xf32>, vector<4xf32>
    %left = arith.subi %limit, %i : index
    %mask = vector.create_mask %left : vector<4xi1>
    vector.mask %mask { vector.transfer_write %v, %dst[%i] : vector<4xf32>, memref<?xf32> } : vector<4xi1>
  }
  return
}
"""


@pytest.mark.parametrize("n,limit", [(10, 7), (9, 9), (5, 0), (13, 20)])
def test_masked_write_leaves_the_rest(n: int, limit: int) -> None:
    k = kernel(MASKED_STORE)
    src = rand(n)
    dst = np.full(n, 42.0, np.float32)
    k(src, dst, limit)
    expected = np.full(n, 42.0, np.float32)
    expected[: min(n, limit)] = src[: min(n, limit)]
    np.testing.assert_array_equal(dst, expected)


# --- contractions -------------------------------------------------------------------------------

MATMUL = """
func.func @matmul(%A: memref<?x?x{t}>, %B: memref<?x?x{t}>, %C: memref<?x?x{t}>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tm = arith.constant {tm} : index
  %tn = arith.constant {tn} : index
  %tk = arith.constant {tk} : index
  %M = memref.dim %A, %c0 : memref<?x?x{t}>
  %K = memref.dim %A, %c1 : memref<?x?x{t}>
  %N = memref.dim %B, %c1 : memref<?x?x{t}>
  %pad = arith.constant {zero} : {t}
  scf.for %i = %c0 to %M step %tm {{
    scf.for %j = %c0 to %N step %tn {{
      %acc0 = vector.transfer_read %C[%i, %j], %pad : memref<?x?x{t}>, vector<{tm}x{tn}x{t}>
      %acc = scf.for %k = %c0 to %K step %tk iter_args(%acc1 = %acc0) -> (vector<{tm}x{tn}x{t}>) {{
        %a = vector.transfer_read %A[%i, %k], %pad : memref<?x?x{t}>, vector<{tm}x{tk}x{t}>
        %b = vector.transfer_read %B[%k, %j], %pad : memref<?x?x{t}>, vector<{tk}x{tn}x{t}>
        %r = vector.contract {{indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}} %a, %b, %acc1 : vector<{tm}x{tk}x{t}>, vector<{tk}x{tn}x{t}> into vector<{tm}x{tn}x{t}>
        scf.yield %r : vector<{tm}x{tn}x{t}>
      }}
      vector.transfer_write %acc, %C[%i, %j] : vector<{tm}x{tn}x{t}>, memref<?x?x{t}>
    }}
  }}
  return
}}
"""

SCHEDULE = """
module attributes {{transform.with_named_sequence}} {{
{payload}
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    %f = transform.structured.match ops{{["func.func"]}} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {{
      transform.apply_patterns.vector.lower_contraction lowering_strategy = {strategy}
      transform.apply_patterns.vector.lower_outerproduct
      transform.apply_patterns.vector.transfer_permutation_patterns
    }} : !transform.any_op
    transform.apply_patterns to %f {{
      transform.apply_patterns.vector.transfer_to_scf max_transfer_rank = 1 full_unroll = {unroll}
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.vector.lower_transpose lowering_strategy = eltwise
      transform.apply_patterns.vector.lower_broadcast
      transform.apply_patterns.vector.lower_shape_cast
    }} : !transform.any_op
    transform.yield
  }}
}}
"""


def matmul_text(tm: int, tn: int, tk: int, strategy: str | None, dtype: str = "f32") -> str:
    zero = "0.0" if dtype.startswith("f") else "0"
    payload = MATMUL.format(tm=tm, tn=tn, tk=tk, t=dtype, zero=zero)
    if strategy is None:
        return payload
    return SCHEDULE.format(payload=payload, strategy=strategy, unroll="true")


def check_matmul(text: str, m: int, n: int, k: int, dtype: type = np.float32) -> None:
    a, b, c = rand(m, k, dtype=dtype), rand(k, n, dtype=dtype), rand(m, n, dtype=dtype)
    expected = c + a.astype(np.float64) @ b.astype(np.float64)
    kernel(text)(a, b, c)
    if np.issubdtype(dtype, np.integer):
        np.testing.assert_array_equal(c, expected.astype(dtype))
    else:
        np.testing.assert_allclose(c, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("m,n,k", [(4, 4, 4), (5, 7, 3), (13, 9, 11), (1, 1, 1)])
def test_matmul_4x4_contract_default_lowering(m: int, n: int, k: int) -> None:
    check_matmul(matmul_text(4, 4, 4, None), m, n, k)


@pytest.mark.parametrize("strategy", ["outerproduct", "dot", "parallelarith"])
def test_matmul_scheduled_lowering(strategy: str) -> None:
    check_matmul(matmul_text(4, 4, 4, strategy), 9, 6, 7)


def test_integer_matmul() -> None:
    check_matmul(matmul_text(2, 4, 3, None, "i32"), 5, 9, 7, np.int32)


def test_matmul_through_the_stack_buffer() -> None:
    """transfer_to_scf without full_unroll: rows through a memref of vectors."""
    text = SCHEDULE.format(
        payload=MATMUL.format(tm=3, tn=4, tk=2, t="f32", zero="0.0"),
        strategy="outerproduct",
        unroll="false",
    )
    check_matmul(text, 7, 10, 5)


@settings(max_examples=10)
@given(
    st.integers(1, 5),
    st.integers(1, 6),
    st.integers(1, 4),
    st.sampled_from([None, "outerproduct", "dot", "parallelarith"]),
    st.integers(1, 17),
    st.integers(1, 17),
    st.integers(1, 17),
)
def test_transfer_and_contract_at_random_sizes(
    tm: int, tn: int, tk: int, strategy: str | None, m: int, n: int, k: int
) -> None:
    check_matmul(matmul_text(tm, tn, tk, strategy), m, n, k)


# --- reductions, transposes, shape casts ---------------------------------------------------------

KERNELS = """
func.func @rowsum(%A: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %M = memref.dim %A, %c0 : memref<?x?xf32>
  %N = memref.dim %A, %c1 : memref<?x?xf32>
  %pad = arith.constant 0.0 : f32
  scf.for %i = %c0 to %M step %c4 {
    %acc0 = vector.transfer_read %out[%i], %pad : memref<?xf32>, vector<4xf32>
    %acc = scf.for %j = %c0 to %N step %c8 iter_args(%a1 = %acc0) -> (vector<4xf32>) {
      %t = vector.transfer_read %A[%i, %j], %pad : memref<?x?xf32>, vector<4x8xf32>
      %r = vector.multi_reduction <add>, %t, %a1 [1] : vector<4x8xf32> to vector<4xf32>
      scf.yield %r : vector<4xf32>
    }
    vector.transfer_write %acc, %out[%i] : vector<4xf32>, memref<?xf32>
  }
  return
}
func.func @colmax(%A: memref<?x?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %M = memref.dim %A, %c0 : memref<?x?xf32>
  %N = memref.dim %A, %c1 : memref<?x?xf32>
  %ninf = arith.constant 0xFF800000 : f32
  scf.for %j = %c0 to %N step %c4 {
    %acc0 = vector.transfer_read %out[%j], %ninf : memref<?xf32>, vector<4xf32>
    %acc = scf.for %i = %c0 to %M step %c3 iter_args(%a1 = %acc0) -> (vector<4xf32>) {
      %t = vector.transfer_read %A[%i, %j], %ninf : memref<?x?xf32>, vector<3x4xf32>
      %r = vector.multi_reduction <maximumf>, %t, %a1 [0] : vector<3x4xf32> to vector<4xf32>
      scf.yield %r : vector<4xf32>
    }
    vector.transfer_write %acc, %out[%j] : vector<4xf32>, memref<?xf32>
  }
  return
}
func.func @transpose(%A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %M = memref.dim %A, %c0 : memref<?x?xf32>
  %N = memref.dim %A, %c1 : memref<?x?xf32>
  %pad = arith.constant 0.0 : f32
  scf.for %i = %c0 to %M step %c4 {
    scf.for %j = %c0 to %N step %c8 {
      %t = vector.transfer_read %A[%i, %j], %pad : memref<?x?xf32>, vector<4x8xf32>
      %tt = vector.transpose %t, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
      vector.transfer_write %tt, %B[%j, %i] : vector<8x4xf32>, memref<?x?xf32>
    }
  }
  return
}
func.func @permuted_read(%A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %M = memref.dim %A, %c0 : memref<?x?xf32>
  %N = memref.dim %A, %c1 : memref<?x?xf32>
  %pad = arith.constant 0.0 : f32
  scf.for %j = %c0 to %N step %c3 {
    scf.for %i = %c0 to %M step %c2 {
      %t = vector.transfer_read %A[%i, %j], %pad {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<?x?xf32>, vector<3x2xf32>
      vector.transfer_write %t, %B[%j, %i] : vector<3x2xf32>, memref<?x?xf32>
    }
  }
  return
}
func.func @shape_cast_exp(%A: memref<2x8xf32>, %B: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %t = vector.transfer_read %A[%c0, %c0], %pad {in_bounds = [true, true]} : memref<2x8xf32>, vector<2x8xf32>
  %s = vector.shape_cast %t : vector<2x8xf32> to vector<4x4xf32>
  %e = math.exp %s : vector<4x4xf32>
  %q = arith.mulf %s, %e : vector<4x4xf32>
  vector.transfer_write %q, %B[%c0, %c0] {in_bounds = [true, true]} : vector<4x4xf32>, memref<4x4xf32>
  return
}
func.func @reduce_rows(%A: memref<?x?xi32>, %sums: memref<?xi32>, %maxs: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %M = memref.dim %A, %c0 : memref<?x?xi32>
  %N = memref.dim %A, %c1 : memref<?x?xi32>
  %zero = arith.constant 0 : i32
  %low = arith.constant -2147483648 : i32
  scf.for %i = %c0 to %M step %c1 {
    %r:2 = scf.for %j = %c0 to %N step %c8 iter_args(%s = %zero, %m = %low) -> (i32, i32) {
      %v = vector.transfer_read %A[%i, %j], %zero : memref<?x?xi32>, vector<8xi32>
      %w = vector.transfer_read %A[%i, %j], %low : memref<?x?xi32>, vector<8xi32>
      %s2 = vector.reduction <add>, %v, %s : vector<8xi32> into i32
      %m2 = vector.reduction <maxsi>, %w, %m : vector<8xi32> into i32
      scf.yield %s2, %m2 : i32, i32
    }
    memref.store %r#0, %sums[%i] : memref<?xi32>
    memref.store %r#1, %maxs[%i] : memref<?xi32>
  }
  return
}
"""


@pytest.mark.parametrize("m,n", [(4, 8), (5, 13), (1, 1), (9, 17)])
def test_multi_reduction_rows(m: int, n: int) -> None:
    a, out = rand(m, n), rand(m)
    expected = out + a.sum(axis=1, dtype=np.float64)
    kernel(KERNELS, "rowsum")(a, out)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("m,n", [(3, 4), (7, 5), (1, 9)])
def test_multi_reduction_columns_max(m: int, n: int) -> None:
    a = rand(m, n)
    out = np.full(n, -np.inf, np.float32)
    kernel(KERNELS, "colmax")(a, out)
    np.testing.assert_array_equal(out, a.max(axis=0))


@pytest.mark.parametrize("m,n", [(4, 8), (5, 13), (1, 1), (9, 17)])
def test_transpose(m: int, n: int) -> None:
    a, b = rand(m, n), np.zeros((n, m), np.float32)
    kernel(KERNELS, "transpose")(a, b)
    np.testing.assert_array_equal(b, a.T)


@pytest.mark.parametrize("m,n", [(2, 3), (5, 7), (1, 1)])
def test_permuted_transfer(m: int, n: int) -> None:
    a, b = rand(m, n), np.zeros((n, m), np.float32)
    kernel(KERNELS, "permuted_read")(a, b)
    np.testing.assert_array_equal(b, a.T)


def test_shape_cast_and_math() -> None:
    a, b = rand(2, 8), np.zeros((4, 4), np.float32)
    kernel(KERNELS, "shape_cast_exp")(a, b)
    s = a.reshape(4, 4)
    np.testing.assert_allclose(b, s * np.exp(s), rtol=1e-5)


@pytest.mark.parametrize("m,n", [(3, 8), (2, 13), (4, 1)])
def test_integer_reductions(m: int, n: int) -> None:
    a = rand(m, n, dtype=np.int32)
    sums, maxs = np.zeros(m, np.int32), np.zeros(m, np.int32)
    kernel(KERNELS, "reduce_rows")(a, sums, maxs)
    np.testing.assert_array_equal(sums, a.sum(axis=1))
    np.testing.assert_array_equal(maxs, a.max(axis=1))
