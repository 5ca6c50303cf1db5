"""Which memref arguments of a host function its code may write: the ones a kernel must
not be handed as the caller's own arrays."""

from __future__ import annotations

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation, SSAValue

from schedir.transform.rewrites.effects import WRITE, op_effects

_VIEW_OPS: tuple[type[Operation], ...] = (
    memref.SubviewOp,
    memref.CastOp,
    memref.ReinterpretCastOp,
    memref.ExpandShapeOp,
    memref.CollapseShapeOp,
    memref.MemorySpaceCastOp,
    memref.ViewOp,
)
"""Ops whose result is a view of their memref operand (xDSL's classes, which schedir's
replacements subclass)."""


def written_arguments(fn: Operation) -> list[int]:
    """Indices of the memref arguments of `fn` that its code may write (conservative).

    An argument is only read if every use, through views, is a known read (a load, an
    input of a linalg op, the source of a copy, a dimension query); anything else
    (stores, linalg inits, kernel launches, unknown ops) counts as a write.
    """
    block = fn.regions[0].blocks.first
    if block is None:
        return []
    written: list[int] = []
    for index, arg in enumerate(block.args):
        if not isinstance(arg.type, MemRefType):
            continue
        todo: list[SSAValue] = [arg]
        seen: set[SSAValue] = set()
        found = False
        while todo and not found:
            value = todo.pop()
            if value in seen:
                continue
            seen.add(value)
            for use in value.uses:
                user = use.operation
                if isinstance(user, _VIEW_OPS):
                    todo.extend(user.results)
                    continue
                if isinstance(user, func.ReturnOp):
                    continue
                effects = op_effects(user)
                if effects is None or any(
                    e.kind == WRITE and (e.value is None or e.value is value) for e in effects
                ):
                    found = True
                    break
        if found:
            written.append(index)
    return written


__all__ = ["written_arguments"]
