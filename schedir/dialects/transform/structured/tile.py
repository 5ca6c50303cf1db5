"""Structured (linalg) tiling ops (upstream LinalgTransformOps.td): `tile_using_for` and
`tile_using_forall`.

Sizes are static (`[4, 0]`), parameters or handles (`[%p]`, one value each), a whole list
from one handle (`*(%h)`), or scalable (`[[8]]`); a size of 0 leaves that loop untiled.
Fusion is in `fuse.py`, reduction tiling, splitting and padding in `partition.py`.

Applied by `schedir.transform.ops.structured.tile`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    i1,
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

# --------------------------------------------------------------------------------------
# tile_using_for
# --------------------------------------------------------------------------------------


@irdl_transform_op
class TileUsingForOp(IRDLOperation):
    """Tiles a TilingInterface op into an `scf.for` nest, one loop per non-zero size.

    ```mlir
    %t, %loops:2 = transform.structured.tile_using_for %op tile_sizes [32, 0, %p, [8]]
        interchange = [0, 2, 1] : (!transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    ```

    Return modes: consumes the target; returns the tiled ops and, per loop depth, the loops
    (outermost first), each concatenated over the payload ops. Silenceable failure for a
    target without the TilingInterface, for more sizes than loops, for size params/handles
    that do not give one size per target, and for an interchange not given by constants or
    params; definite failure for scalable sizes, a size param holding a non-integer, and
    when tiling itself fails.
    """

    name = "transform.structured.tile_using_for"

    target = operand_def(TransformOpHandleType)
    dynamic_sizes = var_operand_def(TransformHandleType)
    interchange = var_operand_def(TransformHandleType)
    packed_tile_sizes = opt_operand_def(TransformHandleType)
    packed_interchange = opt_operand_def(TransformHandleType)
    static_sizes = opt_prop_def(DenseArrayBase.constr(i64))
    static_interchange = opt_prop_def(DenseArrayBase.constr(i64))
    scalable_sizes = opt_prop_def(DenseArrayBase.constr(i1))
    inner_tile_alignments = opt_prop_def(DenseArrayBase.constr(i64))
    tiled_linalg_op = result_def(TransformOpHandleType)
    loops = var_result_def(TransformOpHandleType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    consumed_operands = ("target",)

    @classmethod
    def parse(cls, parser: Parser) -> TileUsingForOp:
        target = parser.parse_unresolved_operand()
        # LLVM 18 spelled the list without the `tile_sizes` keyword.
        parser.parse_optional_keyword("tile_sizes")
        sizes = IndexList(parser)
        interchange: IndexList | None = None
        if parser.parse_optional_keyword("interchange") is not None:
            parser.parse_punctuation("=")
            interchange = IndexList(parser)
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("inner_tile_alignments") is not None:
            parser.parse_punctuation("=")
            props["inner_tile_alignments"] = parse_inner_tile_alignments(parser)
        extra, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        inputs, outputs = parse_functional_type(parser)
        groups = [
            [target],
            sizes.dynamic,
            interchange.dynamic if interchange else [],
            [sizes.packed] if sizes.packed else [],
            [interchange.packed] if interchange and interchange.packed else [],
        ]
        resolved = resolve_segments(parser, groups, inputs)
        if sizes.packed is None:
            props["static_sizes"] = DenseArrayBase.from_list(i64, sizes.static)
            if any(sizes.scalable):
                props["scalable_sizes"] = DenseArrayBase.from_list(
                    i1, [int(s) for s in sizes.scalable]
                )
        if interchange is not None and interchange.packed is None:
            props["static_interchange"] = DenseArrayBase.from_list(i64, interchange.static)
        props |= extra
        props.pop("operandSegmentSizes", None)
        if "interchange" in props:
            # Legacy `{interchange = [..]}` (LLVM <= 18): the static interchange.
            legacy = props.pop("interchange")
            props["static_interchange"] = DenseArrayBase.from_list(
                i64, [a.value.data for a in cast(ArrayAttr[IntegerAttr[I64]], legacy).data]
            )
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
        printer.print_string(" tile_sizes ")
        print_index_list(
            printer,
            self.packed_tile_sizes,
            self.dynamic_sizes,
            self.static_sizes,
            self.scalable_sizes,
        )
        if self.packed_interchange is not None or dense_values(self.static_interchange):
            printer.print_string(" interchange = ")
            print_index_list(
                printer, self.packed_interchange, self.interchange, self.static_interchange
            )
        print_inner_tile_alignments(printer, self.inner_tile_alignments)
        print_prop_and_attr_dict(
            printer,
            self,
            elided=(
                "static_sizes",
                "static_interchange",
                "scalable_sizes",
                "inner_tile_alignments",
                "operandSegmentSizes",
            ),
        )
        printer.print_string(" : ")
        print_functional_type(printer, self.operand_types, self.result_types)

    def verify_(self) -> None:
        static = dense_values(self.static_sizes)
        if self.packed_tile_sizes is not None and (static or self.dynamic_sizes):
            raise VerifyException("tile_sizes and packed_tile_sizes are mutually exclusive")
        if self.packed_interchange is not None and (
            dense_values(self.static_interchange) or self.interchange
        ):
            raise VerifyException("interchange and packed_interchange are mutually exclusive")
        if self.scalable_sizes is not None and len(dense_values(self.scalable_sizes)) != len(
            static
        ):
            raise VerifyException(
                f"expected same number of sizes ({len(static)}) and scalable sizes "
                f"({len(dense_values(self.scalable_sizes))})"
            )
        if static.count(DYNAMIC_INDEX) != len(self.dynamic_sizes):
            raise VerifyException(
                f"expected {static.count(DYNAMIC_INDEX)} dynamic tile sizes, got "
                f"{len(self.dynamic_sizes)}"
            )
        if self.packed_tile_sizes is None and nonzero_count(static) != len(self.loops):
            raise VerifyException(
                f"expected number of loops to tile ({nonzero_count(static)}) to match number of "
                f"`loops` results ({len(self.loops)})"
            )
        if self.packed_tile_sizes is None:
            _verify_static_interchange(dense_values(self.static_interchange), len(static))
        verify_inner_tile_alignments(self.inner_tile_alignments)


def _verify_static_interchange(interchange: Sequence[int], rank: int) -> None:
    """Upstream's interchange checks: a permutation of the tiled loops (dynamic entries,
    given by handles, are checked when applied). The length message ends with upstream's
    print of the (empty) attribute form of the interchange."""
    if len(interchange) > rank:
        raise VerifyException(
            f"interchange length exceeds iteration space dimensions ({rank}), found "
        )
    seen: set[int] = set()
    for value in interchange:
        if value == DYNAMIC_INDEX:
            continue
        if not 0 <= value < rank:
            raise VerifyException(
                f"expects interchange values to be in range [0, {rank}), found: {value}"
            )
        if value in seen:
            raise VerifyException(f"found duplicate interchange value: {value}")
        seen.add(value)


# --------------------------------------------------------------------------------------
# tile_using_forall
# --------------------------------------------------------------------------------------


@irdl_transform_op
class TileUsingForallOp(IRDLOperation):
    """Tiles a TilingInterface op into one `scf.forall`, by `num_threads` (trip counts)
    or `tile_sizes` (tile shape); 0 leaves a dim untiled.

    ```mlir
    %tiled, %forall = transform.structured.tile_using_forall %op tile_sizes [64, 32]
        (mapping = [#gpu.block<y>, #gpu.block<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```

    `mapping` (one entry per non-zero size) is copied onto the forall.

    Return modes: consumes the target; returns the tiled ops and the foralls, in this order.
    Silenceable failure for a target without the TilingInterface and for size handles that
    are not one op with one index result; definite failure for a size param that does not
    hold exactly one integer, and when tiling fails. (Upstream also warns when a non-
    parallel loop is tiled; schedir does not.)
    """

    name = "transform.structured.tile_using_forall"

    target = operand_def(TransformOpHandleType)
    num_threads = var_operand_def(TransformHandleType)
    tile_sizes = var_operand_def(TransformHandleType)
    packed_num_threads = opt_operand_def(TransformHandleType)
    packed_tile_sizes = opt_operand_def(TransformHandleType)
    static_num_threads = opt_prop_def(DenseArrayBase.constr(i64))
    static_tile_sizes = opt_prop_def(DenseArrayBase.constr(i64))
    mapping = opt_prop_def(ArrayAttr)
    tiled_op = result_def(TransformOpHandleType)
    forall_op = result_def(TransformOpHandleType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    consumed_operands = ("target",)

    @classmethod
    def parse(cls, parser: Parser) -> TileUsingForallOp:
        target = parser.parse_unresolved_operand()
        threads: IndexList | None = None
        sizes: IndexList | None = None
        while True:
            if threads is None and parser.parse_optional_keyword("num_threads") is not None:
                threads = IndexList(parser)
            elif sizes is None and parser.parse_optional_keyword("tile_sizes") is not None:
                sizes = IndexList(parser)
            else:
                break
        props: dict[str, Attribute] = {}
        if parser.parse_optional_punctuation("(") is not None:
            parser.parse_keyword("mapping")
            parser.parse_punctuation("=")
            props["mapping"] = parser.parse_attribute()
            parser.parse_punctuation(")")
        extra, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        inputs, outputs = parse_functional_type(parser)
        groups = [
            [target],
            threads.dynamic if threads else [],
            sizes.dynamic if sizes else [],
            [threads.packed] if threads and threads.packed else [],
            [sizes.packed] if sizes and sizes.packed else [],
        ]
        resolved = resolve_segments(parser, groups, inputs)
        if threads is not None and threads.packed is None:
            props["static_num_threads"] = DenseArrayBase.from_list(i64, threads.static)
        if sizes is not None and sizes.packed is None:
            props["static_tile_sizes"] = DenseArrayBase.from_list(i64, sizes.static)
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
        if self.packed_num_threads is not None or self.static_num_threads is not None:
            printer.print_string(" num_threads ")
            print_index_list(
                printer, self.packed_num_threads, self.num_threads, self.static_num_threads
            )
        if self.packed_tile_sizes is not None or self.static_tile_sizes is not None:
            printer.print_string(" tile_sizes ")
            print_index_list(
                printer, self.packed_tile_sizes, self.tile_sizes, self.static_tile_sizes
            )
        if self.mapping is not None:
            # Upstream prints no space before `(`.
            printer.print_string("(mapping = ")
            printer.print_attribute(self.mapping)
            printer.print_string(")")
        print_prop_and_attr_dict(
            printer,
            self,
            elided=("static_num_threads", "static_tile_sizes", "mapping", "operandSegmentSizes"),
        )
        printer.print_string(" : ")
        print_functional_type(printer, self.operand_types, self.result_types)

    def verify_(self) -> None:
        threads = self.static_num_threads is not None and bool(
            dense_values(self.static_num_threads) or self.num_threads
        )
        sizes = self.static_tile_sizes is not None and bool(
            dense_values(self.static_tile_sizes) or self.tile_sizes
        )
        if threads and self.packed_num_threads is not None:
            raise VerifyException("num_threads and packed_num_threads are mutually exclusive")
        if sizes and self.packed_tile_sizes is not None:
            raise VerifyException("tile_sizes and packed_tile_sizes are mutually exclusive")
        if not (threads or sizes or self.packed_num_threads or self.packed_tile_sizes):
            raise VerifyException(
                "either (packed_)num_threads or (packed_)tile_sizes must be specified"
            )
        for static, dynamic, what in (
            (self.static_num_threads, self.num_threads, "num_threads"),
            (self.static_tile_sizes, self.tile_sizes, "tile_sizes"),
        ):
            expected = dense_values(static).count(DYNAMIC_INDEX)
            if expected != len(dynamic):
                raise VerifyException(
                    f"expected {expected} dynamic {what} values, got {len(dynamic)}"
                )


OPS: tuple[type[IRDLOperation], ...] = (TileUsingForOp, TileUsingForallOp)

__all__ = ["OPS", "TileUsingForOp", "TileUsingForallOp"]
