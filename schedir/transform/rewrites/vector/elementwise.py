"""The pattern set of `apply_patterns.vector.elementwise_to_vector` (upstream
VectorTransforms.cpp `populateElementwiseToVectorOpsPatterns`): an elementwise product of
a transposed broadcast and a broadcast of two 1-D vectors is their outer product, and
contractions of extended operands fold the extensions (`fold_arith_extension`).

    %lb = vector.broadcast %lhs : vector<16xf32> to vector<8x16xf32>
    %lt = vector.transpose %lb, [1, 0] : vector<8x16xf32> to vector<16x8xf32>
    %rb = vector.broadcast %rhs : vector<8xf32> to vector<16x8xf32>
    %m = arith.mulf %lt, %rb : vector<16x8xf32>
    // ->
    %m = vector.outerproduct %lhs, %rhs : vector<16xf32>, vector<8xf32>
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Operation, OpResult, SSAValue

from schedir.dialects import vector
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.contract import fold_arith_extension_patterns


def _broadcast_source(value: SSAValue) -> SSAValue | None:
    """The 1-D source of a `vector.broadcast` that only adds a leading dimension."""
    if not isinstance(value, OpResult) or not isinstance(value.op, vector.BroadcastOp):
        return None
    source = value.op.operands[0]
    result = value.type
    if not isinstance(source.type, VectorType) or not isinstance(result, VectorType):
        return None
    if source.type.get_num_dims() != 1 or result.get_num_dims() != 2:
        return None
    return source if result.get_shape()[1] == source.type.get_shape()[0] else None


def _outer(lhs: SSAValue, rhs: SSAValue) -> tuple[SSAValue, SSAValue] | None:
    """(lhs source, rhs source) when `lhs` is a transposed broadcast and `rhs` a
    broadcast."""
    if not isinstance(lhs, OpResult) or not isinstance(lhs.op, vector.TransposeOp):
        return None
    if list(lhs.op.permutation.get_values()) != [1, 0]:
        return None
    left = _broadcast_source(lhs.op.vector)
    right = _broadcast_source(rhs)
    return (left, right) if left is not None and right is not None else None


def elementwise_to_outerproduct(op: Operation, rw: CanonRewriter) -> bool:
    """`mul(transpose(broadcast(a)), broadcast(b))` (either order) -> `outerproduct a, b`."""
    result = op.results[0].type
    if not isinstance(result, VectorType) or result.get_num_dims() != 2:
        return False
    lhs, rhs = op.operands
    sources = _outer(lhs, rhs) or _outer(rhs, lhs)
    if sources is None:
        return False
    # vector.outerproduct takes a scalable lhs only with a scalable rhs.
    lhs_t, rhs_t = sources[0].type, sources[1].type
    assert isinstance(lhs_t, VectorType) and isinstance(rhs_t, VectorType)
    if lhs_t.get_num_scalable_dims() and not rhs_t.get_num_scalable_dims():
        return False
    # Built with the product's own type: scalable dims (`vector<[4]x[4]xi32>`) are kept.
    default = vector.OuterProductOp(sources[0], sources[1])
    outer = vector.OuterProductOp.build(
        operands=[sources[0], sources[1], []],
        result_types=[result],
        properties=dict(default.properties),
    )
    rw.replace_with_op(op, outer)
    return True


def elementwise_to_vector_patterns() -> PatternSet:
    """The patterns of `vector.elementwise_to_vector`."""
    return (
        PatternSet()
        .add(arith.MulfOp, elementwise_to_outerproduct)
        .add(arith.MuliOp, elementwise_to_outerproduct)
        .update(fold_arith_extension_patterns())
    )


__all__ = ["elementwise_to_outerproduct", "elementwise_to_vector_patterns"]
