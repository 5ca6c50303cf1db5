"""Data tiling keeps the payload's results: `structured.pack` of structured ops by odd
packed sizes, then `lower_pack` / `lower_unpack` (and `pack_transpose` in between), compiled
for the CPU and compared with `schedir.reference` on the untransformed payload; payloads
that hold `linalg.pack` / `linalg.unpack` themselves are compared with the same reference
(its own pack evaluation) after lowering.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects import test as xtest

from schedir import reference
from schedir.diagnostics import InputError
from schedir.reference.relayout import pack, unpack
from tests.helpers import ANY, match, run_and_check, schedule_module

PACK = '!transform.op<"linalg.pack">'
UNPACK = '!transform.op<"linalg.unpack">'
LOWER = (
    f'    %packs = transform.structured.match ops{{["linalg.pack"]}} in %root : ({ANY}) -> {PACK}\n'
    f"    %pad, %exp, %tr = transform.structured.lower_pack %packs : ({PACK}) -> "
    '(!transform.op<"tensor.pad">, !transform.op<"tensor.expand_shape">, '
    '!transform.op<"linalg.transpose">)\n'
    f'    %unpacks = transform.structured.match ops{{["linalg.unpack"]}} in %root : ({ANY}) -> {UNPACK}\n'
    f"    %e, %t, %c, %s, %cp = transform.structured.lower_unpack %unpacks : ({UNPACK}) -> "
    '(!transform.op<"tensor.empty">, !transform.op<"linalg.transpose">, '
    '!transform.op<"tensor.collapse_shape">, !transform.op<"tensor.extract_slice">, '
    '!transform.op<"linalg.copy">)\n'
)


def matmul(m: int, n: int, k: int) -> str:
    a, b, c = f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>", f"tensor<{m}x{n}xf32>"
    return (
        f"  func.func @mm(%A: {a}, %B: {b}, %C: {c}) -> {c} {{\n"
        f"    %0 = linalg.matmul ins(%A, %B : {a}, {b}) outs(%C : {c}) -> {c}\n"
        f"    return %0 : {c}\n  }}"
    )


def elementwise(m: int, n: int) -> str:
    t = f"tensor<{m}x{n}xf32>"
    return (
        f"  func.func @ew(%A: {t}, %B: {t}) -> {t} {{\n"
        "    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, "
        'affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} '
        f"ins(%A : {t}) outs(%B : {t}) {{\n"
        "    ^bb0(%a: f32, %b: f32):\n"
        "      %s = arith.mulf %a, %b : f32\n"
        "      %t = arith.addf %s, %a : f32\n"
        "      linalg.yield %t : f32\n"
        f"    }} -> {t}\n    return %0 : {t}\n  }}"
    )


def packed_matmul(m: int, n: int, k: int, sizes: tuple[int, int, int], extra: str = "") -> str:
    schedule = (
        match("%mm", "linalg.matmul")
        + f"    %p = transform.structured.pack %mm packed_sizes = [{', '.join(map(str, sizes))}]"
        f" : ({ANY}) -> {ANY}\n" + extra + LOWER
    )
    return schedule_module(matmul(m, n, k), schedule)


@pytest.mark.parametrize(
    ("m", "n", "k", "sizes"),
    [
        (13, 7, 9, (4, 0, 2)),
        (13, 7, 9, (4, 3, 2)),
        (8, 6, 10, (4, 3, 5)),
        (5, 11, 3, (0, 4, 0)),
        (7, 5, 17, (2, 2, 16)),
    ],
)
def test_pack_matmul_then_lower(m: int, n: int, k: int, sizes: tuple[int, int, int]) -> None:
    run_and_check(packed_matmul(m, n, k, sizes))


def test_pack_transpose_then_lower() -> None:
    transpose = (
        f'    %pk = transform.structured.match ops{{["linalg.pack"]}} in %root : ({ANY}) -> {ANY}\n'
        f"    %a, %b, %c3 = transform.split_handle %pk : ({ANY}) -> ({ANY}, {ANY}, {ANY})\n"
        f"    %g2, %p2, %u2 = transform.structured.pack_transpose %a with_compute_op(%p)"
        f" outer_perm = [1, 0] inner_perm = [1, 0] : ({ANY}, {ANY}) -> ({ANY}, {ANY}, {ANY})\n"
    )
    run_and_check(packed_matmul(13, 7, 9, (4, 3, 2), transpose))


def test_pack_transpose_of_unpack_then_lower() -> None:
    transpose = (
        f'    %u = transform.structured.match ops{{["linalg.unpack"]}} in %root : ({ANY}) -> {ANY}\n'
        f"    %g2, %p2, %u2 = transform.structured.pack_transpose %u with_compute_op(%p)"
        f" outer_perm = [1, 0] inner_perm = [1, 0] : ({ANY}, {ANY}) -> ({ANY}, {ANY}, {ANY})\n"
    )
    run_and_check(packed_matmul(13, 7, 9, (4, 3, 2), transpose))


@settings(max_examples=8)
@given(
    m=st.integers(1, 12),
    n=st.integers(1, 12),
    tm=st.integers(0, 5),
    tn=st.integers(0, 5),
)
def test_pack_elementwise_property(m: int, n: int, tm: int, tn: int) -> None:
    schedule = (
        match("%ew", "linalg.generic")
        + f"    %p = transform.structured.pack %ew packed_sizes = [{tm}, {tn}]"
        f" : ({ANY}) -> {ANY}\n" + LOWER
    )
    run_and_check(schedule_module(elementwise(m, n), schedule))


def relayout_payload(
    rows: int, cols: int, tiles: tuple[int, int], positions: tuple[int, int], perm: str
) -> str:
    """pack (with padding) then unpack of a rows x cols tensor, plus one so the result is
    computed."""
    counts = {positions[0]: -(-[rows, cols][positions[0]] // tiles[0])}
    counts[positions[1]] = -(-[rows, cols][positions[1]] // tiles[1])
    outer = [counts[0], counts[1]]
    order = [int(p) for p in perm.split(",")] if perm else [0, 1]
    packed_shape = [outer[o] for o in order] + list(tiles)
    pt = f"tensor<{'x'.join(map(str, packed_shape))}xf32>"
    t = f"tensor<{rows}x{cols}xf32>"
    perm_text = f" outer_dims_perm = [{perm}]" if perm else ""
    common = f"{perm_text} inner_dims_pos = [{positions[0]}, {positions[1]}] inner_tiles = [{tiles[0]}, {tiles[1]}]"
    return (
        f"  func.func @rt(%A: {t}, %B: {t}) -> {t} {{\n"
        "    %z = arith.constant 0.5 : f32\n"
        f"    %e = tensor.empty() : {pt}\n"
        f"    %p = linalg.pack %A padding_value(%z : f32){common} into %e : {t} -> {pt}\n"
        f"    %u = linalg.unpack %p{common} into %B : {pt} -> {t}\n"
        f"    return %u : {t}\n  }}"
    )


@pytest.mark.parametrize("perm", ["", "1, 0"])
@pytest.mark.parametrize(("positions"), [(0, 1), (1, 0)])
@pytest.mark.parametrize(
    ("rows", "cols", "tiles"), [(13, 7, (4, 3)), (5, 9, (5, 2)), (1, 1, (1, 1))]
)
def test_lower_pack_unpack_round_trip(
    rows: int, cols: int, tiles: tuple[int, int], positions: tuple[int, int], perm: str
) -> None:
    run_and_check(schedule_module(relayout_payload(rows, cols, tiles, positions, perm), LOWER))


def test_reference_pack_matches_loops() -> None:
    """The reference's pack against a direct loop nest (element by element)."""
    rng = np.random.default_rng(3)
    source = rng.uniform(0.5, 2.0, (7, 5))
    packed = pack(source, -1.0, (1, 0), (2, 3), (1, 0), (3, 3, 2, 3), op=_dummy())
    for i in range(3):  # outer dim 0 = count of source dim 1
        for j in range(3):  # outer dim 1 = count of source dim 0
            for a in range(2):
                for b in range(3):
                    r, c = j * 3 + b, i * 2 + a
                    want = source[r, c] if r < 7 and c < 5 else -1.0
                    assert packed[i, j, a, b] == want
    back = unpack(packed, (1, 0), (2, 3), (1, 0), (7, 5), op=_dummy())
    assert np.array_equal(back, source)


