"""MemRef transform extension (upstream MemRefTransformOps.td): `memref.multibuffer`,
`memref.alloca_to_global`, `memref.erase_dead_alloc_and_stores`,
`memref.make_loop_independent`, the memref pattern-set descriptors and the
`apply_conversion_patterns.memref.memref_to_llvm_type_converter` type-converter builder.

Applied by `schedir.transform.ops.memref`.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import I64, BoolAttr, IntegerAttr, StringAttr, UnitAttr, i64
from xdsl.dialects.transform import OperationType, TransformOpHandleType
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, operand_def, opt_prop_def, prop_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import irdl_transform_op
from schedir.dialects.transform._syntax_helpers import (
    parse_prop_and_attr_dict,
    print_prop_and_attr_dict,
)
from schedir.dialects.transform.core.conversion import TypeConverterBuilderOpInterface
from schedir.dialects.transform.descriptors import Option, descriptor

_FUNCTIONAL = "attr-dict `:` functional-type(operands, results)"

ApplyMemrefFoldMemrefAliasOpsOp = descriptor(
    "memref.fold_memref_alias_ops",
    "Fold subview/expand/collapse_shape into loads and stores.",
)

ApplyMemrefExpandStridedMetadataOp = descriptor(
    "memref.expand_strided_metadata",
    "Expand subview and friends into extract_strided_metadata + reinterpret_cast.",
)

ApplyMemrefAllocToAllocaOp = descriptor(
    "memref.alloc_to_alloca",
    "Turn small alloc/dealloc pairs into alloca.",
    Option("size_limit", "paren"),
)

ApplyMemrefExtractAddressComputationsOp = descriptor(
    "memref.extract_address_computations",
    "Move address computations out of loads/stores.",
)

ApplyMemrefResolveRankedShapedTypeResultDimsOp = descriptor(
    "memref.resolve_ranked_shaped_type_result_dims",
    "Resolve memref.dim of op results.",
)


_CONVERTER_OPTIONS: tuple[tuple[str, str], ...] = (
    ("use_aligned_alloc", "bool"),
    ("index_bitwidth", "int"),
    ("use_generic_functions", "bool"),
    ("use_bare_ptr_call_conv", "bool"),
    ("data_layout", "str"),
)
"""The options of `memref_to_llvm_type_converter`, in upstream's printing order."""


@irdl_transform_op
class MemrefToLLVMTypeConverterOp(IRDLOperation, TypeConverterBuilderOpInterface):
    """Builds the LLVM type converter (memrefs as descriptor structs) of an
    `apply_conversion_patterns`; the options are upstream's `LowerToLLVMOptions`, in any
    order, each at most once.

    ```mlir
    transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter
        index_bitwidth = 64 use_bare_ptr_call_conv = false
    ```

    Return modes: a type-converter builder inside `apply_conversion_patterns`; no handles.
    schedir's converter is upstream's default one: other option values are a definite
    failure of the enclosing op.
    """

    name = "transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter"

    use_aligned_alloc = opt_prop_def(BoolAttr)
    index_bitwidth = opt_prop_def(IntegerAttr[I64])
    use_generic_functions = opt_prop_def(BoolAttr)
    use_bare_ptr_call_conv = opt_prop_def(BoolAttr)
    data_layout = opt_prop_def(StringAttr)

    DEFAULTS: ClassVar[dict[str, Attribute]] = {
        "use_aligned_alloc": BoolAttr.from_bool(False),
        "index_bitwidth": IntegerAttr(64, i64),
        "use_generic_functions": BoolAttr.from_bool(False),
        "use_bare_ptr_call_conv": BoolAttr.from_bool(False),
    }
    """The option values schedir's LLVM type converter implements (upstream's defaults)."""

    @classmethod
    def parse(cls, parser: Parser) -> MemrefToLLVMTypeConverterOp:
        props: dict[str, Attribute] = {}
        kinds = dict(_CONVERTER_OPTIONS)
        while True:
            start = parser.pos
            word = next((w for w in kinds if parser.parse_optional_keyword(w) is not None), None)
            if word is None:
                break
            if word in props:
                parser.raise_error(
                    f"duplicate '{word}' option", at_position=start, end_position=parser.pos
                )
            parser.parse_punctuation("=")
            kind = kinds[word]
            if kind == "bool":
                props[word] = BoolAttr.from_bool(parser.parse_boolean())
            elif kind == "int":
                props[word] = IntegerAttr(parser.parse_integer(allow_boolean=False), i64)
            else:
                props[word] = StringAttr(parser.parse_str_literal())
        extra, attrs = parse_prop_and_attr_dict(parser, cls)
        return cls.create(properties=props | extra, attributes=attrs)

    def print(self, printer: Printer) -> None:
        for word, kind in _CONVERTER_OPTIONS:
            value = self.properties.get(word)
            if value is None:
                continue
            printer.print_string(f" {word} = ")
            if kind == "bool" and isinstance(value, IntegerAttr):
                printer.print_string("true" if value.value.data else "false")
            elif kind == "int" and isinstance(value, IntegerAttr):
                printer.print_int(value.value.data)
            elif isinstance(value, StringAttr):
                printer.print_string_literal(value.data)
        print_prop_and_attr_dict(printer, self, elided=tuple(w for w, _ in _CONVERTER_OPTIONS))

    def unsupported_options(self) -> list[str]:
        """The options whose values differ from what schedir's converter implements."""
        found: list[str] = []
        for word, default in self.DEFAULTS.items():
            value = self.properties.get(word)
            if value is not None and value != default:
                found.append(word)
        layout = self.data_layout
        if layout is not None and layout.data not in ("", _HOST_LAYOUT_PREFIX):
            found.append("data_layout")
        return found


