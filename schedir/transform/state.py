"""`TransformState`: what each transform handle points to, and which handles are dead.

Mirrors upstream's `TransformState` (mlir/lib/Dialect/Transform/Interfaces/
TransformInterfaces.cpp):

* op handles map to payload ops, value handles to payload values, params to attributes;
* a reverse map from payload ops (and values) to the handles pointing at them lets a
  consuming transform op invalidate every other handle to the same or to nested payload
  ops, and lets rewrites that keep handles alive (apply_patterns, cse, ...) move them to
  the replacement op (`TrackingListener`);
* a later use of an invalidated handle is a definite error with upstream's notes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType
from xdsl.dialects.transform import (
    AffineMapType,
    AnyParamType,
    OperationType,
    ParamType,
    TransformOpHandleType,
    TransformParamHandleType,
    TransformValueHandleType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriterListener

from schedir.diagnostics import Diagnostic, Location, Note, TransformError
from schedir.dialects.syntax import location_from_attr, op_location

Invalidation = Callable[[Location | None], TransformError]
"""Builds the error reported when an invalidated handle is used at a location."""


def value_location(value: SSAValue) -> Location | None:
    """Where a transform value is defined: its op, or the op owning its block."""
    if isinstance(value, OpResult):
        return op_location(value.op)
    if isinstance(value, BlockArgument):
        owner = value.block.parent_op()
        return op_location(owner) if owner is not None else None
    return None


def payload_location(item: Operation | SSAValue) -> Location | None:
    """Where a payload op or value was written."""
    if isinstance(item, Operation):
        return op_location(item)
    if isinstance(item, OpResult):
        return op_location(item.op)
    if isinstance(item, BlockArgument):
        if (loc := location_from_attr(item.location)) is not None:
            return loc
        owner = item.block.parent_op()
        return op_location(owner) if owner is not None else None
    return None


def is_ancestor(ancestor: Operation, op: Operation) -> bool:
    """True if `op` is `ancestor` or nested in it."""
    current: Operation | None = op
    while current is not None:
        if current is ancestor:
            return True
        current = current.parent_op()
    return False


def _first_enclosing(
    op: Operation, order: dict[Operation, int], ancestors: Sequence[Operation]
) -> Operation | None:
    """Of the ops in `order` (position in `ancestors`) that are `op` or enclose it, the one
    that comes first in `ancestors`; None if there is none."""
    best: int | None = None
    current: Operation | None = op
    while current is not None:
        position = order.get(current)
        if position is not None and (best is None or position < best):
            best = position
        current = current.parent_op()
    return ancestors[best] if best is not None else None


def silenceable(
    op: Operation,
    message: str,
    payload: Operation | SSAValue | None = None,
    notes: Iterable[Note] = (),
) -> TransformError:
    """A silenceable failure of transform op `op`, noting the payload it failed on."""
    extra = tuple(notes)
    if payload is not None:
        extra = (Note("when applied to this op", payload_location(payload)), *extra)
    return TransformError(message, op_location(op), extra, silenceable=True)


def rewrite_failure(op: Operation, at: Operation, message: str, failure: str) -> TransformError:
    """A payload rewrite's failure as a silenceable failure of transform op `op`: the
    reason `message` at the payload op `at` (`'<name>' op <message>`), then `failure` at
    `op`."""
    reason = TransformError(f"'{at.name}' op {message}", op_location(at), silenceable=True)
    return MultipleTransformErrors([reason, silenceable(op, failure)])


def definite(
    op: Operation,
    message: str,
    payload: Operation | SSAValue | None = None,
    notes: Iterable[Note] = (),
) -> TransformError:
    """A definite failure of transform op `op`: the schedule cannot continue."""
    extra = tuple(notes)
    if payload is not None:
        extra = (Note("when applied to this op", payload_location(payload)), *extra)
    return TransformError(message, op_location(op), extra, silenceable=False)


class MultipleTransformErrors(TransformError):
    """Several failures of one transform op (one per payload op it failed on)."""

    def __init__(self, errors: Sequence[TransformError]) -> None:
        first = errors[0]
        super().__init__(
            first.message,
            first.location,
            first.notes,
            silenceable=all(e.silenceable for e in errors),
        )
        self.errors = tuple(errors)

    def diagnostics(self) -> Sequence[Diagnostic]:
        return tuple(d for e in self.errors for d in e.diagnostics())


@dataclass
class TransformState:
    """Handle mappings, reverse mappings and invalidation notices of one interpreter run."""

    root: Operation
    _ops: dict[SSAValue, list[Operation]] = field(default_factory=dict)
    _values: dict[SSAValue, list[SSAValue]] = field(default_factory=dict)
    _params: dict[SSAValue, list[Attribute]] = field(default_factory=dict)
    _op_handles: dict[Operation, list[SSAValue]] = field(default_factory=dict)
    _value_handles: dict[SSAValue, list[SSAValue]] = field(default_factory=dict)
    _invalidated: dict[SSAValue, Invalidation] = field(default_factory=dict)

    # --- reading -------------------------------------------------------------------------

    def payload_ops(self, handle: SSAValue) -> tuple[Operation, ...]:
        """The payload ops `handle` points to, in order (erased ones dropped)."""
        return tuple(self._ops.get(handle, ()))

    def payload_values(self, handle: SSAValue) -> tuple[SSAValue, ...]:
        return tuple(self._values.get(handle, ()))

    def params(self, handle: SSAValue) -> tuple[Attribute, ...]:
        return tuple(self._params.get(handle, ()))

    def mapped(self, handle: SSAValue) -> tuple[Operation | SSAValue | Attribute, ...]:
        """Whatever `handle` points to, by the kind of its type."""
        kind = handle_kind(handle)
        if kind == "op":
            return self.payload_ops(handle)
        if kind == "value":
            return self.payload_values(handle)
        return self.params(handle)

    def is_mapped(self, handle: SSAValue) -> bool:
        """Whether `handle` was mapped (to anything, possibly nothing) and not forgotten."""
        return handle in self._ops or handle in self._values or handle in self._params

    def handles_of(self, op: Operation) -> tuple[SSAValue, ...]:
        return tuple(self._op_handles.get(op, ()))

    def int_params(self, op: Operation, handle: SSAValue) -> list[int]:
        """Integer values of a param handle; a silenceable failure for other attributes."""
        values = []
        for attr in self.params(handle):
            if not isinstance(attr, IntegerAttr):
                raise silenceable(op, f"expected an integer parameter, got {attr}")
            values.append(attr.value.data)
        return values

    # --- writing -------------------------------------------------------------------------

    def set_payload_ops(self, handle: SSAValue, ops: Iterable[Operation]) -> None:
        """Map an op handle, checking `!transform.op<"name">` types (silenceable)."""
        ops = list(ops)
        expected = handle.type
        if isinstance(expected, OperationType):
            name = expected.operation.data
            for op in ops:
                if op.name != name:
                    raise TransformError(
                        f"incompatible payload operation name expected {name} vs {op.name}",
                        value_location(handle),
                        (Note("payload operation", op_location(op)),),
                        silenceable=True,
                    )
        self._forget(handle)
        self._ops[handle] = ops
        for op in ops:
            self._op_handles.setdefault(op, []).append(handle)

    def set_payload_values(self, handle: SSAValue, values: Iterable[SSAValue]) -> None:
        self._forget(handle)
        values = list(values)
        self._values[handle] = values
        for value in values:
            self._value_handles.setdefault(value, []).append(handle)

    def set_params(self, handle: SSAValue, params: Iterable[Attribute]) -> None:
        """Map a param handle, checking `!transform.param<T>` element types (silenceable)."""
        params = list(params)
        expected = handle.type
        if isinstance(expected, ParamType):
            for attr in params:
                if not _param_matches(attr, expected.type):
                    raise TransformError(
                        f"expected parameter of type {expected.type}, got {attr}",
                        value_location(handle),
                        silenceable=True,
                    )
        self._forget(handle)
        self._params[handle] = params

    def set_mapped(
        self, handle: SSAValue, items: Sequence[Operation | SSAValue | Attribute | None]
    ) -> None:
        """Map `handle` to items of the kind its type asks for.

        A `None` item (an op result with nothing to map, e.g. a loop handle for a loop
        tiling did not create) is a definite failure at the handle, as upstream's
        `TransformState::setPayloadOps/setParams/setPayloadValues` report it.
        """
        kind = handle_kind(handle)
        if any(i is None for i in items):
            what = {
                "op": "payload op to this transform value",
                "value": "payload value to this transform handle",
            }.get(kind, "parameter to this transform value")
            raise TransformError(f"attempting to assign a null {what}", value_location(handle))
        if kind == "op":
            if not all(isinstance(i, Operation) for i in items):
                raise TransformError(
                    "wrong kind of value provided for an operation handle", value_location(handle)
                )
            self.set_payload_ops(handle, [i for i in items if isinstance(i, Operation)])
        elif kind == "value":
            if not all(isinstance(i, SSAValue) for i in items):
                raise TransformError(
                    "wrong kind of value provided for a value handle", value_location(handle)
                )
            self.set_payload_values(handle, [i for i in items if isinstance(i, SSAValue)])
        else:
            if not all(isinstance(i, Attribute) for i in items):
                raise TransformError(
                    "wrong kind of value provided for a parameter", value_location(handle)
                )
            self.set_params(handle, [i for i in items if isinstance(i, Attribute)])

    def _forget(self, handle: SSAValue) -> None:
        for op in self._ops.pop(handle, ()):
            handles = self._op_handles.get(op)
            if handles is not None:
                _remove_all(handles, handle)
                if not handles:
                    del self._op_handles[op]
        for value in self._values.pop(handle, ()):
            handles = self._value_handles.get(value)
            if handles is not None:
                _remove_all(handles, handle)
                if not handles:
                    del self._value_handles[value]
        self._params.pop(handle, None)

    def forget(self, handle: SSAValue) -> None:
        """Drop the mapping of a handle (a consumed handle after its op ran)."""
        self._forget(handle)

    # --- scopes --------------------------------------------------------------------------

    @contextmanager
    def region_scope(self, region: Region) -> Iterator[None]:
        """Forget the handles defined in `region` (and their invalidation) when it is left.

        A region may be entered again (foreach, alternatives, included sequences); stale
        mappings and invalidation notices from the previous entry must not survive.
        """
        try:
            yield
        finally:
            for block in region.blocks:
                for handle in _defined_handles(block):
                    self._forget(handle)
                    self._invalidated.pop(handle, None)

    # --- payload replacement (the TrackingListener) --------------------------------------

    def replace_payload_op(self, op: Operation, replacement: Operation | None) -> None:
        """Every handle to `op` now points to `replacement` (or loses `op` if None)."""
        handles = self._op_handles.pop(op, None)
        if not handles:
            return
        for handle in dict.fromkeys(handles):
            mapped = self._ops.get(handle)
            if mapped is None:
                continue
            if replacement is None:
                mapped[:] = [o for o in mapped if o is not op]
            else:
                mapped[:] = [replacement if o is op else o for o in mapped]
                self._op_handles.setdefault(replacement, []).append(handle)

    def replace_payload_value(self, value: SSAValue, replacement: SSAValue | None) -> None:
        handles = self._value_handles.pop(value, None)
        if not handles:
            return
        for handle in dict.fromkeys(handles):
            mapped = self._values.get(handle)
            if mapped is None:
                continue
            if replacement is None:
                mapped[:] = [v for v in mapped if v is not value]
            else:
                mapped[:] = [replacement if v is value else v for v in mapped]
                self._value_handles.setdefault(replacement, []).append(handle)

    def tracking_listener(self) -> PatternRewriterListener:
        """A rewriter listener keeping handles on replaced ops (upstream TrackingListener).

        A replaced op's handles move to the op defining all replacement values (when there
        is exactly one such op); otherwise, and for erased ops, the op leaves its handles.
        """

        def replaced(op: Operation, new_values: Sequence[SSAValue | None]) -> None:
            for old, new in zip(op.results, new_values, strict=False):
                self.replace_payload_value(old, new)
            owners = {v.op for v in new_values if isinstance(v, OpResult)}
            replacement = (
                owners.pop()
                if len(owners) == 1 and not any(isinstance(v, BlockArgument) for v in new_values)
                else None
            )
            self.replace_payload_op(op, replacement)

        def erased(op: Operation) -> None:
            for result in op.results:
                self.replace_payload_value(result, None)
            self.replace_payload_op(op, None)

        return PatternRewriterListener(
            operation_replacement_handler=[replaced], operation_removal_handler=[erased]
        )

    def rewriter(self, insertion_point: Operation) -> PatternRewriter:
        """A rewriter positioned before `insertion_point` that keeps handles up to date."""
        rewriter = PatternRewriter(insertion_point)
        rewriter.extend_from_listener(self.tracking_listener())
        return rewriter

    # --- invalidation (upstream's expensive checks, always on) ---------------------------

    def check_operands(
        self,
        transform_op: Operation,
        consumed: Sequence[SSAValue],
        *,
        allows_repeated: bool = False,
    ) -> None:
        """Upstream's expensive checks before an op runs, in upstream's order.

        Operands are visited in order: one that an earlier op invalidated is a definite
        error; so is one that a *preceding operand of this op* invalidates by being consumed,
        unless the op allows repeated handles (upstream's `allowsRepeatedHandleOperands`).
        Then a consumed handle pointing to the same payload twice is a silenceable failure.
        """
        location = op_location(transform_op)
        newly: dict[SSAValue, Invalidation] = {}
        try:
            for index, operand in enumerate(transform_op.operands):
                notice = self._invalidated.get(operand)
                if notice is None and not allows_repeated:
                    notice = newly.get(operand)
                if notice is not None:
                    raise notice(location)
                if operand in consumed:
                    self._invalidate_for(transform_op, index, operand, newly)
        finally:
            for handle, notice in newly.items():
                self._invalidated.setdefault(handle, notice)
        if allows_repeated:
            return
        for index, operand in enumerate(transform_op.operands):
            if operand not in consumed:
                continue
            seen: set[int] = set()
            for item in self.mapped(operand):
                if isinstance(item, Attribute):
                    break
                if id(item) in seen:
                    what = "op" if isinstance(item, Operation) else "value"
                    raise TransformError(
                        f"a handle passed as operand #{index} and consumed by this operation "
                        "points to a payload entity more than once",
                        location,
                        (Note(f"repeated target {what}", payload_location(item)),),
                        silenceable=True,
                    )
                seen.add(id(item))

    def _invalidate_for(
        self,
        owner: Operation,
        operand_index: int,
        consumed: SSAValue,
        newly: dict[SSAValue, Invalidation],
    ) -> None:
        kind = handle_kind(consumed)
        if kind == "param":
            return
        if kind == "op":
            ancestors = list(self.payload_ops(consumed))
        else:
            ancestors = [_defining_op(v) for v in self.payload_values(consumed)]
            ancestors = [a for a in ancestors if a is not None]
        owner_loc = op_location(owner)
        consumes = (
            f"invalidated by this transform op that consumes its operand #{operand_index} and "
            "invalidates all handles to payload IR entities associated with this operand and "
            "entities nested in them"
        )
        if not ancestors:
            newly.setdefault(
                consumed,
                lambda at: TransformError(
                    "op uses a handle associated with empty payload and invalidated by a "
                    "previously executed transform op",
                    at,
                    (
                        Note(
                            f"invalidated by this transform op that consumes its operand #{operand_index}",
                            owner_loc,
                        ),
                    ),
                ),
            )
            return
        # Each payload op climbs its own ancestor chain once against an index of the
        # consumed ops (linear, where testing every pair would be quadratic); the note names
        # the first consumed op, in handle order, that encloses it.
        order: dict[Operation, int] = {}
        for position, ancestor in enumerate(ancestors):
            order.setdefault(ancestor, position)
        for payload_op, handles in list(self._op_handles.items()):
            pending = [h for h in handles if h not in self._invalidated and h not in newly]
            if not pending:
                continue
            ancestor = _first_enclosing(payload_op, order, ancestors)
            if ancestor is None:
                continue
            for other in pending:
                newly.setdefault(
                    other,
                    _op_invalidation(
                        other,
                        consumes,
                        owner_loc,
                        op_location(ancestor),
                        op_location(payload_op),
                    ),
                )
        for payload_value, handles in list(self._value_handles.items()):
            pending = [h for h in handles if h not in self._invalidated and h not in newly]
            definer = _defining_op(payload_value)
            if not pending or definer is None:
                continue
            ancestor = _first_enclosing(definer, order, ancestors)
            if ancestor is None:
                continue
            for other in pending:
                newly.setdefault(
                    other,
                    _value_invalidation(
                        other, consumes, owner_loc, op_location(ancestor), payload_value
                    ),
                )
        newly.setdefault(
            consumed,
            _op_invalidation(
                consumed, consumes, owner_loc, op_location(ancestors[0]), op_location(ancestors[0])
            ),
        )

    def is_invalidated(self, handle: SSAValue) -> bool:
        return handle in self._invalidated


def handle_kind(handle: SSAValue) -> str:
    """ "op", "value" or "param": what a transform value's type says it holds."""
    t = handle.type
    if isinstance(t, AffineMapType):  # an attribute-valued param upstream
        return "param"
    if isinstance(t, TransformOpHandleType):
        return "op"
    if isinstance(t, TransformValueHandleType):
        return "value"
    if isinstance(t, TransformParamHandleType):
        return "param"
    return "op"


def _param_matches(attr: Attribute, element_type: Attribute) -> bool:
    if isinstance(element_type, IntegerType | IndexType):
        return isinstance(attr, IntegerAttr) and attr.type == element_type
    return True


def _defining_op(value: SSAValue) -> Operation | None:
    if isinstance(value, OpResult):
        return value.op
    if isinstance(value, BlockArgument):
        return value.block.parent_op()
    return None


def _defined_handles(block: Block) -> Iterator[SSAValue]:
    yield from block.args
    for op in block.ops:
        yield from op.results


def _remove_all(items: list[SSAValue], value: SSAValue) -> None:
    items[:] = [v for v in items if v is not value]


def _op_invalidation(
    handle: SSAValue,
    consumes: str,
    owner_loc: Location | None,
    ancestor_loc: Location | None,
    payload_loc: Location | None,
) -> Invalidation:
    handle_loc = value_location(handle)

    def build(at: Location | None) -> TransformError:
        return TransformError(
            "op uses a handle invalidated by a previously executed transform op",
            at,
            (
                Note("handle to invalidated ops", handle_loc),
                Note(consumes, owner_loc),
                Note("ancestor payload op", ancestor_loc),
                Note("nested payload op", payload_loc),
            ),
        )

    return build


def _value_invalidation(
    handle: SSAValue,
    consumes: str,
    owner_loc: Location | None,
    ancestor_loc: Location | None,
    payload_value: SSAValue,
) -> Invalidation:
    handle_loc = value_location(handle)
    definer = _defining_op(payload_value)
    if isinstance(payload_value, OpResult):
        defined = f"op defining the value as result #{payload_value.index}"
    elif isinstance(payload_value, BlockArgument):
        defined = f"op defining the value as block argument #{payload_value.index}"
    else:
        defined = "op defining the value"
    definer_loc = op_location(definer) if definer is not None else None

    def build(at: Location | None) -> TransformError:
        return TransformError(
            "op uses a handle invalidated by a previously executed transform op",
            at,
            (
                Note("invalidated handle", handle_loc),
                Note(consumes, owner_loc),
                Note("ancestor op associated with the consumed handle", ancestor_loc),
                Note(defined, definer_loc),
            ),
        )

    return build


__all__ = [
    "AnyParamType",
    "MultipleTransformErrors",
    "TransformState",
    "definite",
    "handle_kind",
    "is_ancestor",
    "payload_location",
    "rewrite_failure",
    "silenceable",
    "value_location",
]
