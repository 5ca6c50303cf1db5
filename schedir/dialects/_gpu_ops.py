"""The gpu dialect's ops with upstream MLIR's custom syntax (mlir/lib/Dialect/GPU/IR/GPUDialect.cpp).

xDSL defines these ops in generic form only; schedir redefines them so payloads, lowering
stages and lit tests read and print as upstream does:

    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c8, %sz = %c1) {
      %i = gpu.thread_id x
      gpu.barrier
      gpu.terminator
    }
    gpu.launch_func @k::@k blocks in (%c4, %c1, %c1) threads in (%c32, %c8, %c1)
        args(%a : memref<16xf32>)
    gpu.module @k {
      gpu.func @k(%a: memref<16xf32>) kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
        gpu.return
      }
    }

Block arguments of `gpu.launch` follow upstream's order: block ids (3), thread ids (3),
grid sizes (3), block sizes (3), then (with `clusters`) cluster ids and sizes, then the
workgroup and private memory attributions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self, TypeVar

from xdsl.dialects import builtin
from xdsl.dialects import gpu as xgpu
from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    i1,
    i32,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
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
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
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
from xdsl.utils.str_enum import StrEnum

AsyncTokenType = xgpu.AsyncTokenType
DimensionEnum = xgpu.DimensionEnum
INDEX = IndexType()
DIMS = ("x", "y", "z")


_E = TypeVar("_E", bound=StrEnum)


def _parse_enum_parameter(parser: AttrParser, enum: type[_E]) -> _E:
    # `#gpu.dim<x>` is upstream's spelling since LLVM 23; the older opaque `#gpu<dim x>`
    # reaches here after the mnemonic, with the keyword next (its `>` is the caller's).
    if parser.parse_optional_punctuation("<") is None:
        return parser.parse_str_enum(enum)
    value = parser.parse_str_enum(enum)
    parser.parse_punctuation(">")
    return value


@irdl_attr_definition
class DimensionAttr(EnumAttribute[DimensionEnum]):
    """`#gpu.dim<x>`: the dimension property of gpu.thread_id and its siblings
    (`#gpu<dim x>` is accepted too)."""

    name = "gpu.dim"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> DimensionEnum:
        return _parse_enum_parameter(parser, DimensionEnum)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")


def dimension(name: str) -> DimensionAttr:
    """`#gpu.dim<x>` for "x", "y" or "z"."""
    return DimensionAttr(DimensionEnum(name))


# ---------------------------------------------------------------------------------------
# shared syntax pieces


def _parse_async(parser: Parser) -> tuple[bool, list[SSAValue]]:
    """`async`? `[` deps `]`? : upstream's parseAsyncDependencies."""
    is_async = parser.parse_optional_keyword("async") is not None
    deps: list[SSAValue] = []
    if (
        parser.parse_optional_punctuation("[") is not None
        and parser.parse_optional_punctuation("]") is None
    ):
        deps.append(parser.parse_operand(AsyncTokenType()))
        while parser.parse_optional_punctuation(",") is not None:
            deps.append(parser.parse_operand(AsyncTokenType()))
        parser.parse_punctuation("]")
    return is_async, deps


def _print_async(printer: Printer, is_async: bool, deps: Sequence[SSAValue]) -> None:
    if is_async:
        printer.print_string(" async")
    if deps:
        printer.print_string(" [")
        printer.print_list(deps, printer.print_ssa_value)
        printer.print_string("]")


def _parse_async_object(parser: Parser) -> list[SSAValue]:
    """`<` %stream `:` type `>`, or nothing (upstream's optional asyncObject operand)."""
    if parser.parse_optional_punctuation("<") is None:
        return []
    unresolved = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    value = parser.resolve_operand(unresolved, parser.parse_type())
    parser.parse_punctuation(">")
    return [value]


def _print_async_object(printer: Printer, value: SSAValue | None) -> None:
    if value is not None:
        printer.print_string(" <")
        printer.print_ssa_value(value)
        printer.print_string(" : ")
        printer.print_attribute(value.type)
        printer.print_string(">")


def _verify_async_models(
    name: str, async_object: SSAValue | None, deps: Sequence[SSAValue]
) -> None:
    if async_object is not None and deps:
        raise VerifyException(
            f"'{name}' op stream-based and dependency-based async models are mutually exclusive"
        )


def _parse_attributions(parser: Parser, keyword: str) -> list[Parser.Argument]:
    """`workgroup(%a : t, ...)` / `private(...)`, or nothing."""
    if parser.parse_optional_keyword(keyword) is None:
        return []

    def one() -> Parser.Argument:
        arg = parser.parse_argument(expect_type=False)
        parser.parse_punctuation(":")
        return arg.resolve(parser.parse_type())

    return parser.parse_comma_separated_list(Parser.Delimiter.PAREN, one)


def _print_attributions(printer: Printer, keyword: str, args: Sequence[BlockArgument]) -> None:
    if not args:
        return
    printer.print_string(f" {keyword}(")
    printer.print_list(
        args,
        lambda a: (
            printer.print_ssa_value(a),
            printer.print_string(" : "),
            printer.print_attribute(a.type),
        ),
    )
    printer.print_string(")")


