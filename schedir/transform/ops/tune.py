"""Apply functions of the tune extension (upstream's TuneExtensionOps.cpp): the knobs and
alternatives an autotuner resolves.

    %t = transform.tune.knob<"tile"> = 32 from options = [16, 32, 64] -> !transform.any_param
    %r = transform.tune.alternatives<"order"> selected_region = 1 -> !transform.any_op {
      ... transform.yield %a : !transform.any_op
    }, {
      ... transform.yield %b : !transform.any_op
    }

A knob or an alternatives op that nothing resolved (no `selected` / `selected_region`)
fails *silenceably*, naming the choice: upstream makes it a definite failure, schedir
lets `failures(suppress)` / `transform.alternatives` skip an unresolved choice and lets
the autotuner read the failure as "this schedule still has a free knob". Everything
else (bad selectors, failures inside the selected region) is as upstream.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Attribute

from schedir.dialects.transform.core import FailurePropagationMode
from schedir.dialects.transform.tune import KnobOp, TuneAlternativesOp
from schedir.transform.interface import Interpreter, applies
from schedir.transform.state import definite, silenceable


def _choice_name(op: KnobOp | TuneAlternativesOp) -> str:
    return f'"{op.name_.data}"'


@applies(KnobOp)
def apply_knob(op: KnobOp, interp: Interpreter) -> None:
    """Return the `selected` option as a param."""
    selected = op.selected
    if selected is None:
        raise silenceable(
            op,
            f"non-deterministic choice {_choice_name(op)} is only resolved through providing "
            "a `selected` attr",
        )
    interp.set_results(op, [[selected]])


@applies(TuneAlternativesOp)
def apply_alternatives(op: TuneAlternativesOp, interp: Interpreter) -> None:
    """Run the selected region; its yielded handles become the results."""
    attr = op.selected_region_attr
    index = attr.value.data if attr is not None else None
    param = op.selected_region_param
    if param is not None:
        values: tuple[Attribute, ...] = interp.state.params(param)
        if len(values) != 1 or not isinstance(values[0], IntegerAttr):
            got = f" {values[0]}" if values else ""
            raise definite(op, f"param should hold exactly one integer attribute, got:{got}")
        index = values[0].value.data
    if index is None:
        raise silenceable(
            op,
            f"non-deterministic choice {_choice_name(op)} is only resolved through "
            "providing a `selected_region` attr/param",
        )
    if not 0 <= index < len(op.alternatives):
        raise definite(
            op,
            f"'selected_region' attribute/param specifies region at index {index} while op "
            f"has only {len(op.alternatives)} regions",
        )
    results = interp.run_region(op.alternatives[index], [], FailurePropagationMode.PROPAGATE)
    interp.set_results(op, results)
