"""`canonicalize`: upstream's canonicalizer, with schedir's greedy driver and patterns.

Folds every op, erases dead ones, de-duplicates constants and hoists them to the entry
of their function, and applies the canonicalization patterns of the arith, affine,
tensor, scf, linalg and memref ops until nothing changes (see
`schedir.transform.rewrites.canonicalize`). Options as upstream's: `top-down` (default
true), `max-iterations` (10; -1: no limit), `max-num-rewrites` (-1: no limit),
`region-simplify` (`normal` / `aggressive`, or `disabled`). Replaces xDSL's pass of the
same name, which neither de-duplicates constants nor knows most of these patterns.

    %c0 = arith.constant 0 : index
    %x = arith.addi %n, %c0 : index
    %d = tensor.dim %t, %c0 : tensor<4xf32>
    // ->
    %c4 = arith.constant 4 : index      (and %x replaced by %n)
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from schedir.transform.rewrites.canonicalize.driver import canonicalize
from schedir.transform.rewrites.greedy import GreedyConfig


@dataclass(frozen=True)
class Canonicalize(ModulePass):
    """Canonicalize the module (see the module docstring)."""

    name = "canonicalize"

    top_down: bool = True
    max_iterations: int = 10
    max_num_rewrites: int = -1
    region_simplify: str = "normal"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        config = GreedyConfig(
            max_iterations=self.max_iterations,
            max_num_rewrites=self.max_num_rewrites,
            top_down=self.top_down,
            region_simplification=self.region_simplify != "disabled",
        )
        # As upstream (test-convergence off), not converging is not an error.
        canonicalize(op, config)


__all__ = ["Canonicalize"]