_HOST_LAYOUT_PREFIX = "e-p:64:64"
"""A data layout with 64-bit pointers (as schedir's converter assumes)."""


def _require(type_: object, op_name: str) -> None:
    if type_ != OperationType(op_name):
        raise VerifyException(
            f"operand #0 must be Transform IR handle to {op_name} operations, but got '{type_}'"
        )


@irdl_transform_op
class MemRefMultiBufferOp(IRDLOperation):
    """Multi-buffers a `memref.alloc` used in a loop: `factor` copies, indexed by the
    iteration (for software pipelining of shared-memory copies).

    ```mlir
    %mb = transform.memref.multibuffer %alloc <factor = 2>
        : (!transform.op<"memref.alloc">) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the new allocations (an allocation not used
    in a loop is skipped and not returned). Silenceable failure "op failed to multibuffer"
    at an allocation that cannot be multi-buffered.
    """

    name = "transform.memref.multibuffer"

    target = operand_def(TransformOpHandleType)
    factor = prop_def(IntegerAttr[I64])
    skip_analysis = opt_prop_def(UnitAttr)
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target " + _FUNCTIONAL

    def verify_(self) -> None:
        _require(self.target.type, "memref.alloc")
        if self.factor.value.data <= 0:
            raise VerifyException(
                "attribute 'factor' failed to satisfy constraint: 64-bit signless integer "
                "attribute whose value is positive"
            )


@irdl_transform_op
class MemRefAllocaToGlobalOp(IRDLOperation):
    """Replaces a `memref.alloca` by a `memref.get_global` of a new private
    `memref.global`.

    ```mlir
    %get, %global = transform.memref.alloca_to_global %alloca
        : (!transform.op<"memref.alloca">) -> (!transform.any_op, !transform.any_op)
    ```

    Return modes: consumes the target; returns the get_global and global ops. Definite
    failure if there is no enclosing symbol table.
    """

    name = "transform.memref.alloca_to_global"

    alloca = operand_def(TransformOpHandleType)
    getGlobal = result_def(TransformOpHandleType)
    # The global itself; `global` is a Python keyword.
    global_ = result_def(TransformOpHandleType)

    consumed_operands = ("alloca",)
    assembly_format = "$alloca " + _FUNCTIONAL

    def verify_(self) -> None:
        _require(self.alloca.type, "memref.alloca")


@irdl_transform_op
class MemRefEraseDeadAllocAndStoresOp(IRDLOperation):
    """Erases allocations only written to (and those writes) in the target.

    ```mlir
    transform.memref.erase_dead_alloc_and_stores %f : (!transform.any_op) -> ()
    ```

    Return modes: only reads the target; never fails.
    """

    name = "transform.memref.erase_dead_alloc_and_stores"

    target = operand_def(TransformOpHandleType)

    assembly_format = "$target attr-dict `:` `(` type($target) `)` `->` `(` `)`"


@irdl_transform_op
class MemRefMakeLoopIndependentOp(IRDLOperation):
    """Rewrites `memref.alloca` ops inside `num_loops` enclosing loops to sizes that do
    not depend on the induction variables.

    ```mlir
    %a2 = transform.memref.make_loop_independent %a num_loops = 1
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the replacement ops. Silenceable failure
    if a bound cannot be computed.
    """

    name = "transform.memref.make_loop_independent"

    target = operand_def(TransformOpHandleType)
    num_loops = prop_def(IntegerAttr[I64])
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target `num_loops` `=` $num_loops " + _FUNCTIONAL


OPS: tuple[type[IRDLOperation], ...] = (
    ApplyMemrefFoldMemrefAliasOpsOp,
    ApplyMemrefExpandStridedMetadataOp,
    ApplyMemrefAllocToAllocaOp,
    ApplyMemrefExtractAddressComputationsOp,
    ApplyMemrefResolveRankedShapedTypeResultDimsOp,
    MemRefAllocaToGlobalOp,
    MemRefEraseDeadAllocAndStoresOp,
    MemRefMakeLoopIndependentOp,
    MemRefMultiBufferOp,
    MemrefToLLVMTypeConverterOp,
)

__all__ = [
    "OPS",
    "MemRefAllocaToGlobalOp",
    "MemRefEraseDeadAllocAndStoresOp",
    "MemRefMakeLoopIndependentOp",
    "MemRefMultiBufferOp",
    "MemrefToLLVMTypeConverterOp",
]
