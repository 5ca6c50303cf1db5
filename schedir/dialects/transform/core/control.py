"""Core transform ops that call or repeat transform IR: `include`, `foreach`,
`alternatives`, `foreach_match` and `collect_matching` (upstream TransformOps.td).

Upstream's symbol-use checks of `include`, `foreach_match` and `collect_matching`
(callee exists, arities and handle kinds agree, matchers do not consume) run in the
ops' verifiers here, since xDSL has no separate symbol-use verification.

Applied by `schedir.transform.ops.core.control`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I32,
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    SymbolRefAttr,
    UnitAttr,
)
from xdsl.dialects.transform import TransformHandleType, TransformOpHandleType
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import irdl_transform_op
from schedir.dialects.transform._syntax_helpers import (
    FailurePropagationMode,
    failure_mode,
    failure_mode_attr,
    parse_failures,
    parse_functional_type,
    parse_operand_list,
    parse_prop_and_attr_dict,
    parse_type_list,
    print_failures,
    print_functional_type,
    print_prop_and_attr_dict,
    print_types,
    resolve,
)
from schedir.dialects.transform.core._foreach_match_checks import verify_foreach_match_symbols
from schedir.dialects.transform.core.sequence import (
    NamedSequenceOp,
    YieldOp,
    arg_annotations,
    ensure_yields,
    lookup_named_sequence,
    print_body,
)
from schedir.dialects.transform.interfaces import (
    MatchOpInterface,
    consumed_block_arguments,
    handle_kind,
)

# --------------------------------------------------------------------------------------
# include
# --------------------------------------------------------------------------------------


@irdl_transform_op
class IncludeOp(IRDLOperation, MatchOpInterface):
    """Runs a named sequence on the given handles, with its own failure mode.

    ```mlir
    %r = transform.include @f failures(propagate) (%h) : (!transform.any_op)
        -> !transform.any_op
    ```

    Return modes: consumes the operands whose callee arguments are `{transform.consumed}`;
    returns the callee's yielded handles. Definite failure if the callee does not resolve.
    Failures of the callee body are propagated or, with `failures(suppress)`, silenceable
    ones are dropped.
    """

    name = "transform.include"

    target = prop_def(SymbolRefAttr)
    failure_propagation_mode = prop_def(IntegerAttr[I32])
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    operands_ = var_operand_def(TransformHandleType)
    results_ = var_result_def(TransformHandleType)

    def __init__(
        self,
        target: str,
        mode: FailurePropagationMode | str,
        operands: Sequence[SSAValue],
        result_types: Sequence[Attribute] = (),
    ) -> None:
        super().__init__(
            operands=[operands],
            result_types=[result_types],
            properties={
                "target": SymbolRefAttr(target),
                "failure_propagation_mode": failure_mode_attr(mode),
            },
        )

    @property
    def mode(self) -> FailurePropagationMode:
        """The failure propagation mode."""
        return failure_mode(self.failure_propagation_mode)

    def callee(self) -> NamedSequenceOp | None:
        """The included named sequence, if it resolves."""
        return lookup_named_sequence(self, self.target)

    def consumed_values(self) -> tuple[SSAValue, ...]:
        callee = self.callee()
        if callee is None:
            return ()
        return tuple(v for i, v in enumerate(self.operands_) if callee.arg_consumed(i))

    @classmethod
    def parse(cls, parser: Parser) -> IncludeOp:
        target = parser.parse_attribute()
        if not isinstance(target, SymbolRefAttr):
            parser.raise_error("expected a symbol reference")
        mode = parse_failures(parser)
        parser.parse_punctuation("(")
        operands = parse_operand_list(parser)
        parser.parse_punctuation(")")
        props, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        inputs, outputs = parse_functional_type(parser)
        values = resolve(parser, operands, inputs)
        op = cls(
            target.root_reference.data, FailurePropagationMode(mode.value.data), values, outputs
        )
        op.properties["target"] = target
        op.properties.update(props)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.target)
        printer.print_string(" ")
        print_failures(printer, self.failure_propagation_mode)
        printer.print_string(" (")
        printer.print_list(self.operands_, printer.print_ssa_value)
        printer.print_string(")")
        print_prop_and_attr_dict(printer, self, elided=("target", "failure_propagation_mode"))
        printer.print_string(" : ")
        print_functional_type(printer, self.operands_.types, self.result_types)

    def verify_(self) -> None:
        callee = self.callee()
        if callee is None:
            raise VerifyException("does not reference a named transform sequence")
        inputs = callee.function_type.inputs.data
        outputs = callee.function_type.outputs.data
        if len(inputs) != len(self.operands_):
            raise VerifyException("incorrect number of operands for callee")
        for index, (want, got) in enumerate(zip(inputs, self.operands_.types, strict=True)):
            if want != got:
                raise VerifyException(
                    f"operand type mismatch: expected operand type '{want}', but provided "
                    f"'{got}' for operand number {index}"
                )
        if len(outputs) != len(self.results):
            raise VerifyException("incorrect number of results for callee")
        for index, (want, got) in enumerate(zip(outputs, self.result_types, strict=True)):
            if handle_kind(want) != handle_kind(got):
                raise VerifyException(
                    f"type of result #{index} must implement the same transform dialect "
                    "interface as the corresponding callee result"
                )
        for index in range(len(inputs)):
            readonly, consumed = arg_annotations(callee, index)
            if not readonly and not consumed:
                raise VerifyException(
                    "TransformOpInterface requires memory effects on operands to be "
                    f"specified (no effects specified for operand #{index})"
                )


# --------------------------------------------------------------------------------------
# foreach
# --------------------------------------------------------------------------------------


@irdl_transform_op
class ForeachOp(IRDLOperation):
    """Runs its body once per payload op (zipping several handles).

    ```mlir
    %r = transform.foreach %a, %b with_zip_shortest
        : !transform.any_op, !transform.any_op -> !transform.any_op {
    ^bb0(%x: !transform.any_op, %y: !transform.any_op):
      transform.yield %x : !transform.any_op
    }
    ```

    Return modes: reads the targets, and consumes each target whose block argument the
    body consumes. Each result concatenates what the iterations yield. The handles must
    have equally many payloads unless `with_zip_shortest` (silenceable failure
    otherwise); a failing iteration fails the op with that failure.
    """

    name = "transform.foreach"

    targets = var_operand_def(TransformHandleType)
    with_zip_shortest = opt_prop_def(UnitAttr)
    results_ = var_result_def(TransformHandleType)
    body = region_def("single_block")

    def __init__(
        self,
        targets: Sequence[SSAValue],
        body: Region,
        result_types: Sequence[Attribute] = (),
        *,
        with_zip_shortest: bool = False,
    ) -> None:
        super().__init__(
            operands=[targets],
            result_types=[result_types],
            properties={"with_zip_shortest": UnitAttr() if with_zip_shortest else None},
            regions=[body],
        )

    def consumed_values(self) -> tuple[SSAValue, ...]:
        consumed = consumed_block_arguments(self.body.block)
        return tuple(v for i, v in enumerate(self.targets) if i in consumed)

    @classmethod
    def parse(cls, parser: Parser) -> ForeachOp:
        operands = parse_operand_list(parser)
        zip_shortest = parser.parse_optional_keyword("with_zip_shortest") is not None
        parser.parse_punctuation(":")
        types = parse_type_list(parser)
        values = resolve(parser, operands, types)
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types = parse_type_list(parser)
        body = parser.parse_region()
        ensure_yields([body])
        props, attrs = parse_prop_and_attr_dict(parser, cls)
        op = cls(values, body, result_types, with_zip_shortest=zip_shortest)
        op.properties.update(props)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.targets, printer.print_ssa_value)
        if self.with_zip_shortest is not None:
            printer.print_string(" with_zip_shortest")
        printer.print_string(" : ")
        print_types(printer, self.targets.types)
        if self.results:
            printer.print_string(" -> ")
            print_types(printer, self.result_types)
        print_body(printer, self.body)
        print_prop_and_attr_dict(printer, self, elided=("with_zip_shortest",))

    def verify_(self) -> None:
        block = self.body.block
        if len(block.args) != len(self.targets):
            raise VerifyException(
                f"expects the same number of block arguments as operands "
                f"({len(block.args)} vs {len(self.targets)})"
            )
        for index, (arg, target) in enumerate(zip(block.args, self.targets, strict=True)):
            if handle_kind(arg.type) != handle_kind(target.type):
                raise VerifyException(
                    f"expects co-indexed block arguments and operands to be of the same "
                    f"handle kind (operand #{index})"
                )
        terminator = block.last_op
        if not isinstance(terminator, YieldOp):
            raise VerifyException("expects a transform.yield terminator")
        if len(terminator.operands_) != len(self.results):
            raise VerifyException("expects the same number of results as yield operands")
        for got, want in zip(terminator.operands_.types, self.result_types, strict=True):
            if handle_kind(got) != handle_kind(want):
                raise VerifyException(
                    "expects co-indexed yield operands and results to be of the same handle kind"
                )


# --------------------------------------------------------------------------------------
# alternatives
# --------------------------------------------------------------------------------------


@irdl_transform_op
class AlternativesOp(IRDLOperation):
    """Tries its regions in order until one succeeds, rolling back failed ones.

    ```mlir
    %r = transform.alternatives %scope : !transform.any_op -> !transform.any_op {
    ^bb0(%s: !transform.any_op):
      transform.yield %s : !transform.any_op
    }, {
    ^bb0(%s: !transform.any_op):
      transform.yield %s : !transform.any_op
    }
    ```

    The scope must be isolated from above; a failed region's changes are undone by
    cloning the scope before each attempt.

    Return modes: consumes the scope handle; returns the handles yielded by the first region
    that succeeds. Silenceable failures of a region move on to the next one; if all regions
    fail, the op fails silenceably. Definite failure if the scope contains this op or is not
    isolated from above; definite failures of a region propagate at once.
    """

    name = "transform.alternatives"

    scope = opt_operand_def(TransformHandleType)
    results_ = var_result_def(TransformHandleType)
    alternatives = var_region_def("single_block")

    traits = traits_def(IsolatedFromAbove())

    consumed_operands = ("scope",)

    def __init__(
        self,
        regions: Sequence[Region],
        scope: SSAValue | None = None,
        result_types: Sequence[Attribute] = (),
    ) -> None:
        super().__init__(
            operands=[[scope] if scope is not None else []],
            result_types=[result_types],
            regions=[list(regions)],
        )

    @classmethod
    def parse(cls, parser: Parser) -> AlternativesOp:
        scope = parser.parse_optional_unresolved_operand()
        value: SSAValue | None = None
        if scope is not None:
            parser.parse_punctuation(":")
            value = parser.resolve_operand(scope, parser.parse_type())
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types = parse_type_list(parser)
        props, attrs = parse_prop_and_attr_dict(parser, cls, with_keyword=True)
        regions: list[Region] = []
        region = parser.parse_optional_region()
        while region is not None:
            regions.append(region)
            if parser.parse_optional_punctuation(",") is None:
                break
            region = parser.parse_region()
        ensure_yields(regions)
        op = cls(regions, value, result_types)
        op.properties.update(props)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.scope is not None:
            printer.print_string(" ")
            printer.print_ssa_value(self.scope)
            printer.print_string(" : ")
            printer.print_attribute(self.scope.type)
        if self.results:
            printer.print_string(" -> ")
            print_types(printer, self.result_types)
        print_prop_and_attr_dict(printer, self, with_keyword=True)
        for index, region in enumerate(self.alternatives):
            printer.print_string("," if index else "")
            print_body(printer, region)

    def verify_(self) -> None:
        if not self.alternatives:
            raise VerifyException("expects at least one region")
        for region in self.alternatives:
            block = region.block
            if self.scope is None and not block.args:
                raise VerifyException("expects the entry block to have at least one argument")
            terminator = block.last_op
            if isinstance(terminator, YieldOp) and tuple(terminator.operands_.types) != tuple(
                self.result_types
            ):
                raise VerifyException(
                    "expects terminator operands to have the same type as results of the operation"
                )


# --------------------------------------------------------------------------------------
# foreach_match and collect_matching
# --------------------------------------------------------------------------------------


def _verify_matcher(op: Operation, symbol: SymbolRefAttr) -> NamedSequenceOp:
    matcher = lookup_named_sequence(op, symbol)
    if matcher is None:
        raise VerifyException(f"unresolved matcher symbol {symbol}")
    for index in range(len(matcher.function_type.inputs.data)):
        if matcher.arg_consumed(index):
            raise VerifyException(f"does not expect matcher symbol to consume its operand #{index}")
    return matcher


@irdl_transform_op
class ForeachMatchOp(IRDLOperation):
    """Walks the payload post-order; for each op, runs the first matcher that succeeds
    and then its action.

    ```mlir
    %u = transform.foreach_match restrict_root in %root
        @match_a -> @act_a, @match_b -> @act_b : (!transform.any_op) -> !transform.any_op
    ```

    Matchers are named sequences that must not consume their argument; a silenceable
    failure means "no match". The root itself is only matched with `restrict_root`.
    Forwarded inputs go to every matcher; `flatten_results` concatenates yields.

    Return modes: consumes the root and returns an updated handle to it, plus the forwarded
    outputs. Silenceable failures of actions are collected and reported after the walk
    ("actions failed"); definite failure if a matcher or action does not resolve, or if an
    action yields several payloads without `flatten_results`; definite failures abort.
    """

    name = "transform.foreach_match"

    root = operand_def(TransformOpHandleType)
    forwarded_inputs = var_operand_def(TransformHandleType)
    matchers = prop_def(ArrayAttr[SymbolRefAttr])
    actions = prop_def(ArrayAttr[SymbolRefAttr])
    restrict_root = opt_prop_def(UnitAttr)
    flatten_results = opt_prop_def(UnitAttr)
    updated = result_def(TransformOpHandleType)
    forwarded_outputs = var_result_def(TransformHandleType)

    consumed_operands = ("root",)

    def allows_repeated_handles(self) -> bool:
        """The root and the forwarded inputs may point to the same payload."""
        return True

    def lookup(self, symbol: SymbolRefAttr) -> NamedSequenceOp | None:
        """The named sequence a matcher or action symbol names."""
        return lookup_named_sequence(self, symbol)

    def __init__(
        self,
        root: SSAValue,
        pairs: Sequence[tuple[str, str]],
        updated_type: Attribute,
        forwarded_inputs: Sequence[SSAValue] = (),
        forwarded_output_types: Sequence[Attribute] = (),
        *,
        restrict_root: bool = False,
        flatten_results: bool = False,
    ) -> None:
        super().__init__(
            operands=[root, forwarded_inputs],
            result_types=[updated_type, forwarded_output_types],
            properties={
                "matchers": ArrayAttr([SymbolRefAttr(m) for m, _ in pairs]),
                "actions": ArrayAttr([SymbolRefAttr(a) for _, a in pairs]),
                "restrict_root": UnitAttr() if restrict_root else None,
                "flatten_results": UnitAttr() if flatten_results else None,
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> ForeachMatchOp:
        restrict = flatten = False
        while True:
            if parser.parse_optional_keyword("restrict_root") is not None:
                restrict = True
            elif parser.parse_optional_keyword("flatten_results") is not None:
                flatten = True
            else:
                break
        parser.parse_keyword("in")
        operands = parse_operand_list(parser)
        pairs: list[tuple[SymbolRefAttr, SymbolRefAttr]] = []

        def pair() -> None:
            matcher = parser.parse_attribute()
            parser.parse_punctuation("->")
            action = parser.parse_attribute()
            if not isinstance(matcher, SymbolRefAttr) or not isinstance(action, SymbolRefAttr):
                parser.raise_error("expected symbol references")
            pairs.append((matcher, action))

        pair()
        while parser.parse_optional_punctuation(",") is not None:
            pair()
        props, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        inputs, outputs = parse_functional_type(parser)
        values = resolve(parser, operands, inputs)
        if not values or not outputs:
            parser.raise_error("expected a root operand and an updated-root result")
        op = cls(
            values[0],
            [("x", "x")] * len(pairs),
            outputs[0],
            values[1:],
            outputs[1:],
            restrict_root=restrict,
            flatten_results=flatten,
        )
        op.properties["matchers"] = ArrayAttr([m for m, _ in pairs])
        op.properties["actions"] = ArrayAttr([a for _, a in pairs])
        op.properties.update(props)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.restrict_root is not None:
            printer.print_string(" restrict_root")
        if self.flatten_results is not None:
            printer.print_string(" flatten_results")
        printer.print_string(" in ")
        printer.print_list(self.operands, printer.print_ssa_value)
        printer.print_string(" ")
        printer.print_list(
            zip(self.matchers.data, self.actions.data, strict=True),
            lambda p: printer.print_string(f"{p[0]} -> {p[1]}"),
        )
        print_prop_and_attr_dict(
            printer,
            self,
            elided=("matchers", "actions", "restrict_root", "flatten_results"),
        )
        printer.print_string(" : ")
        print_functional_type(printer, self.operand_types, self.result_types)

    def verify_(self) -> None:
        if len(self.matchers.data) != len(self.actions.data):
            raise VerifyException("expected the same number of matchers and actions")
        if not self.matchers.data:
            raise VerifyException("expected at least one match/action pair")
        verify_foreach_match_symbols(
            self, list(zip(self.matchers.data, self.actions.data, strict=True))
        )


@irdl_transform_op
class CollectMatchingOp(IRDLOperation, MatchOpInterface):
    """Runs a matcher on every payload op nested in the root and concatenates what it
    yields.

    ```mlir
    %ops = transform.collect_matching @match_mm in %root
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: only reads the root; the matcher must not consume its argument. Matcher
    failures mean "no match" and are not reported. Silenceable failure if a matcher result
    is not exactly one payload; definite failure if the matcher does not resolve; definite
    failures of the matcher propagate.
    """

    name = "transform.collect_matching"

    matcher = prop_def(SymbolRefAttr)
    root = operand_def(TransformOpHandleType)
    results_ = var_result_def(TransformHandleType)

    assembly_format = "$matcher `in` $root attr-dict `:` functional-type($root, $results_)"

    def __init__(self, matcher: str, root: SSAValue, result_types: Sequence[Attribute]) -> None:
        super().__init__(
            operands=[root],
            result_types=[result_types],
            properties={"matcher": SymbolRefAttr(matcher)},
        )

    def matcher_sequence(self) -> NamedSequenceOp | None:
        """The named sequence `matcher` names."""
        return lookup_named_sequence(self, self.matcher)

    def verify_(self) -> None:
        matcher = _verify_matcher(self, self.matcher)
        outputs = matcher.function_type.outputs.data
        if len(outputs) != len(self.results):
            raise VerifyException(
                "expected the matcher to yield as many values as op has results "
                f"({len(self.results)}), got {len(outputs)}"
            )
        for index, (want, got) in enumerate(zip(outputs, self.result_types, strict=True)):
            if handle_kind(want) != handle_kind(got):
                raise VerifyException(
                    f"mismatching type interfaces for matcher result and op result #{index}"
                )


OPS: tuple[type[IRDLOperation], ...] = (
    AlternativesOp,
    CollectMatchingOp,
    ForeachMatchOp,
    ForeachOp,
    IncludeOp,
)

__all__ = [
    "OPS",
    "AlternativesOp",
    "CollectMatchingOp",
    "ForeachMatchOp",
    "ForeachOp",
    "IncludeOp",
]