_SPACE_NUMBERS = {"workgroup": 3, "private": 5}


def _verify_attributions(args: Sequence[BlockArgument], space: str) -> None:
    """Attributions are memrefs in their memory space (`#gpu.address_space<...>` or its number)."""
    for arg in args:
        t = arg.type
        if not isinstance(t, MemRefType):
            raise VerifyException(f"expected memref type in attribution, got {t}")
        memory_space = t.memory_space
        number = memory_space.value.data if isinstance(memory_space, IntegerAttr) else None
        if f"<{space}>" not in str(memory_space) and number != _SPACE_NUMBERS[space]:
            raise VerifyException(f"expected memory space {space} in attribution")


# ---------------------------------------------------------------------------------------
# gpu.launch and its terminator


@irdl_op_definition
class LaunchOp(IRDLOperation):
    """`gpu.launch`: a kernel written inline, launched on a grid of thread blocks.

    The body's first 12 arguments are the block ids, thread ids, grid sizes and block
    sizes (x, y, z each); with `clusters`, 6 more (cluster ids and sizes) follow; then the
    workgroup and private memory attributions.
    """

    name = "gpu.launch"

    asyncDependencies = var_operand_def(AsyncTokenType)
    gridSizeX = operand_def(IndexType)
    gridSizeY = operand_def(IndexType)
    gridSizeZ = operand_def(IndexType)
    blockSizeX = operand_def(IndexType)
    blockSizeY = operand_def(IndexType)
    blockSizeZ = operand_def(IndexType)
    clusterSizeX = opt_operand_def(IndexType)
    clusterSizeY = opt_operand_def(IndexType)
    clusterSizeZ = opt_operand_def(IndexType)
    dynamicSharedMemorySize = opt_operand_def(i32)
    asyncObject = opt_operand_def()
    """A stream-like handle (`gpu.launch <%stream : !llvm.ptr> ...`), exclusive with tokens."""
    asyncToken = opt_result_def(AsyncTokenType)
    body = region_def()

    workgroup_attributions = opt_prop_def(IntegerAttr[I64])
    module = opt_prop_def(SymbolRefAttr)
    function = opt_prop_def(SymbolRefAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self,
        grid_size: Sequence[SSAValue | Operation],
        block_size: Sequence[SSAValue | Operation],
        body: Region | None = None,
        *,
        dynamic_shared_memory_size: SSAValue | Operation | None = None,
        async_dependencies: Sequence[SSAValue | Operation] = (),
        async_launch: bool = False,
    ) -> None:
        if len(grid_size) != 3 or len(block_size) != 3:
            raise ValueError("gpu.launch takes 3 grid sizes and 3 block sizes")
        if body is None:
            body = Region(Block(arg_types=[INDEX] * 12))
        super().__init__(
            operands=[
                list(async_dependencies),
                *grid_size,
                *block_size,
                [],
                [],
                [],
                [dynamic_shared_memory_size] if dynamic_shared_memory_size is not None else [],
                [],
            ],
            result_types=[[AsyncTokenType()] if async_launch else []],
            regions=[body],
        )

    # -- accessors ---------------------------------------------------------------------

    @property
    def has_clusters(self) -> bool:
        return self.clusterSizeX is not None

    @property
    def cluster_sizes(self) -> tuple[SSAValue, SSAValue, SSAValue] | None:
        if self.clusterSizeX is None or self.clusterSizeY is None or self.clusterSizeZ is None:
            return None
        return (self.clusterSizeX, self.clusterSizeY, self.clusterSizeZ)

    @property
    def num_config_args(self) -> int:
        return 18 if self.has_clusters else 12

    @property
    def block_ids(self) -> tuple[BlockArgument, ...]:
        return tuple(self.body.block.args[0:3])

    @property
    def thread_ids(self) -> tuple[BlockArgument, ...]:
        return tuple(self.body.block.args[3:6])

    @property
    def grid_size_args(self) -> tuple[BlockArgument, ...]:
        return tuple(self.body.block.args[6:9])

    @property
    def block_size_args(self) -> tuple[BlockArgument, ...]:
        return tuple(self.body.block.args[9:12])

    @property
    def grid_sizes(self) -> tuple[SSAValue, SSAValue, SSAValue]:
        return (self.gridSizeX, self.gridSizeY, self.gridSizeZ)

    @property
    def block_sizes(self) -> tuple[SSAValue, SSAValue, SSAValue]:
        return (self.blockSizeX, self.blockSizeY, self.blockSizeZ)

    @property
    def num_workgroup_attributions(self) -> int:
        attr = self.workgroup_attributions
        return attr.value.data if attr is not None else 0

    @property
    def workgroup_attribution_args(self) -> tuple[BlockArgument, ...]:
        start = self.num_config_args
        return tuple(self.body.block.args[start : start + self.num_workgroup_attributions])

    @property
    def private_attribution_args(self) -> tuple[BlockArgument, ...]:
        start = self.num_config_args + self.num_workgroup_attributions
        return tuple(self.body.block.args[start:])

    def set_size_operand(self, which: str, index: int, value: SSAValue) -> None:
        """Replace grid (`which="grid"`) or block size operand `index` (0..2) by `value`."""
        offset = len(self.asyncDependencies) + (0 if which == "grid" else 3) + index
        self.operands[offset] = value  # type: ignore[index]

    # -- syntax ------------------------------------------------------------------------

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        async_object = _parse_async_object(parser)
        is_async, deps = _parse_async(parser)
        has_clusters = parser.parse_optional_keyword("clusters") is not None
        cluster_ids: list[UnresolvedArgumentLike] = []
        cluster_sizes: list[UnresolvedArgumentLike] = []
        cluster_ops: list[SSAValue] = []
        if has_clusters:
            cluster_ids, cluster_sizes, cluster_ops = _parse_size_assignment(parser, "clusters")
        parser.parse_keyword("blocks")
        block_ids, grid_args, grid_ops = _parse_size_assignment(parser, "blocks")
        parser.parse_keyword("threads")
        thread_ids, size_args, block_ops = _parse_size_assignment(parser, "threads")
        dyn_smem: list[SSAValue] = []
        if parser.parse_optional_keyword("dynamic_shared_memory_size") is not None:
            dyn_smem.append(parser.parse_operand(i32))
        props: dict[str, Attribute] = {}
        for key in ("module", "function"):
            if parser.parse_optional_keyword(key) is not None:
                parser.parse_punctuation("(")
                props[key] = SymbolRefAttr(parser.parse_symbol_name())
                parser.parse_punctuation(")")
        workgroup = _parse_attributions(parser, "workgroup")
        private = _parse_attributions(parser, "private")
        config = [*block_ids, *thread_ids, *grid_args, *size_args, *cluster_ids, *cluster_sizes]
        args = [a.resolve(INDEX) for a in config] + workgroup + private
        body = parser.parse_region(args)
        attrs = parser.parse_optional_attr_dict()
        if workgroup:
            props["workgroup_attributions"] = IntegerAttr(len(workgroup), i64)
        op = cls.build(
            operands=[
                deps,
                *grid_ops,
                *block_ops,
                *([[v] for v in cluster_ops] if has_clusters else [[], [], []]),
                dyn_smem,
                async_object,
            ],
            result_types=[[AsyncTokenType()] if is_async else []],
            properties=props,
            regions=[body],
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_async_object(printer, self.asyncObject)
        _print_async(printer, self.asyncToken is not None, self.asyncDependencies)
        args = self.body.block.args
        if self.has_clusters:
            assert self.clusterSizeX and self.clusterSizeY and self.clusterSizeZ
            printer.print_string(" clusters")
            _print_size_assignment(
                printer,
                args[12:15],
                args[15:18],
                (self.clusterSizeX, self.clusterSizeY, self.clusterSizeZ),
            )
        printer.print_string(" blocks")
        _print_size_assignment(printer, args[0:3], args[6:9], self.grid_sizes)
        printer.print_string(" threads")
        _print_size_assignment(printer, args[3:6], args[9:12], self.block_sizes)
        if self.dynamicSharedMemorySize is not None:
            printer.print_string(" dynamic_shared_memory_size ")
            printer.print_ssa_value(self.dynamicSharedMemorySize)
        for key in ("module", "function"):
            ref = self.properties.get(key)
            if isinstance(ref, SymbolRefAttr):
                printer.print_string(f" {key}(")
                printer.print_attribute(ref)
                printer.print_string(")")
        _print_attributions(printer, "workgroup", self.workgroup_attribution_args)
        _print_attributions(printer, "private", self.private_attribution_args)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        _verify_async_models("gpu.launch", self.asyncObject, self.asyncDependencies)
        if not self.body.blocks:
            raise VerifyException("'gpu.launch' op region needs to have at least one block")
        args = self.body.block.args
        count = self.num_config_args
        if len(args) < count:
            raise VerifyException("'gpu.launch' op unexpected number of region arguments")
        if any(not isinstance(a.type, IndexType) for a in args[:count]):
            raise VerifyException("'gpu.launch' op expects index launch configuration arguments")
        _verify_attributions(self.workgroup_attribution_args, "workgroup")
        _verify_attributions(self.private_attribution_args, "private")
        for block in self.body.blocks:
            last = block.last_op
            if last is None or last.successors:
                continue
            if not isinstance(last, TerminatorOp):
                raise VerifyException(
                    f"'{last.name}' in 'gpu.launch' body region: expected 'gpu.terminator' "
                    "or a terminator with successors"
                )


UnresolvedArgumentLike = Parser.UnresolvedArgument


def _parse_size_assignment(
    parser: Parser, keyword: str
) -> tuple[list[Parser.UnresolvedArgument], list[Parser.UnresolvedArgument], list[SSAValue]]:
    """`(%i, %j, %k) in (%a = %x, %b = %y, %c = %z)`: ids, size args, size operands."""
    pos = parser.pos
    ids = parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
    )
    if len(ids) != 3:
        parser.raise_error(f"{keyword} expects 3 arguments, but got {len(ids)}", pos, parser.pos)
    parser.parse_keyword("in")
    sizes: list[Parser.UnresolvedArgument] = []
    operands: list[SSAValue] = []

    def one() -> None:
        sizes.append(parser.parse_argument(expect_type=False))
        parser.parse_punctuation("=")
        operands.append(parser.parse_operand(INDEX))

    parser.parse_comma_separated_list(Parser.Delimiter.PAREN, one)
    if len(sizes) != 3:
        parser.raise_error(f"{keyword} expects 3 sizes, but got {len(sizes)}", pos, parser.pos)
    return ids, sizes, operands


