"""`gpu-launch-sink-index-computations`: copy cheap values into `gpu.launch` bodies.

Upstream's pass (GPU/Transforms/KernelOutlining.cpp, `sinkOperationsIntoLaunchOp`): a
value defined outside a launch and used inside it becomes a kernel argument when the
launch is outlined. Constants, `memref.dim`, `arith.select` and `arith.cmpi` whose
operands are already available in the body (used there, or sinkable themselves) are
cloned at the start of the body instead, dependencies first, and the body's uses are
redirected to the clones. The originals stay for their other users (unused ones go).

    %c2 = arith.constant 2.0 : f32
    gpu.launch ... {
      %v = arith.mulf %x, %c2 : f32
    }
    // ->
    gpu.launch ... {
      %c2_0 = arith.constant 2.0 : f32
      %v = arith.mulf %x, %c2_0 : f32
    }
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref, ub
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.passes import ModulePass

from schedir.dialects import gpu
from schedir.lowering.gpu import is_nested_in, launches, used_values_defined_above

SINKABLE: tuple[type[Operation], ...] = (
    arith.ConstantOp,
    ub.PoisonOp,
    memref.DimOp,
    arith.SelectOp,
    arith.CmpiOp,
)
"""Upstream's isSinkingBeneficiary (less `func.constant`, which xDSL does not define), plus
`ub.poison` (constant-like: the padding of vector transfers a schedule hoisted out of the
launch, which the host cannot translate); xDSL's classes, which schedir's subclass."""


def _extract_beneficiary(
    op: Operation, available: set[SSAValue], chosen: dict[Operation, None]
) -> bool:
    """Upstream's extractBeneficiaryOps: can `op` be cloned without new kernel arguments?"""
    if op in chosen:
        return True
    if not isinstance(op, SINKABLE):
        return False
    for operand in op.operands:
        if operand in available:
            continue
        owner = operand.owner
        if not isinstance(owner, Operation) or not _extract_beneficiary(owner, available, chosen):
            return False
    chosen[op] = None
    available.update(op.results)
    return True


def sink_into_launch(launch: gpu.LaunchOp) -> None:
    """Clone the sinkable producers of values used in `launch` into its body."""
    region = launch.body
    candidates = used_values_defined_above(region)
    available: set[SSAValue] = set(candidates)
    chosen: dict[Operation, None] = {}
    for value in candidates:
        if isinstance(value, OpResult):
            _extract_beneficiary(value.op, available, chosen)
    block = region.block
    first = block.first_op
    mapping: dict[SSAValue, SSAValue] = {}
    for op in chosen:
        clone = op.clone()
        for index, operand in enumerate(clone.operands):
            if operand in mapping:
                clone.operands[index] = mapping[operand]
        if first is None:
            block.add_op(clone)
        else:
            block.insert_op_before(clone, first)
        for old, new in zip(op.results, clone.results, strict=True):
            mapping[old] = new
            new.name_hint = old.name_hint
    clones = {mapping[r].owner for r in mapping}
    for old, new in mapping.items():
        for use in list(old.uses):
            user = use.operation
            if user in clones:
                continue
            if user is not launch and is_nested_in(user, launch):
                user.operands[use.index] = new
    for op in reversed(chosen):
        # an original the host no longer uses goes (they are all side-effect free)
        if all(not r.uses for r in op.results):
            op.detach()
            op.erase()


@dataclass(frozen=True)
class GpuLaunchSinkIndexComputations(ModulePass):
    """Sink constants and index computations into every `gpu.launch` (see the module doc)."""

    name = "gpu-launch-sink-index-computations"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for launch in launches(op):
            sink_into_launch(launch)


__all__ = ["SINKABLE", "GpuLaunchSinkIndexComputations", "sink_into_launch"]
