"""`gpu.launch_func` with upstream MLIR's custom syntax."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects import builtin
from xdsl.dialects.builtin import (
    IndexType,
    SymbolRefAttr,
    i32,
)
from xdsl.ir import (
    Operation,
    SSAValue,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_result_def,
    prop_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.gpu.module import BinaryOp, FuncOp, ModuleOp
from schedir.dialects.gpu.syntax import (
    INDEX,
    AsyncTokenType,
    parse_async,
    parse_async_object,
    print_async,
    print_async_object,
    verify_async_models,
)


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
        is_async, deps = parse_async(parser)
        async_object = parse_async_object(parser)
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
        print_async(printer, self.asyncToken is not None, self.asyncDependencies)
        print_async_object(printer, self.asyncObject)
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
        verify_async_models("gpu.launch_func", self.asyncObject, self.asyncDependencies)
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
    values: list[SSAValue] = []
    parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, lambda: values.append(parser.parse_operand(INDEX))
    )
    if len(values) != 3:
        parser.raise_error(f"expected 3 sizes, got {len(values)}", pos, parser.pos)
    return values
