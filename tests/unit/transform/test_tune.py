"""tune.knob / tune.alternatives as the autotuner drives them: it fills `selected` (or
`selected_region`) into a parsed schedule and compiles; an unfilled knob is a
silenceable failure naming it."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import IntegerAttr, i64

import schedir
from schedir import reference
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module, print_op

SCHEDULE = """module attributes {transform.with_named_sequence} {
  func.func @mm(%A: tensor<37x29xf32>, %B: tensor<29x53xf32>, %C: tensor<37x53xf32>) -> tensor<37x53xf32> {
    %r = linalg.matmul ins(%A, %B : tensor<37x29xf32>, tensor<29x53xf32>) outs(%C : tensor<37x53xf32>) -> tensor<37x53xf32>
    return %r : tensor<37x53xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %tile = transform.tune.knob<"tile_m"> options = [8, 16, 32] -> !transform.param<i64>
    %loop_kind = transform.tune.knob<"loop"> options = [0, 1] -> !transform.param<i64>
    transform.tune.alternatives<"loop_kind"> selected_region = %loop_kind : !transform.param<i64> {
      %t, %l = transform.structured.tile_using_for %m tile_sizes [%tile] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
      transform.yield
    }, {
      %t, %f = transform.structured.tile_using_forall %m tile_sizes [%tile] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
      transform.yield
    }
    transform.yield
  }
}
"""


def _resolved(tile: int, loop: int) -> str:
    """The schedule with its knobs filled in, as the autotuner writes candidates."""
    module = parse_module(SCHEDULE, "<tune>", ctx=get_context())
    knobs = {
        op.properties["name"].data: op for op in module.walk() if op.name == "transform.tune.knob"
    }  # type: ignore[union-attr]
    knobs["tile_m"].properties["selected"] = IntegerAttr(tile, i64)
    knobs["loop"].properties["selected"] = IntegerAttr(loop, i64)
    return print_op(module)


@pytest.mark.parametrize("tile, loop", [(8, 0), (16, 1), (32, 0)])
def test_filled_knobs_choose_the_schedule(tile: int, loop: int) -> None:
    text = _resolved(tile, loop)
    assert f'transform.tune.knob<"tile_m"> = {tile} : i64 from options' in text
    kernel = schedir.compile(text)
    scheduled = kernel.stages["scheduled"]
    assert ("scf.forall" in scheduled) == (loop == 1)
    assert f", {tile})>" in scheduled  # the partial-tile bound min(37 - iv, tile)
    inputs = reference.random_inputs(kernel.signature, seed=0)
    expected = reference.evaluate_with_bounds(text, kernel.signature.name, inputs)
    (actual,) = kernel.run(*inputs, prefill_nan=True)
    check = reference.compare(actual, expected[0], kernel.signature.results[0].dtype)
    assert check.ok, check.message


def test_an_unfilled_knob_is_reported_by_name() -> None:
    with pytest.raises(schedir.TransformError) as info:
        schedir.compile(SCHEDULE)
    assert info.value.message == (
        'non-deterministic choice "tile_m" is only resolved through providing a `selected` attr'
    )
    assert info.value.location is not None and info.value.location.line == 8
