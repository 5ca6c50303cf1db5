"""Tile, thread and vector sizes given to structured ops (upstream's
`PackedOrDynamicIndexList` operands): static values, params, handles to ops producing one
index value, and packed lists, unpacked as upstream's LinalgTransformOps.cpp helpers do.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IndexType, IntegerAttr
from xdsl.ir import Attribute, Operation, SSAValue

from schedir.diagnostics import Note
from schedir.dialects.syntax import op_note
from schedir.transform.interface import Interpreter
from schedir.transform.rewrites.tiling.affine import Ofr
from schedir.transform.state import definite, handle_kind, silenceable, value_location


def dense(attr: Attribute | None) -> list[int]:
    """The values of an optional i64/i1 dense array property."""
    if isinstance(attr, DenseArrayBase):
        return [int(v) for v in attr.get_values()]
    return []


def mixed(static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[int | SSAValue]:
    """Static entries with each DYNAMIC_INDEX replaced by the next dynamic operand."""
    operands = iter(dynamic)
    return [next(operands) if v == DYNAMIC_INDEX else v for v in static]


def int_param(op: Operation, attr: Attribute) -> int:
    """The integer a size param holds; a definite failure for any other attribute."""
    if not isinstance(attr, IntegerAttr):
        raise definite(op, "expected the parameter to be associated with an integer attribute")
    return attr.value.data


MAX_THREADS = 2**31 - 1
"""The most threads of one `scf.forall` dimension: more would run for hours on the CPU and
exceed every GPU grid. (A tile size may be larger than its loop: one tile covers it.)"""


def check_sizes(
    op: Operation,
    what: str,
    values: Sequence[Ofr],
    *,
    positive: bool = False,
    threads: bool = False,
) -> None:
    """Fail silenceably at `op` when a constant size of `values` is negative (or zero, with
    `positive`), or, for thread counts, larger than `MAX_THREADS`.

    Upstream accepts a negative tile size and builds a loop with a negative step, which
    never ends; schedir reports it at the transform op instead (a static size, a param, or
    a packed list alike; sizes given by payload values are only known at run time).
    """
    for index, value in enumerate(values):
        if not isinstance(value, int):
            continue
        if value < 0 or (positive and value == 0):
            bound = "positive" if positive else "non-negative"
            raise silenceable(
                op, f"expected {what} to be {bound}, found {value} at position {index}"
            )
        if threads and value > MAX_THREADS:
            raise silenceable(
                op,
                f"{what} {value} at position {index} exceeds the supported maximum {MAX_THREADS}",
            )


def index_result(op: Operation, producer: Operation) -> SSAValue:
    """The single index result of a size-producing payload op (upstream's check)."""
    if len(producer.results) != 1 or not isinstance(producer.results[0].type, IndexType):
        raise silenceable(
            op,
            "payload op must have exactly 1 index result",
            notes=[op_note(producer, f"has {len(producer.results)} results")],
        )
    return producer.results[0]


def unpack_single(
    interp: Interpreter, op: Operation, entries: Sequence[int | SSAValue]
) -> list[Ofr]:
    """Upstream's `unpackSingleIndexResultPayloadOperations`: each param holds one
    integer, each handle one payload op with one index result."""
    result: list[Ofr] = []
    for entry in entries:
        if isinstance(entry, int):
            result.append(entry)
            continue
        if handle_kind(entry) == "param":
            params = interp.state.params(entry)
            if len(params) != 1:
                raise definite(op, "requires exactly one parameter associated")
            result.append(int_param(op, params[0]))
            continue
        payloads = interp.state.payload_ops(entry)
        if len(payloads) != 1:
            raise silenceable(
                op,
                "handle must be mapped to exactly one payload op",
                notes=[Note(f"mapped to {len(payloads)} payload ops", value_location(entry))],
            )
        result.append(index_result(op, payloads[0]))
    return result


def unpack_packed(interp: Interpreter, op: Operation, packed: SSAValue) -> list[Ofr]:
    """A packed list `*(%h)`: every integer of a param, or the index result of every op."""
    if handle_kind(packed) == "param":
        return [int_param(op, attr) for attr in interp.state.params(packed)]
    return [index_result(op, payload) for payload in interp.state.payload_ops(packed)]


def reify_sizes(
    op: Operation, interp: Interpreter, static: Sequence[int], dynamic: Sequence[SSAValue]
) -> list[int]:
    """Upstream's `reifyMixedParamAndHandleResults`: static values, single params and
    handles to single constant index ops, in order."""
    values: list[int] = []
    remaining = iter(dynamic)
    for entry in static:
        if entry != DYNAMIC_INDEX:
            values.append(entry)
            continue
        handle = next(remaining)
        if handle_kind(handle) == "param":
            params = interp.state.params(handle)
            if len(params) != 1:
                raise silenceable(op, "expected a single param")
            values.append(interp.state.int_params(op, handle)[0])
            continue
        payload = interp.state.payload_ops(handle)
        if len(payload) != 1:
            raise silenceable(op, "requires param or handle that is mapped to 1 payload op")
        producer = payload[0]
        if len(producer.results) != 1 or not isinstance(producer.results[0].type, IndexType):
            raise silenceable(op, "requires param or handle to be result of op with 1 index result")
        value = producer.properties.get("value") if isinstance(producer, arith.ConstantOp) else None
        if not isinstance(value, IntegerAttr):
            raise silenceable(op, "requires param or handle to be the result of a constant like op")
        values.append(value.value.data)
    return values


__all__ = [
    "MAX_THREADS",
    "check_sizes",
    "dense",
    "index_result",
    "int_param",
    "mixed",
    "reify_sizes",
    "unpack_packed",
    "unpack_single",
]
