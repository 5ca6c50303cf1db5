"""The bufferization dialect as schedir uses it: xDSL's ops with upstream's type rules.

xDSL ties `to_tensor`, `to_buffer` and `materialize_in_destination` to memrefs with the
identity layout and no memory space (its tensor type is derived from the memref type and
compared whole). Upstream only asks for the same shape and element type, so a buffer in
workgroup memory or a strided view may cross the tensor/buffer boundary:

    %t = bufferization.to_tensor %a restrict writable : memref<4x8xf32, #gpu.address_space<workgroup>> to tensor<4x8xf32>
    %m = bufferization.to_buffer %t read_only : tensor<4x8xf32> to memref<4x8xf32, strided<[?, ?], offset: ?>>
    bufferization.materialize_in_destination %t in writable %v : (tensor<4x8xf32>, memref<4x8xf32, strided<[8, 1], offset: ?>>) -> ()

The ops below subclass xDSL's (so `isinstance(op, xdsl.dialects.bufferization.ToTensorOp)`
still holds) and replace their constraints; their syntax is upstream's. The other ops are
xDSL's.
"""

from __future__ import annotations

from xdsl.dialects import bufferization as xbufferization
from xdsl.dialects.builtin import (
    ContainerType,
    MemRefType,
    ShapedType,
    TensorType,
    UnitAttr,
    UnrankedMemRefType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    opt_result_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.utils import FORMAT_PARSE, FORMAT_PRINT

_MEMREF = base(MemRefType) | base(UnrankedMemRefType)
_TENSOR = base(TensorType) | base(UnrankedTensorType)


def _shape(t: Attribute) -> tuple[int, ...] | None:
    """The shape of a ranked shaped type, None if unranked."""
    return tuple(t.get_shape()) if isinstance(t, ShapedType) else None


def _element(t: Attribute) -> Attribute:
    """The element type of a tensor or memref type."""
    assert isinstance(t, ContainerType)
    return t.get_element_type()


def _verify_same_shape(memref: Attribute, tensor: Attribute, what: str) -> None:
    """Upstream's `TypesMatchWith` on tensor/buffer pairs: same shape, same element type."""
    if _element(memref) != _element(tensor) or _shape(memref) != _shape(tensor):
        raise VerifyException(f"failed to verify that {what}")


@irdl_op_definition
class ToTensorOp(xbufferization.ToTensorOp):
    """A tensor view of a buffer (any layout, any memory space).

    %t = bufferization.to_tensor %m restrict writable : memref<4xf32, 3> to tensor<4xf32>
    """

    name = "bufferization.to_tensor"

    memref = operand_def(_MEMREF)
    tensor = result_def(_TENSOR)
    writable = opt_prop_def(UnitAttr)
    restrict = opt_prop_def(UnitAttr)

    assembly_format = (
        "$memref (`restrict` $restrict^)? (`writable` $writable^)? attr-dict `:` "
        "type($memref) `to` type($tensor)"
    )
    parse = FORMAT_PARSE
    print = FORMAT_PRINT

    def __init__(
        self, memref: SSAValue | Operation, restrict: bool = False, writable: bool = False
    ) -> None:
        value = SSAValue.get(memref)
        memref_type = value.type
        tensor_type: Attribute
        if isinstance(memref_type, MemRefType):
            tensor_type = TensorType(memref_type.element_type, memref_type.get_shape())
        else:
            assert isinstance(memref_type, UnrankedMemRefType)
            tensor_type = UnrankedTensorType(memref_type.element_type)
        props: dict[str, Attribute] = {}
        if restrict:
            props["restrict"] = UnitAttr()
        if writable:
            props["writable"] = UnitAttr()
        # xDSL's constructor derives the tensor type through its own strict constraint.
        IRDLOperation.__init__(self, operands=[value], result_types=[tensor_type], properties=props)

    def verify_(self) -> None:
        _verify_same_shape(
            self.memref.type,
            self.tensor.type,
            "type of 'tensor' is the tensor equivalent of 'memref'",
        )


@irdl_op_definition
class ToBufferOp(xbufferization.ToBufferOp):
    """The buffer of a tensor, with any layout or memory space the user asks for.

    %m = bufferization.to_buffer %t read_only : tensor<4xf32> to memref<4xf32, strided<[?], offset: ?>>
    """

    name = "bufferization.to_buffer"

    tensor = operand_def(_TENSOR)
    memref = result_def(_MEMREF)
    read_only = opt_prop_def(UnitAttr)

    assembly_format = (
        "$tensor (`read_only` $read_only^)? attr-dict `:` type($tensor) `to` type($memref)"
    )
    parse = FORMAT_PARSE
    print = FORMAT_PRINT

    def verify_(self) -> None:
        _verify_same_shape(
            self.memref.type,
            self.tensor.type,
            "type of 'tensor' is the tensor equivalent of 'memref'",
        )


@irdl_op_definition
class MaterializeInDestinationOp(xbufferization.MaterializeInDestinationOp):
    """Stores a tensor into a destination tensor or buffer (any layout, any memory space).

    bufferization.materialize_in_destination %t in writable %m : (tensor<4xf32>, memref<4xf32, 3>) -> ()
    %r = bufferization.materialize_in_destination %t in %d : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    """

    name = "bufferization.materialize_in_destination"

    source = operand_def(_TENSOR)
    dest = operand_def(_TENSOR | _MEMREF)
    result = opt_result_def(_TENSOR)
    restrict = opt_prop_def(UnitAttr)
    writable = opt_prop_def(UnitAttr)

    assembly_format = (
        "$source `in` (`restrict` $restrict^)? (`writable` $writable^)? $dest attr-dict `:` "
        "functional-type(operands, results)"
    )
    parse = FORMAT_PARSE
    print = FORMAT_PRINT

    def verify_(self) -> None:
        # Upstream's MaterializeInDestinationOp::verify.
        dest_type = self.dest.type
        if not isinstance(
            dest_type, TensorType | UnrankedTensorType | MemRefType | UnrankedMemRefType
        ):
            raise VerifyException("'dest' must be a tensor or a memref")
        is_tensor = isinstance(dest_type, TensorType | UnrankedTensorType)
        if is_tensor:
            if self.result is None:
                raise VerifyException("tensor 'dest' implies exactly one tensor result")
            if self.result.type != dest_type:
                raise VerifyException("result type must match 'dest' type")
            if self.writable is not None:
                raise VerifyException(
                    "'writable' must be specified if and only if the destination is of memref type"
                )
        else:
            if self.result is not None:
                raise VerifyException("memref 'dest' implies zero results")
            if self.restrict is not None:
                raise VerifyException("'restrict' is valid only for tensor destinations")
            if self.writable is None:
                raise VerifyException(
                    "'writable' must be specified if and only if the destination is of memref type"
                )
        source, dest = self.source.type, dest_type
        if _element(source) != _element(dest):
            raise VerifyException("source/destination element types do not match")
        s, d = _shape(source), _shape(dest)
        if (
            s is not None
            and d is not None
            and (
                len(s) != len(d)
                or any(a != b and a >= 0 and b >= 0 for a, b in zip(s, d, strict=True))
            )
        ):
            raise VerifyException("source/destination shapes are incompatible")


_REPLACED: dict[str, type[Operation]] = {
    op.name: op for op in (ToTensorOp, ToBufferOp, MaterializeInDestinationOp)
}

# xDSL's bufferization ops schedir keeps as they are, named here so that every bufferization op class
# is imported from this module.
AllocTensorOp = xbufferization.AllocTensorOp
CloneOp = xbufferization.CloneOp

Bufferization = Dialect(
    "bufferization",
    [_REPLACED.get(op.name, op) for op in xbufferization.Bufferization.operations],
    list(xbufferization.Bufferization.attributes),
)

__all__ = [
    "AllocTensorOp",
    "Bufferization",
    "CloneOp",
    "MaterializeInDestinationOp",
    "ToBufferOp",
    "ToTensorOp",
]
