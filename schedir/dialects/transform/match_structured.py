"""The `match.structured` matcher family (upstream LinalgMatchOps.td).

`match.structured` checks that its handle is one structured (linalg) payload op and runs
the predicates of its body on it: `.body`, `.dim`, `.rank`, `.input`, `.init`,
`.result`, `.num_inputs`, `.num_inits`, `.elemental_bitwidth`,
`.classify_contraction_dims`, `.classify_convolution_dims`, ended by `.yield`. The
predicates may only appear directly in a `match.structured` body and apply to its block
argument. They only read their handles; a silenceable failure means "no match".

Applied by `schedir.transform.ops.match_structured`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    I32,
    I64,
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    StringAttr,
    UnitAttr,
    i64,
)
from xdsl.dialects.transform import (
    TransformHandleType,
    TransformOpHandleType,
    TransformParamHandleType,
    TransformValueHandleType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import irdl_transform_op
from schedir.dialects.transform._syntax_helpers import (
    FailurePropagationMode,
    failure_mode,
    parse_failures,
    parse_position_list,
    parse_prop_and_attr_dict,
    parse_semi_function_type,
    print_failures,
    print_position_list,
    print_prop_and_attr_dict,
    print_semi_function_type,
    verify_position_list,
)
from schedir.dialects.transform.core.sequence import ensure_yields
from schedir.dialects.transform.interfaces import MatchOpInterface


@irdl_transform_op
class MatchStructuredYieldOp(IRDLOperation, MatchOpInterface):
    """Terminator of `match.structured`: forwards handles to its results.

    ```mlir
    transform.match.structured.yield %s : !transform.any_op
    ```

    Return modes: only reads its operands; `match.structured` reads it (applied on its own
    it fails definitely).
    """

    name = "transform.match.structured.yield"

    handles = var_operand_def(TransformHandleType)

    traits = traits_def(IsTerminator())

    assembly_format = "$handles attr-dict (`:` type($handles)^)?"

    def __init__(self, handles: Sequence[SSAValue] = ()) -> None:
        super().__init__(operands=[handles])


@irdl_transform_op
class MatchStructuredOp(IRDLOperation, MatchOpInterface):
    """Matches one structured (linalg) payload op against the predicates of its body.

    ```mlir
    %m = transform.match.structured failures(propagate) %op
        : (!transform.any_op) -> !transform.any_op {
    ^bb0(%s: !transform.any_op):
      transform.match.structured.body %s contraction = ["arith.mulf", "arith.addf"]
          : !transform.any_op
      transform.match.structured.yield %s : !transform.any_op
    }
    ```

    Return modes: only reads the handle; results take the yielded payloads. Definite
    failure unless the handle holds exactly one payload op. Silenceable failure if it
    is not structured or a predicate fails (`propagate`, the default); with `suppress`
    that is not an error and the unset results are empty.
    """

    name = "transform.match.structured"

    current = operand_def(TransformOpHandleType)
    failure_propagation_mode = opt_prop_def(IntegerAttr[I32])
    outputs = var_result_def(TransformHandleType)
    body_region = region_def()

    @property
    def mode(self) -> FailurePropagationMode:
        """The failure propagation mode (`propagate` when not given)."""
        return failure_mode(self.failure_propagation_mode)

    @classmethod
    def parse(cls, parser: Parser) -> MatchStructuredOp:
        mode = (
            parse_failures(parser, keyword_parsed=True)
            if parser.parse_optional_keyword("failures") is not None
            else None
        )
        current = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        operand_type, result_types = parse_semi_function_type(parser)
        props, attrs = parse_prop_and_attr_dict(parser, cls, with_keyword=True)
        body = parser.parse_region()
        ensure_yields([body], MatchStructuredYieldOp)
        op = cls.create(
            operands=[parser.resolve_operand(current, operand_type)],
            result_types=result_types,
            properties=props,
            attributes=attrs,
            regions=[body],
        )
        if mode is not None:
            op.properties["failure_propagation_mode"] = mode
        return op

    def print(self, printer: Printer) -> None:
        if self.failure_propagation_mode is not None:
            printer.print_string(" ")
            print_failures(printer, self.failure_propagation_mode)
        printer.print_string(" ")
        printer.print_ssa_value(self.current)
        printer.print_string(" : ")
        print_semi_function_type(printer, self.current.type, self.result_types)
        print_prop_and_attr_dict(
            printer, self, elided=("failure_propagation_mode",), with_keyword=True
        )
        block = self.body_region.blocks.first
        last = block.last_op if block is not None else None
        implicit = isinstance(last, MatchStructuredYieldOp) and not last.operands
        printer.print_string(" ")
        printer.print_region(self.body_region, print_block_terminators=not implicit)

    def verify_(self) -> None:
        block = self.body_region.blocks.first
        if block is None or len(block.args) != 1:
            raise VerifyException("expected one body argument")
        if not isinstance(block.args[0].type, TransformOpHandleType):
            raise VerifyException(
                "expected body argument to implement TransformHandleTypeInterface"
            )


def _check_predicate(op: Operation, handle: SSAValue) -> None:
    """Upstream `StructuredOpPredicateOpTrait`: directly in `match.structured`, applied to
    its block argument."""
    parent = op.parent_op()
    if not isinstance(parent, MatchStructuredOp):
        raise VerifyException(f"expects parent op to be '{MatchStructuredOp.name}'")
    if handle is not parent.body_region.block.args[0]:
        raise VerifyException("expected predicate to apply to the surrounding structured op")


class _StructuredPredicate(IRDLOperation, MatchOpInterface):
    """Shared definition of the `match.structured.*` predicates on the structured op."""

    operand_handle = operand_def(TransformOpHandleType)

    def verify_(self) -> None:
        _check_predicate(self, self.operand_handle)


@irdl_transform_op
class MatchStructuredBodyOp(_StructuredPredicate):
    """Predicate on the body of the structured op: a `contraction` of the two named
    ops, `elementwise`, a `reduction_position = n` single-combiner reduction of
    operand n, or `passthrough` (only forwards inputs).

    ```mlir
    transform.match.structured.body %s contraction = ["arith.mulf", "arith.addf"]
        : !transform.any_op
    ```

    Return modes: only reads the handle. Silenceable failure if the body does not fit;
    definite if the handle is not one payload op.
    """

    name = "transform.match.structured.body"

    reduction_position = opt_prop_def(IntegerAttr[I64])
    passthrough = opt_prop_def(UnitAttr)
    elementwise = opt_prop_def(UnitAttr)
    contraction = opt_prop_def(ArrayAttr[StringAttr])

    @classmethod
    def parse(cls, parser: Parser) -> MatchStructuredBodyOp:
        # Upstream's format is an `oilist`: the clauses may come in any order.
        handle = parser.parse_unresolved_operand()
        props: dict[str, Attribute] = {}
        while True:
            if parser.parse_optional_keyword("reduction_position") is not None:
                parser.parse_punctuation("=")
                props["reduction_position"] = IntegerAttr(
                    parser.parse_integer(allow_boolean=False), i64
                )
            elif parser.parse_optional_keyword("passthrough") is not None:
                props["passthrough"] = UnitAttr()
            elif parser.parse_optional_keyword("elementwise") is not None:
                props["elementwise"] = UnitAttr()
            elif parser.parse_optional_keyword("contraction") is not None:
                parser.parse_punctuation("=")
                props["contraction"] = parser.parse_attribute()
            else:
                break
        extra, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        return cls.create(
            operands=[parser.resolve_operand(handle, parser.parse_type())],
            properties=props | extra,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.operand_handle)
        if self.reduction_position is not None:
            printer.print_string(f" reduction_position = {self.reduction_position.value.data}")
        if self.passthrough is not None:
            printer.print_string(" passthrough")
        if self.elementwise is not None:
            printer.print_string(" elementwise")
        if self.contraction is not None:
            printer.print_string(" contraction = ")
            printer.print_attribute(self.contraction)
        print_prop_and_attr_dict(
            printer,
            self,
            elided=("reduction_position", "passthrough", "elementwise", "contraction"),
        )
        printer.print_string(" : ")
        printer.print_attribute(self.operand_handle.type)

    def verify_(self) -> None:
        _check_predicate(self, self.operand_handle)
        given = [
            self.reduction_position,
            self.passthrough,
            self.elementwise,
            self.contraction,
        ]
        if sum(value is not None for value in given) > 1:
            raise VerifyException(
                'only one of {"reduction_position", "passthrough", "elementwise", '
                '"contraction"} is allowed'
            )
        if self.contraction is not None and len(self.contraction.data) != 2:
            raise VerifyException('expects "contraction" to contain two elements')


class _PositionPredicate(_StructuredPredicate):
    """Predicates taking `[0, -1]` / `[except(..)]` / `[all]` and an optional result
    (upstream `custom<StructuredTransformDims>` + `custom<SemiFunctionType>`)."""

    LIST_NAME: ClassVar[str] = "raw_position_list"
    FLAGS: ClassVar[tuple[str, ...]] = ()

    is_inverted = opt_prop_def(UnitAttr)
    is_all = opt_prop_def(UnitAttr)

    @classmethod
    def parse(cls, parser: Parser) -> IRDLOperation:
        handle = parser.parse_unresolved_operand()
        props = parse_position_list(parser, cls.LIST_NAME)
        for flag in cls.FLAGS:
            if parser.parse_optional_keyword(flag) is not None:
                props[flag] = UnitAttr()
        extra, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        operand_type, result_types = parse_semi_function_type(parser)
        return cls.create(
            operands=[parser.resolve_operand(handle, operand_type)],
            result_types=result_types,
            properties=props | extra,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.operand_handle)
        print_position_list(printer, self.properties[self.LIST_NAME], self.is_inverted, self.is_all)
        for flag in self.FLAGS:
            if flag in self.properties:
                printer.print_string(f" {flag}")
        print_prop_and_attr_dict(
            printer, self, elided=(self.LIST_NAME, "is_inverted", "is_all", *self.FLAGS)
        )
        printer.print_string(" : ")
        print_semi_function_type(printer, self.operand_handle.type, self.result_types)

    def verify_(self) -> None:
        _check_predicate(self, self.operand_handle)
        verify_position_list(self.properties[self.LIST_NAME], self.is_inverted, self.is_all)


@irdl_transform_op
class MatchStructuredDimOp(_PositionPredicate):
    """Predicate on loop dimensions (`parallel` or `reduction`); may capture their
    static sizes (-1 for dynamic) in a param.

    ```mlir
    %d0 = transform.match.structured.dim %s[0] : (!transform.any_op) -> !transform.param<i64>
    transform.match.structured.dim %s[except(-1)] parallel : !transform.any_op
    ```

    Return modes: only reads the handle. Silenceable failure if a dimension is out of
    range or not of the requested kind; definite if the handle is not one payload op.
    """

    name = "transform.match.structured.dim"

    LIST_NAME: ClassVar[str] = "raw_dim_list"
    FLAGS: ClassVar[tuple[str, ...]] = ("parallel", "reduction")

    raw_dim_list = prop_def(DenseArrayBase.constr(i64))
    parallel = opt_prop_def(UnitAttr)
    reduction = opt_prop_def(UnitAttr)
    result = opt_result_def(TransformParamHandleType)

    def verify_(self) -> None:
        super().verify_()
        if self.parallel is not None and self.reduction is not None:
            raise VerifyException(
                "cannot request the same dimension to be both parallel and reduction"
            )


class _OperandPredicate(_PositionPredicate):
    """`match.structured.input`/`.init`: capture operands, their producers or maps."""

    FLAGS: ClassVar[tuple[str, ...]] = ("permutation", "projected_permutation")

    raw_position_list = prop_def(DenseArrayBase.constr(i64))
    permutation = opt_prop_def(UnitAttr)
    projected_permutation = opt_prop_def(UnitAttr)
    result = opt_result_def(TransformHandleType)

    def verify_(self) -> None:
        super().verify_()
        if self.permutation is not None and self.projected_permutation is not None:
            raise VerifyException(
                '"permutation" and "projected_permutation" are mutually exclusive'
            )
        values = self.raw_position_list.get_values()
        single = self.is_all is None and self.is_inverted is None and len(values) == 1
        binds_op = self.result is not None and isinstance(self.result.type, TransformOpHandleType)
        if binds_op and not single:
            raise VerifyException("cannot bind multiple inputs/inits to the same value")


@irdl_transform_op
class MatchStructuredInputOp(_OperandPredicate):
    """Predicate on inputs (`permutation`/`projected_permutation` indexing maps); may
    capture them as values, their producers as ops, or their maps as params.

    ```mlir
    %i = transform.match.structured.input %s[0] : (!transform.any_op) -> !transform.any_value
    ```

    Return modes: only reads the handle. Silenceable failure if an index is out of range,
    a map does not fit, or an op result is asked for a non-result input.
    """

    name = "transform.match.structured.input"


@irdl_transform_op
class MatchStructuredInitOp(_OperandPredicate):
    """Predicate on inits (outs); captures like `match.structured.input`.

    ```mlir
    %i = transform.match.structured.init %s[0] projected_permutation
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: only reads the handle. Silenceable failure if an index is out of range,
    a map does not fit, or an op result is asked for a non-result init.
    """

    name = "transform.match.structured.init"


@irdl_transform_op
class MatchStructuredResultOp(_StructuredPredicate):
    """Captures result #`position` (negative: from the end) as a value, or its `any` /
    `single` user as an op.

    ```mlir
    %u = transform.match.structured.result %s[0] single
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: only reads the handle. Silenceable failure if the position is out of
    range or the requested user does not exist.
    """

    name = "transform.match.structured.result"

    position = prop_def(IntegerAttr[I64])
    any = opt_prop_def(UnitAttr)
    single = opt_prop_def(UnitAttr)
    result = result_def(TransformHandleType)

    assembly_format = (
        "$operand_handle `[` $position `]` (`any` $any^)? (`single` $single^)? "
        "attr-dict `:` functional-type(operands, results)"
    )

    def verify_(self) -> None:
        _check_predicate(self, self.operand_handle)
        if self.any is not None and self.single is not None:
            raise VerifyException("'any' and 'single' are mutually exclusive")
        wants_op = self.any is not None or self.single is not None
        if wants_op != isinstance(self.result.type, TransformOpHandleType):
            raise VerifyException(
                "expects either the any/single keyword or the type value handle result type"
            )


@irdl_transform_op
class MatchStructuredRankOp(_StructuredPredicate):
    """Captures the rank (number of loops) of the structured op as a param.

    ```mlir
    %r = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
    ```

    Return modes: only reads the handle; definite failure if it is not one payload op.
    """

    name = "transform.match.structured.rank"

    result = result_def(TransformParamHandleType)

    assembly_format = "$operand_handle attr-dict `:` functional-type(operands, results)"


@irdl_transform_op
class MatchStructuredNumInputsOp(_StructuredPredicate):
    """Captures the number of inputs of the structured op as a param.

    ```mlir
    %n = transform.match.structured.num_inputs %s : (!transform.any_op) -> !transform.param<i64>
    ```

    Return modes: only reads the handle; definite failure if it is not one payload op.
    """

    name = "transform.match.structured.num_inputs"

    result = result_def(TransformParamHandleType)

    assembly_format = "$operand_handle attr-dict `:` functional-type(operands, results)"


@irdl_transform_op
class MatchStructuredNumInitsOp(_StructuredPredicate):
    """Captures the number of inits (outs) of the structured op as a param.

    ```mlir
    %n = transform.match.structured.num_inits %s : (!transform.any_op) -> !transform.param<i64>
    ```

    Return modes: only reads the handle; definite failure if it is not one payload op.
    """

    name = "transform.match.structured.num_inits"

    result = result_def(TransformParamHandleType)

    assembly_format = "$operand_handle attr-dict `:` functional-type(operands, results)"


@irdl_transform_op
class MatchStructuredElementalBitwidthOp(IRDLOperation, MatchOpInterface):
    """Captures the bitwidth of a value's element type as a param.

    ```mlir
    %bw = transform.match.structured.elemental_bitwidth %v
        : (!transform.any_value) -> !transform.param<i64>
    ```

    Return modes: only reads the handle. Definite failure unless it holds exactly one
    payload value; silenceable failure if its (element) type is not an integer or float
    type.
    """

    name = "transform.match.structured.elemental_bitwidth"

    operand_handle = operand_def(TransformValueHandleType)
    result = result_def(TransformParamHandleType)

    assembly_format = "$operand_handle attr-dict `:` functional-type(operands, results)"


@irdl_transform_op
class MatchStructuredClassifyContractionDimsOp(_StructuredPredicate):
    """Captures the batch, m, n and k dimensions of a contraction as params.

    ```mlir
    %b, %m, %n, %k = transform.match.structured.classify_contraction_dims %s
        : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>,
                                  !transform.param<i64>, !transform.param<i64>)
    ```

    Return modes: only reads the handle. Silenceable failure if the op is not a
    contraction.
    """

    name = "transform.match.structured.classify_contraction_dims"

    batch = result_def(TransformParamHandleType)
    m = result_def(TransformParamHandleType)
    n = result_def(TransformParamHandleType)
    k = result_def(TransformParamHandleType)

    assembly_format = "$operand_handle attr-dict `:` functional-type(operands, results)"


@irdl_transform_op
class MatchStructuredClassifyConvolutionDimsOp(_StructuredPredicate):
    """Captures the batch, output image/channel, filter, input channel and depth
    dimensions, strides and dilations of a convolution as params.

    ```mlir
    %b, %oi, %oc, %fl, %ic, %d, %s, %dl =
        transform.match.structured.classify_convolution_dims %s : (!transform.any_op)
        -> (!transform.param<i64>, ... x8)
    ```

    Return modes: only reads the handle. Silenceable failure if the op is not a
    convolution.
    """

    name = "transform.match.structured.classify_convolution_dims"

    batch = result_def(TransformParamHandleType)
    output_image = result_def(TransformParamHandleType)
    output_channel = result_def(TransformParamHandleType)
    filter_loop = result_def(TransformParamHandleType)
    input_channel = result_def(TransformParamHandleType)
    depth = result_def(TransformParamHandleType)
    strides = result_def(TransformParamHandleType)
    dilations = result_def(TransformParamHandleType)

    assembly_format = "$operand_handle attr-dict `:` functional-type(operands, results)"


OPS: tuple[type[IRDLOperation], ...] = (
    MatchStructuredBodyOp,
    MatchStructuredClassifyContractionDimsOp,
    MatchStructuredClassifyConvolutionDimsOp,
    MatchStructuredDimOp,
    MatchStructuredElementalBitwidthOp,
    MatchStructuredInitOp,
    MatchStructuredInputOp,
    MatchStructuredNumInitsOp,
    MatchStructuredNumInputsOp,
    MatchStructuredOp,
    MatchStructuredRankOp,
    MatchStructuredResultOp,
    MatchStructuredYieldOp,
)

__all__ = [
    "OPS",
    "MatchStructuredBodyOp",
    "MatchStructuredClassifyContractionDimsOp",
    "MatchStructuredClassifyConvolutionDimsOp",
    "MatchStructuredDimOp",
    "MatchStructuredElementalBitwidthOp",
    "MatchStructuredInitOp",
    "MatchStructuredInputOp",
    "MatchStructuredNumInitsOp",
    "MatchStructuredNumInputsOp",
    "MatchStructuredOp",
    "MatchStructuredRankOp",
    "MatchStructuredResultOp",
    "MatchStructuredYieldOp",
]
