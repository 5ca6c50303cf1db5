"""Where the parts of a GPU program are: the values a launch body captures, launches,
gpu.modules and their kernels, enclosing functions and ops, and free symbol names."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects import gpu as xgpu
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation, Region, SSAValue

from schedir.dialects import gpu, llvm
from schedir.dialects.gpu import GPU

GPU_OPS: tuple[type[Operation], ...] = (*GPU.operations, *xgpu.GPU.operations)
"""The ops of the gpu dialect (schedir's classes, and xDSL's of the same names)."""


def _is_inside(value: SSAValue, region: Region) -> bool:
    """Whether `value` is defined inside `region` (as an op result or a block argument)."""
    block = value.owner if not isinstance(value.owner, Operation) else value.owner.parent
    while block is not None:
        if block.parent is region:
            return True
        parent_op = block.parent_op()
        if parent_op is None:
            return False
        block = parent_op.parent
    return False


def used_values_defined_above(region: Region) -> list[SSAValue]:
    """Upstream's getUsedValuesDefinedAbove: values used in `region` but defined outside,
    in the order of their first use (pre-order walk, operands in order)."""
    found: dict[SSAValue, None] = {}
    for block in region.blocks:
        for op in block.ops:
            for nested in op.walk():
                for operand in nested.operands:
                    if operand not in found and not _is_inside(operand, region):
                        found[operand] = None
    return list(found)


def launches(module: Operation) -> list[gpu.LaunchOp]:
    """Every `gpu.launch` in `module`, in program order."""
    return [op for op in module.walk() if isinstance(op, gpu.LaunchOp)]


def gpu_modules(module: ModuleOp) -> list[gpu.ModuleOp]:
    """The `gpu.module`s directly in `module`."""
    return [op for op in module.ops if isinstance(op, gpu.ModuleOp)]


def symbol_names(module: ModuleOp) -> set[str]:
    """The symbol names defined directly in `module`."""
    names: set[str] = set()
    for op in module.ops:
        sym = op.properties.get("sym_name") or op.attributes.get("sym_name")
        if isinstance(sym, StringAttr):
            names.add(sym.data)
    return names


def unique_name(base: str, taken: set[str]) -> str:
    """`base`, or `base_0`, `base_1`, ... as upstream's SymbolTable renames clashes."""
    if base not in taken:
        return base
    index = 0
    while f"{base}_{index}" in taken:
        index += 1
    return f"{base}_{index}"


_FUNCTIONS: tuple[type[Operation], ...] = (func.FuncOp, gpu.FuncOp, llvm.FuncOp)


def enclosing_function(op: Operation) -> Operation | None:
    """The nearest `func.func` / `gpu.func` / `llvm.func` around `op`."""
    current = op.parent_op()
    while current is not None and not isinstance(current, _FUNCTIONS):
        current = current.parent_op()
    return current


def is_nested_in(op: Operation, ancestor: Operation) -> bool:
    """Whether `op` is `ancestor` or nested in it."""
    current: Operation | None = op
    while current is not None:
        if current is ancestor:
            return True
        current = current.parent_op()
    return False


__all__ = [
    "GPU_OPS",
    "enclosing_function",
    "gpu_modules",
    "is_nested_in",
    "launches",
    "symbol_names",
    "unique_name",
    "used_values_defined_above",
]
