"""`sink_ops` (upstream's `populateSinkVectorOpsPatterns`, VectorTransforms.cpp).

Moves `vector.broadcast` / `vector.transpose` below the elementwise ops that consume them
and `vector.extract` above the elementwise op it reads, so that broadcasts and transposes
meet the contractions that can absorb them and single lanes are computed as scalars:

- ReorderElementwiseOpsOnTranspose: `ew(transpose(a), transpose(b))` ->
  `transpose(ew(a, b))` (same permutation; constants get the inverse transpose);
- ReorderCastOpsOnBroadcast: `cast(broadcast(x))` -> `broadcast(cast(x))`;
- ReorderElementwiseOpsOnBroadcast: `ew(broadcast(a), broadcast(b))` ->
  `broadcast(ew(a, b))` (same source shape; splat constants are shrunk);
- ExtractOpFromElementwise: `extract(ew(a, b))` -> `ew(extract(a), extract(b))` when the
  elementwise op has no other use.

Before:

    %a = vector.broadcast %x : f32 to vector<4xf32>
    %b = vector.broadcast %y : f32 to vector<4xf32>
    %r = arith.addf %a, %b : vector<4xf32>

After:

    %s = arith.addf %x, %y : f32
    %r = vector.broadcast %s : f32 to vector<4xf32>
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr, VectorType
from xdsl.ir import Attribute, Operation, OpResult, SSAValue

from schedir.dialects import arith as shaped_arith
from schedir.dialects import vector
from schedir.dialects.vector.attributes import element_type, scalable_dims, vec
from schedir.transform.rewrites.constants import constant_attr
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.utils import (
    broadcast,
    constant,
    extract,
    is_elementwise_mappable,
    transpose,
    zero_attr,
)

_CASTS: tuple[type[Operation], ...] = (
    arith.ExtFOp,
    arith.TruncFOp,
    arith.ExtSIOp,
    arith.ExtUIOp,
    arith.TruncIOp,
    arith.SIToFPOp,
    arith.UIToFPOp,
    arith.FPToSIOp,
    arith.FPToUIOp,
    arith.IndexCastOp,
    shaped_arith.IndexCastUIOp,
    arith.BitcastOp,
)
"""Ops with upstream's CastOpInterface that can take a vector (xDSL's classes, which
schedir's replacements subclass, and schedir's `arith.index_castui`)."""


def _clone(op: Operation, operands: list[SSAValue], result_type: Attribute) -> Operation:
    return type(op).create(
        operands=operands,
        result_types=[result_type],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
    )


def _with_element(t: Attribute, elem: Attribute) -> Attribute:
    """Upstream's `cloneOrReplace`: `t` with element type `elem`, or `elem` for a scalar."""
    if isinstance(t, VectorType):
        return vec(t.get_shape(), elem, scalable_dims(t))
    return elem


def _is_constant(value: SSAValue) -> bool:
    return isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp)


def _splat_constant(value: SSAValue) -> DenseIntOrFPElementsAttr | None:
    if not _is_constant(value):
        return None
    attr = constant_attr(value)
    if isinstance(attr, DenseIntOrFPElementsAttr) and attr.is_splat():
        return attr
    return None


def _broadcast_source(value: SSAValue) -> SSAValue | None:
    """Upstream's `getBroadcastLikeSource`."""
    if isinstance(value, OpResult) and isinstance(value.op, vector.BroadcastOp):
        return value.op.source
    return None