def _print_size_assignment(
    printer: Printer,
    ids: Sequence[SSAValue],
    sizes: Sequence[SSAValue],
    operands: Sequence[SSAValue],
) -> None:
    printer.print_string("(")
    printer.print_list(ids, printer.print_ssa_value)
    printer.print_string(") in (")
    printer.print_list(
        list(zip(sizes, operands, strict=True)),
        lambda p: (
            printer.print_ssa_value(p[0]),
            printer.print_string(" = "),
            printer.print_ssa_value(p[1]),
        ),
    )
    printer.print_string(")")


@irdl_op_definition
class TerminatorOp(IRDLOperation):
    """`gpu.terminator`: ends the body of a `gpu.launch`."""

    name = "gpu.terminator"
    traits = traits_def(IsTerminator(), HasParent(LaunchOp), Pure())
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


# ---------------------------------------------------------------------------------------
# gpu.module, gpu.func, gpu.return, gpu.binary


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
        workgroup = _parse_attributions(parser, "workgroup")
        private = _parse_attributions(parser, "private")
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
            if (
                index < len(arg_attrs)
                and isinstance(arg_attrs[index], DictionaryAttr)
                and arg_attrs[index].data
            ):
                printer.print_string(" ")
                printer.print_attr_dict(arg_attrs[index].data)

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
        _print_attributions(printer, "workgroup", self.workgroup_attribution_args)
        _print_attributions(printer, "private", self.private_attribution_args)
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
        _verify_attributions(self.workgroup_attribution_args, "workgroup")
        _verify_attributions(self.private_attribution_args, "private")
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


