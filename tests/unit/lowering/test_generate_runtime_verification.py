"""`generate-runtime-verification`, executed: generated indices, offsets and divisors.

Each payload is compiled twice, with and without runtime verification. For generated
arguments, in-bounds cases (and non-zero divisors) must give the reference's result with
both kernels; out-of-bounds cases (a zero divisor, INT_MIN / -1) must give a
`RuntimeVerificationError` located at the payload op that names the values, and without
the checks the isolated call (`Kernel.run(..., isolated=True)`) must survive: a result
or a `KernelCrash`, never the end of this process.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schedir
from schedir import reference
from schedir.api import Kernel
from schedir.diagnostics import KernelCrash, RuntimeVerificationError
from schedir.options import CompileOptions

EXTRACT = """
func.func @extract(%t: tensor<7x5xf32>, %i: index, %j: index) -> f32 {
  %x = tensor.extract %t[%i, %j] : tensor<7x5xf32>
  return %x : f32
}
"""

SLICE = """
func.func @slice(%t: tensor<9x6xf32>, %i: index, %j: index) -> tensor<3x4xf32> {
  %s = tensor.extract_slice %t[%i, %j] [3, 4] [2, 1] : tensor<9x6xf32> to tensor<3x4xf32>
  return %s : tensor<3x4xf32>
}
"""

INSERT = """
func.func @insert(%t: tensor<4x6xi32>, %v: i32, %i: index, %j: index) -> tensor<4x6xi32> {
  %r = tensor.insert %v into %t[%i, %j] : tensor<4x6xi32>
  return %r : tensor<4x6xi32>
}
"""

INSERT_SLICE = """
func.func @insert_slice(%t: tensor<8x5xf32>, %s: tensor<2x3xf32>, %i: index, %j: index)
    -> tensor<8x5xf32> {
  %r = tensor.insert_slice %s into %t[%i, %j] [2, 3] [3, 1]
      : tensor<2x3xf32> into tensor<8x5xf32>
  return %r : tensor<8x5xf32>
}
"""

DIVIDE = """
func.func @divide(%a: tensor<5xi32>, %b: tensor<5xi32>) -> tensor<5xi32> {
  %init = tensor.empty() : tensor<5xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>,
                                        affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a, %b : tensor<5xi32>, tensor<5xi32>) outs(%init : tensor<5xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %q = arith.divsi %x, %y : i32
    %m = arith.remui %x, %y : i32
    %s = arith.addi %q, %m : i32
    linalg.yield %s : i32
  } -> tensor<5xi32>
  return %r : tensor<5xi32>
}
"""

FAMILY = settings(max_examples=25)


@cache
def kernels(payload: str) -> tuple[Kernel, Kernel]:
    """(checked, unchecked) kernels of `payload`, compiled once per test run."""
    checked = schedir.compile(payload, options=CompileOptions(runtime_verification=True))
    unchecked = schedir.compile(payload)
    return checked, unchecked


def op_line(payload: str, op: str) -> int:
    """The 1-based line of `payload` holding `op`."""
    return next(i for i, line in enumerate(payload.split("\n"), 1) if f" {op} " in line)


def assert_reference(kernel: Kernel, payload: str, args: Sequence[Any]) -> None:
    (got,) = kernel.run(*args, isolated=True)
    (want,) = reference.evaluate(payload, None, list(args))
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want).astype(np.asarray(got).dtype))


def assert_reported(
    payload: str, op: str, args: Sequence[Any], *fragments: str
) -> RuntimeVerificationError:
    checked, unchecked = kernels(payload)
    with pytest.raises(RuntimeVerificationError) as caught:
        checked.run(*args)
    err = caught.value
    assert err.location is not None and err.location.line == op_line(payload, op), err.render()
    assert err.message.startswith(f"runtime verification failed: '{op}' op"), err.message
    for fragment in fragments:
        assert fragment in err.message, err.message
    # Without the checks the call may read garbage or crash, but this process survives.
    with contextlib.suppress(KernelCrash):
        unchecked.run(*args, isolated=True, timeout=60)
    return err


INDEX = st.one_of(st.integers(-3, 12), st.sampled_from([-(1 << 40), 1 << 40]))


@FAMILY
@given(i=INDEX, j=INDEX, seed=st.integers(0, 2**16))
def test_extract_indices(i: int, j: int, seed: int) -> None:
    t = np.random.default_rng(seed).standard_normal((7, 5)).astype(np.float32) + 2.0
    if 0 <= i < 7 and 0 <= j < 5:
        for kernel in kernels(EXTRACT):
            assert_reference(kernel, EXTRACT, [t, i, j])
        return
    dim, index, size = (0, i, 7) if not 0 <= i < 7 else (1, j, 5)
    assert_reported(
        EXTRACT,
        "tensor.extract",
        [t, i, j],
        f"out-of-bounds access: index {index} is not in [0, {size}) in dimension {dim}",
    )


@FAMILY
@given(i=st.integers(-4, 12), j=st.integers(-4, 10), seed=st.integers(0, 2**16))
def test_extract_slice_offsets(i: int, j: int, seed: int) -> None:
    t = np.random.default_rng(seed).standard_normal((9, 6)).astype(np.float32) - 1.5
    # Rows i, i+2, i+4 of 9; columns j..j+3 of 6.
    if 0 <= i <= 4 and 0 <= j <= 2:
        for kernel in kernels(SLICE):
            assert_reference(kernel, SLICE, [t, i, j])
        return
    err = assert_reported(SLICE, "tensor.extract_slice", [t, i, j])
    if not 0 <= i < 9:
        assert f"offset {i} is out of bounds in dimension 0 (of size 9)" in err.message
    elif i + 4 >= 9:
        assert f"runs out of bounds in dimension 0: its last index {i + 4}" in err.message
    elif not 0 <= j < 6:
        assert f"offset {j} is out of bounds in dimension 1 (of size 6)" in err.message
    else:
        assert f"runs out of bounds in dimension 1: its last index {j + 3}" in err.message


@FAMILY
@given(
    i=st.integers(-2, 7),
    j=st.integers(-2, 9),
    value=st.integers(-(2**31), 2**31 - 1),
    seed=st.integers(0, 2**16),
)
def test_insert_indices(i: int, j: int, value: int, seed: int) -> None:
    t = np.random.default_rng(seed).integers(-50, 50, (4, 6)).astype(np.int32)
    before = t.copy()
    if 0 <= i < 4 and 0 <= j < 6:
        for kernel in kernels(INSERT):
            assert_reference(kernel, INSERT, [t, value, i, j])
    else:
        assert_reported(INSERT, "tensor.insert", [t, value, i, j], "out-of-bounds access")
    np.testing.assert_array_equal(t, before)  # never modified


@FAMILY
@given(i=st.integers(-3, 9), j=st.integers(-3, 6), seed=st.integers(0, 2**16))
def test_insert_slice_offsets(i: int, j: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    t = rng.standard_normal((8, 5)).astype(np.float32) + 0.5
    s = rng.standard_normal((2, 3)).astype(np.float32) - 0.5
    # Rows i and i+3 of 8; columns j..j+2 of 5.
    if 0 <= i <= 4 and 0 <= j <= 2:
        for kernel in kernels(INSERT_SLICE):
            assert_reference(kernel, INSERT_SLICE, [t, s, i, j])
        return
    assert_reported(INSERT_SLICE, "tensor.insert_slice", [t, s, i, j], "out of bounds")


INT32 = st.integers(-(2**31), 2**31 - 1)


@FAMILY
@given(
    a=st.lists(INT32, min_size=5, max_size=5),
    b=st.lists(st.one_of(st.sampled_from([0, -1, 1]), INT32), min_size=5, max_size=5),
)
def test_divisors(a: list[int], b: list[int]) -> None:
    x = np.array(a, np.int32)
    y = np.array(b, np.int32)
    zero = [k for k in range(5) if b[k] == 0]
    overflow = [k for k in range(5) if a[k] == -(2**31) and b[k] == -1]
    if not zero and not overflow:
        for kernel in kernels(DIVIDE):
            assert_reference(kernel, DIVIDE, [x, y])
        return
    first = min(zero + overflow)
    if first in zero:
        err = assert_reported(DIVIDE, "arith.divsi", [x, y], f"division by zero: {a[first]} / 0")
    else:
        err = assert_reported(DIVIDE, "arith.divsi", [x, y], "signed division overflow")
    assert err.location is not None


DYNAMIC_MATMUL = """
func.func @dynamic_matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>)
    -> tensor<?x?xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>)
                     outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
