"""The rewriter every payload algorithm uses: xDSL's `PatternRewriter` with upstream's
notification habits.

The greedy driver and the transform handles rely on them: moved and cloned ops are
announced as inserted (upstream's `inlineBlockBefore` / `clone` do so), every new op gets
the location of the op it is built for, and new constants get the names upstream's printer
gives them (`%c4`, `%cst`, `%true`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, LocationAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriterListener
from xdsl.rewriter import InsertPoint

from schedir.dialects.utils import Mixed


class CanonRewriter(PatternRewriter):
    """A `PatternRewriter` that reports moves and clones as insertions, as upstream's."""

    def __init__(
        self, insert_point: Operation | InsertPoint, listener: PatternRewriterListener | None = None
    ):
        super().__init__(insert_point)
        if listener is not None:
            self.extend_from_listener(listener)

    def set_insertion_point(self, point: InsertPoint | Operation) -> None:
        """Insert before `point` when given an op."""
        self.insertion_point = InsertPoint.before(point) if isinstance(point, Operation) else point

    def inline_block(
        self,
        block: Block,
        insertion_point: InsertPoint,
        arg_values: Sequence[SSAValue] = (),
    ) -> None:
        moved = list(block.ops)
        super().inline_block(block, insertion_point, arg_values)
        for op in moved:
            self.handle_operation_insertion(op)

    def move_op(self, op: Operation, point: InsertPoint) -> None:
        """Move `op` (announced as an insertion, as upstream's `moveOpBefore`)."""
        self.has_done_action = True
        op.detach()
        if point.insert_before is not None:
            point.block.insert_op_before(op, point.insert_before)
        else:
            point.block.add_op(op)
        self.handle_operation_insertion(op)

    def modified(self, op: Operation) -> None:
        """Announce an in-place update of `op`."""
        self.notify_op_modified(op)

    def create(self, op: Operation, loc: LocationAttr | Operation | None = None) -> Operation:
        """Insert `op` at the insertion point with `loc` (an op lends its location)."""
        if isinstance(loc, Operation):
            loc = loc.location
        if loc is not None:
            op.location = loc
        if isinstance(op, arith.ConstantOp) and op.results[0].name_hint is None:
            # As upstream's printer names constants (%c4, %cst, %true).
            value = op.properties.get("value")
            op.results[0].name_hint = constant_name(value) if value is not None else None
        self.insert(op)
        return op

    def constant_index(self, value: int, loc: LocationAttr | Operation | None) -> SSAValue:
        """A new `arith.constant <value> : index` at the insertion point."""
        return self.create(arith.ConstantOp(IntegerAttr(value, IndexType())), loc).results[0]

    def mixed_value(self, value: Mixed, loc: LocationAttr | Operation | None) -> SSAValue:
        """An SSA value for a mixed entry (constants materialized as index constants)."""
        return value if isinstance(value, SSAValue) else self.constant_index(value, loc)

    def replace_values(self, op: Operation, values: Sequence[SSAValue | None]) -> None:
        """Replace all results of `op` with `values` and erase it (upstream `replaceOp`)."""
        self.replace(op, [], list(values))

    def replace_with_op(self, op: Operation, new: Operation) -> None:
        """Insert `new` before `op`, give it `op`'s location, and replace `op` by it."""
        new.location = op.location
        self.replace(op, new, list(new.results))


class PayloadRewriteError(Exception):
    """Why a rewrite cannot apply to its payload: the reason (`message`, upstream's wording
    where upstream has the check) and the payload op it is about (`op`, where the
    diagnostic points). Each rewrite raises its own subclass before changing anything; the
    transform op reports it as a silenceable failure."""

    def __init__(self, message: str, op: Operation) -> None:
        super().__init__(message)
        self.message = message
        self.op = op


def emit(rewriter: PatternRewriter, at: InsertPoint, op: Operation) -> SSAValue:
    """Insert `op` at `at` and return its (first) result."""
    rewriter.insert(op, at)
    return op.results[0]


def emit_index(rewriter: PatternRewriter, at: InsertPoint, value: int) -> SSAValue:
    """An `arith.constant value : index` inserted at `at`."""
    return emit(rewriter, at, arith.ConstantOp(IntegerAttr(value, IndexType())))


def constant_name(attr: Attribute) -> str | None:
    """The name upstream's printer gives a constant (`%c4`, `%c4_i32`, `%true`, `%cst`)."""
    if isinstance(attr, IntegerAttr):
        value = attr.value.data
        if isinstance(attr.type, IntegerType) and attr.type.width.data == 1:
            return "true" if value else "false"
        if value < 0:
            return None
        if isinstance(attr.type, IntegerType):
            return f"c{value}_i{attr.type.width.data}"
        return f"c{value}"
    return "cst"


__all__ = ["CanonRewriter", "PayloadRewriteError", "constant_name", "emit", "emit_index"]
