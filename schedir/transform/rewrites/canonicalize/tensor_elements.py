"""Folders and patterns of the tensor ops on elements and whole shapes (upstream
TensorOps.cpp): `tensor.extract`, `tensor.insert`, `tensor.from_elements`,
`tensor.reshape`.

* `extract` of `from_elements` or of a constant at constant indices is the element;
  `extract(cast(x))` extracts from `x` (ExtractFromTensorCast);
* `insert` of a splat constant's own value into it is the constant;
* `from_elements` of constants is a dense constant;
* `reshape` of a splat constant is the splat at the new shape, `reshape(reshape(x))`
  reshapes `x`, and a reshape to the source's own type is the source when the rank is at
  most one or the shape operand spells the source's sizes.

    %t = tensor.from_elements %c1, %c7 : tensor<2xindex>   =>  arith.constant dense<[1, 7]>
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation, SSAValue

from schedir.transform.rewrites.constants import constant_attr, constant_int
from schedir.transform.rewrites.greedy import Folder, PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter


def _scalar(value: int | float, type_: Attribute) -> Attribute:
    if isinstance(value, float):
        return FloatAttr(value, type_)  # type: ignore[arg-type]  # xDSL types the attribute's type parameter narrower than the int/float type checked here
    return IntegerAttr(value, type_)  # type: ignore[arg-type]  # xDSL types the attribute's type parameter narrower than the int/float type checked here


def _flat_index(indices: Sequence[int], shape: Sequence[int]) -> int | None:
    """Row-major position of `indices` in a static `shape`; None when out of bounds."""
    flat = 0
    for i, d in zip(indices, shape, strict=True):
        if not 0 <= i < d:
            return None
        flat = flat * d + i
    return flat


def fold_extract(op: Operation) -> list[Attribute | SSAValue] | None:
    """Upstream's `ExtractOp::fold`: splat constants, then (constant indices only)
    `from_elements` and dense constants."""
    source = op.operands[0]
    attr = constant_attr(source)
    elem = op.results[0].type
    if isinstance(attr, DenseIntOrFPElementsAttr) and attr.is_splat():
        return [_scalar(attr.get_values()[0], elem)]
    indices: list[int] = []
    for value in op.operands[1:]:
        index = constant_int(value)
        if index is None:
            return None
        indices.append(index)
    shape = source.type.get_shape()  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
    if any(d < 0 for d in shape):
        return None
    flat = _flat_index(indices, shape)
    if flat is None:
        return None
    owner = source.owner
    if isinstance(owner, tensor.FromElementsOp):
        return [owner.operands[flat]]
    if isinstance(attr, DenseIntOrFPElementsAttr):
        return [_scalar(attr.get_values()[flat], elem)]
    return None


def fold_insert(op: Operation) -> list[Attribute | SSAValue] | None:
    """Upstream's `InsertOp::fold`: inserting a splat constant's value into it."""
    scalar, dest = constant_attr(op.operands[0]), constant_attr(op.operands[1])
    if not isinstance(dest, DenseIntOrFPElementsAttr) or not dest.is_splat():
        return None
    if not isinstance(scalar, IntegerAttr | FloatAttr):
        return None
    if scalar != _scalar(dest.get_values()[0], scalar.type):
        return None
    return [dest]


def fold_from_elements(op: Operation) -> list[Attribute | SSAValue] | None:
    """Upstream's `FromElementsOp::fold`: constant elements make a dense constant."""
    values: list[int | float] = []
    for operand in op.operands:
        attr = constant_attr(operand)
        if isinstance(attr, IntegerAttr | FloatAttr):
            values.append(attr.value.data)
        else:
            return None
    type_ = op.results[0].type
    assert isinstance(type_, TensorType)
    return [DenseIntOrFPElementsAttr.from_list(type_, values)]  # type: ignore[arg-type]  # xDSL's from_list wants a narrower container type than the tensor type checked here


def _spells_source_shape(shape: SSAValue, source: SSAValue) -> bool:
    """Whether a `from_elements` shape operand lists `source`'s sizes (constants for the
    static ones, `tensor.dim` of `source` at their own index for the dynamic ones)."""
    owner = shape.owner
    if not isinstance(owner, tensor.FromElementsOp):
        return False
    dims = source.type.get_shape()  # type: ignore[attr-defined]  # the operand is a ranked shaped type (the op verifies it)
    if len(owner.operands) != len(dims):
        return False
    for position, element in enumerate(owner.operands):
        value = constant_int(element)
        if value is not None:
            if value != dims[position]:
                return False
            continue
        dim = element.owner
        if not isinstance(dim, tensor.DimOp):
            return False
        if dim.operands[0] is not source or constant_int(dim.operands[1]) != position:
            return False
    return True


def fold_reshape(op: Operation) -> list[Attribute | SSAValue] | bool | None:
    """Upstream's `ReshapeOp::fold`."""
    source, shape = op.operands
    result_type = op.results[0].type
    assert isinstance(result_type, TensorType)
    attr = constant_attr(source)
    if (
        isinstance(attr, DenseIntOrFPElementsAttr)
        and attr.is_splat()
        and all(d >= 0 for d in result_type.get_shape())
    ):
        count = 1
        for d in result_type.get_shape():
            count *= d
        return [DenseIntOrFPElementsAttr.from_list(result_type, [attr.get_values()[0]] * count)]  # type: ignore[arg-type]  # xDSL's from_list wants a narrower container type than the tensor type checked here
    producer = source.owner
    if isinstance(producer, tensor.ReshapeOp):
        op.operands = [producer.operands[0], shape]
        return True
    if source.type != result_type:
        return None
    if len(result_type.get_shape()) <= 1 or _spells_source_shape(shape, source):
        return [source]
    return None


FOLDERS: dict[type[Operation], Folder] = {
    tensor.ExtractOp: fold_extract,
    tensor.InsertOp: fold_insert,
    tensor.FromElementsOp: fold_from_elements,
    tensor.ReshapeOp: fold_reshape,
}


def extract_from_cast(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's ExtractFromTensorCast: extract from the cast's ranked source."""
    cast = op.operands[0].owner
    if not isinstance(cast, tensor.CastOp):
        return False
    if not isinstance(cast.operands[0].type, TensorType):
        return False
    new = op.clone()
    new.operands = [cast.operands[0], *op.operands[1:]]
    rw.replace_with_op(op, new)
    return True


def patterns() -> PatternSet:
    return PatternSet().add(tensor.ExtractOp, extract_from_cast)


__all__ = [
    "FOLDERS",
    "extract_from_cast",
    "fold_extract",
    "fold_from_elements",
    "fold_insert",
    "fold_reshape",
    "patterns",
]
