"""Apply functions of the core handle-manipulation ops (upstream's TransformOps.cpp).

These ops only read handles: they split, merge, navigate, cast, select, count, annotate,
print and verify. Messages follow upstream's.
"""

from __future__ import annotations

import sys

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    ShapedType,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue
from xdsl.traits import IsolatedFromAbove

from schedir.diagnostics import Note, SchedirError
from schedir.dialects.syntax import op_note, print_op, verify_module
from schedir.dialects.transform.handles import (
    AnnotateOp,
    CastOp,
    GetConsumersOfResultOp,
    GetDefiningOp,
    GetOperandOp,
    GetParentOp,
    GetProducerOfOperandOp,
    GetResultOp,
    GetTypeOp,
    MergeHandlesOp,
    NumAssociationsOp,
    ParamConstantOp,
    PrintOp,
    SelectOp,
    SplitHandleOp,
    VerifyOp,
)
from schedir.dialects.transform.match import (
    MatchOperationEmptyOp,
    MatchOperationNameOp,
    MatchParamCmpIOp,
)
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.state import definite, payload_location, silenceable, value_location

# --- attribute access --------------------------------------------------------------------


def prop(op: Operation, name: str) -> Attribute | None:
    """An inherent attribute, wherever the op keeps it (property or attribute)."""
    value = op.properties.get(name)
    return value if value is not None else op.attributes.get(name)


def flag(op: Operation, name: str, default: bool = False) -> bool:
    """A boolean or unit option."""
    value = prop(op, name)
    if value is None:
        return default
    if isinstance(value, UnitAttr):
        return True
    if isinstance(value, IntegerAttr):
        return bool(value.value.data)
    return bool(getattr(value, "data", True))


def int_prop(op: Operation, name: str, default: int | None = None) -> int | None:
    value = prop(op, name)
    if isinstance(value, IntegerAttr):
        return value.value.data
    return default


def str_prop(op: Operation, name: str) -> str | None:
    value = prop(op, name)
    if isinstance(value, StringAttr):
        return value.data
    return None


def int_list_prop(op: Operation, name: str) -> list[int]:
    value = prop(op, name)
    if isinstance(value, DenseArrayBase):
        return [int(v) for v in value.get_values()]
    if isinstance(value, ArrayAttr):
        return [a.value.data for a in value.data if isinstance(a, IntegerAttr)]
    return []


def operand(op: Operation, name: str, index: int = 0) -> SSAValue | None:
    """An operand by its definition name, falling back to its position."""
    value = getattr(op, name, None)
    if isinstance(value, SSAValue):
        return value
    if value is not None and hasattr(value, "__len__"):
        return value[0] if len(value) else None
    return op.operands[index] if len(op.operands) > index else None


# --- handle manipulation -----------------------------------------------------------------


@applies(SplitHandleOp)
def apply_split_handle(op: Operation, interp: Interpreter) -> None:
    handle = operand(op, "handle")
    assert handle is not None
    items = list(interp.state.mapped(handle))
    count = len(op.results)
    overflow = int_prop(op, "overflow_result")
    if (len(items) > count and overflow is None) or (
        len(items) < count
        and flag(op, "fail_on_payload_too_small", True)
        and (items or not flag(op, "pass_through_empty_handle", True))
    ):
        raise silenceable(
            op,
            f"{_value_name(handle)} expected to contain {count} payloads but it contains {len(items)} payloads",
        )
    buckets: list[list[Mapped]] = [[] for _ in range(count)]
    for index, item in enumerate(items):
        buckets[index if index < count else overflow].append(item)  # type: ignore[index]
    interp.set_results(op, buckets)


def _value_name(value: SSAValue) -> str:
    return f"%{value.name_hint}" if value.name_hint else "handle"


@applies(MergeHandlesOp)
def apply_merge_handles(op: Operation, interp: Interpreter) -> None:
    merged: list[Mapped] = []
    for handle in op.operands:
        merged.extend(interp.state.mapped(handle))
    if flag(op, "deduplicate"):
        seen: set[int] = set()
        unique: list[Mapped] = []
        for item in merged:
            key = id(item) if not isinstance(item, Attribute) else hash(item)
            if key not in seen:
                seen.add(key)
                unique.append(item)
        merged = unique
    interp.set_results(op, [merged])


@applies(GetParentOp)
def apply_get_parent_op(op: Operation, interp: Interpreter) -> None:
    target = operand(op, "target")
    assert target is not None
    op_name = str_prop(op, "op_name")
    isolated = flag(op, "isolated_from_above")
    nth = int_prop(op, "nth_parent", 1) or 1
    parents: list[Operation] = []
    for payload in interp.state.payload_ops(target):
        parent: Operation | None = payload
        for _ in range(nth):
            parent = parent.parent_op() if parent is not None else None
            while parent is not None and not (
                (not isolated or parent.has_trait(IsolatedFromAbove))
                and (op_name is None or parent.name == op_name)
            ):
                parent = parent.parent_op()
            if parent is None:
                if flag(op, "allow_empty_results"):
                    interp.set_results(op, [parents])
                    return
                raise silenceable(
                    op,
                    "could not find a parent op that matches all requirements",
                    notes=[op_note(payload, "target op")],
                )
        assert parent is not None
        if not flag(op, "deduplicate") or all(parent is not p for p in parents):
            parents.append(parent)
    interp.set_results(op, [parents])


