"""Affine transform extension (upstream AffineTransformOps.td):
`transform.affine.simplify_bounded_affine_ops` and `transform.affine.super_vectorize`.

Applied by `schedir.transform.ops.affine`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, i64
from xdsl.dialects.transform import TransformHandleType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation, operand_def, opt_prop_def, prop_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import irdl_transform_op
from schedir.dialects.transform._syntax_directives import dense_values
from schedir.dialects.transform._syntax_helpers import (
    parse_prop_and_attr_dict,
    print_prop_and_attr_dict,
)


@irdl_transform_op
class SimplifyBoundedAffineOpsOp(IRDLOperation):
    """Simplifies the target `affine.min` / `affine.max` ops knowing that each bounded value
    lies in `[lower_bound, upper_bound)`: an expression that is never above (for min) or
    below (for max) the others under these bounds replaces the op by an `affine.apply`,
    which folds to a constant when it is one.

    ```mlir
    %v = "test.some_op"() : () -> index          // known to lie in [0, 20)
    %m = affine.min affine_map<()[s0] -> (50, 100 - s0)>()[%v]
    transform.affine.simplify_bounded_affine_ops %min with [%v_op : !transform.any_op]
        within [0] and [20] : !transform.any_op
    // -> %m = arith.constant 50 : index
    ```

    Return modes: consumes the target, only reads the bounded values. Definite failures:
    a target that is not an `affine.min` / `affine.max` ("target must be affine.min or
    affine.max", note at the op), a bounded op that is also a target, a bounded op without
    exactly one index result. The verifier checks that there are as many lower and upper
    bounds as bounded value handles.
    """

    name = "transform.affine.simplify_bounded_affine_ops"

    target = operand_def(TransformHandleType)
    bounded_values = var_operand_def(TransformHandleType)
    lower_bounds = prop_def(DenseArrayBase)
    upper_bounds = prop_def(DenseArrayBase)

    consumed_operands = ("target",)

    def __init__(
        self,
        target: SSAValue,
        bounded_values: Sequence[SSAValue],
        lower_bounds: Sequence[int],
        upper_bounds: Sequence[int],
    ) -> None:
        super().__init__(
            operands=[target, list(bounded_values)],
            properties={
                "lower_bounds": DenseArrayBase.from_list(i64, list(lower_bounds)),
                "upper_bounds": DenseArrayBase.from_list(i64, list(upper_bounds)),
            },
        )

    @classmethod
    def parse(cls, parser: Parser) -> SimplifyBoundedAffineOpsOp:
        target = parser.parse_unresolved_operand()
        parser.parse_keyword("with")
        parser.parse_punctuation("[")
        bounded: list[SSAValue] = []
        if parser.parse_optional_punctuation("]") is None:
            names = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation("]")
            if len(types) != len(names):
                parser.raise_error(f"{len(names)} operands present, but expected {len(types)}")
            bounded = [parser.resolve_operand(n, t) for n, t in zip(names, types, strict=True)]
        parser.parse_keyword("within")
        lower = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
        )
        parser.parse_keyword("and")
        upper = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
        )
        props, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        target_value = parser.resolve_operand(target, parser.parse_type())
        op = cls(target_value, bounded, lower, upper)
        op.properties.update(props)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.target)
        printer.print_string(" with [")
        if self.bounded_values:
            printer.print_list(self.bounded_values, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.bounded_values], printer.print_attribute)
        printer.print_string("] within [")
        printer.print_list(dense_values(self.lower_bounds), printer.print_int)
        printer.print_string("] and [")
        printer.print_list(dense_values(self.upper_bounds), printer.print_int)
        printer.print_string("]")
        print_prop_and_attr_dict(printer, self, elided=("lower_bounds", "upper_bounds"))
        printer.print_string(" : ")
        printer.print_attribute(self.target.type)

    def bounds(self) -> list[tuple[int, int]]:
        """The `[lower, upper)` range of each bounded value handle, in order."""
        return list(
            zip(dense_values(self.lower_bounds), dense_values(self.upper_bounds), strict=True)
        )

    def verify_(self) -> None:
        count = len(self.bounded_values)
        lower, upper = len(dense_values(self.lower_bounds)), len(dense_values(self.upper_bounds))
        if lower != count:
            raise VerifyException(
                f"incorrect number of lower bounds, expected {count} but found {lower}"
            )
        if upper != count:
            raise VerifyException(
                f"incorrect number of upper bounds, expected {count} but found {upper}"
            )


@irdl_transform_op
class SuperVectorizeOp(IRDLOperation):
    """Vectorizes the `affine.for` nests under each target with upstream's affine
    super-vectorizer: one loop per entry of `vector_sizes` (outermost first), each loop
    parallel (or a reduction, with `vectorize_reductions`) and, with
    `fastest_varying_pattern`, varying along that memref dimension (counted from the
    innermost); loads and stores become `vector.transfer_read` / `transfer_write`.

    ```mlir
    transform.affine.super_vectorize %loops [4, 8] : !transform.any_op
    transform.affine.super_vectorize %loops [128] vectorize_reductions=true : !transform.any_op
    ```

    Return modes: only reads the target handle (the payload changes in place); never
    fails: a nest that cannot be vectorized is left unchanged. The verifier checks the
    pattern has as many entries as there are vector sizes, and at most 3 of them.
    """

    name = "transform.affine.super_vectorize"

    target = operand_def(TransformHandleType)
    vector_sizes = prop_def(DenseArrayBase)
    fastest_varying_pattern = opt_prop_def(DenseArrayBase)
    vectorize_reductions = opt_prop_def(BoolAttr)

    @classmethod
    def parse(cls, parser: Parser) -> SuperVectorizeOp:
        target = parser.parse_unresolved_operand()
        sizes = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
        )
        properties: dict[str, Attribute] = {"vector_sizes": DenseArrayBase.from_list(i64, sizes)}
        if parser.parse_optional_keyword("fastest_varying_pattern") is not None:
            parser.parse_punctuation("=")
            pattern = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
            )
            properties["fastest_varying_pattern"] = DenseArrayBase.from_list(i64, pattern)
        if parser.parse_optional_keyword("vectorize_reductions") is not None:
            parser.parse_punctuation("=")
            properties["vectorize_reductions"] = BoolAttr.from_bool(parser.parse_boolean())
        props, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        op = cls.build(
            operands=[parser.resolve_operand(target, parser.parse_type())],
            properties={**properties, **props},
            attributes=attrs,
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.target)
        printer.print_string(" [")
        printer.print_list(dense_values(self.vector_sizes), printer.print_int)
        printer.print_string("]")
        if self.fastest_varying_pattern is not None:
            printer.print_string(" fastest_varying_pattern=[")
            printer.print_list(dense_values(self.fastest_varying_pattern), printer.print_int)
            printer.print_string("]")
        if self.vectorize_reductions is not None:
            value = "true" if self.vectorize_reductions.value.data else "false"
            printer.print_string(f" vectorize_reductions={value}")
        print_prop_and_attr_dict(
            printer,
            self,
            elided=("vector_sizes", "fastest_varying_pattern", "vectorize_reductions"),
        )
        printer.print_string(" : ")
        printer.print_attribute(self.target.type)

    def sizes(self) -> list[int]:
        """The vector size of each vectorized loop, outermost first."""
        return list(dense_values(self.vector_sizes))

    def pattern(self) -> list[int]:
        """The fastest-varying memref dimension of each loop (empty: any)."""
        return list(dense_values(self.fastest_varying_pattern))

    def reductions(self) -> bool:
        """Whether reduction loops may be vectorized."""
        flag = self.vectorize_reductions
        return flag is not None and bool(flag.value.data)

    def verify_(self) -> None:
        sizes, pattern = self.sizes(), self.pattern()
        if pattern and len(pattern) != len(sizes):
            raise VerifyException(
                "Fastest varying pattern specified with different size than the vector size."
            )
        if len(sizes) > 3:
            raise VerifyException("Vectorization of more than 3 dimensions is not supported yet")
        if any(size <= 0 for size in sizes):
            raise VerifyException("vector sizes must be positive")


OPS: tuple[type[IRDLOperation], ...] = (SimplifyBoundedAffineOpsOp, SuperVectorizeOp)

__all__ = ["OPS", "SimplifyBoundedAffineOpsOp", "SuperVectorizeOp"]
