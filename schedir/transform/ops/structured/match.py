"""Apply function of `transform.structured.match` (upstream's MatchOp in
LinalgTransformOps.cpp): a post-order walk of the target keeping the ops that pass the
name, interface, attribute and type filters.
"""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.dialects.builtin import (
    UnitAttr,
)
from xdsl.ir import Attribute, Operation

from schedir.dialects.linalg.interface import is_structured
from schedir.dialects.syntax import op_name
from schedir.dialects.transform.structured.match import MATCH_INTERFACES, StructuredMatchOp
from schedir.transform.interface import Interpreter, applies
from schedir.transform.rewrites.tiling.interface import is_tileable
from schedir.transform.state import definite

_LOOP_LIKE = frozenset({"scf.for", "scf.forall", "scf.parallel", "scf.while", "affine.for"})


def implements(op: Operation, interface: str) -> bool:
    """Whether a payload op implements one of the interfaces structured.match can filter on."""
    if interface == "LinalgOp":
        return is_structured(op)
    if interface == "TilingInterface":
        return is_tileable(op)
    return op.name in _LOOP_LIKE


@applies(StructuredMatchOp)
def apply_structured_match(op: StructuredMatchOp, interp: Interpreter) -> None:
    """The ops nested in the one target (itself included) that pass every filter."""
    payloads = interp.state.payload_ops(op.target)
    if len(payloads) != 1:
        raise definite(op, "requires exactly one target handle!")
    wanted = {name.data for name in op.ops.data} if op.ops is not None else None
    interface = MATCH_INTERFACES[op.interface.value.data] if op.interface is not None else None
    required: Mapping[str, Attribute] = op.op_attrs.data if op.op_attrs is not None else {}
    result_type = op.filter_result_type
    operand_types = op.filter_operand_types

    def matches(candidate: Operation) -> bool:
        if wanted is not None and op_name(candidate) not in wanted:
            return False
        if interface is not None and not implements(candidate, interface):
            return False
        for name, value in required.items():
            present = candidate.attributes.get(name) or candidate.properties.get(name)
            if present is None:
                return False
            if not isinstance(value, UnitAttr) and present != value:
                return False
        if result_type is not None and (
            len(candidate.results) != 1 or candidate.results[0].type != result_type
        ):
            return False
        if operand_types is not None:
            types = list(operand_types.data)
            actual = [o.type for o in candidate.operands]
            if len(types) == 1:
                return all(t == types[0] for t in actual)
            return types == actual
        return True

    # Post-order walk from the target, the target itself included, as MLIR's walk.
    found = [candidate for candidate in payloads[0].walk(region_first=True) if matches(candidate)]
    interp.set_results(op, [found])