def reorder_elementwise_on_transpose(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `ReorderElementwiseOpsOnTranspose`."""
    if not is_elementwise_mappable(op) or len(op.results) != 1 or op.regions:
        return False
    perms: list[tuple[int, ...]] = []
    src_type: VectorType | None = None
    for operand in op.operands:
        owner = operand.owner
        if isinstance(owner, vector.TransposeOp):
            perms.append(tuple(owner.perm()))
            src_type = cast(VectorType, owner.vector.type)
        elif not _is_constant(operand):
            return False
    if not perms or src_type is None or any(p != perms[0] for p in perms):
        return False
    order = perms[0]
    inverse = [0] * len(order)
    for i, o in enumerate(order):
        inverse[o] = i
    sources: list[SSAValue] = []
    for operand in op.operands:
        owner = operand.owner
        if isinstance(owner, vector.TransposeOp):
            sources.append(owner.vector)
        else:
            sources.append(transpose(rw, operand, inverse, cast(Operation, owner)))
    result_elem = element_type(op.results[0].type)
    new = _clone(op, sources, _with_element(src_type, result_elem))
    rw.create(new, op)
    rw.replace_values(op, [transpose(rw, new.results[0], order, op)])
    return True


def reorder_cast_on_broadcast(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `ReorderCastOpsOnBroadcast`."""
    if not isinstance(op, _CASTS) or len(op.operands) != 1:
        return False
    source = _broadcast_source(op.operands[0])
    if source is None:
        return False
    result_type = _with_element(source.type, element_type(op.results[0].type))
    new = _clone(op, [source], result_type)
    rw.create(new, op)
    rw.replace_values(op, [broadcast(rw, new.results[0], cast(VectorType, op.results[0].type), op)])
    return True


def _same_shape(a: Attribute, b: Attribute) -> bool:
    """Upstream's `haveSameShapeAndScaling`."""
    if not isinstance(a, VectorType):
        return not isinstance(b, VectorType)
    if not isinstance(b, VectorType):
        return False
    return a.get_shape() == b.get_shape() and scalable_dims(a) == scalable_dims(b)


def reorder_elementwise_on_broadcast(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `ReorderElementwiseOpsOnBroadcast`."""
    if len(op.results) != 1 or not isinstance(op.results[0].type, VectorType):
        return False
    if not is_elementwise_mappable(op) or not op.operands or isinstance(op, vector.FMAOp):
        return False
    result_type = cast(VectorType, op.results[0].type)
    splat_source: SSAValue | None = None
    for operand in op.operands:
        if not isinstance(operand, OpResult):
            return False
        if _is_constant(operand):
            continue
        splat_source = _broadcast_source(operand)
        break
    if splat_source is None:
        return False
    unbroadcast = _with_element(splat_source.type, result_type.get_element_type())
    for operand in op.operands:
        source = _broadcast_source(operand)
        if source is not None:
            if not _same_shape(source.type, splat_source.type):
                return False
        elif _splat_constant(operand) is None:
            return False
    sources: list[SSAValue] = []
    for operand in op.operands:
        splat = _splat_constant(operand)
        if splat is not None:
            new_type = _with_element(unbroadcast, element_type(operand.type))
            # Vector element types are integers and floats: no complex values here.
            value = cast(int | float, splat.get_values()[0])
            if isinstance(new_type, VectorType):
                attr: Attribute = DenseIntOrFPElementsAttr.from_list(new_type, [value])
            else:
                attr = _scalar(zero_attr(new_type), value)
            sources.append(constant(rw, attr, new_type, cast(Operation, operand.owner)))
        else:
            sources.append(cast(Operation, operand.owner).operands[0])
    new = _clone(op, sources, unbroadcast)
    rw.create(new, op)
    rw.replace_values(op, [broadcast(rw, new.results[0], result_type, op)])
    return True


def _scalar(template: Attribute, value: int | float) -> Attribute:
    """An attribute like `template` (an IntegerAttr / FloatAttr) holding `value`."""
    if isinstance(template, FloatAttr):
        return FloatAttr(value, template.type)
    assert isinstance(template, IntegerAttr)
    return IntegerAttr(cast(int, value), template.type)


def extract_from_elementwise(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `ExtractOpFromElementwise`."""
    assert isinstance(op, vector.ExtractOp)
    eltwise = op.vector.owner
    if not isinstance(eltwise, Operation) or not is_elementwise_mappable(eltwise):
        return False
    if isinstance(eltwise, vector.FMAOp) or len(eltwise.results) != 1:
        return False
    if not eltwise.results[0].has_one_use():
        return False
    if len({o.type for o in eltwise.operands}) > 1:
        return False
    if len(op.dynamic_position) != 0:
        return False
    position = [int(p) for p in op.static_position.get_values()]
    saved = rw.insertion_point
    rw.set_insertion_point(eltwise)
    operands = [extract(rw, arg, position, eltwise) for arg in eltwise.operands]
    new = _clone(eltwise, operands, op.result.type)
    rw.create(new, eltwise)
    rw.insertion_point = saved
    rw.replace_values(op, [new.results[0]])
    rw.erase(eltwise)
    return True


def sink_patterns() -> PatternSet:
    """Upstream's `populateSinkVectorOpsPatterns`."""
    return (
        PatternSet()
        .add(vector.ExtractOp, extract_from_elementwise)
        .add(None, reorder_elementwise_on_transpose)
        .add(None, reorder_cast_on_broadcast)
        .add(None, reorder_elementwise_on_broadcast)
    )


__all__ = ["sink_patterns"]
