"""Vector masks in upstream syntax: `create_mask`, `constant_mask`, `mask` and its
`yield`, and the interface of the ops `vector.mask` may hold (MaskableOpInterface).

    %c = vector.create_mask %n : vector<4xi1>
    %d = vector.constant_mask [2, 3] : vector<4x8xi1>
    %r = vector.mask %mask, %pass { vector.transfer_read ... } : vector<4xi1> -> vector<4xf32>
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar, cast

from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import (
    I1,
    DenseArrayBase,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, Pure, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.vector.attributes import (
    int_values,
    parse_attrs_and_types,
    parse_int_list,
    print_attrs_and_types,
    print_int_list,
    print_operands,
    resolve_indices,
)

# --- the maskable-op interface -------------------------------------------------------------


class MaskableOpInterface(ABC):
    """Upstream's MaskableOpInterface: an op `vector.mask` may hold, and the mask it expects."""

    SUPPORTS_PASSTHRU: ClassVar[bool] = False
    """Whether `vector.mask` may give the op a pass-through value (upstream's supportsPassthru)."""

    @abstractmethod
    def get_expected_mask_type(self) -> VectorType:
        """The mask type `vector.mask` must give the op (upstream's getExpectedMaskType)."""


def expected_mask_type(op: Operation) -> VectorType | None:
    """The mask type maskable op `op` expects, or None if it is not maskable."""
    return op.get_expected_mask_type() if isinstance(op, MaskableOpInterface) else None


# --- masks --------------------------------------------------------------------------------


