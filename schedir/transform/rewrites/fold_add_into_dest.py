"""The `linalg.fold_add_into_dest` pattern set (upstream's Linalg/Transforms/
FoldAddIntoDest.cpp): a `linalg.add` of two values, one of them the only use of a
contraction whose destination is zero, becomes that contraction accumulating into the
other value.

    %z = linalg.fill ins(%cst0 : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %c = linalg.matmul ins(%a, %b : ...) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
    %r = linalg.add ins(%c, %d : ...) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    // ->
    %r = linalg.matmul ins(%a, %b : ...) outs(%d : tensor<4x8xf32>) -> tensor<4x8xf32>

As upstream, the add must be on tensors; the other summand must properly dominate the
contraction (when each operand could serve, the contraction defining the first one takes
the second); the contraction must have one result, one destination, the add as the only
user of its result, a destination that is zero (a zero constant or splat, or a
`linalg.fill` / `linalg.copy` of one) and a destination indexing map that is an ordered
projection. Only upstream's `linalg.add` matches: a `linalg.generic` that adds is left
alone (as upstream's interpreter does), and schedir's parser, like the installed upstream
one, no longer reads `linalg.add`, so the pattern sees it only in IR built in Python.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, MemRefType
from xdsl.dialects.linalg import ops as xlinalg
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineDimExpr

from schedir.dialects.linalg import CopyOp, FillOp
from schedir.dialects.linalg.generalize import as_generic
from schedir.dialects.linalg.interface import dps_inits, dps_inputs, indexing_maps, is_structured
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.specialize import is_contraction


def _is_zero_constant(value: SSAValue) -> bool:
    """Upstream's `isZeroIntegerOrFloat`: an integer or float zero constant, scalar or splat."""
    owner = value.owner
    if not isinstance(owner, arith.ConstantOp):
        return False
    attr = owner.value
    if isinstance(attr, DenseIntOrFPElementsAttr):
        values = attr.get_values()
        return len(set(values)) == 1 and values[0] == 0
    return isinstance(attr, IntegerAttr | FloatAttr) and attr.value.data == 0


def _defined_as_zero(value: SSAValue) -> bool:
    """Upstream's `isDefinedAsZero`: a zero constant, or a fill / copy of one."""
    if _is_zero_constant(value):
        return True
    owner = value.owner
    if isinstance(owner, FillOp | CopyOp):
        inputs = dps_inputs(owner)
        return len(inputs) == 1 and _defined_as_zero(inputs[0])
    return False


def _ancestor_in(op: Operation, block: Block) -> Operation | None:
    """`op` or its ancestor that lies in `block` (None if `op` is not nested in it)."""
    current: Operation | None = op
    while current is not None and current.parent is not block:
        current = current.parent_op()
    return current


def _properly_dominates(value: SSAValue, op: Operation) -> bool:
    """Upstream's `DominanceInfo::properlyDominates(value, op)` in single-block regions."""
    if isinstance(value, BlockArgument):
        return _ancestor_in(op, value.block) is not None
    assert isinstance(value, OpResult)
    block = value.op.parent
    if block is None:
        return False
    ancestor = _ancestor_in(op, block)
    if ancestor is None or ancestor is value.op:
        return False
    return block.get_operation_index(value.op) < block.get_operation_index(ancestor)


def _is_contraction(op: Operation) -> bool:
    """Upstream's `isaContractionOpInterface` on any structured op."""
    generic = as_generic(op)
    try:
        return is_contraction(generic)
    finally:
        # The generic only stands for `op`: drop its uses of `op`'s operands.
        generic.erase()


def _has_pure_tensor_semantics(op: Operation) -> bool:
    """Upstream's `hasPureTensorSemantics`: no operand is a buffer."""
    return not any(isinstance(v.type, MemRefType) for v in op.operands)


def fold_add_into_dest(add: xlinalg.AddOp, rw: CanonRewriter) -> bool:
    """Upstream's `FoldAddIntoDest` pattern on one `linalg.add`."""
    if not _has_pure_tensor_semantics(add):
        return False
    inputs = dps_inputs(add)
    if len(inputs) != 2:
        return False
    lhs, rhs = inputs
    dominating: SSAValue | None = None
    dominated: Operation | None = None
    # As upstream: try rhs's producer first, then lhs's (which wins when both fit).
    for summand, other in ((rhs, lhs), (lhs, rhs)):
        producer = summand.owner
        if (
            isinstance(producer, Operation)
            and is_structured(producer)
            and _properly_dominates(other, producer)
        ):
            dominating, dominated = other, producer
    if dominating is None or dominated is None:
        return False
    inits = dps_inits(dominated)
    if len(dominated.results) != 1 or len(inits) != 1 or not _is_contraction(dominated):
        return False
    if len(list(dominated.results[0].uses)) != 1:
        return False
    if not _defined_as_zero(inits[0]):
        return False
    init_index = len(dps_inputs(dominated))
    previous = -1
    for expr in indexing_maps(dominated)[init_index].results:
        if not isinstance(expr, AffineDimExpr) or expr.position < previous:
            return False
        previous = expr.position
    dominated.operands[init_index] = dominating
    rw.modified(dominated)
    rw.replace_values(add, [dominated.results[0]])
    return True


def fold_add_into_dest_patterns() -> PatternSet:
    """The pattern set of `transform.apply_patterns.linalg.fold_add_into_dest`."""
    return PatternSet().add(xlinalg.AddOp, fold_add_into_dest)


__all__ = ["fold_add_into_dest", "fold_add_into_dest_patterns"]
