"""Structured rewrites (generalize, specialize, interchange, decompose_interface, pad,
split_reduction, tile_reduction_*) keep what the payload computes.

Each case builds a payload plus a schedule, compiles it for the CPU with
`schedir.compile` and compares the results with `schedir.reference.evaluate` on the
untransformed payload, at odd sizes: reductions whose tile sizes do not divide them,
subtracting combiners, pads to multiples that leave partial tiles. The property tests
draw shapes and sizes at random.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schedir
from tests.helpers import ANY, match, run_and_check, schedule_module


def matmul(m: int | str, n: int | str, k: int | str, element: str = "f32") -> str:
    a, b, c = f"{m}x{k}x{element}", f"{k}x{n}x{element}", f"{m}x{n}x{element}"
    return f"""  func.func @mm(%A: tensor<{a}>, %B: tensor<{b}>, %C: tensor<{c}>) -> tensor<{c}> {{
    %r = linalg.matmul ins(%A, %B : tensor<{a}>, tensor<{b}>) outs(%C : tensor<{c}>) -> tensor<{c}>
    return %r : tensor<{c}>
  }}"""


def row_reduction(m: int | str, n: int | str, combiner: str, init: str = "%O") -> str:
    """`out[i] = combiner(out[i], in[i, j])` over j (the accumulator is the left operand)."""
    return f"""  func.func @red(%I: tensor<{m}x{n}xf32>, %O: tensor<{m}xf32>) -> tensor<{m}xf32> {{
    %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}}
        ins(%I : tensor<{m}x{n}xf32>) outs({init} : tensor<{m}xf32>) {{
    ^bb0(%in: f32, %acc: f32):
      %v = {combiner} %acc, %in : f32
      linalg.yield %v : f32
    }} -> tensor<{m}xf32>
    return %r : tensor<{m}xf32>
  }}"""


# --- generalize / specialize / interchange / decompose_interface -----------------------


def test_generalize_mixed_precision_matmul() -> None:
    schedule = match("%m", "linalg.matmul") + (
        f"    %g = transform.structured.generalize %m : ({ANY}) -> {ANY}\n"
    )
    ir = run_and_check(schedule_module(matmul(7, 13, 11, "f16"), schedule), reduction=11)
    assert "linalg.generic" in ir and "linalg.matmul" not in ir


def test_generalize_then_specialize_is_the_identity() -> None:
    payload = """  func.func @f(%x: tensor<1x9x9x3xf32>, %w: tensor<3x3x3x5xf32>, %o: tensor<1x4x4x5xf32>, %a: tensor<5x7xf32>, %t: tensor<7x5xf32>) -> (tensor<1x4x4x5xf32>, tensor<7x5xf32>) {
    %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x9x9x3xf32>, tensor<3x3x3x5xf32>) outs(%o : tensor<1x4x4x5xf32>) -> tensor<1x4x4x5xf32>
    %1 = linalg.transpose ins(%a : tensor<5x7xf32>) outs(%t : tensor<7x5xf32>) permutation = [1, 0]
    return %0, %1 : tensor<1x4x4x5xf32>, tensor<7x5xf32>
  }"""
    schedule = (
        f"    %ops = transform.structured.match interface{{LinalgOp}} in %root : ({ANY}) -> {ANY}\n"
        f"    %g = transform.structured.generalize %ops : ({ANY}) -> {ANY}\n"
        f"    %s = transform.structured.specialize %g : ({ANY}) -> {ANY}\n"
    )
    ir = run_and_check(schedule_module(payload, schedule), reduction=27)
    assert "linalg.conv_2d_nhwc_hwcf" in ir and "linalg.transpose" in ir
    assert "linalg.generic" not in ir


def test_specialize_transposed_matmul() -> None:
    payload = """  func.func @f(%a: tensor<9x5xf32>, %b: tensor<11x5xf32>, %c: tensor<9x11xf32>) -> tensor<9x11xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<9x5xf32>, tensor<11x5xf32>) outs(%c : tensor<9x11xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %m = arith.mulf %x, %y : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<9x11xf32>
    return %0 : tensor<9x11xf32>
  }"""
    schedule = match("%g", "linalg.generic") + (
        f"    %s = transform.structured.specialize %g : ({ANY}) -> {ANY}\n"
    )
    ir = run_and_check(schedule_module(payload, schedule), reduction=5)
    assert "linalg.matmul indexing_maps" in ir


@pytest.mark.parametrize("permutation", [[1, 0, 2], [2, 0, 1], [0, 2, 1]])
def test_interchange_with_index_ops(permutation: list[int]) -> None:
    payload = """  func.func @f(%a: tensor<6x5xf32>, %b: tensor<5x7xf32>, %c: tensor<6x7xf32>) -> tensor<6x7xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<6x5xf32>, tensor<5x7xf32>) outs(%c : tensor<6x7xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %k = linalg.index 2 : index
      %ij = arith.muli %i, %j : index
      %ijk = arith.addi %ij, %k : index
      %n = arith.index_cast %ijk : index to i32
      %f = arith.sitofp %n : i32 to f32
      %m = arith.mulf %x, %y : f32
      %mf = arith.mulf %m, %f : f32
      %s = arith.addf %o, %mf : f32
      linalg.yield %s : f32
    } -> tensor<6x7xf32>
    return %0 : tensor<6x7xf32>
  }"""
    schedule = match("%g", "linalg.generic") + (
        f"    %i = transform.structured.interchange %g iterator_interchange = {permutation}"
        f" : ({ANY}) -> {ANY}\n"
    )
    run_and_check(schedule_module(payload, schedule), reduction=5)


@pytest.mark.parametrize("dim", [0, 1])
def test_decompose_softmax(dim: int) -> None:
    payload = """  func.func @sm(%x: tensor<13x17xf32>, %o: tensor<13x17xf32>) -> tensor<13x17xf32> {
    %y = linalg.softmax dimension(DIM) ins(%x : tensor<13x17xf32>) outs(%o : tensor<13x17xf32>) -> tensor<13x17xf32>
    return %y : tensor<13x17xf32>
  }""".replace("DIM", str(dim))
    schedule = match("%s", "linalg.softmax") + (
        f"    %d = transform.structured.decompose_interface %s : ({ANY}) -> {ANY}\n"
    )
    ir = run_and_check(schedule_module(payload, schedule), reduction=17)
    assert "linalg.softmax" not in ir and "math.exp" in ir


# --- pad ------------------------------------------------------------------------------


def pad(
    target: str, dims: list[int], multiples: list[int] | None, copy_back: str, nofold: str = ""
) -> str:
    to_multiple = f" pad_to_multiple_of {multiples}" if multiples else ""
    flags = f", nofold_flags = {nofold}" if nofold else ""
    return (
        f"    %padded, %pad, %copy = transform.structured.pad {target}{to_multiple}"
        f' <{{padding_dimensions = {dims}, copy_back_op = "{copy_back}"{flags}}}>'
        f" : ({ANY}) -> ({ANY}, {ANY}, {ANY})\n"
    )


@pytest.mark.parametrize("copy_back", ["linalg.copy", "none"])
@pytest.mark.parametrize(
    "dims, multiples",
    [([0, 1, 2], [16, 16, 8]), ([2], [4]), ([0, 1], None), ([1], [32])],
)
def test_pad_static_to_multiples(
    dims: list[int], multiples: list[int] | None, copy_back: str
) -> None:
    schedule = match("%m", "linalg.matmul") + pad("%m", dims, multiples, copy_back, "[1, 0, 0]")
    ir = run_and_check(schedule_module(matmul(23, 13, 11), schedule), reduction=11)
    assert "linalg.matmul" in ir


@pytest.mark.parametrize("tile, multiple", [(8, 8), (5, 4), (16, 1)])
def test_tile_then_pad_partial_tiles(tile: int, multiple: int) -> None:
    schedule = (
        match("%m", "linalg.matmul")
        + f"    %t, %l = transform.structured.tile_using_for %m tile_sizes [{tile}] : ({ANY}) -> ({ANY}, {ANY})\n"
        + pad("%t", [0, 1, 2], [multiple, 1, 1], "linalg.copy")
    )
    ir = run_and_check(schedule_module(matmul(37, 13, 11), schedule), reduction=11)
    padded = -(-tile // multiple) * multiple
    assert f"tensor<{padded}x11xf32>" in ir


def test_pad_with_prescribed_shapes_of_dynamic_sizes() -> None:
    schedule = (
        match("%m", "linalg.matmul")
        + f"    %t, %l = transform.structured.tile_using_for %m tile_sizes [8] : ({ANY}) -> ({ANY}, {ANY})\n"
        + f"    %p, %pd, %c = transform.structured.pad %t pad_to_multiple_of [4, 1, 1] use_prescribed_tensor_shapes"
        f' <{{padding_dimensions = [0, 1, 2], copy_back_op = "linalg.copy"}}> : ({ANY}) -> ({ANY}, {ANY}, {ANY})\n'
    )
    run_and_check(schedule_module(matmul("?", 13, 11), schedule), reduction=11, dynamic=21)


@settings(max_examples=12)
@given(
    m=st.integers(1, 29),
    n=st.integers(1, 17),
    k=st.integers(1, 13),
    tile=st.integers(1, 12),
    multiple=st.sampled_from([1, 2, 3, 8]),
)
def test_tile_then_pad_property(m: int, n: int, k: int, tile: int, multiple: int) -> None:
    schedule = (
        match("%m", "linalg.matmul")
        + f"    %t, %l = transform.structured.tile_using_for %m tile_sizes [{tile}] : ({ANY}) -> ({ANY}, {ANY})\n"
        + pad("%t", [0, 1, 2], [multiple, multiple, multiple], "linalg.copy")
    )
    run_and_check(schedule_module(matmul(m, n, k), schedule), reduction=k)


def test_unsupported_elementwise_specialization_is_a_definite_failure() -> None:
    """Upstream builds `linalg.elementwise`, which schedir lacks: a definite error that
    names it (the op must not silently stay generic)."""
    payload = """  func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
    %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%c : tensor<4xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.subf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }"""
    text = schedule_module(
        payload,
        match("%g", "linalg.generic")
        + "    transform.sequence %root : !transform.any_op failures(suppress) {\n"
        + "    ^bb0(%r: !transform.any_op):\n"
        + f"      %s = transform.structured.specialize %g : ({ANY}) -> {ANY}\n"
        + "    }\n",
    )
    with pytest.raises(schedir.TransformError) as info:
        schedir.compile(text)
    assert not info.value.silenceable
    assert "category op linalg.elementwise <sub>" in info.value.message


# --- split_reduction -----------------------------------------------------------------------


def split(target: str, factor: int, insert: int, *flags: str) -> str:
    extra = "".join(f", {f}" for f in flags)
    return (
        f"    %i, %f, %s, %c = transform.structured.split_reduction {target}"
        f" <{{split_factor = {factor}, insert_split_dimension = {insert}{extra}}}>"
        f" : ({ANY}) -> ({ANY}, {ANY}, {ANY}, {ANY})\n"
    )


@pytest.mark.parametrize(
    "insert, flags",
    [
        (0, ()),
        (1, ()),
        (2, ()),
        (1, ("inner_parallel",)),
        (2, ("use_scaling_algorithm",)),
        (0, ("use_alloc",)),
    ],
)
def test_split_reduction_matmul(insert: int, flags: tuple[str, ...]) -> None:
    schedule = match("%m", "linalg.matmul") + split("%m", 4, insert, *flags)
    ir = run_and_check(schedule_module(matmul(7, 5, 36), schedule), reduction=36)
    assert "linalg.matmul" not in ir


@pytest.mark.parametrize(
    "combiner", ["arith.addf", "arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf"]
)
def test_split_reduction_neutral_elements(combiner: str) -> None:
    schedule = match("%g", "linalg.generic") + split("%g", 3, 1)
    run_and_check(schedule_module(row_reduction(5, 21, combiner), schedule), reduction=21)


@settings(max_examples=15)
@given(
    m=st.integers(1, 9),
    chunks=st.integers(1, 7),
    factor=st.integers(2, 5),
    insert=st.integers(0, 1),
    variant=st.sampled_from(["", "inner_parallel", "use_scaling_algorithm"]),
    combiner=st.sampled_from(["arith.addf", "arith.maximumf", "arith.mulf"]),
)
def test_split_reduction_property(
    m: int, chunks: int, factor: int, insert: int, variant: str, combiner: str
) -> None:
    n = chunks * factor
    if variant == "use_scaling_algorithm":
        insert = 1  # the scaling algorithm inserts at the reduction dim
    schedule = match("%g", "linalg.generic") + split(
        "%g", factor, insert, *([variant] if variant else [])
    )
    run_and_check(schedule_module(row_reduction(m, n, combiner), schedule), reduction=n)


def indexed_reduction(m: int | str, n: int | str, combiner: str) -> str:
    """`out[i] = combiner(out[i], in[i, j] + 3 * i + j)` over j: the body reads both loop
    indices (`linalg.index`), which a split must recompute from the new loops."""
    t_in, t_out = f"tensor<{m}x{n}xf32>", f"tensor<{m}xf32>"
    return f"""  func.func @red(%I: {t_in}, %O: {t_out}) -> {t_out} {{
    %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}}
        ins(%I : {t_in}) outs(%O : {t_out}) {{
    ^bb0(%in: f32, %acc: f32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %c3 = arith.constant 3 : index
      %i3 = arith.muli %i, %c3 : index
      %ij = arith.addi %i3, %j : index
      %w = arith.index_cast %ij : index to i32
      %f = arith.sitofp %w : i32 to f32
      %x = arith.addf %in, %f : f32
      %v = {combiner} %acc, %x : f32
      linalg.yield %v : f32
    }} -> {t_out}
    return %r : {t_out}
  }}"""


@pytest.mark.parametrize("variant", ["", "inner_parallel", "use_scaling_algorithm"])
@pytest.mark.parametrize("combiner", ["arith.addf", "arith.maximumf"])
def test_split_reduction_index_semantics(variant: str, combiner: str) -> None:
    """`linalg.index` of the reduced loop becomes `outer * scale + inner` of the two new
    loops and later loops shift by one; each variant at odd parallel sizes."""
    schedule = match("%g", "linalg.generic") + split("%g", 3, 1, *([variant] if variant else []))
    ir = run_and_check(schedule_module(indexed_reduction(7, 15, combiner), schedule), reduction=15)
    assert "affine.apply" in ir


@pytest.mark.parametrize(
    "insert, flags",
    [(1, ()), (2, ("use_scaling_algorithm",)), (2, ("use_scaling_algorithm", "use_alloc"))],
)
def test_split_reduction_dynamic_parallel_dims(insert: int, flags: tuple[str, ...]) -> None:
    """A dynamic parallel size: the partials' tensor takes it from the init (`tensor.dim`),
    as do the expanded inputs; run at an odd size."""
    schedule = match("%m", "linalg.matmul") + split("%m", 4, insert, *flags)
    payload = """  func.func @mm(%A: tensor<?x36xf32>, %B: tensor<36x5xf32>, %C: tensor<?x5xf32>) -> tensor<?x5xf32> {
    %r = linalg.matmul ins(%A, %B : tensor<?x36xf32>, tensor<36x5xf32>) outs(%C : tensor<?x5xf32>) -> tensor<?x5xf32>
    return %r : tensor<?x5xf32>
  }"""
    ir = run_and_check(schedule_module(payload, schedule), dynamic=7, reduction=36)
    assert "tensor.dim %C" in ir


# --- tile_reduction_using_for / _forall ----------------------------------------------------


def tile_reduction_for(target: str, sizes: list[int]) -> str:
    return (
        f"    %fill, %part, %comb, %loop = transform.structured.tile_reduction_using_for {target}"
        f" by tile_sizes = {sizes} : ({ANY}) -> ({ANY}, {ANY}, {ANY}, {ANY})\n"
    )


def tile_reduction_forall(
    target: str, *, threads: list[int] | None = None, sizes: list[int] | None = None
) -> str:
    spec = f"num_threads = {threads}" if threads else f"tile_sizes = {sizes}"
    return (
        f"    %fill, %part, %comb, %loop = transform.structured.tile_reduction_using_forall {target}"
        f" by {spec} : ({ANY}) -> ({ANY}, {ANY}, {ANY}, {ANY})\n"
    )


def test_tile_reduction_subtracting_combiner() -> None:
    """Upstream's test-tile-reduction-subf.mlir: `acc - x` tiled by 3 on 8 gives the
    negated row sums; merging the partials with the combiner itself would not."""
    payload = """  func.func @main(%input: tensor<2x8xf32>) -> tensor<2xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %empty = tensor.empty() : tensor<2xf32>
    %init = linalg.fill ins(%cst : f32) outs(%empty : tensor<2xf32>) -> tensor<2xf32>
    %res = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
        ins(%input : tensor<2x8xf32>) outs(%init : tensor<2xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %sub = arith.subf %acc, %in : f32
      linalg.yield %sub : f32
    } -> tensor<2xf32>
    return %res : tensor<2xf32>
  }"""
    text = schedule_module(
        payload, match("%g", "linalg.generic") + tile_reduction_for("%g", [0, 3])
    )
    kernel = schedir.compile(text)
    data = np.array([[1, 2, 3, 4, 5, 6, 7, 8], [10, 20, 30, 40, 50, 60, 70, 80]], np.float32)
    (result,) = kernel.run(data)
    assert result.tolist() == [-36.0, -360.0]
    run_and_check(text, reduction=8)


@pytest.mark.parametrize(
    "combiner", ["arith.addf", "arith.subf", "arith.maximumf", "arith.minnumf"]
)
@pytest.mark.parametrize(
    "schedule",
    [
        lambda: tile_reduction_for("%g", [0, 5]),
        lambda: tile_reduction_for("%g", [0, 17]),
        lambda: tile_reduction_forall("%g", threads=[0, 4]),
        lambda: tile_reduction_forall("%g", threads=[0, 7]),
        lambda: tile_reduction_forall("%g", sizes=[0, 6]),
    ],
    ids=["for5", "for17", "threads4", "threads7", "forall_sizes6"],
)
def test_tile_reduction_combiners(combiner: str, schedule) -> None:  # type: ignore[no-untyped-def]
    text = schedule_module(
        row_reduction(5, 23, combiner), match("%g", "linalg.generic") + schedule()
    )
    ir = run_and_check(text, reduction=23)
    assert "linalg.reduce" in ir


def test_tile_reduction_matmul_k_and_two_reduction_loops() -> None:
    run_and_check(
        schedule_module(
            matmul(6, 7, 23), match("%m", "linalg.matmul") + tile_reduction_for("%m", [0, 0, 5])
        ),
        reduction=23,
    )
    payload = """  func.func @r(%I: tensor<4x11x9xf32>, %O: tensor<4xf32>) -> tensor<4xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]}
        ins(%I : tensor<4x11x9xf32>) outs(%O : tensor<4xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %v = arith.addf %acc, %in : f32
      linalg.yield %v : f32
    } -> tensor<4xf32>
    return %r : tensor<4xf32>
  }"""
    for sizes in ([0, 4, 2], [0, 4], [0, 0, 4]):
        run_and_check(
            schedule_module(
                payload, match("%g", "linalg.generic") + tile_reduction_for("%g", sizes)
            ),
            reduction=99,
        )
    run_and_check(
        schedule_module(
            payload, match("%g", "linalg.generic") + tile_reduction_forall("%g", threads=[0, 3, 2])
        ),
        reduction=99,
    )


def test_tile_reduction_dynamic_sizes() -> None:
    text = schedule_module(
        row_reduction("?", "?", "arith.addf"),
        match("%g", "linalg.generic") + tile_reduction_for("%g", [0, 4]),
    )
    run_and_check(text, reduction=64, dynamic=13)
    text = schedule_module(
        row_reduction("?", "?", "arith.addf"),
        match("%g", "linalg.generic") + tile_reduction_forall("%g", threads=[0, 5]),
    )
    run_and_check(text, reduction=64, dynamic=13)


@settings(max_examples=15)
@given(
    m=st.integers(1, 7),
    n=st.integers(1, 31),
    tile=st.integers(1, 12),
    loop=st.sampled_from(["for", "threads", "forall_sizes"]),
    combiner=st.sampled_from(["arith.addf", "arith.subf", "arith.maximumf"]),
)
def test_tile_reduction_property(m: int, n: int, tile: int, loop: str, combiner: str) -> None:
    if loop == "for":
        schedule = tile_reduction_for("%g", [0, tile])
    elif loop == "threads":
        schedule = tile_reduction_forall("%g", threads=[0, tile])
    else:
        schedule = tile_reduction_forall("%g", sizes=[0, tile])
    run_and_check(
        schedule_module(row_reduction(m, n, combiner), match("%g", "linalg.generic") + schedule),
        reduction=n,
    )


# --- schedule (c) at odd sizes ---------------------------------------------------------------


def test_schedule_c_softmax_rows_at_odd_sizes() -> None:
    """Reference schedule (c) (decompose_interface, block-level forall + fusion of every
    producer, thread-level foralls, canonicalize + CSE) on a 37x53 softmax: partial row
    blocks and partial thread tiles."""
    payload = """  func.func @softmax(%x: tensor<37x53xf32>) -> tensor<37x53xf32> {
    %init = tensor.empty() : tensor<37x53xf32>
    %y = linalg.softmax dimension(1) ins(%x : tensor<37x53xf32>) outs(%init : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %y : tensor<37x53xf32>
  }"""
    pair = f"({ANY}, {ANY}) -> ({ANY}, {ANY})"
    schedule = (
        match("%sm", "linalg.softmax")
        + f"    %d = transform.structured.decompose_interface %sm : ({ANY}) -> {ANY}\n"
        + f'    %ops = transform.structured.match ops{{["linalg.fill", "linalg.generic"]}} in %root : ({ANY}) -> {ANY}\n'
        + f"    %fill_max, %max, %exp, %fill_sum, %sum, %div = transform.split_handle %ops : ({ANY}) -> ({', '.join([ANY] * 6)})\n"
        + f"    %div_b, %forall = transform.structured.tile_using_forall %div tile_sizes [8] (mapping = [#gpu.block<x>]) : ({ANY}) -> ({ANY}, {ANY})\n"
        + f"    %sum_b, %f1 = transform.structured.fuse_into_containing_op %sum into %forall : {pair}\n"
        + f"    %fill_sum_b, %f2 = transform.structured.fuse_into_containing_op %fill_sum into %f1 : {pair}\n"
        + f"    %exp_b, %f3 = transform.structured.fuse_into_containing_op %exp into %f2 : {pair}\n"
        + f"    %max_b, %f4 = transform.structured.fuse_into_containing_op %max into %f3 : {pair}\n"
        + f"    %fill_max_b, %f5 = transform.structured.fuse_into_containing_op %fill_max into %f4 : {pair}\n"
        + f"    %par = transform.merge_handles %exp_b, %div_b : {ANY}\n"
        + f"    %par_t, %par_forall = transform.structured.tile_using_forall %par tile_sizes [1, 16] (mapping = [#gpu.thread<y>, #gpu.thread<x>]) : ({ANY}) -> ({ANY}, {ANY})\n"
        + f"    %red = transform.merge_handles %fill_max_b, %max_b, %fill_sum_b, %sum_b : {ANY}\n"
        + f"    %red_t, %red_forall = transform.structured.tile_using_forall %red tile_sizes [1] (mapping = [#gpu.thread<y>]) : ({ANY}) -> ({ANY}, {ANY})\n"
        + match("%func", "func.func")
        + "    transform.apply_patterns to %func {\n"
        + "      transform.apply_patterns.canonicalization\n"
        + "      transform.apply_patterns.linalg.tiling_canonicalization\n"
        + f"    }} : {ANY}\n"
        + f"    transform.apply_cse to %func : {ANY}\n"
    )
    ir = run_and_check(schedule_module(payload, schedule), reduction=53)
    assert "linalg.softmax" not in ir and "scf.forall" in ir
