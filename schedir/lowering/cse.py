"""`cse`: common subexpression elimination, linear in the size of the IR.

Upstream's CSE (same results; see `schedir.transform.rewrites.cse`): equal ops without
memory effects are merged along the dominator tree, equal reads of memory only within a
block and with no write in between, and trivially dead ops are erased. Replaces xDSL's
pass of the same name, which rescans the ops between two reads for writes (quadratic on
unrolled or vectorized kernels).

    %a = arith.addi %x, %y : index
    %b = arith.addi %y, %x : index      // commutative: the same value
    %v = memref.load %m[%a] : memref<8xf32>
    %w = memref.load %m[%b] : memref<8xf32>
    // ->
    %a = arith.addi %x, %y : index
    %v = memref.load %m[%a] : memref<8xf32>     (%b -> %a, %w -> %v)
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from schedir.transform.rewrites.cse import eliminate_common_subexpressions


@dataclass(frozen=True)
class Cse(ModulePass):
    """Eliminate common subexpressions in the module (see the module docstring)."""

    name = "cse"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        eliminate_common_subexpressions(op)


__all__ = ["Cse"]
