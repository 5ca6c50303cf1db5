"""`gpu.module`, `gpu.func`, `gpu.return`, `gpu.yield`, `gpu.binary` and the `#gpu.object` attributes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    NoneAttr,
    StringAttr,
    UnitAttr,
    i64,
)
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    Pure,
    RecursiveMemoryEffect,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.gpu.syntax import parse_attributions, print_attributions, verify_attributions


@irdl_op_definition
class ModuleOp(IRDLOperation):
    """`gpu.module @name [targets] { ... }`: the device code of kernels, compiled apart."""

    name = "gpu.module"

    sym_name = prop_def(StringAttr)
    targets = opt_prop_def(ArrayAttr)
    bodyRegion = region_def("single_block")

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface(), SymbolTable(), NoTerminator())

    def __init__(
        self, name: str, body: Region | None = None, targets: ArrayAttr | None = None
    ) -> None:
        super().__init__(
            properties={"sym_name": StringAttr(name), "targets": targets},
            regions=[body if body is not None else Region(Block())],
        )

    @property
    def body(self) -> Block:
        return self.bodyRegion.block

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        name = parser.parse_symbol_name()
        targets = None
        if parser.parse_optional_punctuation("[") is not None:
            items = [parser.parse_attribute()]
            while parser.parse_optional_punctuation(",") is not None:
                items.append(parser.parse_attribute())
            parser.parse_punctuation("]")
            targets = ArrayAttr(items)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        op = cls(name.data, region, targets)
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.targets is not None:
            printer.print_string(" [")
            printer.print_list(self.targets.data, printer.print_attribute)
            printer.print_string("]")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.bodyRegion)


_FUNC_INHERENT = ("kernel", "workgroup_attributions", "known_block_size", "known_grid_size")


@irdl_op_definition
class FuncOp(IRDLOperation):
    """`gpu.func`: a kernel (with `kernel`) or a device function inside a `gpu.module`.

    Its entry block takes the function arguments, then the workgroup memory attributions
    (`workgroup(...)`, counted by `workgroup_attributions`), then the private ones.
    `known_block_size` / `known_grid_size` record a launch configuration known at compile
    time (set by kernel outlining from constant `gpu.launch` sizes).
    """

    name = "gpu.func"

    sym_name = prop_def(StringAttr)
    function_type = prop_def(FunctionType)
    kernel = opt_prop_def(UnitAttr)
    workgroup_attributions = opt_prop_def(IntegerAttr[I64])
    known_block_size = opt_prop_def(DenseArrayBase)
    known_grid_size = opt_prop_def(DenseArrayBase)
    arg_attrs = opt_prop_def(ArrayAttr)
    res_attrs = opt_prop_def(ArrayAttr)
    body = region_def()

    traits = lazy_traits_def(
        lambda: (
            IsolatedFromAbove(),
            SymbolOpInterface(),
            HasParent(ModuleOp),
            RecursiveMemoryEffect(),
        )
    )

    def __init__(
        self,
        name: str,
        function_type: FunctionType,
        body: Region | None = None,
        *,
        kernel: bool = False,
        workgroup_attributions: int = 0,
    ) -> None:
        if body is None:
            body = Region(Block(arg_types=function_type.inputs.data))
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "function_type": function_type,
                "kernel": UnitAttr() if kernel else None,
                "workgroup_attributions": IntegerAttr(workgroup_attributions, i64)
                if workgroup_attributions
                else None,
            },
            regions=[body],
        )

    @property
    def is_kernel(self) -> bool:
        return self.kernel is not None

    @property
    def num_arguments(self) -> int:
        return len(self.function_type.inputs.data)

    @property
    def num_workgroup_attributions(self) -> int:
        attr = self.workgroup_attributions
        return attr.value.data if attr is not None else 0

    @property
    def arguments(self) -> tuple[BlockArgument, ...]:
        return tuple(self.body.block.args[: self.num_arguments])

    @property
    def workgroup_attribution_args(self) -> tuple[BlockArgument, ...]:
        start = self.num_arguments
        return tuple(self.body.block.args[start : start + self.num_workgroup_attributions])

    @property
    def private_attribution_args(self) -> tuple[BlockArgument, ...]:
        return tuple(self.body.block.args[self.num_arguments + self.num_workgroup_attributions :])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        name = parser.parse_symbol_name()
        args: list[Parser.Argument] = []
        arg_attrs: list[DictionaryAttr] = []

        def one() -> None:
            args.append(parser.parse_argument())
            attrs = parser.parse_optional_dictionary_attr_dict()
            arg_attrs.append(DictionaryAttr(attrs))

        parser.parse_comma_separated_list(Parser.Delimiter.PAREN, one)
        results: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            parsed = parser.parse_optional_comma_separated_list(
                Parser.Delimiter.PAREN, parser.parse_type
            )
            results = list(parsed) if parsed is not None else [parser.parse_type()]
        workgroup = parse_attributions(parser, "workgroup")
        private = parse_attributions(parser, "private")
        kernel = parser.parse_optional_keyword("kernel") is not None
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region([*args, *workgroup, *private])
        ftype = FunctionType.from_lists([a.type for a in args], results)
        op = cls(name.data, ftype, body, kernel=kernel, workgroup_attributions=len(workgroup))
        if any(a.data for a in arg_attrs):
            op.arg_attrs = ArrayAttr(arg_attrs)
        if attrs is not None:
            extra = dict(attrs.data)
            for key in _FUNC_INHERENT:
                if key in extra:
                    op.properties[key] = extra.pop(key)
            op.attributes |= extra
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string("(")
        arg_attrs = self.arg_attrs.data if self.arg_attrs is not None else ()

        def print_arg(index: int) -> None:
            printer.print_block_argument(self.arguments[index])
            attrs = arg_attrs[index] if index < len(arg_attrs) else None
            if isinstance(attrs, DictionaryAttr) and attrs.data:
                printer.print_string(" ")
                printer.print_attr_dict(attrs.data)

        printer.print_list(range(self.num_arguments), print_arg)
        printer.print_string(")")
        outputs = self.function_type.outputs.data
        if outputs:
            printer.print_string(" -> ")
            if len(outputs) == 1 and not isinstance(outputs[0], FunctionType):
                printer.print_attribute(outputs[0])
            else:
                printer.print_string("(")
                printer.print_list(outputs, printer.print_attribute)
                printer.print_string(")")
        print_attributions(printer, "workgroup", self.workgroup_attribution_args)
        print_attributions(printer, "private", self.private_attribution_args)
        if self.is_kernel:
            printer.print_string(" kernel")
        attrs: dict[str, Attribute] = {}
        for key in ("known_block_size", "known_grid_size"):
            value = self.properties.get(key)
            if value is not None:
                attrs[key] = value
        attrs |= dict(self.attributes)
        printer.print_op_attributes(attrs, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        if not self.body.blocks:
            return
        expected = self.num_arguments + self.num_workgroup_attributions
        args = self.body.block.args
        if len(args) < expected:
            raise VerifyException(
                "'gpu.func' op expected at least as many region arguments as arguments"
            )
        for arg, t in zip(args, self.function_type.inputs.data, strict=False):
            if arg.type != t:
                raise VerifyException(f"'gpu.func' op argument type {arg.type} does not match {t}")
        if self.is_kernel and self.function_type.outputs.data:
            raise VerifyException("'gpu.func' op expected void return type for kernel function")
        verify_attributions(self.workgroup_attribution_args, "workgroup")
        verify_attributions(self.private_attribution_args, "private")
        for key in ("known_block_size", "known_grid_size"):
            value = self.properties.get(key)
            if value is not None and (
                not isinstance(value, DenseArrayBase) or len(value.get_values()) != 3
            ):
                raise VerifyException(f"'gpu.func' op attribute '{key}' must be an array of 3 i32")


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`gpu.return %v : t`: returns from a `gpu.func`."""

    name = "gpu.return"
    args = var_operand_def()
    traits = traits_def(IsTerminator(), HasParent(FuncOp), Pure())
    assembly_format = "attr-dict ($args^ `:` type($args))?"

    def __init__(self, values: Sequence[SSAValue | Operation] = ()) -> None:
        super().__init__(operands=[list(values)])


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`gpu.yield %v : t`: ends the region of `gpu.all_reduce` and similar ops."""

    name = "gpu.yield"
    values = var_operand_def()
    traits = traits_def(IsTerminator(), Pure())
    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, values: Sequence[SSAValue | Operation] = ()) -> None:
        super().__init__(operands=[list(values)])


OBJECT_FORMATS = ("offload", "assembly", "bin", "fatbin")


@irdl_attr_definition
class ObjectAttr(ParametrizedAttribute):
    """`#gpu.object<#nvvm.target<...>, assembly = "...">`: one compiled form of a module.

    The format is `offload` (LLVM bitcode), `assembly` (PTX), `bin` (cubin) or `fatbin`
    (the default, printed without a keyword), as upstream's CompilationTarget.
    """

    name = "gpu.object"

    target: Attribute
    format: StringAttr
    object: StringAttr

    def __init__(self, target: Attribute, format: str, object: str) -> None:
        super().__init__(target, StringAttr(format), StringAttr(object))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            target = parser.parse_attribute()
            parser.parse_punctuation(",")
            kind = parser.parse_optional_keyword_in(OBJECT_FORMATS)
            if kind is not None:
                parser.parse_punctuation("=")
            data = parser.parse_str_literal()
        return (target, StringAttr(kind or "fatbin"), StringAttr(data))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.target)
            printer.print_string(", ")
            if self.format.data != "fatbin":
                printer.print_string(f"{self.format.data} = ")
            printer.print_string_literal(self.object.data)

    def verify(self) -> None:
        if self.format.data not in OBJECT_FORMATS:
            raise VerifyException(f"unknown object format '{self.format.data}'")


@irdl_attr_definition
class SelectObjectAttr(ParametrizedAttribute):
    """`#gpu.select_object` / `#gpu.select_object<1>` / `#gpu.select_object<#nvvm.target>`:
    the offloading handler of a gpu.binary, which launches the object it names (an index
    or a target; the first object when it names none)."""

    name = "gpu.select_object"

    target: Attribute

    def __init__(self, target: Attribute | None = None) -> None:
        super().__init__(target if target is not None else NoneAttr())

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        if parser.parse_optional_punctuation("<") is None:
            return (NoneAttr(),)
        target = parser.parse_attribute()
        parser.parse_punctuation(">")
        return (target,)

    def print_parameters(self, printer: Printer) -> None:
        if not isinstance(self.target, NoneAttr):
            with printer.in_angle_brackets():
                printer.print_attribute(self.target)

    def select(self, objects: Sequence[Attribute]) -> ObjectAttr | None:
        """The object this handler launches, or None when it names one that is not there."""
        index = 0
        if isinstance(self.target, IntegerAttr):
            index = self.target.value.data
        elif not isinstance(self.target, NoneAttr):
            found = [o for o in objects if isinstance(o, ObjectAttr) and o.target == self.target]
            return found[0] if found else None
        if not 0 <= index < len(objects):
            return None
        chosen = objects[index]
        return chosen if isinstance(chosen, ObjectAttr) else None


@irdl_op_definition
class BinaryOp(IRDLOperation):
    """`gpu.binary @name [#gpu.object<...>, ...]`: a compiled `gpu.module` (kernels keep
    their names, `gpu.launch_func @name::@kernel` refers to it)."""

    name = "gpu.binary"

    sym_name = prop_def(StringAttr)
    objects = prop_def(ArrayAttr)
    offloadingHandler = opt_prop_def(Attribute)
    """Upstream always sets it (`#gpu.select_object` by default) and its generic printer
    relies on that, so schedir does too."""

    traits = traits_def(SymbolOpInterface())

    def __init__(
        self, name: str, objects: Sequence[ObjectAttr], handler: Attribute | None = None
    ) -> None:
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "objects": ArrayAttr(objects),
                "offloadingHandler": handler if handler is not None else SelectObjectAttr(),
            }
        )

    @property
    def handler(self) -> Attribute:
        return self.offloadingHandler if self.offloadingHandler is not None else SelectObjectAttr()

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        name = parser.parse_symbol_name()
        handler: Attribute = SelectObjectAttr()
        if parser.parse_optional_punctuation("<") is not None:
            handler = parser.parse_attribute()
            parser.parse_punctuation(">")
        parser.parse_punctuation("[")
        items = [parser.parse_attribute()]
        while parser.parse_optional_punctuation(",") is not None:
            items.append(parser.parse_attribute())
        parser.parse_punctuation("]")
        attrs = parser.parse_optional_attr_dict()
        op = cls.build(
            properties={"sym_name": name, "objects": ArrayAttr(items), "offloadingHandler": handler}
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.handler != SelectObjectAttr():
            printer.print_string(" <")
            printer.print_attribute(self.handler)
            printer.print_string(">")
        printer.print_string(" [")
        printer.print_list(self.objects.data, printer.print_attribute)
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if not self.objects.data or not all(isinstance(o, ObjectAttr) for o in self.objects.data):
            raise VerifyException("'gpu.binary' op expects a non-empty list of #gpu.object")
