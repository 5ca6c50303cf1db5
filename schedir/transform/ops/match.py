"""Apply function of `transform.structured.match` (upstream's MatchOp)."""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, StringAttr, UnitAttr
from xdsl.ir import Attribute, Operation

from schedir.dialects.linalg import is_structured
from schedir.transform.interpreter import ApplyFn, TransformInterpreter
from schedir.transform.state import definite

_LOOP_LIKE = frozenset({"scf.for", "scf.forall", "scf.parallel", "scf.while", "affine.for"})
_TILING_INTERFACE_EXTRA = frozenset({"linalg.softmax", "tensor.pad"})
_INTERFACES = ("LinalgOp", "TilingInterface", "LoopLikeInterface")


def implements(op: Operation, interface: str) -> bool:
    """Whether a payload op implements one of the interfaces structured.match can filter on."""
    if interface == "LinalgOp":
        return is_structured(op)
    if interface == "TilingInterface":
        return is_structured(op) or op.name in _TILING_INTERFACE_EXTRA
    return op.name in _LOOP_LIKE


def apply_structured_match(op: Operation, interp: TransformInterpreter) -> None:
    payloads = interp.state.payload_ops(op.operands[0])
    if len(payloads) != 1:
        raise definite(op, "requires exactly one target handle!")
    names = op.properties.get("ops")
    wanted = {a.data for a in names.data if isinstance(a, StringAttr)} if isinstance(names, ArrayAttr) else None
    interface_attr = op.properties.get("interface")
    interface = _INTERFACES[interface_attr.value.data] if isinstance(interface_attr, IntegerAttr) else None
    op_attrs = op.properties.get("op_attrs")
    required: Mapping[str, Attribute] = op_attrs.data if isinstance(op_attrs, DictionaryAttr) else {}
    result_type = op.properties.get("filter_result_type")
    operand_types = op.properties.get("filter_operand_types")

    def matches(candidate: Operation) -> bool:
        if wanted is not None and candidate.name not in wanted:
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
        if isinstance(operand_types, ArrayAttr):
            types = list(operand_types.data)
            actual = [o.type for o in candidate.operands]
            if len(types) == 1:
                return all(t == types[0] for t in actual)
            return types == actual
        return True

    # Post-order walk from the target, the target itself included, as MLIR's walk.
    found = [candidate for candidate in payloads[0].walk(region_first=True) if matches(candidate)]
    interp.set_results(op, [found])


APPLY: Mapping[str, ApplyFn] = {"transform.structured.match": apply_structured_match}
