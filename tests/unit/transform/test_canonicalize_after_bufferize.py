"""Canonicalization after tiling, fusion and bufferization keeps every op valid and the
results right.

The family (found by the fuzzer, seed 20261128 case 2156): `structured.fuse` of a
transpose (or broadcast) with its producer, `one_shot_bufferize`, then canonicalization.
A single-iteration loop makes one tile size static; the subview feeding one operand of the
consumer became static through a folded `memref.cast` while the allocation feeding the
other operand stayed dynamic, because `memref.dim` did not fold through `memref.cast` or
`memref.subview` (upstream's DimOp::fold does). The linalg op then stopped verifying
("dim(result, 2) = 5 doesn't match dim(input, permutation[2]) = ?"). Hypothesis draws the
shapes, the tile sizes (dividing, non-dividing, larger than the dimension) and the
permutation.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import ANY, match, run_and_check, schedule_module


def _payload(shape: tuple[int, int, int], perm: tuple[int, ...]) -> str:
    b, m, n = shape
    k = 7
    out = [shape[p] for p in perm]
    o = "x".join(map(str, out))
    return f"""
  func.func @f(%A: tensor<{b}x{m}x{k}xf32>, %B: tensor<{b}x{k}x{n}xf32>,
               %C: tensor<{b}x{m}x{n}xf32>) -> tensor<{o}xf32> {{
    %mm = linalg.batch_matmul ins(%A, %B : tensor<{b}x{m}x{k}xf32>, tensor<{b}x{k}x{n}xf32>)
                              outs(%C : tensor<{b}x{m}x{n}xf32>) -> tensor<{b}x{m}x{n}xf32>
    %e = tensor.empty() : tensor<{o}xf32>
    %t = linalg.transpose ins(%mm : tensor<{b}x{m}x{n}xf32>) outs(%e : tensor<{o}xf32>)
                          permutation = [{", ".join(map(str, perm))}]
    return %t : tensor<{o}xf32>
  }}"""


def _schedule(tiles: tuple[int, int, int]) -> str:
    loops = ", ".join([ANY] * sum(1 for t in tiles if t))
    handles = ", ".join(f"%l{i}" for i in range(sum(1 for t in tiles if t)))
    return (
        match("%t", "linalg.transpose")
        + f"    %f, {handles} = transform.structured.fuse %t tile_sizes [{', '.join(map(str, tiles))}]"
        f" : ({ANY}) -> ({ANY}, {loops})\n"
        f"    %b = transform.bufferization.one_shot_bufferize %root : ({ANY}) -> {ANY}\n"
        + match("%fn", "func.func", root="%b")
        + "    transform.apply_patterns to %fn {\n"
        "      transform.apply_patterns.canonicalization\n"
        f"    }} : {ANY}\n"
    )


def test_fuzz_case_2156() -> None:
    """The minimized finding: tile sizes [4, 2, 16] on 5x5x5, permutation [1, 0, 2]."""
    text = schedule_module(_payload((5, 5, 5), (1, 0, 2)), _schedule((4, 2, 16)), consumed=True)
    run_and_check(text, seed=5)


@settings(max_examples=12)
@given(
    shape=st.tuples(*[st.integers(1, 6)] * 3),
    perm=st.permutations([0, 1, 2]),
    tiles=st.tuples(*[st.sampled_from([1, 2, 3, 4, 16])] * 3),
)
def test_fuse_bufferize_canonicalize(
    shape: tuple[int, int, int], perm: list[int], tiles: tuple[int, int, int]
) -> None:
    text = schedule_module(_payload(shape, tuple(perm)), _schedule(tiles), consumed=True)
    run_and_check(text, seed=sum(shape))