class CreateMaskOp(xvector.CreateMaskOp):
    """A mask whose lanes below the given bounds (per dimension) are set.

    %m = vector.create_mask %n, %c3 : vector<4x8xi1>
    """

    @classmethod
    def parse(cls, parser: Parser) -> CreateMaskOp:
        sizes = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attrs, (t,) = parse_attrs_and_types(parser)
        return cls.build(
            operands=[resolve_indices(parser, sizes)], result_types=[t], attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        print_operands(printer, *self.mask_dim_sizes)
        print_attrs_and_types(printer, self, self.mask_vector.type)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        vtype = cast(VectorType, self.mask_vector.type)
        if vtype.get_num_dims() == 0:
            if len(self.mask_dim_sizes) != 1:
                raise VerifyException("must specify exactly one operand for 0-D create_mask")
        elif len(self.mask_dim_sizes) != vtype.get_num_dims():
            raise VerifyException("must specify an operand for each result vector dimension")


@irdl_op_definition
class ConstantMaskOp(IRDLOperation):
    """A mask set in the leading `[d0, d1, ...]` box of each dimension.

    %m = vector.constant_mask [2, 3] : vector<4x8xi1>
    """

    name = "vector.constant_mask"

    mask_dim_sizes = prop_def(DenseArrayBase.constr(i64))
    result = result_def(VectorType.constr(I1))

    traits = traits_def(Pure())

    def __init__(self, sizes: list[int], result_type: VectorType):
        super().__init__(
            result_types=[result_type],
            properties={"mask_dim_sizes": DenseArrayBase.from_list(i64, sizes)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> ConstantMaskOp:
        sizes = parse_int_list(parser)
        attrs, (t,) = parse_attrs_and_types(parser)
        return cls.build(
            result_types=[t],
            properties={"mask_dim_sizes": DenseArrayBase.from_list(i64, sizes)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_int_list(printer, self.sizes())
        print_attrs_and_types(printer, self, self.result.type)

    def sizes(self) -> list[int]:
        return int_values(self.mask_dim_sizes)

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        rtype = cast(VectorType, self.result.type)
        sizes = self.sizes()
        if rtype.get_num_dims() == 0:
            if len(sizes) != 1:
                raise VerifyException("array attr must have length 1 for 0-D vectors")
            if sizes[0] not in (0, 1):
                raise VerifyException("mask dim size must be either 0 or 1 for 0-D vectors")
            return
        if len(sizes) != rtype.get_num_dims():
            raise VerifyException("must specify array attr of size equal vector result rank")
        for size, dim in zip(sizes, rtype.get_shape(), strict=True):
            if size < 0 or size > dim:
                raise VerifyException(
                    "array attr of size out of bounds of vector result dimension size"
                )
        if 0 in sizes and any(sizes):
            raise VerifyException(
                "expected all mask dim sizes to be zeros, as a result of conjunction with "
                "zero mask dim"
            )


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Terminator of `vector.mask`: `vector.yield %v : vector<4xf32>`."""

    name = "vector.yield"

    operands_ = var_operand_def()

    traits = lazy_traits_def(lambda: (IsTerminator(), Pure(), HasParent(MaskOp)))

    assembly_format = "attr-dict ($operands_^ `:` type($operands_))?"

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[list(values)])


@irdl_op_definition
class MaskOp(IRDLOperation):
    """Masks the one maskable op of its region (a transfer, reduction, contract, ...).

    %r = vector.mask %m, %pass { vector.transfer_read ... } : vector<4xi1> -> vector<4xf32>
    """

    name = "vector.mask"

    mask = operand_def(VectorType.constr(I1))
    passthru = opt_operand_def()
    results_ = var_result_def()
    mask_region = region_def("single_block")

    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self,
        mask: SSAValue,
        body: Region,
        result_types: list[Attribute],
        passthru: SSAValue | None = None,
    ):
        super().__init__(
            operands=[mask, [passthru] if passthru is not None else []],
            result_types=[result_types],
            regions=[body],
        )

    def maskable_op(self) -> Operation | None:
        """The masked op, or None for an empty mask."""
        block = self.mask_region.block
        first = block.first_op
        return first if first is not None and first is not block.last_op else None

    @classmethod
    def parse(cls, parser: Parser) -> MaskOp:
        mask = parser.parse_unresolved_operand()
        passthru: UnresolvedOperand | None = None
        if parser.parse_optional_punctuation(","):
            passthru = parser.parse_unresolved_operand()
        name_pos = parser.pos
        region = parser.parse_region()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        mask_type = parser.parse_type()
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->"):
            if parser.parse_optional_punctuation("(") is not None:
                result_types = parser.parse_comma_separated_list(
                    Parser.Delimiter.NONE, parser.parse_type
                )
                parser.parse_punctuation(")")
            else:
                result_types = [parser.parse_type()]
        _ensure_terminator(region)
        operands: list[SSAValue | list[SSAValue]] = [parser.resolve_operand(mask, mask_type)]
        if passthru is not None:
            if not result_types:
                parser.raise_error(
                    "expects a result if passthru operand is provided", at_position=name_pos
                )
            operands.append([parser.resolve_operand(passthru, result_types[0])])
        else:
            operands.append([])
        return cls.build(
            operands=operands, result_types=[result_types], regions=[region], attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        passthru = () if self.passthru is None else (self.passthru,)
        print_operands(printer, self.mask, *passthru)
        printer.print_string(" { ")
        first = self.mask_region.block.first_op
        if first is not None and not isinstance(first, YieldOp):
            # Upstream prints the masked op alone: no result names, no terminator.
            printer.print_string(first.name)
            first.print(printer)
        elif first is not None:
            printer.print_op(first)
        printer.print_string(" }")
        print_attrs_and_types(printer, self, self.mask.type)
        if self.results_:
            printer.print_string(" -> ")
            types = [str(r.type) for r in self.results_]
            printer.print_string(types[0] if len(types) == 1 else "(" + ", ".join(types) + ")")

    def verify_(self) -> None:
        self.get_irdl_definition().verify(self)
        block = self.mask_region.block
        ops = list(block.ops)
        if not ops:
            raise VerifyException("expects a terminator within the mask region")
        if len(ops) > 2:
            raise VerifyException("expects only one operation to mask")
        terminator = ops[-1]
        if not isinstance(terminator, YieldOp):
            raise VerifyException("expects a terminator within the mask region")
        if len(terminator.operands) != len(self.results):
            raise VerifyException("expects number of results to match mask region yielded values")
        if len(ops) == 1:
            return
        masked = ops[0]
        if not isinstance(masked, MaskableOpInterface):
            raise VerifyException("expects a MaskableOpInterface within the mask region")
        expected = masked.get_expected_mask_type()
        if len(masked.results) != len(self.results):
            raise VerifyException(
                "expects number of results to match maskable operation number of results"
            )
        if list(masked.results) != list(terminator.operands):
            raise VerifyException(
                "expects all the results from the MaskableOpInterface to match all the values "
                "returned by the terminator"
            )
        if [r.type for r in masked.results] != [r.type for r in self.results]:
            raise VerifyException("expects result type to match maskable operation result type")
        if sum(isinstance(r.type, VectorType) for r in masked.results) > 1:
            raise VerifyException("multiple vector results not supported")
        if self.mask.type != expected:
            raise VerifyException(f"expects a '{expected}' mask for the maskable operation")
        if self.passthru is not None:
            if not masked.SUPPORTS_PASSTHRU:
                raise VerifyException(
                    "doesn't expect a passthru argument for this maskable operation"
                )
            if len(masked.results) != 1:
                raise VerifyException("expects result when passthru argument is provided")
            if self.passthru.type != masked.results[0].type:
                raise VerifyException("expects passthru type to match result type")


def _ensure_terminator(region: Region) -> None:
    """Upstream's `MaskOp::ensureTerminator`: yield the masked op's results."""
    if not region.blocks:
        region.add_block(Block())
    block = region.block
    last = block.last_op
    if isinstance(last, YieldOp):
        return
    ops = list(block.ops)
    if len(ops) == 1:
        block.add_op(YieldOp(*ops[0].results))
    else:
        block.add_op(YieldOp())


MASK_OPS: tuple[type[Operation], ...] = (CreateMaskOp, ConstantMaskOp, MaskOp, YieldOp)

__all__ = [
    "MASK_OPS",
    "ConstantMaskOp",
    "CreateMaskOp",
    "MaskOp",
    "MaskableOpInterface",
    "YieldOp",
    "expected_mask_type",
]
