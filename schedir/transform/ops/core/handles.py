"""Apply functions of the core ops on handles and parameters (upstream's
TransformOps.cpp): they split, merge, navigate, cast, select, count, annotate, print and
verify handles, and make parameters. Messages follow upstream's.
"""

from __future__ import annotations

import sys

from xdsl.dialects.builtin import (
    ContainerType,
    IntegerAttr,
    ShapedType,
    UnitAttr,
)
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue
from xdsl.traits import IsolatedFromAbove

from schedir.diagnostics import Note, SchedirError
from schedir.dialects.syntax import op_note, print_op, verify_module
from schedir.dialects.transform.core.handles import (
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
from schedir.transform.interface import Interpreter, Mapped, applies
from schedir.transform.state import definite, payload_location, silenceable

# --- handle manipulation -----------------------------------------------------------------


@applies(SplitHandleOp)
def apply_split_handle(op: SplitHandleOp, interp: Interpreter) -> None:
    """Distribute the payloads over the results, one each (extras to `overflow_result`)."""
    handle = op.handle
    items = list(interp.state.mapped(handle))
    count = len(op.results)
    overflow = op.overflow_result.value.data if op.overflow_result is not None else None
    if (len(items) > count and overflow is None) or (
        len(items) < count
        and op.fail_on_payload_too_small.value.data
        and (items or not op.pass_through_empty_handle.value.data)
    ):
        raise silenceable(
            op,
            f"{_value_name(handle)} expected to contain {count} payloads but it contains {len(items)} payloads",
        )
    buckets: list[list[Mapped]] = [[] for _ in range(count)]
    for index, item in enumerate(items):
        if index < count:
            buckets[index].append(item)
        else:
            assert overflow is not None  # more payloads than results need overflow_result
            buckets[overflow].append(item)
    interp.set_results(op, buckets)


def _value_name(value: SSAValue) -> str:
    return f"%{value.name_hint}" if value.name_hint else "handle"


@applies(MergeHandlesOp)
def apply_merge_handles(op: MergeHandlesOp, interp: Interpreter) -> None:
    """Concatenate the handles' payloads, optionally without repeats."""
    merged: list[Mapped] = []
    for handle in op.handles:
        merged.extend(interp.state.mapped(handle))
    if op.deduplicate is not None:
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
def apply_get_parent_op(op: GetParentOp, interp: Interpreter) -> None:
    """The closest (or `nth_parent`) ancestor of each payload op that passes the filters."""
    op_name = op.op_name.data if op.op_name is not None else None
    isolated = op.isolated_from_above is not None
    nth = op.nth_parent.value.data or 1
    parents: list[Operation] = []
    for payload in interp.state.payload_ops(op.target):
        parent: Operation | None = payload
        for _ in range(nth):
            parent = parent.parent_op() if parent is not None else None
            while parent is not None and not (
                (not isolated or parent.has_trait(IsolatedFromAbove))
                and (op_name is None or parent.name == op_name)
            ):
                parent = parent.parent_op()
            if parent is None:
                if op.allow_empty_results is not None:
                    interp.set_results(op, [parents])
                    return
                raise silenceable(
                    op,
                    "could not find a parent op that matches all requirements",
                    notes=[op_note(payload, "target op")],
                )
        assert parent is not None
        if op.deduplicate is None or all(parent is not p for p in parents):
            parents.append(parent)
    interp.set_results(op, [parents])


@applies(GetConsumersOfResultOp)
def apply_get_consumers_of_result(op: GetConsumersOfResultOp, interp: Interpreter) -> None:
    """The users of result `result_number` of the one payload op."""
    payloads = interp.state.payload_ops(op.target)
    if not payloads:
        interp.set_results(op, [[]])
        return
    if len(payloads) != 1:
        raise definite(op, "handle must be mapped to exactly one payload op")
    number = op.result_number.value.data
    if len(payloads[0].results) <= number:
        raise definite(op, "result number overflow")
    users = list(dict.fromkeys(use.operation for use in payloads[0].results[number].uses))
    interp.set_results(op, [users])


@applies(GetProducerOfOperandOp)
def apply_get_producer_of_operand(op: GetProducerOfOperandOp, interp: Interpreter) -> None:
    """The op defining operand `operand_number` of each payload op."""
    number = op.operand_number.value.data
    producers: list[Operation] = []
    for payload in interp.state.payload_ops(op.target):
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
def apply_get_defining_op(op: GetDefiningOp, interp: Interpreter) -> None:
    """The op defining each payload value."""
    defining: list[Operation] = []
    for value in interp.state.payload_values(op.target):
        if isinstance(value, BlockArgument):
            raise silenceable(
                op,
                "cannot get defining op of block argument",
                notes=[Note("target value", payload_location(value))],
            )
        assert isinstance(value, OpResult)
        defining.append(value.op)
    interp.set_results(op, [defining])


def _positions(op: GetResultOp | GetOperandOp, count: int, payload: Operation) -> list[int]:
    """Upstream's expandTargetSpecification: `[0, 2]`, `[all]`, `[except(0)]`."""
    raw = [int(v) for v in op.raw_position_list.get_values()]
    if op.is_all is not None:
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
    if op.is_inverted is not None:
        return [i for i in range(count) if i not in resolved]
    return resolved


@applies(GetResultOp)
def apply_get_result(op: GetResultOp, interp: Interpreter) -> None:
    """The listed results of each payload op."""
    values: list[SSAValue] = []
    for payload in interp.state.payload_ops(op.target):
        values.extend(payload.results[i] for i in _positions(op, len(payload.results), payload))
    interp.set_results(op, [values])


@applies(GetOperandOp)
def apply_get_operand(op: GetOperandOp, interp: Interpreter) -> None:
    """The listed operands of each payload op."""
    values: list[SSAValue] = []
    for payload in interp.state.payload_ops(op.target):
        values.extend(payload.operands[i] for i in _positions(op, len(payload.operands), payload))
    interp.set_results(op, [values])


@applies(GetTypeOp)
def apply_get_type(op: GetTypeOp, interp: Interpreter) -> None:
    """The type (or element type) of each payload value, as params."""
    elemental = op.elemental is not None
    types: list[Attribute] = []
    for payload in interp.state.payload_values(op.value):
        t = payload.type
        if elemental and isinstance(t, ShapedType) and isinstance(t, ContainerType):
            t = t.get_element_type()
        types.append(t)
    interp.set_results(op, [types])


@applies(CastOp)
def apply_cast(op: CastOp, interp: Interpreter) -> None:
    """The same payload ops, under the result's handle type."""
    interp.set_results(op, [list(interp.state.payload_ops(op.input))])


@applies(SelectOp)
def apply_select(op: SelectOp, interp: Interpreter) -> None:
    """The payload ops named `op_name`."""
    name = op.op_name.data
    interp.set_results(op, [[p for p in interp.state.payload_ops(op.target) if p.name == name]])


@applies(NumAssociationsOp)
def apply_num_associations(op: NumAssociationsOp, interp: Interpreter) -> None:
    """The number of payloads of the handle, as an i64 param."""
    count = len(interp.state.mapped(op.handle))
    interp.set_results(op, [[IntegerAttr(count, 64)]])


@applies(AnnotateOp)
def apply_annotate(op: AnnotateOp, interp: Interpreter) -> None:
    """Set attribute `name` on each payload op: unit, or the param's value(s)."""
    name = op.name_.data
    targets = list(interp.state.payload_ops(op.target))
    param = op.param
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
def apply_print(op: PrintOp, interp: Interpreter) -> None:
    """Print each payload op (or the whole payload) to stdout, after a header."""
    head = f"[[[ IR printer: {op.name_.data} " if op.name_ is not None else "[[[ IR printer: "
    out = sys.stdout
    if op.target is None:
        out.write(head + "top-level ]]]\n" + print_op(interp.state.root))
        return
    out.write(head + "]]]\n")
    for payload in interp.state.payload_ops(op.target):
        out.write(print_op(payload))
    out.flush()


@applies(VerifyOp)
def apply_verify(op: VerifyOp, interp: Interpreter) -> None:
    """Run the verifier on each payload op."""
    for payload in interp.state.payload_ops(op.target):
        try:
            verify_module(payload)
        except SchedirError as err:
            raise definite(
                op,
                "failed to verify payload op",
                payload,
                notes=[Note(err.message, err.location)],
            ) from None


@applies(ParamConstantOp)
def apply_param_constant(op: ParamConstantOp, interp: Interpreter) -> None:
    """A param holding the attribute `value`."""
    interp.set_results(op, [[op.value]])
