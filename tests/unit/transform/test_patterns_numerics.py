"""Clean-up transforms keep the payload's results: apply_patterns (canonicalization,
tiling canonicalization, loop canonicalization, subset folding), CSE, DCE, LICM and
loop-invariant subset hoisting, after tiling and fusion.

Each case compiles the transformed payload for the CPU with `schedir.compile` and
compares with `schedir.reference.evaluate` on the untransformed payload, at odd sizes
(partial tiles, dynamic shapes); structure assertions check the clean-up happened. The
property test draws shapes and tile sizes.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import ANY, match, run_and_check, schedule_module


def matmul_bias_relu(m: int | str, n: int | str, k: int | str) -> str:
    def dim(v: int | str) -> str:
        return "?" if v == "?" else str(v)

    a, b, c = (
        f"tensor<{dim(m)}x{dim(k)}xf32>",
        f"tensor<{dim(k)}x{dim(n)}xf32>",
        f"tensor<{dim(m)}x{dim(n)}xf32>",
    )
    bias = f"tensor<{dim(n)}xf32>"
    return f"""  func.func @mbr(%A: {a}, %B: {b}, %bias: {bias}, %C: {c}) -> {c} {{
    %zero = arith.constant 0.0 : f32
    %fill = linalg.fill ins(%zero : f32) outs(%C : {c}) -> {c}
    %mm = linalg.matmul ins(%A, %B : {a}, {b}) outs(%fill : {c}) -> {c}
    %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%mm, %bias : {c}, {bias}) outs(%C : {c}) {{
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      %t = arith.maximumf %s, %zero : f32
      linalg.yield %t : f32
    }} -> {c}
    return %r : {c}
  }}"""


PATTERNS = (
    match("%func", "func.func") + "    transform.apply_patterns to %func {\n"
    "      transform.apply_patterns.canonicalization\n"
    "      transform.apply_patterns.linalg.tiling_canonicalization\n"
    "      transform.apply_patterns.scf.for_loop_canonicalization\n"
    "      transform.apply_patterns.tensor.fold_tensor_subset_ops\n"
    f"    }} apply_cse : {ANY}\n"
)


def tile_and_fuse(forall_tiles: str, k_tile: int) -> str:
    return (
        match("%fill", "linalg.fill")
        + match("%mm", "linalg.matmul")
        + match("%ew", "linalg.generic")
        + f"    %tew, %fa = transform.structured.tile_using_forall %ew tile_sizes {forall_tiles}"
        f" : ({ANY}) -> ({ANY}, {ANY})\n"
        f"    %fmm, %fa1 = transform.structured.fuse_into_containing_op %mm into %fa"
        f" : ({ANY}, {ANY}) -> ({ANY}, {ANY})\n"
        f"    %ffill, %fa2 = transform.structured.fuse_into_containing_op %fill into %fa1"
        f" : ({ANY}, {ANY}) -> ({ANY}, {ANY})\n"
        f"    %tmm, %kl = transform.structured.tile_using_for %fmm tile_sizes [0, 0, {k_tile}]"
        f" : ({ANY}) -> ({ANY}, {ANY})\n"
    )


@pytest.mark.parametrize(("m", "n", "k"), [(64, 32, 48), (37, 53, 29)])
def test_tile_fuse_then_cleanup(m: int, n: int, k: int) -> None:
    schedule = tile_and_fuse("[16, 8]", 5) + PATTERNS
    scheduled = run_and_check(schedule_module(matmul_bias_relu(m, n, k), schedule), reduction=k)
    # The untiled originals are dead and gone; one fused fill, matmul and epilogue remain.
    assert scheduled.count("linalg.matmul") == 1
    assert scheduled.count("linalg.fill") == 1


def test_cleanup_then_hoist_then_licm() -> None:
    """The k loop's accumulator slice is hoisted into an iter_arg; LICM moves what is
    invariant; the result is unchanged."""
    schedule = (
        match("%mm", "linalg.matmul")
        + f"    %t, %l0, %l1, %l2 = transform.structured.tile_using_for %mm tile_sizes [8, 16, 4]"
        f" : ({ANY}) -> ({ANY}, {ANY}, {ANY}, {ANY})\n"
        + PATTERNS
        + match("%loops", "scf.for")
        + f"    transform.loop.hoist_loop_invariant_subsets %loops : {ANY}\n"
        + f"    transform.apply_licm to %loops : {ANY}\n"
        + PATTERNS.replace("%func", "%func2")
    )
    payload = matmul_bias_relu(32, 48, 36)
    scheduled = run_and_check(schedule_module(payload, schedule), reduction=36)
    assert "iter_args" in scheduled


@pytest.mark.parametrize("dynamic", [13, 40])
def test_dynamic_shapes_tiled_and_cleaned(dynamic: int) -> None:
    schedule = (
        match("%mm", "linalg.matmul")
        + f"    %t, %l0, %l1 = transform.structured.tile_using_for %mm tile_sizes [8, 16]"
        f" : ({ANY}) -> ({ANY}, {ANY}, {ANY})\n"
        + PATTERNS
        + match("%func2", "func.func")
        + f"    transform.apply_dce to %func2 : {ANY}\n"
    )
    run_and_check(
        schedule_module(matmul_bias_relu("?", "?", "?"), schedule),
        reduction=dynamic,
        dynamic=dynamic,
    )


def test_registered_canonicalize_and_cse_passes() -> None:
    """The `canonicalize` and `cse` passes run from the schedule."""
    schedule = (
        tile_and_fuse("[8, 16]", 4)
        + match("%func", "func.func")
        + f'    %f1 = transform.apply_registered_pass "canonicalize" to %func : ({ANY}) -> {ANY}\n'
        + f'    %f2 = transform.apply_registered_pass "cse" to %f1 : ({ANY}) -> {ANY}\n'
    )
    scheduled = run_and_check(schedule_module(matmul_bias_relu(24, 40, 20), schedule), reduction=20)
    assert scheduled.count("linalg.matmul") == 1


SOFTMAX = """  func.func @softmax(%x: tensor<24x40xf32>) -> tensor<24x40xf32> {
    %init = tensor.empty() : tensor<24x40xf32>
    %y = linalg.softmax dimension(1) ins(%x : tensor<24x40xf32>) outs(%init : tensor<24x40xf32>) -> tensor<24x40xf32>
    return %y : tensor<24x40xf32>
  }"""


def _fuse(producer: str, into: str, out: str) -> str:
    return (
        f"    %{producer}_b, %{out} = transform.structured.fuse_into_containing_op %{producer}"
        f" into %{into} : ({ANY}, {ANY}) -> ({ANY}, {ANY})\n"
    )


def test_softmax_decomposed_fused_and_cleaned() -> None:
    """Schedule (c) of the transform inventory at 24x40: decompose, fuse every producer
    into a row forall (exp and max are fused twice), thread-level tiles, canonicalize and
    CSE, which merges the duplicated copies as upstream does (6 inner foralls)."""
    schedule = (
        match("%sm", "linalg.softmax")
        + f"    %d = transform.structured.decompose_interface %sm : ({ANY}) -> {ANY}\n"
        + f'    %ops = transform.structured.match ops{{["linalg.fill", "linalg.generic"]}} in %root : ({ANY}) -> {ANY}\n'
        + f"    %fill_max, %max, %exp, %fill_sum, %sum, %div = transform.split_handle %ops : ({ANY})"
        f" -> ({ANY}, {ANY}, {ANY}, {ANY}, {ANY}, {ANY})\n"
        + f"    %div_b, %fa = transform.structured.tile_using_forall %div tile_sizes [8] : ({ANY}) -> ({ANY}, {ANY})\n"
        + _fuse("sum", "fa", "f1")
        + _fuse("fill_sum", "f1", "f2")
        + _fuse("exp", "f2", "f3")
        + _fuse("max", "f3", "f4")
        + _fuse("fill_max", "f4", "f5")
        + f"    %par = transform.merge_handles %exp_b, %div_b : {ANY}\n"
        + f"    %par_t, %par_fa = transform.structured.tile_using_forall %par tile_sizes [1, 8] : ({ANY}) -> ({ANY}, {ANY})\n"
        + f"    %red = transform.merge_handles %fill_max_b, %max_b, %fill_sum_b, %sum_b : {ANY}\n"
        + f"    %red_t, %red_fa = transform.structured.tile_using_forall %red tile_sizes [1] : ({ANY}) -> ({ANY}, {ANY})\n"
        + match("%func", "func.func")
        + "    transform.apply_patterns to %func {\n"
        "      transform.apply_patterns.canonicalization\n"
        "      transform.apply_patterns.linalg.tiling_canonicalization\n"
        f"    }} : {ANY}\n" + f"    transform.apply_cse to %func : {ANY}\n"
    )
    scheduled = run_and_check(schedule_module(SOFTMAX, schedule), reduction=40)
    assert scheduled.count("scf.forall (") == 7


@settings(max_examples=8)
@given(
    m=st.integers(min_value=1, max_value=33),
    n=st.integers(min_value=1, max_value=33),
    k=st.integers(min_value=1, max_value=21),
    tm=st.integers(min_value=1, max_value=12),
    tn=st.integers(min_value=1, max_value=12),
    tk=st.integers(min_value=1, max_value=9),
)
def test_property_tile_fuse_cleanup(m: int, n: int, k: int, tm: int, tn: int, tk: int) -> None:
    schedule = tile_and_fuse(f"[{tm}, {tn}]", tk) + PATTERNS
    run_and_check(schedule_module(matmul_bias_relu(m, n, k), schedule), reduction=k, seed=m * 7 + n)