# ---------------------------------------------------------------------------------------
# gpu.launch_func


@irdl_op_definition
class LaunchFuncOp(IRDLOperation):
    """`gpu.launch_func @module::@kernel blocks in (...) threads in (...) args(...)`.

    Launches an outlined kernel; without `async` the host waits for it to finish.
    """

    name = "gpu.launch_func"

    asyncDependencies = var_operand_def(AsyncTokenType)
    gridSizeX = operand_def(IndexType)
    gridSizeY = operand_def(IndexType)
    gridSizeZ = operand_def(IndexType)
    blockSizeX = operand_def(IndexType)
    blockSizeY = operand_def(IndexType)
    blockSizeZ = operand_def(IndexType)
    clusterSizeX = opt_operand_def(IndexType)
    clusterSizeY = opt_operand_def(IndexType)
    clusterSizeZ = opt_operand_def(IndexType)
    dynamicSharedMemorySize = opt_operand_def(i32)
    kernelOperands = var_operand_def()
    asyncObject = opt_operand_def()
    """A stream-like handle (`gpu.launch_func <%stream : !llvm.ptr> @m::@k ...`)."""
    asyncToken = opt_result_def(AsyncTokenType)

    kernel = prop_def(SymbolRefAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        kernel: SymbolRefAttr,
        grid_size: Sequence[SSAValue | Operation],
        block_size: Sequence[SSAValue | Operation],
        kernel_operands: Sequence[SSAValue | Operation] = (),
        *,
        dynamic_shared_memory_size: SSAValue | Operation | None = None,
        async_dependencies: Sequence[SSAValue | Operation] = (),
        async_launch: bool = False,
        async_object: SSAValue | Operation | None = None,
        cluster_size: Sequence[SSAValue | Operation] | None = None,
    ) -> None:
        if cluster_size is not None and len(cluster_size) != 3:
            raise ValueError("gpu.launch_func takes 3 cluster sizes")
        super().__init__(
            operands=[
                list(async_dependencies),
                *grid_size,
                *block_size,
                *([[v] for v in cluster_size] if cluster_size is not None else [[], [], []]),
                [dynamic_shared_memory_size] if dynamic_shared_memory_size is not None else [],
                list(kernel_operands),
                [async_object] if async_object is not None else [],
            ],
            result_types=[[AsyncTokenType()] if async_launch else []],
            properties={"kernel": kernel},
        )

    @property
    def module_name(self) -> str:
        return self.kernel.root_reference.data

    @property
    def kernel_name(self) -> str:
        nested = self.kernel.nested_references.data
        return nested[-1].data if nested else self.kernel.root_reference.data

    @property
    def grid_sizes(self) -> tuple[SSAValue, SSAValue, SSAValue]:
        return (self.gridSizeX, self.gridSizeY, self.gridSizeZ)

    @property
    def block_sizes(self) -> tuple[SSAValue, SSAValue, SSAValue]:
        return (self.blockSizeX, self.blockSizeY, self.blockSizeZ)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        is_async, deps = _parse_async(parser)
        async_object = _parse_async_object(parser)
        kernel = parser.parse_attribute()
        if not isinstance(kernel, SymbolRefAttr):
            parser.raise_error("expected a symbol reference to the kernel (@module::@kernel)")
        clusters: list[list[SSAValue]] = [[], [], []]
        if parser.parse_optional_keyword("clusters") is not None:
            parser.parse_keyword("in")
            values = _parse_three(parser)
            clusters = [[v] for v in values]
        parser.parse_keyword("blocks")
        parser.parse_keyword("in")
        grid = _parse_three(parser)
        parser.parse_keyword("threads")
        parser.parse_keyword("in")
        block = _parse_three(parser)
        dyn: list[SSAValue] = []
        if parser.parse_optional_keyword("dynamic_shared_memory_size") is not None:
            dyn.append(parser.parse_operand(i32))
        operands: list[SSAValue] = []
        if parser.parse_optional_keyword("args") is not None:

            def one() -> None:
                unresolved = parser.parse_unresolved_operand()
                parser.parse_punctuation(":")
                operands.append(parser.resolve_operand(unresolved, parser.parse_type()))

            parser.parse_comma_separated_list(Parser.Delimiter.PAREN, one)
        attrs = parser.parse_optional_attr_dict()
        op = cls.build(
            operands=[deps, *grid, *block, *clusters, dyn, operands, async_object],
            result_types=[[AsyncTokenType()] if is_async else []],
            properties={"kernel": kernel},
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_async(printer, self.asyncToken is not None, self.asyncDependencies)
        _print_async_object(printer, self.asyncObject)
        printer.print_string(" ")
        printer.print_attribute(self.kernel)
        if self.clusterSizeX is not None:
            assert self.clusterSizeY is not None and self.clusterSizeZ is not None
            printer.print_string(" clusters in (")
            printer.print_list(
                (self.clusterSizeX, self.clusterSizeY, self.clusterSizeZ), printer.print_ssa_value
            )
            printer.print_string(")")
        printer.print_string(" blocks in (")
        printer.print_list(self.grid_sizes, printer.print_ssa_value)
        printer.print_string(") threads in (")
        printer.print_list(self.block_sizes, printer.print_ssa_value)
        printer.print_string(")")
        if self.dynamicSharedMemorySize is not None:
            printer.print_string(" dynamic_shared_memory_size ")
            printer.print_ssa_value(self.dynamicSharedMemorySize)
        if self.kernelOperands:
            printer.print_string(" args(")
            printer.print_list(
                self.kernelOperands,
                lambda v: (
                    printer.print_ssa_value(v),
                    printer.print_string(" : "),
                    printer.print_attribute(v.type),
                ),
            )
            printer.print_string(")")
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        _verify_async_models("gpu.launch_func", self.asyncObject, self.asyncDependencies)
        # Upstream checks the enclosing module first (GPUDialect's verifier of the
        # `gpu.container_module` attribute), then the op itself; the messages are its.
        module = self.parent_op()
        while module is not None and not isinstance(module, builtin.ModuleOp):
            module = module.parent_op()
        if module is None or "gpu.container_module" not in module.attributes:
            raise VerifyException(
                "'gpu.launch_func' op expected the closest surrounding module to have the "
                "'gpu.container_module' attribute"
            )
        container_name = self.kernel.root_reference.data
        container = SymbolTable.lookup_symbol(module, container_name)
        if container is None:
            raise VerifyException(
                f"'gpu.launch_func' op kernel container '{container_name}' is undefined"
            )
        if isinstance(container, BinaryOp):
            return
        if not isinstance(container, ModuleOp):
            raise VerifyException(
                f"'gpu.launch_func' op kernel module '{container_name}' is undefined"
            )
        if not self.kernel.nested_references.data:
            raise VerifyException(
                "'gpu.launch_func' op expected the kernel to be a nested symbol (@module::@kernel)"
            )
        kernel = SymbolTable.lookup_symbol(module, self.kernel)
        if kernel is None:
            refs = [self.kernel.root_reference, *self.kernel.nested_references.data]
            path = "::".join(f"@{ref.data}" for ref in refs)
            raise VerifyException(f"'gpu.launch_func' op kernel function '{path}' is undefined")
        if isinstance(kernel, FuncOp):
            expected = kernel.function_type.inputs.data
            if len(expected) != len(self.kernelOperands):
                raise VerifyException(
                    f"'gpu.launch_func' op got {len(self.kernelOperands)} kernel operands but "
                    f"expected {len(expected)}"
                )
            for i, (value, type_) in enumerate(zip(self.kernelOperands, expected, strict=True)):
                if value.type != type_:
                    raise VerifyException(
                        f"'gpu.launch_func' op type of function argument {i} does not match"
                    )


def _parse_three(parser: Parser) -> list[SSAValue]:
    pos = parser.pos
    values = parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, lambda: parser.parse_operand(INDEX)
    )
    if len(values) != 3:
        parser.raise_error(f"expected 3 sizes, got {len(values)}", pos, parser.pos)
    return values


