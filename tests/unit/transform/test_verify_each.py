"""Per-step checking: the first transform op that changes the results is reported at its line."""

from __future__ import annotations

from types import MappingProxyType

import pytest
from xdsl.dialects import arith
from xdsl.ir import Operation

import schedir
from schedir.dialects.transform.core.handles import AnnotateOp
from schedir.transform import ops as transform_ops
from schedir.transform.interpreter import TransformInterpreter

PAYLOAD_AND_SCHEDULE = """\
module attributes {transform.with_named_sequence} {
  func.func @f(%a: tensor<9x7xf32>, %b: tensor<9x7xf32>) -> tensor<9x7xf32> {
    %e = tensor.empty() : tensor<9x7xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                                          affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%a, %b : tensor<9x7xf32>, tensor<9x7xf32>) outs(%e : tensor<9x7xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<9x7xf32>
    return %r : tensor<9x7xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.annotate %g "first" : !transform.any_op
    transform.annotate %g "second" : !transform.any_op
    transform.yield
  }
}
"""


def _breaking_annotate(op: Operation, interp: TransformInterpreter) -> None:
    """An 'annotate' that also turns addf into subf when it writes the name "second"."""
    name = op.properties["name"].data  # type: ignore[union-attr]
    for payload in interp.state.payload_ops(op.operands[0]):
        payload.attributes[name] = op.properties["name"]
        if name != "second":
            continue
        for inner in list(payload.walk()):
            if isinstance(inner, arith.AddfOp):
                rewriter = interp.state.rewriter(inner)
                rewriter.replace(inner, arith.SubfOp(inner.lhs, inner.rhs))


def test_correct_schedule_passes_every_step() -> None:
    kernel = schedir.compile(PAYLOAD_AND_SCHEDULE, verify_each=True)
    assert kernel.name == "f"


def test_first_changing_op_is_reported_at_its_line(monkeypatch: pytest.MonkeyPatch) -> None:
    table = dict(transform_ops.APPLY)
    table[AnnotateOp] = _breaking_annotate
    monkeypatch.setattr(transform_ops, "APPLY", MappingProxyType(table))
    with pytest.raises(schedir.TransformError) as info:
        schedir.compile(PAYLOAD_AND_SCHEDULE, verify_each=True)
    err = info.value
    assert err.location is not None and err.location.line == 17, err.render()
    assert "changes the result of @f" in err.message
    assert "max_abs_err=" in err.message and "63 of 63 elements differ" in err.message


def test_without_verify_each_the_wrong_step_goes_unnoticed(monkeypatch: pytest.MonkeyPatch) -> None:
    table = dict(transform_ops.APPLY)
    table[AnnotateOp] = _breaking_annotate
    monkeypatch.setattr(transform_ops, "APPLY", MappingProxyType(table))
    schedir.compile(PAYLOAD_AND_SCHEDULE)