@applies(GetConsumersOfResultOp)
def apply_get_consumers_of_result(op: Operation, interp: Interpreter) -> None:
    target = operand(op, "target")
    assert target is not None
    payloads = interp.state.payload_ops(target)
    if not payloads:
        interp.set_results(op, [[]])
        return
    if len(payloads) != 1:
        raise definite(op, "handle must be mapped to exactly one payload op")
    number = int_prop(op, "result_number", 0) or 0
    if len(payloads[0].results) <= number:
        raise definite(op, "result number overflow")
    users = list(dict.fromkeys(use.operation for use in payloads[0].results[number].uses))
    interp.set_results(op, [users])


@applies(GetProducerOfOperandOp)
def apply_get_producer_of_operand(op: Operation, interp: Interpreter) -> None:
    target = operand(op, "target")
    assert target is not None
    number = int_prop(op, "operand_number", 0) or 0
    producers: list[Operation] = []
    for payload in interp.state.payload_ops(target):
        value = payload.operands[number] if len(payload.operands) > number else None
        if not isinstance(value, OpResult):
            raise silenceable(
                op,
                f"could not find a producer for operand number: {number} of {payload.name}",
                notes=[op_note(payload, "target op")],
            )
        producers.append(value.op)
    interp.set_results(op, [producers])


@applies(GetDefiningOp)
def apply_get_defining_op(op: Operation, interp: Interpreter) -> None:
    target = operand(op, "target")
    assert target is not None
    defining: list[Operation] = []
    for value in interp.state.payload_values(target):
        if isinstance(value, BlockArgument):
            raise silenceable(
                op,
                "cannot get defining op of block argument",
                notes=[Note("target value", payload_location(value))],
            )
        assert isinstance(value, OpResult)
        defining.append(value.op)
    interp.set_results(op, [defining])


def _positions(op: Operation, count: int, payload: Operation) -> list[int]:
    """Upstream's expandTargetSpecification: `[0, 2]`, `[all]`, `[except(0)]`."""
    raw = int_list_prop(op, "raw_position_list")
    if flag(op, "is_all"):
        return list(range(count))
    resolved = []
    for position in raw:
        index = position + count if position < 0 else position
        if not 0 <= index < count:
            raise silenceable(
                op,
                f"position overflow {position} (updated from {position}) for maximum {count}",
                notes=[op_note(payload, "while considering positions of this payload operation")],
            )
        resolved.append(index)
    if flag(op, "is_inverted"):
        return [i for i in range(count) if i not in resolved]
    return resolved


@applies(GetResultOp)
def apply_get_result(op: Operation, interp: Interpreter) -> None:
    target = operand(op, "target")
    assert target is not None
    values: list[SSAValue] = []
    for payload in interp.state.payload_ops(target):
        values.extend(payload.results[i] for i in _positions(op, len(payload.results), payload))
    interp.set_results(op, [values])


@applies(GetOperandOp)
def apply_get_operand(op: Operation, interp: Interpreter) -> None:
    target = operand(op, "target")
    assert target is not None
    values: list[SSAValue] = []
    for payload in interp.state.payload_ops(target):
        values.extend(payload.operands[i] for i in _positions(op, len(payload.operands), payload))
    interp.set_results(op, [values])


@applies(GetTypeOp)
def apply_get_type(op: Operation, interp: Interpreter) -> None:
    value = operand(op, "value")
    assert value is not None
    elemental = flag(op, "elemental")
    types: list[Attribute] = []
    for payload in interp.state.payload_values(value):
        t = payload.type
        if elemental and isinstance(t, ShapedType):
            t = t.get_element_type()
        types.append(t)
    interp.set_results(op, [types])


@applies(CastOp)
def apply_cast(op: Operation, interp: Interpreter) -> None:
    source = operand(op, "input")
    assert source is not None
    interp.set_results(op, [list(interp.state.payload_ops(source))])


@applies(SelectOp)
def apply_select(op: Operation, interp: Interpreter) -> None:
    target = operand(op, "target")
    assert target is not None
    name = str_prop(op, "op_name")
    interp.set_results(op, [[p for p in interp.state.payload_ops(target) if p.name == name]])


@applies(NumAssociationsOp)
def apply_num_associations(op: Operation, interp: Interpreter) -> None:
    handle = operand(op, "handle")
    assert handle is not None
    count = len(interp.state.mapped(handle))
    interp.set_results(op, [[IntegerAttr(count, 64)]])