# ---------------------------------------------------------------------------------------
# ids, dimensions, barrier, shuffle


def _parse_upper_bound(parser: Parser) -> IntegerAttr | None:
    if parser.parse_optional_keyword("upper_bound") is None:
        return None
    return IntegerAttr(parser.parse_integer(), INDEX)


def _print_upper_bound(printer: Printer, bound: IntegerAttr | None) -> None:
    if bound is not None:
        printer.print_string(f" upper_bound {bound.value.data}")


class DimensionOp(IRDLOperation):
    """An index of the launch: `gpu.thread_id x` (optionally `upper_bound N`)."""

    dimension = prop_def(DimensionAttr)
    upper_bound = opt_prop_def(IntegerAttr)
    result = result_def(IndexType)
    traits = traits_def(Pure())

    def __init__(self, dim: DimensionAttr | str) -> None:
        if isinstance(dim, str):
            dim = dimension(dim)
        super().__init__(result_types=[INDEX], properties={"dimension": dim})

    @property
    def dim(self) -> str:
        return self.dimension.data.value

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        word = parser.parse_optional_keyword_in(DIMS)
        if word is None:
            parser.raise_error("expected 'x', 'y' or 'z'")
        op = cls(word)
        bound = _parse_upper_bound(parser)
        if bound is not None:
            op.upper_bound = bound
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.dim}")
        _print_upper_bound(printer, self.upper_bound)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class ThreadIdOp(DimensionOp):
    name = "gpu.thread_id"


