"""Tiled and fused payloads compute what the untiled payload computes.

Every case builds a payload plus a schedule (tile_using_for, tile_using_forall by tile
sizes or num_threads, fuse_into_containing_op, structured.fuse), compiles it for the CPU
with `schedir.compile` and compares the results with `schedir.reference.evaluate` on the
untransformed payload, at odd sizes where tiles are partial (37x53x29 by 8/16, 3 threads,
tiles larger than the dimension, 0 = untiled). The property tests draw shapes and tile
sizes at random.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schedir
from schedir import reference
from tests.helpers import ANY, match, run_and_check, schedule_module


def sizes(values: list[int]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def tile_for(
    target: str, tile: list[int], interchange: list[int] | None = None, prefix: str = "t"
) -> str:
    loops = sum(1 for t in tile if t)
    results = ", ".join([ANY] * (loops + 1))
    names = f"%{prefix}_tiled" + "".join(f", %{prefix}_l{i}" for i in range(loops))
    inter = f" interchange = {sizes(interchange)}" if interchange else ""
    return (
        f"    {names} = transform.structured.tile_using_for {target} tile_sizes {sizes(tile)}"
        f"{inter} : ({ANY}) -> ({results})\n"
    )


def tile_forall(
    target: str, *, tile: list[int] | None = None, threads: list[int] | None = None
) -> str:
    spec = (
        f"tile_sizes {sizes(tile)}" if tile is not None else f"num_threads {sizes(threads or [])}"
    )
    return (
        f"    %tiled, %forall = transform.structured.tile_using_forall {target} {spec}"
        f" : ({ANY}) -> ({ANY}, {ANY})\n"
    )


def matmul(m: int, n: int, k: int) -> str:
    return f"""  func.func @mm(%A: tensor<{m}x{k}xf32>, %B: tensor<{k}x{n}xf32>, %C: tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
    %r = linalg.matmul ins(%A, %B : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%C : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
    return %r : tensor<{m}x{n}xf32>
  }}"""


def matmul_bias_relu(m: int, n: int, k: int) -> str:
    return f"""  func.func @mbr(%A: tensor<{m}x{k}xf32>, %B: tensor<{k}x{n}xf32>, %bias: tensor<{n}xf32>) -> tensor<{m}x{n}xf32> {{
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<{m}x{n}xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
    %mm = linalg.matmul ins(%A, %B : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%acc : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
    %out = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}}
        ins(%mm, %bias : tensor<{m}x{n}xf32>, tensor<{n}xf32>) outs(%init : tensor<{m}x{n}xf32>) {{
    ^bb0(%x: f32, %b: f32, %o: f32):
      %s = arith.addf %x, %b : f32
      %r = arith.maximumf %s, %zero : f32
      linalg.yield %r : f32
    }} -> tensor<{m}x{n}xf32>
    return %out : tensor<{m}x{n}xf32>
  }}"""


FUSE_CHAIN = (
    match("%fill", "linalg.fill")
    + match("%mm", "linalg.matmul")
    + match("%ew", "linalg.generic")
    + "{tile}"
    + f"    %fm, %f1 = transform.structured.fuse_into_containing_op %mm into %forall : ({ANY}, {ANY}) -> ({ANY}, {ANY})\n"
    + f"    %ff, %f2 = transform.structured.fuse_into_containing_op %fill into %f1 : ({ANY}, {ANY}) -> ({ANY}, {ANY})\n"
)


# --- tile_using_for ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "tile, interchange",
    [
        ([8, 16, 4], None),
        ([8, 0, 16], None),
        ([0, 0, 16], None),
        ([64, 64, 64], None),  # tiles larger than every dimension
        ([8], None),  # trailing loops untiled
        ([0, 0, 0], None),  # nothing tiled: the op is cloned
        ([8, 16, 4], [2, 0, 1]),
        ([1, 53, 29], [1, 0]),
    ],
)
def test_tile_using_for_matmul(tile: list[int], interchange: list[int] | None) -> None:
    text = schedule_module(
        matmul(37, 53, 29), match("%mm", "linalg.matmul") + tile_for("%mm", tile, interchange)
    )
    ir = run_and_check(text, reduction=29)
    assert ir.count("scf.for") == sum(1 for t in tile if t)
    partial = any(t not in (0, 1) and size % t for t, size in zip(tile, (37, 53, 29), strict=False))
    assert ("affine.min" in ir) == partial


def test_tile_using_for_dividing_tiles_need_no_min() -> None:
    text = schedule_module(
        matmul(32, 48, 16), match("%mm", "linalg.matmul") + tile_for("%mm", [8, 16, 4])
    )
    ir = run_and_check(text, reduction=16)
    assert "affine.min" not in ir


def test_tile_using_for_dynamic_shapes() -> None:
    payload = """  func.func @dyn(%A: tensor<?x?xf32>, %B: tensor<?x?xf32>, %C: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %r = linalg.matmul ins(%A, %B : tensor<?x?xf32>, tensor<?x?xf32>) outs(%C : tensor<?x?xf32>) -> tensor<?x?xf32>
    return %r : tensor<?x?xf32>
  }"""
    text = schedule_module(payload, match("%mm", "linalg.matmul") + tile_for("%mm", [4, 0, 5]))
    ir = run_and_check(text, reduction=13, dynamic=13)
    assert "tensor.dim" in ir


def test_tile_using_for_convolution_windows() -> None:
    payload = """  func.func @conv(%I: tensor<1x13x11x3xf32>, %F: tensor<3x2x3x5xf32>, %O: tensor<1x6x10x5xf32>) -> tensor<1x6x10x5xf32> {
    %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
        ins(%I, %F : tensor<1x13x11x3xf32>, tensor<3x2x3x5xf32>) outs(%O : tensor<1x6x10x5xf32>) -> tensor<1x6x10x5xf32>
    return %r : tensor<1x6x10x5xf32>
  }"""
    schedule = match("%c", "linalg.conv_2d_nhwc_hwcf") + tile_for("%c", [0, 4, 3, 2, 2, 1, 2])
    run_and_check(schedule_module(payload, schedule), reduction=18)


def test_tile_using_for_index_semantics_and_broadcast() -> None:
    # linalg.index inside the tiled body must see global indices; the bias is broadcast.
    payload = """  func.func @idx(%A: tensor<19x23xf32>, %b: tensor<23xf32>) -> tensor<19x23xf32> {
    %init = tensor.empty() : tensor<19x23xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%A, %b : tensor<19x23xf32>, tensor<23xf32>) outs(%init : tensor<19x23xf32>) {
    ^bb0(%a: f32, %x: f32, %o: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %k = arith.addi %i, %j : index
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      %s = arith.addf %a, %x : f32
      %t = arith.addf %s, %kf : f32
      linalg.yield %t : f32
    } -> tensor<19x23xf32>
    return %r : tensor<19x23xf32>
  }"""
    schedule = match("%g", "linalg.generic") + tile_for("%g", [4, 7])
    run_and_check(schedule_module(payload, schedule))


def test_tile_using_for_reduction_dimension() -> None:
    payload = """  func.func @rowsum(%A: tensor<17x41xf32>, %acc: tensor<17xf32>) -> tensor<17xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
        ins(%A : tensor<17x41xf32>) outs(%acc : tensor<17xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.addf %a, %o : f32
      linalg.yield %s : f32
    } -> tensor<17xf32>
    return %r : tensor<17xf32>
  }"""
    schedule = match("%g", "linalg.generic") + tile_for("%g", [5, 8])
    run_and_check(schedule_module(payload, schedule), reduction=41)


# --- tile_using_forall -------------------------------------------------------------------


@pytest.mark.parametrize(
    "tile, threads",
    [
        ([8, 16], None),
        ([13, 0], None),
        ([40, 64], None),
        ([1, 16], None),
        (None, [3, 4]),
        (None, [3]),
        (None, [6, 0]),
        (None, [37, 53]),
        (None, [64, 1]),  # more threads than rows: the last threads get empty tiles
    ],
)
def test_tile_using_forall_matmul(tile: list[int] | None, threads: list[int] | None) -> None:
    text = schedule_module(
        matmul(37, 53, 29),
        match("%mm", "linalg.matmul") + tile_forall("%mm", tile=tile, threads=threads),
    )
    ir = run_and_check(text, reduction=29)
    assert ir.count("scf.forall ") == 1


def test_tile_using_forall_num_threads_guard() -> None:
    # 10 rows on 6 threads: tile 2, the last thread gets 0 rows through affine.max.
    payload = """  func.func @cp(%A: tensor<10x7xf32>, %C: tensor<10x7xf32>) -> tensor<10x7xf32> {
    %r = linalg.copy ins(%A : tensor<10x7xf32>) outs(%C : tensor<10x7xf32>) -> tensor<10x7xf32>
    return %r : tensor<10x7xf32>
  }"""
    ir = run_and_check(
        schedule_module(payload, match("%c", "linalg.copy") + tile_forall("%c", threads=[6]))
    )
    assert "affine.max" in ir


def test_tile_using_forall_softmax() -> None:
    payload = """  func.func @sm(%x: tensor<19x33xf32>) -> tensor<19x33xf32> {
    %init = tensor.empty() : tensor<19x33xf32>
    %y = linalg.softmax dimension(1) ins(%x : tensor<19x33xf32>) outs(%init : tensor<19x33xf32>) -> tensor<19x33xf32>
    return %y : tensor<19x33xf32>
  }"""
    ir = run_and_check(
        schedule_module(payload, match("%s", "linalg.softmax") + tile_forall("%s", tile=[4])),
        reduction=33,
    )
    assert "linalg.softmax" in ir


# --- fusion --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tile",
    [
        tile_forall("%ew", tile=[8, 16]),
        tile_forall("%ew", threads=[3, 5]),
        tile_forall("%ew", tile=[64, 0]),
    ],
)
def test_fuse_into_forall_matmul_bias_relu(tile: str) -> None:
    text = schedule_module(matmul_bias_relu(37, 53, 29), FUSE_CHAIN.replace("{tile}", tile))
    ir = run_and_check(text, reduction=29)
    body = ir[ir.index("scf.forall") :]
    assert "linalg.matmul" in body and "linalg.fill" in body


def test_fuse_into_for_then_tile_reduction() -> None:
    schedule = FUSE_CHAIN.replace("{tile}", tile_forall("%ew", tile=[16, 32])) + tile_for(
        "%fm", [0, 0, 8], prefix="k"
    )
    run_and_check(schedule_module(matmul_bias_relu(37, 53, 29), schedule), reduction=29)


def test_fuse_producer_used_after_the_forall() -> None:
    payload = """  func.func @two(%A: tensor<21x18xf32>, %D: tensor<21x18xf32>, %C: tensor<21x18xf32>) -> (tensor<21x18xf32>, tensor<21x18xf32>) {
    %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%A : tensor<21x18xf32>) outs(%D : tensor<21x18xf32>) {
    ^bb0(%a: f32, %o: f32):
      %n = arith.negf %a : f32
      linalg.yield %n : f32
    } -> tensor<21x18xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        ins(%A, %p : tensor<21x18xf32>, tensor<21x18xf32>) outs(%C : tensor<21x18xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.mulf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<21x18xf32>
    return %r, %p : tensor<21x18xf32>, tensor<21x18xf32>
  }"""
    schedule = (
        match("%g", "linalg.generic")
        + f"    %prod, %cons = transform.split_handle %g : ({ANY}) -> ({ANY}, {ANY})\n"
        + tile_forall("%cons", tile=[5, 7])
        + f"    %fp, %f1 = transform.structured.fuse_into_containing_op %prod into %forall : ({ANY}, {ANY}) -> ({ANY}, {ANY})\n"
    )
    ir = run_and_check(schedule_module(payload, schedule))
    assert ir.count("tensor.parallel_insert_slice") == 2


def test_structured_fuse() -> None:
    schedule = match("%ew", "linalg.generic") + (
        f"    %t, %l:2 = transform.structured.fuse %ew tile_sizes [8, 16] interchange [1, 0]"
        f" : ({ANY}) -> ({ANY}, {ANY}, {ANY})\n"
    )
    ir = run_and_check(schedule_module(matmul_bias_relu(37, 53, 29), schedule), reduction=29)
    assert ir.count("scf.for") == 2


def test_structured_fuse_use_forall() -> None:
    schedule = match("%ew", "linalg.generic") + (
        f"    %t, %l = transform.structured.fuse %ew tile_sizes [8, 16] use_forall"
        f" : ({ANY}) -> ({ANY}, {ANY})\n"
    )
    run_and_check(schedule_module(matmul_bias_relu(37, 53, 29), schedule), reduction=29)


def test_softmax_decomposed_and_fused_rows() -> None:
    """Schedule (c) at an odd size: decompose, tile the division by rows, fuse every
    producer (exp twice), then tile at thread level."""
    payload = """  func.func @softmax(%x: tensor<37x53xf32>) -> tensor<37x53xf32> {
    %init = tensor.empty() : tensor<37x53xf32>
    %y = linalg.softmax dimension(1) ins(%x : tensor<37x53xf32>) outs(%init : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %y : tensor<37x53xf32>
  }"""
    fuse = "    %{0}_b, %{2} = transform.structured.fuse_into_containing_op %{0} into %{1} : ({3}, {3}) -> ({3}, {3})\n"
    schedule = (
        match("%sm", "linalg.softmax")
        + f"    %d = transform.structured.decompose_interface %sm : ({ANY}) -> {ANY}\n"
        + f'    %ops = transform.structured.match ops{{["linalg.fill", "linalg.generic"]}} in %root : ({ANY}) -> {ANY}\n'
        + f"    %fill_max, %max, %exp, %fill_sum, %sum, %div = transform.split_handle %ops : ({ANY}) -> ({', '.join([ANY] * 6)})\n"
        + f"    %div_b, %f0 = transform.structured.tile_using_forall %div tile_sizes [8] : ({ANY}) -> ({ANY}, {ANY})\n"
        + fuse.format("sum", "f0", "f1", ANY)
        + fuse.format("fill_sum", "f1", "f2", ANY)
        + fuse.format("exp", "f2", "f3", ANY)
        + fuse.format("max", "f3", "f4", ANY)
        + fuse.format("fill_max", "f4", "f5", ANY)
        + f"    %par = transform.merge_handles %exp_b, %div_b : {ANY}\n"
        + f"    %pt, %pf = transform.structured.tile_using_forall %par tile_sizes [1, 16] : ({ANY}) -> ({ANY}, {ANY})\n"
        + f"    %red = transform.merge_handles %fill_max_b, %max_b, %fill_sum_b, %sum_b : {ANY}\n"
        + f"    %rt, %rf = transform.structured.tile_using_forall %red tile_sizes [1] : ({ANY}) -> ({ANY}, {ANY})\n"
    )
    ir = run_and_check(schedule_module(payload, schedule), reduction=53)
    # The decomposed exp stays (dead) outside; inside, exp was fused twice (for the sum and
    # for the division), and each copy was then tiled at thread level.
    assert ir.count("math.exp") == 3


CASES = Path(__file__).parents[2] / "differential" / "cases"


@pytest.mark.parametrize(
    "payload, schedule, reduction",
    [
        ("ref_a_matmul_bias_relu_tile_fuse.mlir", None, 512),
        ("ref_c_softmax_rows.mlir", None, 512),
        ("ref_e_two_matmuls.mlir", "ref_e_two_matmuls.schedule.mlir", 256),
        ("fuse_into_forall_user_before.mlir", None, 1),
        ("tile_for_named_ops_and_two_results.mlir", None, 17),
        ("tile_for_conv_windows.mlir", None, 18),
        ("fuse_into_two_uses_inside_one_after.mlir", None, 1),
        ("fuse_into_through_shared_out.mlir", None, 1),
        ("fuse_into_clone_untileable_and_chain.mlir", None, 1),
    ],
)
def test_reference_schedules(payload: str, schedule: str | None, reduction: int) -> None:
    """The reference schedules (a), (c), (e) with their canonicalization and CSE, and
    differential cases that compute something checkable."""
    library = CASES / schedule if schedule else None
    run_and_check(str(CASES / payload), reduction=reduction, schedule=library)


# --- properties -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    m: int
    n: int
    k: int
    tiles: tuple[int, int, int]


dims = st.integers(min_value=1, max_value=24)
tile_values = st.one_of(st.just(0), st.integers(min_value=1, max_value=30))


@st.composite
def problems(draw: st.DrawFn) -> Problem:
    m, n, k = draw(dims), draw(dims), draw(dims)
    tiles = (draw(tile_values), draw(tile_values), draw(tile_values))
    return Problem(m, n, k, tiles)


PROPERTY = settings(max_examples=12)


@pytest.mark.slow
@PROPERTY
@given(problems())
def test_property_tile_using_for(p: Problem) -> None:
    text = schedule_module(
        matmul(p.m, p.n, p.k), match("%mm", "linalg.matmul") + tile_for("%mm", list(p.tiles))
    )
    run_and_check(text, reduction=p.k)


@pytest.mark.slow
@PROPERTY
@given(problems(), st.booleans())
def test_property_tile_using_forall(p: Problem, by_threads: bool) -> None:
    parallel = [p.tiles[0], p.tiles[1]]
    spec = tile_forall("%mm", threads=parallel) if by_threads else tile_forall("%mm", tile=parallel)
    if not any(parallel):
        parallel = [1, 0]
        spec = tile_forall("%mm", tile=parallel)
    text = schedule_module(matmul(p.m, p.n, p.k), match("%mm", "linalg.matmul") + spec)
    run_and_check(text, reduction=p.k)


@pytest.mark.slow
@PROPERTY
@given(problems(), st.booleans())
def test_property_tile_and_fuse_chain(p: Problem, by_threads: bool) -> None:
    parallel = [p.tiles[0] or 1, p.tiles[1]]
    tile = tile_forall("%ew", threads=parallel) if by_threads else tile_forall("%ew", tile=parallel)
    schedule = FUSE_CHAIN.replace("{tile}", tile)
    if p.tiles[2]:
        schedule += tile_for("%fm", [0, 0, p.tiles[2]], prefix="k")
    run_and_check(schedule_module(matmul_bias_relu(p.m, p.n, p.k), schedule), reduction=p.k)


def test_helpers_reject_a_wrong_kernel() -> None:
    """The check itself can fail: a schedule that breaks the payload is caught."""
    text = schedule_module(matmul(5, 6, 7), match("%mm", "linalg.matmul") + tile_for("%mm", [2]))
    kernel = schedir.compile(text)
    inputs = reference.random_inputs(kernel.signature, seed=1)
    expected = reference.evaluate_with_bounds(text, None, inputs)
    right = np.asarray(kernel.run(*inputs, prefill_nan=True)[0])
    assert reference.compare(right, expected[0], np.float32).ok
    wrong = right.copy()
    wrong[4, 5] += 1.0
    assert not reference.compare(wrong, expected[0], np.float32).ok