@applies(AnnotateOp)
def apply_annotate(op: Operation, interp: Interpreter) -> None:
    target = operand(op, "target")
    assert target is not None
    name = str_prop(op, "name")
    assert name is not None
    targets = list(interp.state.payload_ops(target))
    param = operand(op, "param", 1) if len(op.operands) > 1 else None
    if param is None:
        for payload in targets:
            payload.attributes[name] = UnitAttr()
        return
    params = list(interp.state.params(param))
    if len(params) != 1:
        if len(params) != len(targets):
            raise silenceable(
                op,
                f"parameter and target have different payload lengths ({len(params)} vs {len(targets)})",
            )
        for payload, attr in zip(targets, params, strict=True):
            payload.attributes[name] = attr
        return
    for payload in targets:
        payload.attributes[name] = params[0]


@applies(PrintOp)
def apply_print(op: Operation, interp: Interpreter) -> None:
    name = str_prop(op, "name")
    head = f"[[[ IR printer: {name} " if name is not None else "[[[ IR printer: "
    out = sys.stdout
    if not op.operands:
        out.write(head + "top-level ]]]\n" + print_op(interp.state.root))
        return
    out.write(head + "]]]\n")
    for payload in interp.state.payload_ops(op.operands[0]):
        out.write(print_op(payload))
    out.flush()


@applies(VerifyOp)
def apply_verify(op: Operation, interp: Interpreter) -> None:
    target = operand(op, "target")
    assert target is not None
    for payload in interp.state.payload_ops(target):
        try:
            verify_module(payload)
        except SchedirError as err:
            raise definite(
                op,
                "failed to verify payload op",
                payload,
                notes=[Note(err.message, err.location)],
            ) from None


# --- matchers ---------------------------------------------------------------------------


def _single_payload(op: Operation, interp: Interpreter, handle: SSAValue) -> Operation:
    payloads = interp.state.payload_ops(handle)
    if len(payloads) != 1:
        raise definite(
            op, f"expected one payload to be bound to the first operand, got {len(payloads)}"
        )
    return payloads[0]


@applies(MatchOperationNameOp)
def apply_match_operation_name(op: Operation, interp: Interpreter) -> None:
    handle = operand(op, "operand_handle")
    assert handle is not None
    current = _single_payload(op, interp, handle)
    names = prop(op, "op_names")
    accepted = [a.data for a in names.data] if isinstance(names, ArrayAttr) else []
    if current.name not in accepted:
        raise silenceable(op, "wrong operation name")


@applies(MatchOperationEmptyOp)
def apply_match_operation_empty(op: Operation, interp: Interpreter) -> None:
    handle = operand(op, "operand_handle")
    assert handle is not None
    payloads = interp.state.payload_ops(handle)
    if len(payloads) > 1:
        raise definite(
            op,
            f"expected at most one payload to be bound to the first operand, got {len(payloads)}",
        )
    if payloads:
        raise silenceable(op, "operation is not empty")


def _pred(op: Operation) -> str:
    value = prop(op, "predicate")
    if isinstance(value, IntegerAttr):
        return ("eq", "ne", "lt", "le", "gt", "ge")[value.value.data]
    text = str(getattr(value, "data", value))
    return text.rsplit(".", 1)[-1].strip(">").lower()


_CMP = {
    "eq": (lambda a, b: a == b, "equal to"),
    "ne": (lambda a, b: a != b, "not equal to"),
    "lt": (lambda a, b: a < b, "less than"),
    "le": (lambda a, b: a <= b, "less than or equal to"),
    "gt": (lambda a, b: a > b, "greater than"),
    "ge": (lambda a, b: a >= b, "greater than or equal to"),
}


@applies(MatchParamCmpIOp)
def apply_match_param_cmpi(op: Operation, interp: Interpreter) -> None:
    param = operand(op, "param")
    reference = operand(op, "reference", 1)
    assert param is not None and reference is not None
    params = interp.state.params(param)
    references = interp.state.params(reference)
    if len(params) != len(references):
        raise silenceable(
            op, f"parameters have different payload lengths ({len(params)} vs {len(references)})"
        )
    compare, words = _CMP[_pred(op)]
    for index, (value, ref) in enumerate(zip(params, references, strict=True)):
        if not isinstance(value, IntegerAttr) or not isinstance(ref, IntegerAttr):
            raise definite(op, "non-integer parameter value not expected")
        if value.type != ref.type:
            raise definite(op, f"mismatching integer attribute types in parameter #{index}")
        if not compare(value.value.data, ref.value.data):
            raise silenceable(
                op,
                f"expected parameter to be {words} {ref.value.data}, got {value.value.data}",
                notes=[
                    Note(
                        f"value # {index} associated with the parameter defined here",
                        value_location(param),
                    )
                ],
            )


@applies(ParamConstantOp)
def apply_param_constant(op: Operation, interp: Interpreter) -> None:
    value = prop(op, "value")
    assert value is not None
    interp.set_results(op, [[value]])
