"""The nvvm dialect (upstream NVVMOps.td): NVIDIA's special registers, barriers and shuffles.

xDSL has no nvvm dialect. schedir defines the subset `convert-gpu-to-nvvm` produces, in
upstream's syntax, and the NVPTX target attribute of `gpu.module`s and `gpu.object`s:

    %t = nvvm.read.ptx.sreg.tid.x : i32
    %l = nvvm.read.ptx.sreg.laneid range <i32, 0, 32> : i32
    nvvm.barrier
    %s = nvvm.shfl.sync bfly %mask, %v, %offset, %clamp : f32 -> f32
    %p = nvvm.shfl.sync down %mask, %v, %offset, %clamp return_value_and_is_valid
        : f32 -> !llvm.struct<(f32, i1)>
    nvvm.setmaxregister increase 232
    nvvm.cp.async.bulk.wait_group 0 read
    nvvm.wgmma.wait.group.sync.aligned 0
    gpu.module @k [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">] { ... }

`nvvm.barrier0` (LLVM 21 and older) is still read, as an `nvvm.barrier`; `to_llvm_ir` translates every op here to
its `llvm.nvvm.*` intrinsic. The shuffle's `{return_value_and_is_valid}` legacy spelling
is read too; the keyword form is printed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects.builtin import I32, IntAttr, IntegerAttr, IntegerType, StringAttr, UnitAttr, i32
from xdsl.dialects.llvm import LLVMStructType
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

# ---------------------------------------------------------------------------------------
# attributes


@irdl_attr_definition
class ConstantRangeAttr(ParametrizedAttribute):
    """`#llvm.constant_range<i32, 0, 32>`: the half-open range of an integer value (the
    `range` of special-register reads)."""

    name = "llvm.constant_range"

    width: IntAttr
    lower: IntAttr
    upper: IntAttr

    def __init__(self, width: int, lower: int, upper: int) -> None:
        super().__init__(IntAttr(width), IntAttr(lower), IntAttr(upper))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return _parse_range_body(parser)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<i{self.width.data}, {self.lower.data}, {self.upper.data}>")


def _parse_range_body(parser: AttrParser) -> tuple[IntAttr, IntAttr, IntAttr]:
    t = parser.parse_type()
    if not isinstance(t, IntegerType):
        parser.raise_error("expected an integer type in a constant range")
    parser.parse_punctuation(",")
    lower = parser.parse_integer()
    parser.parse_punctuation(",")
    upper = parser.parse_integer()
    return IntAttr(t.width.data), IntAttr(lower), IntAttr(upper)


@irdl_attr_definition
class TargetAttr(ParametrizedAttribute):
    """`#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">`: how a `gpu.module` is
    compiled (upstream's NVVMTargetAttr; defaults O = 2, triple nvptx64-nvidia-cuda,
    chip sm_75, as upstream)."""

    name = "nvvm.target"

    opt_level: IntAttr
    triple: StringAttr
    chip: StringAttr
    features: StringAttr

    def __init__(
        self,
        chip: str = "sm_75",
        features: str = "",
        opt_level: int = 2,
        triple: str = "nvptx64-nvidia-cuda",
    ) -> None:
        super().__init__(
            IntAttr(opt_level), StringAttr(triple), StringAttr(chip), StringAttr(features)
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        values: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation("<") is not None:
            while True:
                key = parser.parse_identifier()
                parser.parse_punctuation("=")
                if key == "O":
                    values[key] = IntAttr(parser.parse_integer())
                elif key in ("triple", "chip", "features"):
                    values[key] = StringAttr(parser.parse_str_literal())
                elif key in ("flags", "link"):
                    parser.parse_attribute()  # accepted, not used by schedir
                else:
                    parser.raise_error(f"unknown #nvvm.target parameter '{key}'")
                if parser.parse_optional_punctuation(",") is None:
                    break
            parser.parse_punctuation(">")
        return (
            values.get("O", IntAttr(2)),
            values.get("triple", StringAttr("nvptx64-nvidia-cuda")),
            values.get("chip", StringAttr("sm_75")),
            values.get("features", StringAttr("")),
        )

    def print_parameters(self, printer: Printer) -> None:
        parts: list[str] = []
        if self.opt_level.data != 2:
            parts.append(f"O = {self.opt_level.data}")
        if self.chip.data != "sm_75":
            parts.append(f'chip = "{self.chip.data}"')
        if self.features.data:
            parts.append(f'features = "{self.features.data}"')
        if self.triple.data != "nvptx64-nvidia-cuda":
            parts.append(f'triple = "{self.triple.data}"')
        if parts:
            printer.print_string("<" + ", ".join(parts) + ">")


class SetMaxRegisterAction(StrEnum):
    DECREASE = "decrease"
    INCREASE = "increase"


class ShflKind(StrEnum):
    BFLY = "bfly"
    UP = "up"
    DOWN = "down"
    IDX = "idx"


@irdl_attr_definition
class ShflKindAttr(EnumAttribute[ShflKind]):
    """`#nvvm.shfl_kind<bfly>`: the lane pattern of a shuffle."""

    name = "nvvm.shfl_kind"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ShflKind:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(ShflKind)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")


@irdl_attr_definition
class SetMaxRegisterActionAttr(EnumAttribute[SetMaxRegisterAction]):
    """`#nvvm.action<decrease>`: whether `nvvm.setmaxregister` lowers or raises the budget."""

    name = "nvvm.action"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> SetMaxRegisterAction:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(SetMaxRegisterAction)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")


# ---------------------------------------------------------------------------------------
# special registers


class _SpecialRegisterOp(IRDLOperation):
    """`%r = nvvm.read.ptx.sreg.<name> [range <i32, lo, hi>] : i32`."""

    res = result_def(IntegerType)
    range = opt_prop_def(ConstantRangeAttr)
    traits = traits_def(Pure())

    def __init__(
        self, result_type: IntegerType = i32, value_range: tuple[int, int] | None = None
    ) -> None:
        props: dict[str, Attribute] = {}
        if value_range is not None:
            props["range"] = ConstantRangeAttr(result_type.width.data, *value_range)
        super().__init__(result_types=[result_type], properties=props)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        value_range = None
        if parser.parse_optional_keyword("range") is not None:
            parser.parse_punctuation("<")
            _, lower, upper = _parse_range_body(parser)
            parser.parse_punctuation(">")
            value_range = (lower.data, upper.data)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        if not isinstance(t, IntegerType):
            parser.raise_error("expected an integer result type")
        op = cls(t, value_range)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        if self.range is not None:
            printer.print_string(" range ")
            self.range.print_parameters(printer)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.res.type)


def _sreg(register: str) -> type[_SpecialRegisterOp]:
    """The op class reading special register `%<register>` (e.g. "tid.x")."""
    name = "".join(part.capitalize() for part in register.split("."))
    cls = type(
        f"Read{name}Op",
        (_SpecialRegisterOp,),
        {
            "name": f"nvvm.read.ptx.sreg.{register}",
            "__doc__": f"Reads PTX special register %{register}.",
        },
    )
    return irdl_op_definition(cls)


SPECIAL_REGISTERS: tuple[str, ...] = (
    *(
        f"{reg}.{dim}"
        for reg in ("tid", "ntid", "ctaid", "nctaid", "clusterid", "nclusterid")
        for dim in ("x", "y", "z")
    ),
    "laneid",
    "warpsize",
    "warpid",
    "nwarpid",
    "smid",
    "nsmid",
    "gridid",
)

SREG_OPS: dict[str, type[_SpecialRegisterOp]] = {reg: _sreg(reg) for reg in SPECIAL_REGISTERS}
"""Op class of each special-register read, by register name ("tid.x", "laneid", ...)."""


# ---------------------------------------------------------------------------------------
# synchronization and shuffles


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """`nvvm.barrier`: `bar.sync 0`, every thread of the block waits (upstream LLVM 22+)."""

    name = "nvvm.barrier"
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class Barrier0Op(IRDLOperation):
    """`nvvm.barrier0`: the name of `nvvm.barrier` before LLVM 22. Its custom form parses
    into an `nvvm.barrier` (so schedir prints what upstream reads today); the generic
    `"nvvm.barrier0"()` stays this op, which to_llvm_ir translates the same way."""

    name = "nvvm.barrier0"

    def __init__(self) -> None:
        super().__init__()

    @classmethod
    def parse(cls, parser: Parser) -> BarrierOp:
        attrs = parser.parse_optional_attr_dict()
        op = BarrierOp()
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class ShflSyncOp(IRDLOperation):
    """`nvvm.shfl.sync <kind> %mask, %val, %offset, %clamp : t -> r`: a warp shuffle
    (`shfl.sync.<kind>.b32`); with `return_value_and_is_valid` the result is
    `!llvm.struct<(t, i1)>` whose second field says whether the source lane was valid."""

    name = "nvvm.shfl.sync"

    thread_mask = operand_def(i32)
    val = operand_def()
    offset = operand_def(i32)
    mask_and_clamp = operand_def(i32)
    res = result_def()
    kind = prop_def(ShflKindAttr)
    return_value_and_is_valid = opt_prop_def(UnitAttr)

    traits = traits_def(Pure())

    def __init__(
        self,
        kind: str,
        thread_mask: SSAValue,
        val: SSAValue,
        offset: SSAValue,
        mask_and_clamp: SSAValue,
        result_type: Attribute,
        *,
        with_valid: bool = False,
    ) -> None:
        super().__init__(
            operands=[thread_mask, val, offset, mask_and_clamp],
            result_types=[result_type],
            properties={
                "kind": ShflKindAttr(ShflKind(kind)),
                "return_value_and_is_valid": UnitAttr() if with_valid else None,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        kind = parser.parse_optional_keyword_in(tuple(k.value for k in ShflKind))
        if kind is None:
            parser.raise_error("expected a shuffle kind: bfly, up, down or idx")
        mask = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        val = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        offset = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        clamp = parser.parse_unresolved_operand()
        with_valid = parser.parse_optional_keyword("return_value_and_is_valid") is not None
        attrs = parser.parse_optional_attr_dict()
        if "return_value_and_is_valid" in attrs:
            # The legacy attr-dict spelling (before strict properties).
            with_valid = True
            del attrs["return_value_and_is_valid"]
        parser.parse_punctuation(":")
        val_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        op = cls(
            kind,
            parser.resolve_operand(mask, i32),
            parser.resolve_operand(val, val_type),
            parser.resolve_operand(offset, i32),
            parser.resolve_operand(clamp, i32),
            result_type,
            with_valid=with_valid,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.kind.data.value} ")
        printer.print_list(self.operands, printer.print_ssa_value)
        if self.return_value_and_is_valid is not None:
            printer.print_string(" return_value_and_is_valid")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.val.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.res.type)

    def verify_(self) -> None:
        if self.return_value_and_is_valid is None:
            if self.res.type != self.val.type:
                raise VerifyException(
                    "'nvvm.shfl.sync' op expected the result type to be the value type"
                )
            return
        t = self.res.type
        if not (
            isinstance(t, LLVMStructType)
            and len(t.types.data) == 2
            and t.types.data[0] == self.val.type
            and t.types.data[1] == IntegerType(1)
        ):
            raise VerifyException(
                "'nvvm.shfl.sync' op expected return type to be a two-element struct with i1 as the second element"
            )


MIN_MAX_REGISTERS = 24
"""Fewest registers per thread `setmaxnreg` may set (PTX ISA 8.0)."""
MAX_MAX_REGISTERS = 256
"""Most registers per thread `setmaxnreg` may set."""


@irdl_op_definition
class SetMaxRegisterOp(IRDLOperation):
    """`nvvm.setmaxregister increase 232`: `setmaxnreg.{inc,dec}.sync.aligned.u32 232`,
    every thread of the warpgroup executing it raises (waiting for free registers) or
    lowers its register budget to `regCount` (sm_90a; a multiple of 8 in 24..256)."""

    name = "nvvm.setmaxregister"

    regCount = prop_def(IntegerAttr[I32])
    action = prop_def(SetMaxRegisterActionAttr)

    def __init__(self, action: SetMaxRegisterAction, count: int) -> None:
        super().__init__(
            properties={
                "regCount": IntegerAttr(count, i32),
                "action": SetMaxRegisterActionAttr(action),
            }
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        word = parser.parse_optional_identifier()
        actions = {a.value: a for a in SetMaxRegisterAction}
        action = actions.get(word) if word is not None else None
        if action is None:
            parser.raise_error(
                "custom op 'nvvm.setmaxregister' expected string or keyword containing one of "
                "the following enum values for attribute 'action' [decrease, increase]"
            )
        count = parser.parse_integer(allow_boolean=False, allow_negative=False)
        op = cls(action, count)
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.action.data.value} {self.regCount.value.data}")
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        # Upstream's messages (NVVMDialect.cpp).
        count = self.regCount.value.data
        if count % 8:
            raise VerifyException("new register size must be multiple of 8")
        if not MIN_MAX_REGISTERS <= count <= MAX_MAX_REGISTERS:
            raise VerifyException(
                f"new register size must be in between {MIN_MAX_REGISTERS} to {MAX_MAX_REGISTERS}"
            )


@irdl_op_definition
class CpAsyncBulkWaitGroupOp(IRDLOperation):
    """`nvvm.cp.async.bulk.wait_group 1 read`: `cp.async.bulk.wait_group[.read] 1`, the
    executing thread waits until at most `group` of its bulk async-groups (its TMA stores'
    `cp.async.bulk.commit_group`s) are pending; with `read`, until they have only finished
    reading their shared-memory sources (which may then be written again). The form with
    `read` in the attribute dictionary (`{read}`, before upstream's strict properties) is
    read too."""

    name = "nvvm.cp.async.bulk.wait_group"

    group = prop_def(IntegerAttr[I32])
    read = opt_prop_def(UnitAttr)

    def __init__(self, group: int, read: bool = False) -> None:
        properties: dict[str, Attribute] = {"group": IntegerAttr(group, i32)}
        if read:
            properties["read"] = UnitAttr()
        super().__init__(properties=properties)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        group = parser.parse_integer(allow_boolean=False, allow_negative=False)
        read = parser.parse_optional_keyword("read") is not None
        attributes = parser.parse_optional_attr_dict()
        op = cls(group, read=read or "read" in attributes)
        op.attributes.update({k: v for k, v in attributes.items() if k != "read"})
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.group.value.data}")
        if self.read is not None:
            printer.print_string(" read")
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        # Upstream's ConfinedAttr<I32Attr, [IntMinValue<0>]>.
        if self.group.value.data < 0:
            raise VerifyException(
                "attribute 'group' failed to satisfy constraint: 32-bit signless integer "
                "attribute whose minimum value is 0"
            )


@irdl_op_definition
class WgmmaWaitGroupSyncOp(IRDLOperation):
    """`nvvm.wgmma.wait.group.sync.aligned 0`: `wgmma.wait_group.sync.aligned 0`, the
    executing warpgroup waits until at most `group` of its committed wgmma groups are
    pending: the shared memory the retired ones read may then be written again. (It ties
    no accumulator registers: reading them after it needs `nvgpu.warpgroup.mma.store`,
    whose own wait does.)"""

    name = "nvvm.wgmma.wait.group.sync.aligned"

    group = prop_def(IntegerAttr[IntegerType])

    def __init__(self, group: int) -> None:
        super().__init__(properties={"group": IntegerAttr(group, IntegerType(64))})

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attributes = parser.parse_optional_attr_dict()
        op = cls(parser.parse_integer(allow_boolean=False, allow_negative=False))
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" {self.group.value.data}")

    def verify_(self) -> None:
        if self.group.value.data < 0:
            raise VerifyException(
                "attribute 'group' failed to satisfy constraint: 64-bit signless integer attribute"
            )


OPS: tuple[type[IRDLOperation], ...] = (
    *SREG_OPS.values(),
    BarrierOp,
    Barrier0Op,
    ShflSyncOp,
    SetMaxRegisterOp,
    CpAsyncBulkWaitGroupOp,
    WgmmaWaitGroupSyncOp,
)

NVVM = Dialect("nvvm", list(OPS), [TargetAttr, ShflKindAttr, SetMaxRegisterActionAttr])
"""The nvvm dialect (the `#llvm.constant_range` attribute lives with the llvm dialect)."""

__all__ = [
    "NVVM",
    "OPS",
    "SPECIAL_REGISTERS",
    "SREG_OPS",
    "Barrier0Op",
    "BarrierOp",
    "ConstantRangeAttr",
    "CpAsyncBulkWaitGroupOp",
    "SetMaxRegisterAction",
    "SetMaxRegisterActionAttr",
    "SetMaxRegisterOp",
    "ShflKindAttr",
    "ShflSyncOp",
    "TargetAttr",
    "WgmmaWaitGroupSyncOp",
]
