"""Tiling or fusing through a dimension a tile must cover whole (the softmax dimension).

Fusing a `linalg.softmax` into a loop that tiles its softmax dimension computes the whole
dimension in each iteration and slices the asked-for part (upstream does the same), so the
result is right; tiling the softmax itself along that dimension (tile_using_for,
tile_using_forall by sizes or threads, structured.fuse of the softmax) fails silenceably at
the transform op, where upstream silently computes a softmax per tile. Reduction loops of
structured ops (a row sum, matmul's k, the filter loops of a convolution) tile correctly by
accumulation. Every accepted case is compared with the reference on odd sizes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.differential.harness import run_schedir
from tests.helpers import ANY, match, run_and_check, schedule_module

SOFTMAX = """    %e = tensor.empty() : tensor<11x7xf32>
    %p = linalg.softmax dimension({dim}) ins(%a : tensor<11x7xf32>) outs(%e : tensor<11x7xf32>) -> tensor<11x7xf32>"""
CONSUMER = """    %e2 = tensor.empty() : tensor<11x7xf32>
    %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}} ins(%p : tensor<11x7xf32>) outs(%e2 : tensor<11x7xf32>) {{
    ^bb0(%x: f32, %y: f32):
      %q = arith.mulf %x, %x : f32
      linalg.yield %q : f32
    }} -> tensor<11x7xf32>"""


def _module(dim: int, consumer: bool, schedule: str) -> str:
    body = SOFTMAX.format(dim=dim) + ("\n" + CONSUMER.format() if consumer else "")
    result = "%r" if consumer else "%p"
    payload = f"""  func.func @f(%a: tensor<11x7xf32>) -> tensor<11x7xf32> {{
{body}
    return {result} : tensor<11x7xf32>
  }}"""
    return schedule_module(payload, schedule)


def _sizes(dim: int, tiled: int) -> str:
    sizes = ["0", "0"]
    sizes[tiled] = "4"
    return "[" + ", ".join(sizes) + "]"


def _direct(mode: str, tiled: int) -> str:
    sizes = _sizes(0, tiled)
    head = match("%s", "linalg.softmax")
    if mode == "for":
        return (
            head
            + f"    %t, %l = transform.structured.tile_using_for %s tile_sizes {sizes} : ({ANY}) -> ({ANY}, {ANY})\n"
        )
    if mode == "forall_sizes":
        return (
            head
            + f"    %t, %l = transform.structured.tile_using_forall %s tile_sizes {sizes} : ({ANY}) -> ({ANY}, {ANY})\n"
        )
    if mode == "forall_threads":
        threads = sizes.replace("4", "3")
        return (
            head
            + f"    %t, %l = transform.structured.tile_using_forall %s num_threads {threads} : ({ANY}) -> ({ANY}, {ANY})\n"
        )
    return (
        head
        + f"    %t, %l = transform.structured.fuse %s tile_sizes {sizes} : ({ANY}) -> ({ANY}, {ANY})\n"
    )


def _fusion(mode: str, tiled: int) -> str:
    sizes = _sizes(0, tiled)
    head = match("%g", "linalg.generic") + match("%s", "linalg.softmax")
    if mode == "into_for":
        return head + (
            f"    %t, %l = transform.structured.tile_using_for %g tile_sizes {sizes} : ({ANY}) -> ({ANY}, {ANY})\n"
            f"    %f, %n = transform.structured.fuse_into_containing_op %s into %l : ({ANY}, {ANY}) -> ({ANY}, {ANY})\n"
        )
    if mode == "into_forall":
        return head + (
            f"    %t, %l = transform.structured.tile_using_forall %g tile_sizes {sizes} : ({ANY}) -> ({ANY}, {ANY})\n"
            f"    %f, %n = transform.structured.fuse_into_containing_op %s into %l : ({ANY}, {ANY}) -> ({ANY}, {ANY})\n"
        )
    return (
        head
        + f"    %t, %l = transform.structured.fuse %g tile_sizes {sizes} : ({ANY}) -> ({ANY}, {ANY})\n"
    )


@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("tiled", [0, 1])
@pytest.mark.parametrize("mode", ["into_for", "into_forall", "structured_fuse"])
def test_fused_softmax_is_computed_whole(dim: int, tiled: int, mode: str) -> None:
    run_and_check(_module(dim, True, _fusion(mode, tiled)), reduction=7 if dim else 11)


@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("mode", ["for", "forall_sizes", "forall_threads", "structured_fuse"])
def test_tiling_the_softmax_dimension_fails_silenceably(
    dim: int, mode: str, tmp_path: Path
) -> None:
    text = _module(dim, False, _direct(mode, dim))
    case = tmp_path / "case.mlir"
    case.write_text(text)
    outcome = run_schedir(case, None)
    assert not outcome.ok
    assert f"error: cannot tile dimension {dim} of 'linalg.softmax'" in outcome.message
    assert "note: target op" in outcome.message
    assert outcome.error_line == len(text.splitlines()) - 3
    suppressed = text.replace(
        f"transform.named_sequence @__transform_main(%root: {ANY} {{transform.readonly}}) {{\n",
        f"transform.named_sequence @__transform_main(%root: {ANY} {{transform.readonly}}) {{\n"
        f"    transform.sequence %root : {ANY} failures(suppress) {{\n    ^bb0(%root2: {ANY}):\n",
    ).replace(
        "    transform.yield\n  }\n}", "      transform.yield\n    }\n    transform.yield\n  }\n}"
    )
    run_and_check(suppressed.replace("in %root :", "in %root2 :"), reduction=7 if dim else 11)


@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("mode", ["for", "forall_sizes"])
def test_tiling_the_other_dimension_of_a_softmax(dim: int, mode: str) -> None:
    run_and_check(_module(dim, False, _direct(mode, 1 - dim)), reduction=7 if dim else 11)


ROWSUM = """  func.func @f(%a: tensor<11x7xf32>) -> tensor<11xf32> {
    %e = tensor.empty() : tensor<11xf32>
    %z = arith.constant 0.0 : f32
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<11xf32>) -> tensor<11xf32>
    %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<11x7xf32>) outs(%f : tensor<11xf32>) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<11xf32>
    return %p : tensor<11xf32>
  }"""
MATMUL = """  func.func @f(%a: tensor<11x7xf32>, %b: tensor<7x6xf32>, %c: tensor<11x6xf32>) -> tensor<11x6xf32> {
    %p = linalg.matmul ins(%a, %b : tensor<11x7xf32>, tensor<7x6xf32>) outs(%c : tensor<11x6xf32>) -> tensor<11x6xf32>
    return %p : tensor<11x6xf32>
  }"""
CONV = """  func.func @f(%i: tensor<1x10x7x3xf32>, %k: tensor<3x3x3x4xf32>, %c: tensor<1x8x5x4xf32>) -> tensor<1x8x5x4xf32> {
    %p = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %k : tensor<1x10x7x3xf32>, tensor<3x3x3x4xf32>) outs(%c : tensor<1x8x5x4xf32>) -> tensor<1x8x5x4xf32>
    return %p : tensor<1x8x5x4xf32>
  }"""


@pytest.mark.parametrize(
    ("payload", "op", "sizes", "reduction"),
    [
        (ROWSUM, "linalg.generic", "[0, 3]", 7),
        (MATMUL, "linalg.matmul", "[0, 0, 3]", 7),
        (CONV, "linalg.conv_2d_nhwc_hwcf", "[0, 0, 0, 0, 2, 0, 0]", 27),
        (CONV, "linalg.conv_2d_nhwc_hwcf", "[0, 0, 0, 0, 0, 2, 2]", 27),
    ],
)
def test_reduction_loops_tile_by_accumulation(
    payload: str, op: str, sizes: str, reduction: int
) -> None:
    loops = sizes.count("2") + sizes.count("3")
    results = ", ".join([ANY] * (loops + 1))
    names = ", ".join(["%t"] + [f"%l{i}" for i in range(loops)])
    schedule = match("%m", op) + (
        f"    {names} = transform.structured.tile_using_for %m tile_sizes {sizes} : ({ANY}) -> ({results})\n"
    )
    run_and_check(schedule_module(payload, schedule), reduction=reduction)