def test_reference_rejects_partial_tile_without_padding() -> None:
    payload = (
        "func.func @f(%A: tensor<?xf32>, %E: tensor<2x?xf32>) -> tensor<2x?xf32> {\n"
        "  %c = arith.constant 3 : index\n"
        "  %p = linalg.pack %A inner_dims_pos = [0] inner_tiles = [%c] into %E"
        " : tensor<?xf32> -> tensor<2x?xf32>\n"
        "  return %p : tensor<2x?xf32>\n}\n"
    )
    with pytest.raises(InputError, match="partial tiles"):
        reference.evaluate(payload, "f", [np.ones(5, np.float32), np.ones((2, 3), np.float32)])


def _dummy() -> xtest.TestOp:
    """A throwaway op for the failure location."""
    return xtest.TestOp()


@pytest.mark.parametrize("rows", [1, 6, 13])
def test_lower_pack_unpack_dynamic_rows(rows: int) -> None:
    payload = (
        "  func.func @rt(%A: tensor<?x7xf32>, %B: tensor<?x7xf32>) -> tensor<?x7xf32> {\n"
        "    %z = arith.constant 0.5 : f32\n"
        "    %c0 = arith.constant 0 : index\n"
        "    %n = tensor.dim %A, %c0 : tensor<?x7xf32>\n"
        "    %o = affine.apply affine_map<()[s0] -> (s0 ceildiv 4)>()[%n]\n"
        "    %e = tensor.empty(%o) : tensor<?x3x4x3xf32>\n"
        "    %p = linalg.pack %A padding_value(%z : f32) inner_dims_pos = [0, 1]"
        " inner_tiles = [4, 3] into %e : tensor<?x7xf32> -> tensor<?x3x4x3xf32>\n"
        "    %u = linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [4, 3] into %B"
        " : tensor<?x3x4x3xf32> -> tensor<?x7xf32>\n"
        "    return %u : tensor<?x7xf32>\n  }"
    )
    run_and_check(schedule_module(payload, LOWER), dynamic=rows)
