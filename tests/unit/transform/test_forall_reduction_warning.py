"""`tile_using_forall` over a reduction loop warns as upstream does (`checkTileSizes` in
TileUsingInterface.cpp): the tiles all write the shared output, so the result races. The
warning is at the payload op, once per such loop (more than one thread, or a non-zero
constant tile size), and the schedule runs on; parallel loops and untiled reductions
stay silent.
"""

from __future__ import annotations

import pytest

from schedir.diagnostics import Diagnostic
from schedir.dialects.context import get_context
from schedir.dialects.syntax import parse_module
from schedir.pipeline import apply_schedule
from tests.helpers import ANY, match, schedule_module

_PAYLOAD = """  func.func @r(%a: tensor<7x6x5xf32>, %o: tensor<6xf32>) -> tensor<6xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction"]} ins(%a : tensor<7x6x5xf32>) outs(%o : tensor<6xf32>) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<6xf32>
    return %r : tensor<6xf32>
  }"""


@pytest.mark.parametrize(
    ("spec", "axes"),
    [
        ("num_threads [2, 3, 4]", [0, 2]),
        ("num_threads [1, 3, 4]", [2]),  # one thread is no race
        ("num_threads [0, 3]", []),
        ("num_threads [3]", [0]),
        ("tile_sizes [1, 2, 0]", [0]),  # any non-zero tile size of a reduction
        ("tile_sizes [0, 2, 5]", [2]),
        ("tile_sizes [0, 2]", []),
    ],
)
def test_forall_over_reduction_loops_warns_per_axis(spec: str, axes: list[int]) -> None:
    schedule = (
        match("%g", "linalg.generic")
        + f"    %t, %f = transform.structured.tile_using_forall %g {spec} : ({ANY}) -> ({ANY}, {ANY})\n"
        # The run goes on after the warning: the next op sees the forall.
        + f'    transform.debug.emit_remark_at %f, "tiled" : {ANY}\n'
    )
    seen: list[Diagnostic] = []
    module = parse_module(schedule_module(_PAYLOAD, schedule), "warn.mlir")
    assert apply_schedule(get_context(), module, on_diagnostic=seen.append)
    warnings = [d for d in seen if d.severity == "warning"]
    assert [d.message for d in warnings] == [
        f"tiling is not thread safe at axis #{a}" for a in axes
    ]
    for d in warnings:  # at the payload op (line 3 of the module: the generic)
        assert d.location is not None and (d.location.line, d.location.col) == (3, 10)
    assert [d.message for d in seen if d.severity == "remark"] == ["tiled"]
