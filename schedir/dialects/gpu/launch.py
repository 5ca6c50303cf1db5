"""`gpu.launch` and `gpu.terminator` with upstream MLIR's custom syntax."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects.builtin import (
    I64,
    IndexType,
    IntegerAttr,
    SymbolRefAttr,
    i32,
    i64,
)
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Operation,
    Region,
    SSAValue,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    region_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsTerminator,
    Pure,
    RecursiveMemoryEffect,
)
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.gpu.syntax import (
    INDEX,
    AsyncTokenType,
    parse_async,
    parse_async_object,
    parse_attributions,
    print_async,
    print_async_object,
    print_attributions,
    verify_async_models,
    verify_attributions,
)


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
        self.operands[offset] = value

    # -- syntax ------------------------------------------------------------------------

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        async_object = parse_async_object(parser)
        is_async, deps = parse_async(parser)
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
        workgroup = parse_attributions(parser, "workgroup")
        private = parse_attributions(parser, "private")
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
        print_async_object(printer, self.asyncObject)
        print_async(printer, self.asyncToken is not None, self.asyncDependencies)
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
        print_attributions(printer, "workgroup", self.workgroup_attribution_args)
        print_attributions(printer, "private", self.private_attribution_args)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        verify_async_models("gpu.launch", self.asyncObject, self.asyncDependencies)
        if not self.body.blocks:
            raise VerifyException("'gpu.launch' op region needs to have at least one block")
        args = self.body.block.args
        count = self.num_config_args
        if len(args) < count:
            raise VerifyException("'gpu.launch' op unexpected number of region arguments")
        if any(not isinstance(a.type, IndexType) for a in args[:count]):
            raise VerifyException("'gpu.launch' op expects index launch configuration arguments")
        verify_attributions(self.workgroup_attribution_args, "workgroup")
        verify_attributions(self.private_attribution_args, "private")
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