@irdl_op_definition
class BlockIdOp(DimensionOp):
    name = "gpu.block_id"


@irdl_op_definition
class BlockDimOp(DimensionOp):
    name = "gpu.block_dim"


@irdl_op_definition
class GridDimOp(DimensionOp):
    name = "gpu.grid_dim"


@irdl_op_definition
class GlobalIdOp(DimensionOp):
    name = "gpu.global_id"


@irdl_op_definition
class ClusterIdOp(DimensionOp):
    name = "gpu.cluster_id"


@irdl_op_definition
class ClusterDimOp(DimensionOp):
    name = "gpu.cluster_dim"


class _ScalarIdOp(IRDLOperation):
    """An index with no dimension: `gpu.lane_id` (optionally `upper_bound N`)."""

    upper_bound = opt_prop_def(IntegerAttr)
    result = result_def(IndexType)
    traits = traits_def(Pure())

    def __init__(self) -> None:
        super().__init__(result_types=[INDEX])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        op = cls()
        bound = _parse_upper_bound(parser)
        if bound is not None:
            op.upper_bound = bound
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        _print_upper_bound(printer, self.upper_bound)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class LaneIdOp(_ScalarIdOp):
    name = "gpu.lane_id"


@irdl_op_definition
class SubgroupIdOp(_ScalarIdOp):
    name = "gpu.subgroup_id"


@irdl_op_definition
class NumSubgroupsOp(_ScalarIdOp):
    name = "gpu.num_subgroups"


@irdl_op_definition
class SubgroupSizeOp(_ScalarIdOp):
    name = "gpu.subgroup_size"


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """`gpu.barrier`: every thread of the block waits here; memory accesses before it are
    visible to the block after it."""

    name = "gpu.barrier"
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


class ShuffleMode(StrEnum):
    XOR = "xor"
    UP = "up"
    DOWN = "down"
    IDX = "idx"


@irdl_attr_definition
class ShuffleModeAttr(EnumAttribute[ShuffleMode]):
    """`#gpu.shuffle_mode<xor>` (upstream's generic spelling; the custom form of
    gpu.shuffle prints the bare keyword; `#gpu<shuffle_mode xor>` is accepted too)."""

    name = "gpu.shuffle_mode"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ShuffleMode:
        return _parse_enum_parameter(parser, ShuffleMode)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")