"""


@FAMILY
@given(
    m=st.integers(1, 6),
    k=st.integers(1, 6),
    n=st.integers(1, 6),
    deltas=st.tuples(*[st.sampled_from([0, 0, -1, 1, 3])] * 3),
    seed=st.integers(0, 2**16),
)
def test_dynamic_matmul_shapes(
    m: int, k: int, n: int, deltas: tuple[int, int, int], seed: int
) -> None:
    rng = np.random.default_rng(seed)
    k2, m2, n2 = (max(1, k + deltas[0]), max(1, m + deltas[1]), max(1, n + deltas[2]))
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k2, n)).astype(np.float32)
    c = rng.standard_normal((m2, n2)).astype(np.float32)
    if (k2, m2, n2) == (k, m, n):
        checked, unchecked = kernels(DYNAMIC_MATMUL)
        (want,) = reference.evaluate(DYNAMIC_MATMUL, None, [a, b, c])
        for kernel in (checked, unchecked):
            (got,) = kernel.run(a, b, c, isolated=True)
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
        return
    # The checks run in operand order: B's rows, then C's rows, then C's columns.
    if k2 != k:
        operand, dim, actual, needed = 1, 0, k2, k
    elif m2 != m:
        operand, dim, actual, needed = 2, 0, m2, m
    else:
        operand, dim, actual, needed = 2, 1, n2, n
    assert_reported(
        DYNAMIC_MATMUL,
        "linalg.matmul",
        [a, b, c],
        f"dimension #{dim} of input/output operand #{operand} is incompatible with inferred "
        f"dimension size (it is {actual}, the loops need {needed})",
    )


DIM = """
func.func @dim(%t: tensor<?x4xf32>, %i: index) -> index {
  %d = tensor.dim %t, %i : tensor<?x4xf32>
  return %d : index
}
"""


@FAMILY
@given(rows=st.integers(1, 9), i=st.integers(-3, 5))
def test_dimension_indices(rows: int, i: int) -> None:
    t = np.full((rows, 4), 1.5, np.float32)
    if 0 <= i < 2:
        for kernel in kernels(DIM):
            assert int(kernel.run(t, i, isolated=True)[0]) == (rows, 4)[i]
        return
    assert_reported(DIM, "tensor.dim", [t, i], f"index {i} is out of bounds (rank 2)")


def test_a_zero_divisor_without_checks_is_a_reported_crash() -> None:
    _, unchecked = kernels(DIVIDE)
    x = np.arange(1, 6, dtype=np.int32)
    y = np.array([1, 2, 0, 4, 5], np.int32)
    with pytest.raises(KernelCrash) as caught:
        unchecked.run(x, y, isolated=True)
    assert caught.value.signal == 8  # SIGFPE
    assert "@divide crashed with SIGFPE" in caught.value.message


BUFFERIZED = """
module attributes {transform.with_named_sequence} {
  func.func @window(%t: tensor<9x6xf32>, %i: index) -> f32 {
    %s = tensor.extract_slice %t[%i, 1] [2, 3] [1, 1] : tensor<9x6xf32> to tensor<2x3xf32>
    %c1 = arith.constant 1 : index
    %x = tensor.extract %s[%c1, %i] : tensor<2x3xf32>
    return %x : f32
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.consumed}) {
    %b = transform.bufferization.one_shot_bufferize layout{IdentityLayoutMap} %root
        <{bufferize_function_boundaries = true}> : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
"""


@settings(max_examples=15)
@given(i=st.integers(-2, 9))
def test_memref_accesses_of_a_bufferized_payload(i: int) -> None:
    # The schedule bufferizes: the checks guard memref.subview and memref.load.
    t = np.arange(54, dtype=np.float32).reshape(9, 6) + 0.5
    if 0 <= i <= 2:
        for kernel in kernels(BUFFERIZED):
            assert float(kernel.run(t, i, isolated=True)[0]) == float(t[i + 1, 1 + i])
        return
    op = "memref.subview" if not 0 <= i <= 7 else "memref.load"
    checked, _ = kernels(BUFFERIZED)
    with pytest.raises(RuntimeVerificationError) as caught:
        checked.run(t, i)
    message = caught.value.message
    assert f"'{op}' op" in message, message
    assert caught.value.location is not None


def test_runtime_verification_is_cpu_only() -> None:
    with pytest.raises(ValueError, match="only available for the cpu target"):
        CompileOptions(target="cuda", runtime_verification=True)
