"""Structured (linalg) fusion ops (upstream LinalgTransformOps.td):
`fuse_into_containing_op` (producers into an existing loop) and `fuse` (tile a consumer
and fuse its producers greedily).

Applied by `schedir.transform.ops.structured.fuse`.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.dialects.transform import TransformHandleType, TransformOpHandleType
from xdsl.ir import Attribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import (
    InnerTileAlignmentArray,
    dense_values,
    irdl_transform_op,
    verify_inner_tile_alignments,
)
from schedir.dialects.transform._syntax_helpers import (
    parse_functional_type,
    parse_prop_and_attr_dict,
    print_functional_type,
    print_prop_and_attr_dict,
)
from schedir.dialects.transform.structured._index_lists import (
    IndexList,
    nonzero_count,
    parse_inner_tile_alignments,
    print_index_list,
    print_inner_tile_alignments,
    resolve_segments,
)


@irdl_transform_op
class FuseIntoContainingOp(IRDLOperation):
    """Fuses the producer ops into the containing loop (`scf.forall`/`scf.for`), by
    tiling them to the slices used inside (or cloning when they are not tileable).

    ```mlir
    %fused, %new_loop = transform.structured.fuse_into_containing_op %producer into %loop
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```

    Return modes: consumes the producer handle and reads the containing op handle (which
    follows the containing op when fusion rebuilds it); returns the fused ops and the
    containing op. Definite failure unless the containing handle holds exactly one op;
    silenceable failure when no remaining producer is used inside ("could not find next
    producer to fuse into container") and when a producer cannot be fused (a remark at the
    producer, "could not fuse ...").
    """

    name = "transform.structured.fuse_into_containing_op"

    producer_op = operand_def(TransformOpHandleType)
    containing_op = operand_def(TransformOpHandleType)
    inner_tile_alignments = opt_prop_def(DenseArrayBase.constr(i64))
    fused_op = result_def(TransformOpHandleType)
    new_containing_op = result_def(TransformOpHandleType)

    consumed_operands = ("producer_op",)
    custom_directives = (InnerTileAlignmentArray,)
    assembly_format = (
        "$producer_op `into` $containing_op "
        "(`inner_tile_alignments` `=` custom<InnerTileAlignmentArray>($inner_tile_alignments)^)? "
        "attr-dict `:` functional-type(operands, results)"
    )

    def allows_repeated_handles(self) -> bool:
        """A producer may be listed twice (or be the containing op's producer twice)."""
        return True

    def verify_(self) -> None:
        verify_inner_tile_alignments(self.inner_tile_alignments)


@irdl_transform_op
class FuseOp(IRDLOperation):
    """Tiles the target and greedily fuses its producers (`scf.for` loops, or one
    `scf.forall` with `use_forall`), then optionally cleans up.

    ```mlir
    %op2, %loops:2 = transform.structured.fuse %op tile_sizes [32, 32] interchange [1, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    ```

    Return modes: consumes the target; returns the tiled consumer and the loops. Silenceable
    failure for size params/handles that are not single index values (as
    `tile_using_forall`) and for an interchange not given by constants or params; definite
    failure for a target without the TilingInterface or when tiling fails.
    """

    name = "transform.structured.fuse"

    target = operand_def(TransformOpHandleType)
    tile_sizes = var_operand_def(TransformHandleType)
    tile_interchange = var_operand_def(TransformHandleType)
    packed_tile_sizes = opt_operand_def(TransformHandleType)
    static_tile_sizes = opt_prop_def(DenseArrayBase.constr(i64))
    static_tile_interchange = opt_prop_def(DenseArrayBase.constr(i64))
    inner_tile_alignments = opt_prop_def(DenseArrayBase.constr(i64))
    apply_cleanup = opt_prop_def(UnitAttr)
    use_forall = opt_prop_def(UnitAttr)
    transformed = result_def(TransformOpHandleType)
    loops = var_result_def(TransformOpHandleType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    consumed_operands = ("target",)

    @classmethod
    def parse(cls, parser: Parser) -> FuseOp:
        target = parser.parse_unresolved_operand()
        sizes: IndexList | None = None
        interchange: IndexList | None = None
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("tile_sizes") is not None:
            sizes = IndexList(parser)
        if parser.parse_optional_keyword("interchange") is not None:
            interchange = IndexList(parser, allow_packed=False)
        while True:
            if parser.parse_optional_keyword("apply_cleanup") is not None:
                props["apply_cleanup"] = UnitAttr()
            elif parser.parse_optional_keyword("use_forall") is not None:
                props["use_forall"] = UnitAttr()
            elif parser.parse_optional_keyword("inner_tile_alignments") is not None:
                parser.parse_punctuation("=")
                props["inner_tile_alignments"] = parse_inner_tile_alignments(parser)
            else:
                break
        extra, attrs = parse_prop_and_attr_dict(parser, cls)
        # Legacy attr-dict spellings (LLVM <= 19): `{tile_sizes = [..],
        # tile_interchange = [..], apply_cleanup = true}`.
        for legacy, current in (
            ("tile_sizes", "static_tile_sizes"),
            ("tile_interchange", "static_tile_interchange"),
        ):
            if legacy in attrs:
                values = cast(ArrayAttr[IntegerAttr[I64]], attrs.pop(legacy)).data
                extra[current] = DenseArrayBase.from_list(i64, [v.value.data for v in values])
        for flag in ("apply_cleanup", "use_forall"):
            value = extra.get(flag)
            if isinstance(value, IntegerAttr):
                if cast(BoolAttr, value).value.data:
                    extra[flag] = UnitAttr()
                else:
                    del extra[flag]
        parser.parse_punctuation(":")
        inputs, outputs = parse_functional_type(parser)
        groups = [
            [target],
            sizes.dynamic if sizes else [],
            interchange.dynamic if interchange else [],
            [sizes.packed] if sizes and sizes.packed else [],
        ]
        resolved = resolve_segments(parser, groups, inputs)
        if sizes is not None and sizes.packed is None:
            props["static_tile_sizes"] = DenseArrayBase.from_list(i64, sizes.static)
        if interchange is not None:
            props["static_tile_interchange"] = DenseArrayBase.from_list(i64, interchange.static)
        props |= extra
        props.pop("operandSegmentSizes", None)
        op = cls.create(
            operands=[v for group in resolved for v in group],
            result_types=outputs,
            properties=props,
            attributes=attrs,
        )
        op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(
            i32, [len(g) for g in resolved]
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.target)
        if self.packed_tile_sizes is not None or dense_values(self.static_tile_sizes):
            printer.print_string(" tile_sizes ")
            print_index_list(
                printer, self.packed_tile_sizes, self.tile_sizes, self.static_tile_sizes
            )
        if dense_values(self.static_tile_interchange):
            printer.print_string(" interchange ")
            print_index_list(printer, None, self.tile_interchange, self.static_tile_interchange)
        if self.apply_cleanup is not None:
            printer.print_string(" apply_cleanup")
        if self.use_forall is not None:
            printer.print_string(" use_forall")
        print_inner_tile_alignments(printer, self.inner_tile_alignments)
        print_prop_and_attr_dict(
            printer,
            self,
            elided=(
                "static_tile_sizes",
                "static_tile_interchange",
                "inner_tile_alignments",
                "apply_cleanup",
                "use_forall",
                "operandSegmentSizes",
            ),
        )
        printer.print_string(" : ")
        print_functional_type(printer, self.operand_types, self.result_types)

    def verify_(self) -> None:
        static = dense_values(self.static_tile_sizes)
        if self.packed_tile_sizes is not None and (static or self.tile_sizes):
            raise VerifyException("tile_sizes and packed_tile_sizes are mutually exclusive")
        interchange = dense_values(self.static_tile_interchange)
        if self.packed_tile_sizes is None and len(interchange) > len(static):
            raise VerifyException(
                "interchange length exceeds iteration space dimensions "
                f"({len(static)}), found {list(interchange)}"
            )
        # Upstream checks the interchange first, then the loop results: one per non-zero
        # static size, one for a forall or a packed size list.
        packed_or_forall = self.use_forall is not None or self.packed_tile_sizes is not None
        expected = 1 if packed_or_forall else nonzero_count(static)
        if expected != len(self.loops):
            raise VerifyException(f"expects {expected} loop results")
        verify_inner_tile_alignments(self.inner_tile_alignments)


OPS: tuple[type[IRDLOperation], ...] = (FuseIntoContainingOp, FuseOp)

__all__ = ["OPS", "FuseIntoContainingOp", "FuseOp"]