@irdl_op_definition
class ShuffleOp(IRDLOperation):
    """`%r, %valid = gpu.shuffle xor %v, %offset, %width : f32`: exchange a value within
    the first `width` lanes of a warp."""

    name = "gpu.shuffle"
    value = operand_def()
    offset = operand_def(IntegerType(32))
    width = operand_def(IntegerType(32))
    mode = prop_def(ShuffleModeAttr)
    shuffleResult = result_def()
    valid = result_def(i1)
    traits = traits_def(Pure())

    def __init__(self, value: SSAValue, offset: SSAValue, width: SSAValue, mode: str) -> None:
        super().__init__(
            operands=[value, offset, width],
            result_types=[value.type, i1],
            properties={"mode": ShuffleModeAttr(ShuffleMode(mode))},
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        mode = parser.parse_optional_keyword_in(tuple(m.value for m in ShuffleMode))
        if mode is None:
            parser.raise_error(
                "custom op 'gpu.shuffle' expected string or keyword containing one of the "
                "following enum values for attribute 'mode' [xor, up, down, idx]"
            )
        value = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        offset = parser.parse_operand(i32)
        parser.parse_punctuation(",")
        width = parser.parse_operand(i32)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = cls(parser.resolve_operand(value, t), offset, width, mode)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.mode.data.value} ")
        printer.print_list((self.value, self.offset, self.width), printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)


# ---------------------------------------------------------------------------------------
# host-side memory and synchronization


@irdl_op_definition
class AllocOp(IRDLOperation):
    """`%m = gpu.alloc [async [deps]] [host_shared] (%dyn)[%sym] : memref<...>`: device memory."""

    name = "gpu.alloc"
    asyncDependencies = var_operand_def(AsyncTokenType)
    dynamicSizes = var_operand_def(IndexType)
    symbolOperands = var_operand_def(IndexType)
    hostShared = opt_prop_def(UnitAttr)
    memref = result_def(MemRefType)
    asyncToken = opt_result_def(AsyncTokenType)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        memref_type: MemRefType,
        dynamic_sizes: Sequence[SSAValue] = (),
        *,
        async_dependencies: Sequence[SSAValue] = (),
        is_async: bool = False,
    ) -> None:
        super().__init__(
            operands=[list(async_dependencies), list(dynamic_sizes), []],
            result_types=[memref_type, [AsyncTokenType()] if is_async else []],
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        is_async, deps = _parse_async(parser)
        shared = parser.parse_optional_keyword("host_shared") is not None
        dyn = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_operand(INDEX)
        )
        syms: list[SSAValue] = []
        parsed = parser.parse_optional_comma_separated_list(
            Parser.Delimiter.SQUARE, lambda: parser.parse_operand(INDEX)
        )
        if parsed is not None:
            syms = list(parsed)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = cls.build(
            operands=[deps, dyn, syms],
            result_types=[t, [AsyncTokenType()] if is_async else []],
            properties={"hostShared": UnitAttr() if shared else None},
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_async(printer, self.asyncToken is not None, self.asyncDependencies)
        if self.hostShared is not None:
            printer.print_string(" host_shared")
        printer.print_string(" (")
        printer.print_list(self.dynamicSizes, printer.print_ssa_value)
        printer.print_string(")")
        if self.symbolOperands:
            printer.print_string("[")
            printer.print_list(self.symbolOperands, printer.print_ssa_value)
            printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)


