"""Tiled `tensor.pad` ops compute what the untiled pad computes.

`tensor.pad` implements the TilingInterface as upstream's (a tile of a pad is a pad of a
slice of its source, or a `tensor.generate` of the padding value when the tile lies in
the padding only). Each case tiles a pad (tile_using_for, tile_using_forall, or fused
into a consumer's loop), compiles it for the CPU and compares with `schedir.reference` on
the untransformed payload. Shapes, paddings and tile sizes are drawn at random, so tiles
fall wholly in the low padding, straddle the source, and lie wholly in the high padding.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import ANY, match, run_and_check, schedule_module


def pad_payload(
    src: list[int], low: list[int], high: list[int], *, dynamic_dim: int | None = None
) -> str:
    """`func.func @f(%a, %c) -> pad(%a, low, high, %c)`, source dim `dynamic_dim` dynamic."""
    src_dims = ["?" if d == dynamic_dim else str(s) for d, s in enumerate(src)]
    res_dims = [
        "?" if d == dynamic_dim else str(s + lo + hi)
        for d, (s, lo, hi) in enumerate(zip(src, low, high, strict=True))
    ]
    src_t = f"tensor<{'x'.join(src_dims)}xf32>"
    res_t = f"tensor<{'x'.join(res_dims)}xf32>"
    args = ", ".join(f"%i{d}: index" for d in range(len(src)))
    return f"""  func.func @f(%a: {src_t}, %c: f32) -> {res_t} {{
    %p = tensor.pad %a low[{", ".join(map(str, low))}] high[{", ".join(map(str, high))}] {{
    ^bb0({args}):
      tensor.yield %c : f32
    }} : {src_t} to {res_t}
    return %p : {res_t}
  }}"""


def tile_schedule(loop: str, tile: list[int]) -> str:
    sizes = "[" + ", ".join(map(str, tile)) + "]"
    if loop == "forall":
        return match("%p", "tensor.pad") + (
            f"    %t, %l = transform.structured.tile_using_forall %p tile_sizes {sizes}"
            f" : ({ANY}) -> ({ANY}, {ANY})\n"
        )
    loops = sum(1 for t in tile if t)
    results = ", ".join([ANY] * (loops + 1))
    names = "%t" + "".join(f", %l{i}" for i in range(loops))
    return match("%p", "tensor.pad") + (
        f"    {names} = transform.structured.tile_using_for %p tile_sizes {sizes}"
        f" : ({ANY}) -> ({results})\n"
    )


@st.composite
def pads(draw: st.DrawFn) -> tuple[list[int], list[int], list[int], list[int]]:
    rank = draw(st.integers(1, 2))
    src = [draw(st.integers(1, 7)) for _ in range(rank)]
    low = [draw(st.integers(0, 5)) for _ in range(rank)]
    high = [draw(st.integers(0, 5)) for _ in range(rank)]
    tile = [draw(st.integers(0, 6)) for _ in range(rank)]
    return src, low, high, tile


@settings(max_examples=12, derandomize=True)
@given(case=pads(), loop=st.sampled_from(["for", "forall"]))
def test_tiled_pad_matches_reference(
    case: tuple[list[int], list[int], list[int], list[int]], loop: str
) -> None:
    src, low, high, tile = case
    run_and_check(schedule_module(pad_payload(src, low, high), tile_schedule(loop, tile)))


@pytest.mark.parametrize("loop", ["for", "forall"])
def test_tiled_pad_of_a_dynamic_source(loop: str) -> None:
    # The zero-length guard (`scf.if` on the slice length) decides at run time.
    payload = pad_payload([5, 3], [3, 1], [2, 4], dynamic_dim=0)
    run_and_check(schedule_module(payload, tile_schedule(loop, [2, 3])), dynamic=7)


def test_pad_fused_into_a_consumer_loop() -> None:
    # fuse_into_containing_op tiles the pad to the consumer's slice (not a clone of the
    # whole pad), as upstream does.
    payload = """  func.func @f(%a: tensor<10x13xf32>, %c: f32) -> tensor<17x16xf32> {
    %p = tensor.pad %a low[2, 3] high[5, 0] {
    ^bb0(%i: index, %j: index):
      tensor.yield %c : f32
    } : tensor<10x13xf32> to tensor<17x16xf32>
    %e = tensor.empty() : tensor<17x16xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
        affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        ins(%p : tensor<17x16xf32>) outs(%e : tensor<17x16xf32>) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.mulf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<17x16xf32>
    return %r : tensor<17x16xf32>
  }"""
    schedule = (
        match("%g", "linalg.generic")
        + match("%p", "tensor.pad")
        + f"    %t, %l = transform.structured.tile_using_forall %g tile_sizes [4, 6]"
        f" : ({ANY}) -> ({ANY}, {ANY})\n"
        f"    %f, %l2 = transform.structured.fuse_into_containing_op %p into %l"
        f" : ({ANY}, {ANY}) -> ({ANY}, {ANY})\n"
    )
    scheduled = run_and_check(schedule_module(payload, schedule))
    loop_body = scheduled[scheduled.index("scf.forall") :]
    assert "tensor.pad %a low[2, 3]" not in loop_body, "the whole pad was cloned into the loop"
    assert "tensor.extract_slice %a" in loop_body
