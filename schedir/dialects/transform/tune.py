"""Tune transform extension (upstream TuneExtensionOps.td): tunable knobs and
alternative sub-schedules, the hooks of schedir's autotuner.

`iree-opt` does not register this extension, so its syntax is checked against
upstream's .td and tests only.

Applied by `schedir.transform.ops.tune`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr, i64
from xdsl.dialects.transform import TransformHandleType, TransformParamHandleType
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_region_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import irdl_transform_op, print_attribute_elided
from schedir.dialects.transform._syntax_helpers import (
    parse_prop_and_attr_dict,
    parse_type_list,
    print_prop_and_attr_dict,
    print_types,
)
from schedir.dialects.transform.core.sequence import YieldOp, ensure_yields, print_body


@irdl_transform_op
class KnobOp(IRDLOperation):
    """A named tunable with a set of `options`; `selected` resolves it.

    ```mlir
    %tile = transform.tune.knob<"tile_m"> = 64 from options = [32, 64, 128]
        -> !transform.any_param
    ```

    Return modes: produces one param, the `selected` option. Silenceable failure (naming the
    knob) when no option is selected (upstream: definite), so that `failures(suppress)` and
    the autotuner can read it as an unresolved choice.
    """

    name = "transform.tune.knob"

    name_ = prop_def(StringAttr, prop_name="name")
    options = prop_def(AnyAttr())
    selected = opt_prop_def(AnyAttr())
    result = result_def(TransformParamHandleType)

    def __init__(
        self,
        knob_name: str,
        options: Attribute,
        result_type: Attribute,
        selected: Attribute | None = None,
    ) -> None:
        super().__init__(
            properties={"name": StringAttr(knob_name), "options": options, "selected": selected},
            result_types=[result_type],
        )

    @classmethod
    def parse(cls, parser: Parser) -> KnobOp:
        parser.parse_punctuation("<")
        knob_name = parser.parse_str_literal()
        parser.parse_punctuation(">")
        selected: Attribute | None = None
        if parser.parse_optional_punctuation("=") is not None:
            selected = parser.parse_attribute()
            parser.parse_keyword("from")
        parser.parse_keyword("options")
        parser.parse_punctuation("=")
        options = parser.parse_attribute()
        props, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation("->")
        op = cls(knob_name, options, parser.parse_type(), selected)
        op.properties.update(props)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string_literal(self.name_.data)
        printer.print_string(">")
        if self.selected is not None:
            printer.print_string(" = ")
            print_attribute_elided(printer, self.selected)
            printer.print_string(" from")
        printer.print_string(" options = ")
        print_attribute_elided(printer, self.options)
        print_prop_and_attr_dict(printer, self, elided=("name", "options", "selected"))
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if (
            self.selected is not None
            and isinstance(self.options, ArrayAttr)
            and self.selected not in self.options.data
        ):
            raise VerifyException(
                "provided `selected` attribute is not an element of `options` array of attributes"
            )


@irdl_transform_op
class TuneAlternativesOp(IRDLOperation):
    """A named choice among sub-schedules (its regions); `selected_region` (an integer
    or a param) resolves it, and the chosen region's yields become the results.

    ```mlir
    %t = transform.tune.alternatives<"tiling"> selected_region = 0 -> !transform.any_op {
      ...
      transform.yield %tiled : !transform.any_op
    }, {
      ...
      transform.yield %tiled2 : !transform.any_op
    }
    ```

    Return modes: only reads the selector param; returns the handles the selected region
    yields. Silenceable failure (naming the choice) when nothing selects a region; definite
    failure when the selector param does not hold exactly one integer or is out of range; a
    failure inside the region propagates with the results left empty.
    """

    name = "transform.tune.alternatives"

    name_ = prop_def(StringAttr, prop_name="name")
    selected_region_attr = opt_prop_def(IntegerAttr)
    selected_region_param = opt_operand_def(TransformParamHandleType)
    results_ = var_result_def(TransformHandleType)
    alternatives = var_region_def("single_block")

    def __init__(
        self,
        choice_name: str,
        regions: Sequence[Region],
        result_types: Sequence[Attribute] = (),
        *,
        selected_region: int | SSAValue | None = None,
    ) -> None:
        param = selected_region if isinstance(selected_region, SSAValue) else None
        attr = IntegerAttr(selected_region, i64) if isinstance(selected_region, int) else None
        super().__init__(
            operands=[[param] if param is not None else []],
            result_types=[result_types],
            properties={"name": StringAttr(choice_name), "selected_region_attr": attr},
            regions=[list(regions)],
        )

    @classmethod
    def parse(cls, parser: Parser) -> TuneAlternativesOp:
        parser.parse_punctuation("<")
        choice_name = parser.parse_str_literal()
        parser.parse_punctuation(">")
        selected: int | None = None
        param = None
        if parser.parse_optional_keyword("selected_region") is not None:
            parser.parse_punctuation("=")
            param = parser.parse_optional_unresolved_operand()
            if param is None:
                selected = parser.parse_integer(allow_boolean=False)
        props, attrs = parse_prop_and_attr_dict(parser, cls, with_keyword=True)
        value: SSAValue | None = None
        if param is not None:
            parser.parse_punctuation(":")
            value = parser.resolve_operand(param, parser.parse_type())
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types = parse_type_list(parser)
        regions: list[Region] = []
        region = parser.parse_optional_region()
        while region is not None:
            regions.append(region)
            if parser.parse_optional_punctuation(",") is None:
                break
            region = parser.parse_region()
        ensure_yields(regions)
        op = cls(
            choice_name,
            regions,
            result_types,
            selected_region=value if value is not None else selected,
        )
        op.properties.update(props)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string_literal(self.name_.data)
        printer.print_string(">")
        if self.selected_region_param is not None:
            printer.print_string(" selected_region = ")
            printer.print_ssa_value(self.selected_region_param)
        elif self.selected_region_attr is not None:
            printer.print_string(f" selected_region = {self.selected_region_attr.value.data}")
        print_prop_and_attr_dict(
            printer, self, elided=("name", "selected_region_attr"), with_keyword=True
        )
        if self.selected_region_param is not None:
            printer.print_string(" : ")
            printer.print_attribute(self.selected_region_param.type)
        if self.results:
            printer.print_string(" -> ")
            print_types(printer, self.result_types)
        for index, region in enumerate(self.alternatives):
            printer.print_string("," if index else "")
            print_body(printer, region)

    def verify_(self) -> None:
        if self.selected_region_attr is not None and self.selected_region_param is not None:
            raise VerifyException(
                "expects either a `selected_region` attribute or a param, not both"
            )
        if self.selected_region_attr is not None:
            index = self.selected_region_attr.value.data
            if not 0 <= index < len(self.alternatives):
                raise VerifyException(
                    f"'selected_region' attribute specifies region at index {index} while "
                    f"op has only {len(self.alternatives)} regions"
                )
        for region in self.alternatives:
            if region.block.args:
                raise VerifyException("region #0 should have no arguments")
            last = region.block.last_op
            if isinstance(last, YieldOp) and tuple(last.operands_.types) != tuple(
                self.result_types
            ):
                raise VerifyException(
                    "expects the types of the yielded values to match the types of the results"
                )


OPS: tuple[type[IRDLOperation], ...] = (KnobOp, TuneAlternativesOp)

__all__ = ["OPS", "KnobOp", "TuneAlternativesOp"]
