"""Tiling linalg ops with buffer semantics computes what the untiled payload computes.

The payloads are written on tensors, bufferized first (`one_shot_bufferize`), and then the
memref linalg ops are tiled with `tile_using_for` / `tile_using_forall` (upstream's
TilingInterface on buffers: loops without iter_args or shared_outs over `memref.subview`s).
Each case is compiled for the CPU with `schedir.compile` and compared with
`schedir.reference.evaluate` on the untransformed payload, at odd sizes (partial tiles,
threads past the end, dynamic shapes) and after `structured.promote`, whose copies into
local buffers are then tiled too (the shape of a shared-memory GPU schedule).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import ANY, schedule_module
from tests.helpers import match as match_in
from tests.helpers import run_and_check as check_at

M, K, N = 37, 29, 53
"""Odd sizes: no tile size used below divides them."""

BUFFERIZE = (
    f"    %bm = transform.bufferization.one_shot_bufferize layout{{IdentityLayoutMap}} %root "
    f"<{{bufferize_function_boundaries = true}}> : ({ANY}) -> {ANY}\n"
)


def run_and_check(text: str, reduction: int = K, dynamic: int | None = None) -> str:
    """The shared harness at this file's seed (5); return the scheduled IR."""
    return check_at(text, seed=5, reduction=reduction, dynamic=dynamic)


def module(payload: str, schedule: str) -> str:
    """`payload` with `schedule`, which runs on the bufferized module `%bm`."""
    return schedule_module(payload, BUFFERIZE + schedule, consumed=True)


def match(name: str, op: str) -> str:
    """A match in the bufferized module."""
    return match_in(name, op, root="%bm")


def matmul(m: int = M, k: int = K, n: int = N, dim: str | None = None) -> str:
    """`C = A @ B` on a zero-filled init; `dim` makes every shape dynamic."""
    a = f"tensor<{dim or m}x{dim or k}xf32>"
    b = f"tensor<{dim or k}x{dim or n}xf32>"
    c = f"tensor<{dim or m}x{dim or n}xf32>"
    if dim:
        empty = (
            "  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n"
            "  %m = tensor.dim %a, %c0 : " + a + "\n  %n = tensor.dim %b, %c1 : " + b + "\n"
            f"  %e = tensor.empty(%m, %n) : {c}\n"
        )
    else:
        empty = f"  %e = tensor.empty() : {c}\n"
    return (
        f"func.func @matmul(%a: {a}, %b: {b}) -> {c} {{\n"
        "  %z = arith.constant 0.0 : f32\n"
        f"{empty}"
        f"  %f = linalg.fill ins(%z : f32) outs(%e : {c}) -> {c}\n"
        f"  %r = linalg.matmul ins(%a, %b : {a}, {b}) outs(%f : {c}) -> {c}\n"
        f"  return %r : {c}\n}}"
    )


def tile_for(target: str, sizes: list[int], prefix: str) -> str:
    loops = sum(1 for s in sizes if s)
    names = f"%{prefix}" + "".join(f", %{prefix}_l{i}" for i in range(loops))
    results = ", ".join([ANY] * (loops + 1))
    return (
        f"    {names} = transform.structured.tile_using_for {target} tile_sizes {sizes} "
        f": ({ANY}) -> ({results})\n"
    )


def tile_forall(target: str, kind: str, sizes: list[int], prefix: str) -> str:
    return (
        f"    %{prefix}, %{prefix}_f = transform.structured.tile_using_forall {target} "
        f"{kind} {sizes} : ({ANY}) -> ({ANY}, {ANY})\n"
    )


def has_no_tensors(ir: str) -> bool:
    return "tensor<" not in ir.split("transform.named_sequence")[0]


@pytest.mark.parametrize("sizes", [[8, 16, 4], [8, 0, 0], [0, 16, 7], [64, 64, 64], [1, 1, 1]])
def test_tile_using_for_on_buffers(sizes: list[int]) -> None:
    ir = run_and_check(
        module(matmul(), match("%mm", "linalg.matmul") + tile_for("%mm", sizes, "t"))
    )
    assert has_no_tensors(ir), ir
    assert "iter_args" not in ir, ir
    assert ir.count("scf.for") == sum(1 for s in sizes if s), ir


