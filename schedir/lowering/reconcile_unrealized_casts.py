"""`reconcile-unrealized-casts`: remove the chains of casts the `*-to-llvm` passes leave.

The conversions meet through `builtin.unrealized_conversion_cast` pairs (`A -> B -> A`);
this pass folds each chain away, as upstream's pass does. A cast that cannot be removed
(an op was not lowered) stays, as upstream leaves it, and the translation to LLVM IR
reports it with the location of the op that made it. xDSL's pass of the same name also
emits a Python `UserWarning` for each such cast, which would reach the user's stderr
next to that diagnostic; this one is silent.

    %1 = builtin.unrealized_conversion_cast %0 : vector<1xf32> to vector<f32>
    %2 = builtin.unrealized_conversion_cast %1 : vector<f32> to vector<1xf32>
    llvm.store %2, %p : vector<1xf32>, !llvm.ptr
    // ->
    llvm.store %0, %p : vector<1xf32>, !llvm.ptr
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.transforms.reconcile_unrealized_casts import reconcile_unrealized_casts


@dataclass(frozen=True)
class ReconcileUnrealizedCasts(ModulePass):
    """Fold away chains of unrealized conversion casts (see the module docstring)."""

    name = "reconcile-unrealized-casts"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        reconcile_unrealized_casts(op, warn_on_failure=False)


__all__ = ["ReconcileUnrealizedCasts"]
