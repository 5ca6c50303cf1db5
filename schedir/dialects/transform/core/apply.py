"""Core transform ops that rewrite the payload wholesale (upstream TransformOps.td).

`apply_patterns` (a greedy rewrite with the pattern sets named by the descriptor ops in
its region), `apply_cse`, `apply_dce`, `apply_licm`, `apply_registered_pass` and the
`apply_patterns.canonicalization` descriptor. The other descriptors live with their
extensions (`descriptors.py` has the machinery).

Applied by `schedir.transform.ops.core.apply`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import (
    I64,
    DictionaryAttr,
    IntAttr,
    IntegerAttr,
    StringAttr,
    UnitAttr,
    i64,
)
from xdsl.dialects.transform import (
    TransformOpHandleType,
    TransformParamHandleType,
)
from xdsl.ir import Attribute, ParametrizedAttribute, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import irdl_transform_op
from schedir.dialects.transform._syntax_helpers import (
    parse_prop_and_attr_dict,
    print_prop_and_attr_dict,
)
from schedir.dialects.transform.interfaces import PatternDescriptorOpInterface

_MINUS_ONE = IntegerAttr(-1, i64)


@irdl_transform_op
class ApplyPatternsOp(IRDLOperation):
    """Greedily applies the pattern sets of its region to the body of each target.

    ```mlir
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
    } apply_cse max_iterations = 3 : !transform.any_op
    ```

    The target op itself is not rewritten; `apply_cse` interleaves CSE to a fixpoint;
    `max_iterations`/`max_num_rewrites` (-1: the driver's default) bound the driver.

    Return modes: only reads the target; handles to rewritten payload ops follow a
    replacement by a single op of the same kind (or a constant, through casts). Definite
    failure if a descriptor names a pattern set schedir lacks, if the target contains this
    transform op, or if patterns and CSE do not reach a fixpoint in 50 rounds; silenceable
    failure (at the target) if the greedy rewrite does not converge within `max_iterations`
    / `max_num_rewrites`, or if a handle still in use loses its op to a replacement it
    cannot follow.
    """

    name = "transform.apply_patterns"

    target = operand_def(TransformOpHandleType)
    apply_cse = opt_prop_def(UnitAttr)
    max_iterations = prop_def(IntegerAttr[I64], default_value=_MINUS_ONE)
    max_num_rewrites = prop_def(IntegerAttr[I64], default_value=_MINUS_ONE)
    patterns = region_def()

    traits = traits_def(NoTerminator())

    KEYWORDS_ANY_ORDER: ClassVar[bool] = True
    assembly_format = (
        "`to` $target $patterns (`apply_cse` $apply_cse^)? "
        "(`max_iterations` `=` $max_iterations^)? "
        "(`max_num_rewrites` `=` $max_num_rewrites^)? attr-dict `:` type($target)"
    )

    def __init__(
        self, target: SSAValue, patterns: Sequence[IRDLOperation] = (), *, apply_cse: bool = False
    ) -> None:
        region = Region()
        from xdsl.ir import Block

        region.add_block(Block(list(patterns)))
        super().__init__(
            operands=[target],
            properties={"apply_cse": UnitAttr() if apply_cse else None},
            regions=[region],
        )

    @classmethod
    def post_parse(cls, op: IRDLOperation) -> None:
        """An empty `{}` region still holds one (empty) block, as upstream's."""
        region = cast(ApplyPatternsOp, op).patterns
        if region.blocks.first is None:
            from xdsl.ir import Block

            region.add_block(Block())

    def verify_(self) -> None:
        block = self.patterns.blocks.first
        if block is None:
            return
        for child in block.ops:
            if not isinstance(child, PatternDescriptorOpInterface):
                raise VerifyException(
                    "expected children ops to implement PatternDescriptorOpInterface"
                )


@irdl_transform_op
class ApplyCommonSubexpressionEliminationOp(IRDLOperation):
    """Common subexpression elimination in the body of each target op.

    ```mlir
    transform.apply_cse to %func : !transform.any_op
    ```

    Return modes: only reads the target; handles to erased duplicates follow the op kept in
    their place, handles to ops erased as dead lose them. Definite failure if the target
    contains this transform op; silenceable failure if a handle still in use loses its op to
    a replacement it cannot follow.
    """

    name = "transform.apply_cse"

    target = operand_def(TransformOpHandleType)

    assembly_format = "`to` $target attr-dict `:` type($target)"


@irdl_transform_op
class ApplyDeadCodeEliminationOp(IRDLOperation):
    """Dead code elimination in the body of each target op.

    ```mlir
    transform.apply_dce to %func : !transform.any_op
    ```

    Return modes: only reads the target; erased ops silently leave their handles. Definite
    failure if the target contains this transform op.
    """

    name = "transform.apply_dce"

    target = operand_def(TransformOpHandleType)

    assembly_format = "`to` $target attr-dict `:` type($target)"


@irdl_transform_op
class ApplyLoopInvariantCodeMotionOp(IRDLOperation):
    """Loop-invariant code motion on each target (a loop-like op).

    ```mlir
    transform.apply_licm to %loop : !transform.any_op
    ```

    Return modes: only reads the target; ops keep their handles (they only move).
    Silenceable failure for a target that is not loop-like ("transform applied to the wrong
    op kind").
    """

    name = "transform.apply_licm"

    target = operand_def(TransformOpHandleType)

    assembly_format = "`to` $target attr-dict `:` type($target)"


@irdl_attr_definition
class ParamOperandAttr(ParametrizedAttribute):
    """`#transform.param_operand<index = N>`: option value taken from a param operand."""

    name = "transform.param_operand"

    index: IntAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        parser.parse_keyword("index")
        parser.parse_punctuation("=")
        value = parser.parse_integer(allow_boolean=False)
        parser.parse_punctuation(">")
        return (IntAttr(value),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<index = {self.index.data}>")


@irdl_transform_op
class ApplyRegisteredPassOp(IRDLOperation):
    """Runs a registered pass (or pipeline) on each target.

    ```mlir
    %f2 = transform.apply_registered_pass "canonicalize"
        with options = { "top-down" = false, "max-iterations" = %p } to %f
        : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    ```

    An option given as `%param` takes the param's value when applied (stored as
    `#transform.param_operand<index = N>`).

    Return modes: consumes the target and returns a handle to the same (rewritten) ops.
    Definite failure if the pass is unknown or its options do not parse; silenceable failure
    ("pass pipeline failed") if a target is not isolated from above (after an error at the
    payload op) or the pass fails.
    """

    name = "transform.apply_registered_pass"

    pass_name = prop_def(StringAttr)
    options = prop_def(DictionaryAttr, default_value=DictionaryAttr({}))
    target = operand_def(TransformOpHandleType)
    dynamic_options = var_operand_def(TransformParamHandleType)
    result = result_def(TransformOpHandleType)

    consumed_operands = ("target",)

    @classmethod
    def parse(cls, parser: Parser) -> ApplyRegisteredPassOp:
        pass_name = parser.parse_str_literal()
        options: dict[str, Attribute] = {}
        dynamic: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("with") is not None:
            parser.parse_keyword("options")
            parser.parse_punctuation("=")

            def entry() -> None:
                key = parser.parse_optional_str_literal()
                if key is None:
                    key = parser.parse_identifier()
                parser.parse_punctuation("=")
                operand = parser.parse_optional_unresolved_operand()
                if operand is not None:
                    options[key] = ParamOperandAttr(IntAttr(len(dynamic)))
                    dynamic.append(operand)
                else:
                    options[key] = parser.parse_attribute()

            parser.parse_comma_separated_list(Parser.Delimiter.BRACES, entry)
        parser.parse_keyword("to")
        target = parser.parse_unresolved_operand()
        props, attrs = parse_prop_and_attr_dict(parser, cls)
        legacy = props.pop("options", None)
        if isinstance(legacy, StringAttr):
            # LLVM <= 20 spelled options as one string: "a=1 b=2".
            for item in legacy.data.split():
                key, _, value = item.partition("=")
                options[key] = StringAttr(value)
        elif isinstance(legacy, DictionaryAttr):
            options.update(legacy.data)
        parser.parse_punctuation(":")
        parser.parse_punctuation("(")
        types = (
            parser.parse_optional_undelimited_comma_separated_list(
                parser.parse_optional_type, parser.parse_type
            )
            or []
        )
        parser.parse_punctuation(")")
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        unresolved = [target, *dynamic]
        if len(types) != len(unresolved):
            parser.raise_error(f"{len(unresolved)} operands present, but expected {len(types)}")
        values = [parser.resolve_operand(o, t) for o, t in zip(unresolved, types, strict=True)]
        op = cls.create(
            operands=values,
            result_types=[result_type],
            properties={
                "pass_name": pass_name
                if isinstance(pass_name, StringAttr)
                else StringAttr(pass_name),
                **props,
            },
            attributes=attrs,
        )
        if options:
            op.properties["options"] = DictionaryAttr(dict(sorted(options.items())))
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.pass_name.data)
        if self.options.data:
            printer.print_string(" with options = {")

            def entry(item: tuple[str, Attribute]) -> None:
                printer.print_string_literal(item[0])
                printer.print_string(" = ")
                if isinstance(item[1], ParamOperandAttr):
                    printer.print_ssa_value(self.dynamic_options[item[1].index.data])
                else:
                    printer.print_attribute(item[1])

            printer.print_list(self.options.data.items(), entry)
            printer.print_string("}")
        printer.print_string(" to ")
        printer.print_ssa_value(self.target)
        print_prop_and_attr_dict(printer, self, elided=("pass_name", "options"))
        printer.print_string(" : (")
        printer.print_list(self.operand_types, printer.print_attribute)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        used: set[int] = set()
        for value in self.options.data.values():
            if isinstance(value, ParamOperandAttr):
                index = value.index.data
                if not 0 <= index < len(self.dynamic_options):
                    raise VerifyException(
                        f"dynamic option index {index} is out of bounds for the number of "
                        f"dynamic options: {len(self.dynamic_options)}"
                    )
                if index in used:
                    raise VerifyException(
                        f"dynamic option index {index} is already used in options"
                    )
                used.add(index)
        if len(used) != len(self.dynamic_options):
            raise VerifyException(
                "a param operand does not have a corresponding param_operand attr in the "
                "options dict"
            )


@irdl_transform_op
class ApplyCanonicalizationPatternsOp(IRDLOperation, PatternDescriptorOpInterface):
    """Pattern set: the canonicalization patterns of every loaded dialect.

    ```mlir
    transform.apply_patterns to %f { transform.apply_patterns.canonicalization }
        : !transform.any_op
    ```

    Return modes: a descriptor inside `apply_patterns`; it has no handles and does not
    fail by itself.
    """

    name = "transform.apply_patterns.canonicalization"

    assembly_format = "attr-dict"


OPS: tuple[type[IRDLOperation], ...] = (
    ApplyCanonicalizationPatternsOp,
    ApplyCommonSubexpressionEliminationOp,
    ApplyDeadCodeEliminationOp,
    ApplyLoopInvariantCodeMotionOp,
    ApplyPatternsOp,
    ApplyRegisteredPassOp,
)
ATTRS: tuple[type[Attribute], ...] = (ParamOperandAttr,)

__all__ = [
    "ATTRS",
    "OPS",
    "ApplyCanonicalizationPatternsOp",
    "ApplyCommonSubexpressionEliminationOp",
    "ApplyDeadCodeEliminationOp",
    "ApplyLoopInvariantCodeMotionOp",
    "ApplyPatternsOp",
    "ApplyRegisteredPassOp",
    "ParamOperandAttr",
]
