"""`structured.pack_greedily` keeps the payload's results: contractions (a matmul, a
transposed-layout generic, a batched generic with an extra parallel loop) packed greedily
by odd sizes that do not divide the odd shapes, in every inner-dims order, some sizes
padded to the next multiple instead, then `lower_pack` / `lower_unpack`, compiled for the
CPU and compared with `schedir.reference` on the untransformed payload.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import ANY, match, run_and_check, schedule_module
from tests.unit.transform.test_pack_numerics import LOWER

ORDERS = list(itertools.permutations(range(3)))


def matmul(m: int, n: int, k: int) -> str:
    a, b, c = f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>", f"tensor<{m}x{n}xf32>"
    return (
        f"  func.func @mm(%A: {a}, %B: {b}, %C: {c}) -> {c} {{\n"
        f"    %0 = linalg.matmul ins(%A, %B : {a}, {b}) outs(%C : {c}) -> {c}\n"
        f"    return %0 : {c}\n  }}"
    )


def transposed(m: int, n: int, k: int) -> str:
    """C[n, m] += A[m, k] * B[n, k], loops (k, m, n)."""
    a, b, c = f"tensor<{m}x{k}xf32>", f"tensor<{n}x{k}xf32>", f"tensor<{n}x{m}xf32>"
    return f"""  func.func @mt(%A: {a}, %B: {b}, %C: {c}) -> {c} {{
    %0 = linalg.generic {{indexing_maps = [affine_map<(k, m, n) -> (m, k)>, affine_map<(k, m, n) -> (n, k)>, affine_map<(k, m, n) -> (n, m)>], iterator_types = ["reduction", "parallel", "parallel"]}} ins(%A, %B : {a}, {b}) outs(%C : {c}) {{
    ^bb0(%x: f32, %y: f32, %z: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %z, %p : f32
      linalg.yield %s : f32
    }} -> {c}
    return %0 : {c}
  }}"""


def batched(m: int, n: int, k: int) -> str:
    """C[b, m, n] += A[b, m, k] * B[k, n] with b = 3 (a loop that is not packed)."""
    a, b, c = f"tensor<3x{m}x{k}xf32>", f"tensor<{k}x{n}xf32>", f"tensor<3x{m}x{n}xf32>"
    return f"""  func.func @bm(%A: {a}, %B: {b}, %C: {c}) -> {c} {{
    %0 = linalg.generic {{indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}} ins(%A, %B : {a}, {b}) outs(%C : {c}) {{
    ^bb0(%x: f32, %y: f32, %z: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %z, %p : f32
      linalg.yield %s : f32
    }} -> {c}
    return %0 : {c}
  }}"""


PAYLOADS = {"linalg.matmul": matmul, "linalg.generic": transposed}


def schedule(
    op: str,
    sizes: tuple[int, int, int],
    order: tuple[int, ...],
    multiples: tuple[int, int, int] | None = None,
) -> str:
    padded = f" matmul_padded_sizes_next_multiple_of = {list(multiples)}" if multiples else ""
    return (
        match("%op", op)
        + f"    %p = transform.structured.pack_greedily %op matmul_packed_sizes = {list(sizes)}"
        + f"{padded} matmul_inner_dims_order = {list(order)} : ({ANY}) -> {ANY}\n"
        + LOWER
    )


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("op", sorted(PAYLOADS))
def test_every_order(op: str, order: tuple[int, ...]) -> None:
    m, n, k = 13, 7, 9
    scheduled = run_and_check(
        schedule_module(PAYLOADS[op](m, n, k), schedule(op, (4, 3, 2), order))
    )
    assert "linalg.pack" not in scheduled  # lowered
    assert "linalg.matmul" not in scheduled


def test_batched_and_padded() -> None:
    run_and_check(
        schedule_module(
            batched(5, 7, 11), schedule("linalg.generic", (2, 0, 3), (1, 2, 0), (0, 4, 0))
        )
    )


def test_not_a_matmul_is_kept() -> None:
    """A matvec (two loops) is returned unpacked and keeps its results."""
    a, x, y = "tensor<5x7xf32>", "tensor<7xf32>", "tensor<5xf32>"
    payload = (
        f"  func.func @mv(%A: {a}, %X: {x}, %Y: {y}) -> {y} {{\n"
        f"    %0 = linalg.matvec ins(%A, %X : {a}, {x}) outs(%Y : {y}) -> {y}\n"
        f"    return %0 : {y}\n  }}"
    )
    scheduled = run_and_check(
        schedule_module(payload, schedule("linalg.matvec", (2, 3, 4), (0, 1, 2)))
    )
    assert "linalg.matvec" in scheduled


@settings(max_examples=8)
@given(
    m=st.integers(1, 11),
    n=st.integers(1, 11),
    k=st.integers(1, 11),
    sizes=st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 5)),
    multiples=st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(0, 4)),
    order=st.sampled_from(ORDERS),
    op=st.sampled_from(sorted(PAYLOADS)),
)
def test_pack_greedily_property(
    m: int,
    n: int,
    k: int,
    sizes: tuple[int, int, int],
    multiples: tuple[int, int, int],
    order: tuple[int, ...],
    op: str,
) -> None:
    # At most one of a size and its multiple is non-zero (the verifier's rule).
    padded = tuple(0 if s else mult for s, mult in zip(sizes, multiples, strict=True))
    run_and_check(
        schedule_module(
            PAYLOADS[op](m, n, k),
            schedule(op, sizes, order, (padded[0], padded[1], padded[2])),
        )
    )
