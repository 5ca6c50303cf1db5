"""Provable alignment of a memref's aligned pointer, for kernel arguments.

A memref's aligned pointer is set where the buffer is made and kept by the view ops
(`memref.subview`, `cast`, `reinterpret_cast`, `expand_shape`, `collapse_shape` change
only the offset, sizes and strides). So the base alignment of a value is that of its
root: an allocation's `alignment`, or, for an argument of a public function that
nothing in the module calls, the alignment the runtime guarantees for the
arrays it passes (`schedir.gpu.ARGUMENT_ALIGNMENT`: device allocations are 256-byte
aligned and a misaligned device array is copied first). Anything else (`memref.view`
shifts the pointer, a private function's argument depends on its callers) is unknown.

The address of an element adds the offset and indices times the strides; LLVM derives
their divisibility itself once the pointer argument carries `align N`.
"""

from __future__ import annotations

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp, StringAttr
from xdsl.ir import BlockArgument, Operation, SSAValue

from schedir.dialects import gpu
from schedir.gpu.target import ARGUMENT_ALIGNMENT

_KEEPS_ALIGNED_POINTER: tuple[type[Operation], ...] = (
    memref.SubviewOp,
    memref.CastOp,
    memref.ReinterpretCastOp,
    memref.ExpandShapeOp,
    memref.CollapseShapeOp,
)
"""The view ops (xDSL's classes, which schedir's replacements subclass)."""

_ALLOCATIONS: tuple[type[Operation], ...] = (memref.AllocOp, memref.AllocaOp, gpu.AllocOp)


def called_symbols(module: ModuleOp) -> frozenset[str]:
    """Names of the functions some `func.call` in `module` calls."""
    names: set[str] = set()
    for op in module.walk():
        if isinstance(op, func.CallOp):
            callee = op.properties.get("callee")
            root = getattr(callee, "root_reference", None)
            if isinstance(root, StringAttr):
                names.add(root.data)
    return frozenset(names)


def _runtime_entry(op: Operation, called: frozenset[str]) -> bool:
    if not isinstance(op, func.FuncOp):
        return False
    visibility = op.properties.get("sym_visibility") or op.attributes.get("sym_visibility")
    if isinstance(visibility, StringAttr) and visibility.data != "public":
        return False
    name = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return isinstance(name, StringAttr) and name.data not in called


def base_alignment(value: SSAValue, called: frozenset[str]) -> int | None:
    """The proven byte alignment of `value`'s aligned pointer, or None."""
    while isinstance(value.type, MemRefType):
        if isinstance(value, BlockArgument):
            parent = value.block.parent_op()
            entry = parent is not None and value.block is parent.regions[0].blocks.first
            if entry and parent is not None and _runtime_entry(parent, called):
                return ARGUMENT_ALIGNMENT
            return None
        op = value.owner
        assert isinstance(op, Operation)
        if isinstance(op, _KEEPS_ALIGNED_POINTER):
            value = op.operands[0]
            continue
        if isinstance(op, _ALLOCATIONS):
            alignment = op.properties.get("alignment") or op.attributes.get("alignment")
            if isinstance(alignment, IntegerAttr) and alignment.value.data > 0:
                return alignment.value.data
        return None
    return None


__all__ = ["base_alignment", "called_symbols"]