@pytest.mark.parametrize(
    ("kind", "sizes"),
    [
        ("tile_sizes", [8, 16]),
        ("tile_sizes", [0, 5]),
        ("num_threads", [3, 5]),
        ("num_threads", [7]),
    ],
)
def test_tile_using_forall_on_buffers(kind: str, sizes: list[int]) -> None:
    schedule = match("%mm", "linalg.matmul") + tile_forall("%mm", kind, sizes, "t")
    ir = run_and_check(module(matmul(), schedule))
    assert "shared_outs" not in ir and "scf.forall" in ir, ir
    assert "memref.subview" in ir, ir


def test_fill_and_matmul_both_tiled_on_buffers() -> None:
    """The fill and the matmul are tiled separately (no fusion on buffers), each writing
    its tiles of the same output buffer."""
    schedule = (
        match("%fill", "linalg.fill")
        + tile_forall("%fill", "num_threads", [4, 3], "f")
        + match("%mm", "linalg.matmul")
        + tile_for("%mm", [5, 11, 0], "m")
    )
    run_and_check(module(matmul(), schedule))


def test_dynamic_shapes_on_buffers() -> None:
    """Dynamic memrefs tile with `memref.dim` bounds."""
    schedule = match("%mm", "linalg.matmul") + tile_for("%mm", [8, 16, 4], "t")
    ir = run_and_check(module(matmul(dim="?"), schedule), dynamic=23, reduction=23)
    assert "memref.dim" in ir, ir


def test_linalg_index_is_offset_on_buffers() -> None:
    """A generic reading `linalg.index` sees the global index inside each tile."""
    t = "tensor<13x10xf32>"
    payload = (
        f"func.func @iota(%a: {t}) -> {t} {{\n"
        f"  %e = tensor.empty() : {t}\n"
        "  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, "
        'affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}\n'
        f"      ins(%a : {t}) outs(%e : {t}) {{\n"
        "  ^bb0(%x: f32, %o: f32):\n"
        "    %i = linalg.index 0 : index\n    %j = linalg.index 1 : index\n"
        "    %c10 = arith.constant 10 : index\n"
        "    %ij = arith.muli %i, %c10 : index\n    %k = arith.addi %ij, %j : index\n"
        "    %ki = arith.index_cast %k : index to i64\n"
        "    %f = arith.sitofp %ki : i64 to f32\n"
        "    %y = arith.addf %x, %f : f32\n"
        "    linalg.yield %y : f32\n  } -> " + t + "\n"
        f"  return %r : {t}\n}}"
    )
    schedule = match("%g", "linalg.generic") + tile_forall("%g", "num_threads", [4, 3], "t")
    run_and_check(module(payload, schedule), reduction=1)


@pytest.mark.parametrize("threads", [[4, 8], [16, 2], [3, 5]])
def test_promoted_copies_tiled_over_threads(threads: list[int]) -> None:
    """Block tiles on buffers, A and B tiles promoted into workgroup buffers (plain memory
    on the CPU), the promotion copies tiled by `num_threads`: the shared-memory matmul."""
    schedule = (
        match("%mm", "linalg.matmul")
        + tile_forall("%mm", "tile_sizes", [16, 32], "b")
        + tile_for("%b", [0, 0, 8], "k")
        + f"    %p = transform.structured.promote %k <{{operands_to_promote = [0, 1], "
        "memory_space = #gpu.address_space<workgroup>}> "
        f": ({ANY}) -> {ANY}\n"
        + match("%cp", "linalg.copy")
        + tile_forall("%cp", "num_threads", threads, "c")
    )
    ir = run_and_check(module(matmul(), schedule))
    assert len(re.findall(r"linalg\.copy", ir)) >= 2, ir
    assert "#gpu.address_space<workgroup>" in ir, ir


@settings(max_examples=10)
@given(
    sizes=st.lists(st.integers(0, 40), min_size=1, max_size=3),
    threads=st.lists(st.integers(0, 6), min_size=1, max_size=2),
)
def test_any_tile_sizes_and_threads_on_buffers(sizes: list[int], threads: list[int]) -> None:
    schedule = (
        match("%mm", "linalg.matmul")
        + tile_for("%mm", sizes, "t")
        + match("%fill", "linalg.fill")
        + tile_forall("%fill", "num_threads", threads, "f")
    )
    run_and_check(module(matmul(), schedule))