@irdl_op_definition
class DeallocOp(IRDLOperation):
    """`gpu.dealloc [async [deps]] %m : memref<...>`: frees device memory."""

    name = "gpu.dealloc"
    asyncDependencies = var_operand_def(AsyncTokenType)
    memref = operand_def(MemRefType)
    asyncToken = opt_result_def(AsyncTokenType)

    def __init__(
        self,
        memref: SSAValue,
        *,
        async_dependencies: Sequence[SSAValue] = (),
        is_async: bool = False,
    ) -> None:
        super().__init__(
            operands=[list(async_dependencies), memref],
            result_types=[[AsyncTokenType()] if is_async else []],
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        is_async, deps = _parse_async(parser)
        unresolved = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(
            parser.resolve_operand(unresolved, parser.parse_type()),
            async_dependencies=deps,
            is_async=is_async,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_async(printer, self.asyncToken is not None, self.asyncDependencies)
        printer.print_string(" ")
        printer.print_ssa_value(self.memref)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)


class _CopyLikeOp(IRDLOperation):
    """Shared syntax of `gpu.memcpy` / `gpu.memset`: `%a, %b : ta, tb`."""

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        is_async, deps = _parse_async(parser)
        first = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        second = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t1 = parser.parse_type()
        parser.parse_punctuation(",")
        t2 = parser.parse_type()
        op = cls.build(
            operands=[deps, parser.resolve_operand(first, t1), parser.resolve_operand(second, t2)],
            result_types=[[AsyncTokenType()] if is_async else []],
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        _print_async(printer, self.asyncToken is not None, self.asyncDependencies)
        a, b = self.operands[len(self.asyncDependencies) :]
        printer.print_string(" ")
        printer.print_list((a, b), printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list((a.type, b.type), printer.print_attribute)


@irdl_op_definition
class MemcpyOp(_CopyLikeOp):
    """`gpu.memcpy [async [deps]] %dst, %src : tdst, tsrc`: copies between host/device memory."""

    name = "gpu.memcpy"
    asyncDependencies = var_operand_def(AsyncTokenType)
    dst = operand_def(MemRefType)
    src = operand_def(MemRefType)
    asyncToken = opt_result_def(AsyncTokenType)

    def __init__(
        self,
        dst: SSAValue,
        src: SSAValue,
        *,
        async_dependencies: Sequence[SSAValue] = (),
        is_async: bool = False,
    ) -> None:
        super().__init__(
            operands=[list(async_dependencies), dst, src],
            result_types=[[AsyncTokenType()] if is_async else []],
        )

    def verify_(self) -> None:
        dst, src = self.dst.type, self.src.type
        assert isinstance(dst, MemRefType) and isinstance(src, MemRefType)
        if dst.element_type != src.element_type:
            raise VerifyException("'gpu.memcpy' op arguments have incompatible element type")
        if dst.get_shape() != src.get_shape():
            raise VerifyException("'gpu.memcpy' op arguments have incompatible shape")


@irdl_op_definition
class MemsetOp(_CopyLikeOp):
    """`gpu.memset [async [deps]] %dst, %value : tdst, tvalue`: fills device memory."""

    name = "gpu.memset"
    asyncDependencies = var_operand_def(AsyncTokenType)
    dst = operand_def(MemRefType)
    value = operand_def()
    asyncToken = opt_result_def(AsyncTokenType)

    def __init__(self, dst: SSAValue, value: SSAValue) -> None:
        super().__init__(operands=[[], dst, value], result_types=[[]])


@irdl_op_definition
class WaitOp(IRDLOperation):
    """`gpu.wait [async] [deps]`: waits for async GPU work (blocks the host without `async`)."""

    name = "gpu.wait"
    asyncDependencies = var_operand_def(AsyncTokenType)
    asyncToken = opt_result_def(AsyncTokenType)

    def __init__(
        self, async_dependencies: Sequence[SSAValue] = (), *, is_async: bool = False
    ) -> None:
        super().__init__(
            operands=[list(async_dependencies)],
            result_types=[[AsyncTokenType()] if is_async else []],
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        is_async, deps = _parse_async(parser)
        op = cls(deps, is_async=is_async)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        _print_async(printer, self.asyncToken is not None, self.asyncDependencies)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class PrintfOp(IRDLOperation):
    """`gpu.printf "x = %f\\n", %x : f32`: device-side printf."""

    name = "gpu.printf"
    format = prop_def(StringAttr)
    args = var_operand_def()

    def __init__(self, format: str, args: Sequence[SSAValue] = ()) -> None:
        super().__init__(operands=[list(args)], properties={"format": StringAttr(format)})

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        text = parser.parse_str_literal()
        unresolved: list[UnresolvedOperand] = []
        while parser.parse_optional_punctuation(",") is not None:
            unresolved.append(parser.parse_unresolved_operand())
        types: list[Attribute] = []
        attrs = parser.parse_optional_attr_dict()
        if unresolved:
            parser.parse_punctuation(":")
            types = [parser.parse_type()]
            while parser.parse_optional_punctuation(",") is not None:
                types.append(parser.parse_type())
        args = parser.resolve_operands(unresolved, types, parser.pos)
        op = cls(text, args)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.format.data)
        for arg in self.args:
            printer.print_string(", ")
            printer.print_ssa_value(arg)
        printer.print_op_attributes(self.attributes)
        if self.args:
            printer.print_string(" : ")
            printer.print_list([a.type for a in self.args], printer.print_attribute)


OPS: tuple[type[IRDLOperation], ...] = (
    LaunchOp,
    TerminatorOp,
    ModuleOp,
    FuncOp,
    ReturnOp,
    YieldOp,
    BinaryOp,
    LaunchFuncOp,
    ThreadIdOp,
    BlockIdOp,
    BlockDimOp,
    GridDimOp,
    GlobalIdOp,
    ClusterIdOp,
    ClusterDimOp,
    LaneIdOp,
    SubgroupIdOp,
    NumSubgroupsOp,
    SubgroupSizeOp,
    BarrierOp,
    ShuffleOp,
    AllocOp,
    DeallocOp,
    MemcpyOp,
    MemsetOp,
    WaitOp,
    PrintfOp,
)
"""The gpu ops schedir defines; they replace xDSL's of the same names."""

ATTRS: tuple[type[Attribute], ...] = (DimensionAttr, ShuffleModeAttr, ObjectAttr, SelectObjectAttr)

__all__ = [
    "ATTRS",
    "DIMS",
    "OPS",
    "AllocOp",
    "AsyncTokenType",
    "BarrierOp",
    "BinaryOp",
    "BlockDimOp",
    "BlockIdOp",
    "DeallocOp",
    "DimensionAttr",
    "DimensionOp",
    "FuncOp",
    "GlobalIdOp",
    "GridDimOp",
    "LaneIdOp",
    "LaunchFuncOp",
    "LaunchOp",
    "MemcpyOp",
    "MemsetOp",
    "ModuleOp",
    "ObjectAttr",
    "PrintfOp",
    "ReturnOp",
    "SelectObjectAttr",
    "ShuffleModeAttr",
    "ShuffleOp",
    "TerminatorOp",
    "ThreadIdOp",
    "WaitOp",
    "YieldOp",
    "dimension",
]
