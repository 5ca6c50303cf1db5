"""The mbarrier ops: barriers in shared memory that count arrivals and bytes of
asynchronous (TMA) transactions, with a phase bit to wait on.

    %b = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
    nvgpu.mbarrier.init %b[%i], %count, predicate = %p : !bar
    %t = nvgpu.mbarrier.arrive %b[%i] : !bar -> !nvgpu.mbarrier.token
    %t = nvgpu.mbarrier.arrive.nocomplete %b[%i], %count : !bar -> !nvgpu.mbarrier.token
    nvgpu.mbarrier.arrive.expect_tx %b[%i], %bytes, predicate = %p : !bar
    nvgpu.mbarrier.try_wait.parity %b[%i], %parity, %ticks : !bar
    %done = nvgpu.mbarrier.test.wait %b[%i], %t : !bar, !nvgpu.mbarrier.token
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

from xdsl.dialects.builtin import IndexType, IntegerType, i1
from xdsl.ir import SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from schedir.dialects.nvgpu.syntax import (
    optional_operand,
    parse_nvgpu_type,
    parse_predicate,
    print_nvgpu_type,
    print_predicate,
)
from schedir.dialects.nvgpu.types import MBarrierGroupType, MBarrierTokenType


def _parse_ref(parser: Parser) -> tuple[UnresolvedOperand, UnresolvedOperand]:
    """`%barriers[%id]`."""
    barriers = parser.parse_unresolved_operand()
    parser.parse_punctuation("[")
    mbar_id = parser.parse_unresolved_operand()
    parser.parse_punctuation("]")
    return barriers, mbar_id


def _print_ref(printer: Printer, barriers: SSAValue, mbar_id: SSAValue) -> None:
    printer.print_string(" ")
    printer.print_ssa_value(barriers)
    printer.print_string("[")
    printer.print_ssa_value(mbar_id)
    printer.print_string("]")


def barrier_group(value: SSAValue) -> MBarrierGroupType:
    """The mbarrier group type of an operand (checked by the op definitions)."""
    t = value.type
    assert isinstance(t, MBarrierGroupType)
    return t


@irdl_op_definition
class MBarrierCreateOp(IRDLOperation):
    """`nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<...>`: allocates the group's
    barriers in shared memory (uninitialized)."""

    name = "nvgpu.mbarrier.create"

    barriers = result_def(MBarrierGroupType)

    def __init__(self, group: MBarrierGroupType) -> None:
        super().__init__(result_types=[group])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation("->")
        op = cls(parse_nvgpu_type(parser, MBarrierGroupType))
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" -> ")
        print_nvgpu_type(printer, self.barriers.type)


class _CountOp(IRDLOperation):
    """`<name> %b[%i], %value [, predicate = %p] : !group` (init and arrive.expect_tx)."""

    if TYPE_CHECKING:
        # Defined by each subclass (IRDL reads the definitions of the op class itself).
        barriers: SSAValue
        predicate: SSAValue | None

    def _value(self) -> SSAValue:
        raise NotImplementedError

    def _id(self) -> SSAValue:
        raise NotImplementedError

    @classmethod
    def _build(
        cls,
        barriers: SSAValue,
        value: SSAValue,
        mbar_id: SSAValue,
        predicate: SSAValue | None,
    ) -> Self:
        raise NotImplementedError

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        barriers, mbar_id = _parse_ref(parser)
        parser.parse_punctuation(",")
        value = parser.parse_unresolved_operand()
        predicate = parse_predicate(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        group = parse_nvgpu_type(parser, MBarrierGroupType)
        op = cls._build(
            parser.resolve_operand(barriers, group),
            parser.resolve_operand(value, IndexType()),
            parser.resolve_operand(mbar_id, IndexType()),
            None if predicate is None else parser.resolve_operand(predicate, i1),
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_ref(printer, self.barriers, self._id())
        printer.print_string(", ")
        printer.print_ssa_value(self._value())
        print_predicate(printer, self.predicate)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        print_nvgpu_type(printer, self.barriers.type)


@irdl_op_definition
class MBarrierInitOp(_CountOp):
    """`nvgpu.mbarrier.init %b[%i], %count`: initializes barrier `%i` to expect `%count`
    arrivals per phase."""

    name = "nvgpu.mbarrier.init"

    barriers = operand_def(MBarrierGroupType)
    count = operand_def(IndexType)
    mbar_id = operand_def(IndexType)
    predicate = opt_operand_def(i1)

    def __init__(
        self,
        barriers: SSAValue,
        count: SSAValue,
        mbar_id: SSAValue,
        predicate: SSAValue | None = None,
    ) -> None:
        super().__init__(operands=[barriers, count, mbar_id, optional_operand(predicate)])

    def _value(self) -> SSAValue:
        return self.count

    def _id(self) -> SSAValue:
        return self.mbar_id

    @classmethod
    def _build(
        cls, barriers: SSAValue, value: SSAValue, mbar_id: SSAValue, predicate: SSAValue | None
    ) -> Self:
        return cls(barriers, value, mbar_id, predicate)


@irdl_op_definition
class MBarrierArriveExpectTxOp(_CountOp):
    """`nvgpu.mbarrier.arrive.expect_tx %b[%i], %bytes`: arrives on barrier `%i` and
    makes its current phase also wait for `%bytes` of asynchronous transactions."""

    name = "nvgpu.mbarrier.arrive.expect_tx"

    barriers = operand_def(MBarrierGroupType)
    txcount = operand_def(IndexType)
    mbar_id = operand_def(IndexType)
    predicate = opt_operand_def(i1)

    def __init__(
        self,
        barriers: SSAValue,
        txcount: SSAValue,
        mbar_id: SSAValue,
        predicate: SSAValue | None = None,
    ) -> None:
        super().__init__(operands=[barriers, txcount, mbar_id, optional_operand(predicate)])

    def _value(self) -> SSAValue:
        return self.txcount

    def _id(self) -> SSAValue:
        return self.mbar_id

    @classmethod
    def _build(
        cls, barriers: SSAValue, value: SSAValue, mbar_id: SSAValue, predicate: SSAValue | None
    ) -> Self:
        return cls(barriers, value, mbar_id, predicate)


@irdl_op_definition
class MBarrierArriveOp(IRDLOperation):
    """`%t = nvgpu.mbarrier.arrive %b[%i] : !group -> !nvgpu.mbarrier.token`: arrives on
    barrier `%i`, returning the phase state."""

    name = "nvgpu.mbarrier.arrive"

    barriers = operand_def(MBarrierGroupType)
    mbar_id = operand_def(IndexType)
    token = result_def(MBarrierTokenType)

    def __init__(self, barriers: SSAValue, mbar_id: SSAValue) -> None:
        super().__init__(operands=[barriers, mbar_id], result_types=[MBarrierTokenType()])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        barriers, mbar_id = _parse_ref(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        group = parse_nvgpu_type(parser, MBarrierGroupType)
        parser.parse_punctuation("->")
        _parse_token_type(parser)
        op = cls(
            parser.resolve_operand(barriers, group), parser.resolve_operand(mbar_id, IndexType())
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_ref(printer, self.barriers, self.mbar_id)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        print_nvgpu_type(printer, self.barriers.type)
        printer.print_string(" -> !nvgpu.mbarrier.token")


def _parse_token_type(parser: Parser) -> None:
    pos = parser.pos
    t = parser.parse_type()
    if not isinstance(t, MBarrierTokenType):
        parser.raise_error(f"expected !nvgpu.mbarrier.token, got {t}", pos, parser.pos)


@irdl_op_definition
class MBarrierArriveNoCompleteOp(IRDLOperation):
    """`%t = nvgpu.mbarrier.arrive.nocomplete %b[%i], %count : !group -> !nvgpu.mbarrier.token`:
    `%count` arrivals that never complete the current phase."""

    name = "nvgpu.mbarrier.arrive.nocomplete"

    barriers = operand_def(MBarrierGroupType)
    mbar_id = operand_def(IndexType)
    count = operand_def(IndexType)
    token = result_def(MBarrierTokenType)

    def __init__(self, barriers: SSAValue, mbar_id: SSAValue, count: SSAValue) -> None:
        super().__init__(operands=[barriers, mbar_id, count], result_types=[MBarrierTokenType()])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        barriers, mbar_id = _parse_ref(parser)
        parser.parse_punctuation(",")
        count = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        group = parse_nvgpu_type(parser, MBarrierGroupType)
        parser.parse_punctuation("->")
        _parse_token_type(parser)
        op = cls(
            parser.resolve_operand(barriers, group),
            parser.resolve_operand(mbar_id, IndexType()),
            parser.resolve_operand(count, IndexType()),
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_ref(printer, self.barriers, self.mbar_id)
        printer.print_string(", ")
        printer.print_ssa_value(self.count)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        print_nvgpu_type(printer, self.barriers.type)
        printer.print_string(" -> !nvgpu.mbarrier.token")


@irdl_op_definition
class MBarrierTestWaitOp(IRDLOperation):
    """`%done = nvgpu.mbarrier.test.wait %b[%i], %t : !group, !nvgpu.mbarrier.token`:
    whether the phase `%t` came from has completed (does not block)."""

    name = "nvgpu.mbarrier.test.wait"

    barriers = operand_def(MBarrierGroupType)
    token = operand_def(MBarrierTokenType)
    mbar_id = operand_def(IndexType)
    wait_complete = result_def(i1)

    def __init__(self, barriers: SSAValue, token: SSAValue, mbar_id: SSAValue) -> None:
        super().__init__(operands=[barriers, token, mbar_id], result_types=[i1])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        barriers, mbar_id = _parse_ref(parser)
        parser.parse_punctuation(",")
        token = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        group = parse_nvgpu_type(parser, MBarrierGroupType)
        parser.parse_punctuation(",")
        _parse_token_type(parser)
        op = cls(
            parser.resolve_operand(barriers, group),
            parser.resolve_operand(token, MBarrierTokenType()),
            parser.resolve_operand(mbar_id, IndexType()),
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_ref(printer, self.barriers, self.mbar_id)
        printer.print_string(", ")
        printer.print_ssa_value(self.token)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        print_nvgpu_type(printer, self.barriers.type)
        printer.print_string(", !nvgpu.mbarrier.token")


@irdl_op_definition
class MBarrierTryWaitParityOp(IRDLOperation):
    """`nvgpu.mbarrier.try_wait.parity %b[%i], %parity, %ticks : !group`: blocks until
    the phase of parity `%parity` (i1) of barrier `%i` completes (`%ticks` is the
    suspend-time hint of each try)."""

    name = "nvgpu.mbarrier.try_wait.parity"

    barriers = operand_def(MBarrierGroupType)
    phase_parity = operand_def(IntegerType(1))
    ticks = operand_def(IndexType)
    mbar_id = operand_def(IndexType)

    def __init__(
        self, barriers: SSAValue, phase_parity: SSAValue, ticks: SSAValue, mbar_id: SSAValue
    ) -> None:
        super().__init__(operands=[barriers, phase_parity, ticks, mbar_id])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        barriers, mbar_id = _parse_ref(parser)
        parser.parse_punctuation(",")
        parity = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        ticks = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        group = parse_nvgpu_type(parser, MBarrierGroupType)
        op = cls(
            parser.resolve_operand(barriers, group),
            parser.resolve_operand(parity, i1),
            parser.resolve_operand(ticks, IndexType()),
            parser.resolve_operand(mbar_id, IndexType()),
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_ref(printer, self.barriers, self.mbar_id)
        printer.print_string(", ")
        printer.print_ssa_value(self.phase_parity)
        printer.print_string(", ")
        printer.print_ssa_value(self.ticks)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        print_nvgpu_type(printer, self.barriers.type)


OPS: tuple[type[IRDLOperation], ...] = (
    MBarrierCreateOp,
    MBarrierInitOp,
    MBarrierArriveOp,
    MBarrierArriveNoCompleteOp,
    MBarrierArriveExpectTxOp,
    MBarrierTestWaitOp,
    MBarrierTryWaitParityOp,
)

__all__ = [
    "OPS",
    "MBarrierArriveExpectTxOp",
    "MBarrierArriveNoCompleteOp",
    "MBarrierArriveOp",
    "MBarrierCreateOp",
    "MBarrierInitOp",
    "MBarrierTestWaitOp",
    "MBarrierTryWaitParityOp",
    "barrier_group",
]
