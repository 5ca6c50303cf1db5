"""Memory effects of payload ops, as upstream's `MemoryEffectOpInterface` declares them.

xDSL's effect traits are incomplete for the ops schedir handles (linalg ops have none,
`affine.min` has none, every effect is on the whole universe). Dead-code removal, CSE,
LICM and subset hoisting need upstream's answers, so this module keeps them by op class
(each class's rule is looked up once, through its dialect and its own entry):

* `op_effects(op)`: the op's own effects, each on a value when upstream ties it to one
  (`memref.load` reads its memref, `memref.alloc` allocates its result, a linalg op on
  buffers reads its inputs and reads and writes its inits); `None` when unknown;
* `recursive_effects(op)`: the same, including the ops nested in region ops with
  recursive effects (`scf.for`, `scf.if`, ...), as upstream's `getEffectsRecursively`;
* `would_be_trivially_dead(op)` / `is_trivially_dead(op)`: upstream's
  `wouldOpBeTriviallyDead` / `isOpTriviallyDead` (only reads, or allocates its own result).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

from xdsl.dialects import (
    affine,
    arith,
    bufferization,
    builtin,
    func,
    math,
    memref,
    scf,
    tensor,
    ub,
)
from xdsl.dialects import linalg as xlinalg
from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import MemRefType
from xdsl.dialects.complex import Complex
from xdsl.dialects.linalg import ops as xlinalg_ops
from xdsl.ir import Operation, SSAValue
from xdsl.traits import IsTerminator, MemoryEffectKind, SymbolOpInterface, get_effects

from schedir.dialects import arith as schedir_arith
from schedir.dialects import gpu, linalg, vector
from schedir.dialects import scf as schedir_scf
from schedir.dialects import tensor as schedir_tensor
from schedir.dialects.affine import Affine
from schedir.dialects.linalg.interface import dps_inits, dps_inputs, is_structured

READ = "read"
WRITE = "write"
ALLOC = "alloc"
FREE = "free"


@dataclass(frozen=True)
class Effect:
    """One memory effect: its kind and the value it is on (None: any memory); `op`, the
    load, store or transfer that has it (its indices say which elements it touches)."""

    kind: str
    value: SSAValue | None = None
    op: Operation | None = field(default=None, compare=False, hash=False)


OpClasses = tuple[type[Operation], ...]

_PURE_DIALECT_OPS: OpClasses = (
    *arith.Arith.operations,
    *schedir_arith.Arith.operations,
    *math.Math.operations,
    *tensor.Tensor.operations,
    *schedir_tensor.Tensor.operations,
    *affine.Affine.operations,
    *Affine.operations,
    *ub.UB.operations,
    *Complex.operations,
)
"""The ops of the dialects whose ops (outside the exceptions below) have no memory effects
(upstream also lists index, which xDSL does not define)."""

_VECTOR_OPS: OpClasses = (*xvector.Vector.operations, *vector.Vector.operations)
_LINALG_OPS: OpClasses = (*xlinalg.Linalg.operations, *linalg.Linalg.operations)

_PURE_OPS: OpClasses = (
    linalg.YieldOp,
    linalg.IndexOp,
    xlinalg_ops.YieldOp,
    xlinalg_ops.IndexOp,
    scf.YieldOp,
    scf.ConditionOp,
    scf.ReduceReturnOp,
    # Upstream's in_parallel is `Pure` (not recursive): a forall whose results are
    # unused is dead, while its parallel inserts alone are not.
    schedir_scf.InParallelOp,
    memref.SubviewOp,
    memref.CastOp,
    memref.ReinterpretCastOp,
    memref.ExpandShapeOp,
    memref.CollapseShapeOp,
    memref.MemorySpaceCastOp,
    memref.ExtractStridedMetaDataOp,
    memref.ExtractAlignedPointerAsIndexOp,
    memref.DimOp,
    memref.RankOp,
    memref.ViewOp,
    memref.GetGlobalOp,
    memref.AllocaScopeReturnOp,
    bufferization.ToBufferOp,
    bufferization.ToTensorOp,
    func.ReturnOp,
    gpu.ThreadIdOp,
    gpu.BlockIdOp,
    gpu.BlockDimOp,
    gpu.GridDimOp,
    gpu.LaneIdOp,
    gpu.GlobalIdOp,
    gpu.SubgroupIdOp,
    gpu.NumSubgroupsOp,
    gpu.SubgroupSizeOp,
    gpu.TerminatorOp,
    gpu.ReturnOp,
    gpu.YieldOp,
    builtin.UnrealizedConversionCastOp,
)

_UNKNOWN_OPS: OpClasses = (
    # Upstream declares no effects for it (nor for affine.prefetch and the affine DMA ops,
    # which schedir does not define): it must never be dropped or merged.
    schedir_tensor.ParallelInsertSliceOp,
)

_RECURSIVE_OPS: OpClasses = (
    scf.ForOp,
    scf.IfOp,
    scf.WhileOp,
    schedir_scf.ForallOp,
    scf.ParallelOp,
    scf.ReduceOp,
    scf.ExecuteRegionOp,
    scf.IndexSwitchOp,
    affine.ForOp,
    affine.IfOp,
    affine.ParallelOp,
    memref.AllocaScopeOp,
    xlinalg_ops.GenericOp,
    linalg.MapOp,
    linalg.ReduceOp,
    xlinalg_ops.ReduceOp,
    # A masked vector.transfer_write has no result: it must not be dropped as dead.
    vector.MaskOp,
)
"""Region ops whose effects are those of their bodies (`RecursiveMemoryEffects`).

The linalg ops with bodies are listed because their bodies are pure scalar code: their
own operand effects are added by `_linalg_effects`.
"""


def _is_memref(value: SSAValue) -> bool:
    return isinstance(value.type, MemRefType)


EffectsOf = Callable[[Operation], "list[Effect] | None"]
"""The own effects of an op of one class (None: unknown)."""


def _unknown(op: Operation) -> list[Effect] | None:
    return None


def _none(op: Operation) -> list[Effect] | None:
    return []


def _linalg_effects(op: Operation) -> list[Effect] | None:
    """Upstream's `getGenericEffectsImpl`: only buffer operands have effects."""
    if not any(_is_memref(v) for v in op.operands):
        return []  # on tensors (the common case), before the operand groups are read
    if is_structured(op):
        inputs, inits = dps_inputs(op), dps_inits(op)
    else:
        # softmax and other destination-style ops: ins then outs by position.
        outs = op.results
        inits = tuple(op.operands[len(op.operands) - max(1, len(outs)) :])
        inputs = tuple(op.operands[: len(op.operands) - len(inits)])
    effects = [Effect(READ, v) for v in inputs if _is_memref(v)]
    for v in inits:
        if _is_memref(v):
            effects += [Effect(READ, v), Effect(WRITE, v)]
    return effects


def _reads_operand(index: int) -> EffectsOf:
    return lambda op: [Effect(READ, op.operands[index], op)]


def _writes_operand(index: int) -> EffectsOf:
    return lambda op: [Effect(WRITE, op.operands[index], op)]


def _allocates(op: Operation) -> list[Effect] | None:
    return [Effect(ALLOC, op.results[0])]


def _frees(op: Operation) -> list[Effect] | None:
    return [Effect(FREE, op.operands[0])]


def _copies(op: Operation) -> list[Effect] | None:
    return [Effect(READ, op.operands[0]), Effect(WRITE, op.operands[1])]


def _atomic_rmw(op: Operation) -> list[Effect] | None:
    target = op.operands[1] if len(op.operands) > 1 else None
    return [Effect(READ, target), Effect(WRITE, target)]


def _materialize_in_destination(op: Operation) -> list[Effect] | None:
    dest = op.operands[1]
    return [Effect(READ, op.operands[0]), Effect(WRITE, dest)] if _is_memref(dest) else []


def _clone(op: Operation) -> list[Effect] | None:
    return [Effect(READ, op.operands[0]), Effect(ALLOC, op.results[0])]


def _transfer_read(op: Operation) -> list[Effect] | None:
    source = op.operands[0]
    return [Effect(READ, source, op)] if _is_memref(source) else []


def _transfer_write(op: Operation) -> list[Effect] | None:
    dest = op.operands[1]
    return [Effect(WRITE, dest, op)] if _is_memref(dest) else []


_KIND = {
    MemoryEffectKind.READ: READ,
    MemoryEffectKind.WRITE: WRITE,
    MemoryEffectKind.ALLOC: ALLOC,
    MemoryEffectKind.FREE: FREE,
}


def _from_traits(op: Operation) -> list[Effect] | None:
    effects = get_effects(op)
    if effects is None:
        return None
    # xDSL's traits put every effect on the whole memory.
    return [Effect(_KIND[e.kind]) for e in effects]


_OWN_EFFECTS: tuple[tuple[OpClasses, EffectsOf], ...] = (
    ((memref.LoadOp, affine.LoadOp, affine.VectorLoadOp), _reads_operand(0)),
    ((affine.StoreOp, affine.VectorStoreOp, memref.StoreOp), _writes_operand(1)),
    ((memref.AllocOp, memref.AllocaOp, bufferization.AllocTensorOp), _allocates),
    ((memref.DeallocOp,), _frees),
    ((memref.CopyOp,), _copies),
    ((memref.AtomicRMWOp,), _atomic_rmw),
    ((bufferization.MaterializeInDestinationOp,), _materialize_in_destination),
    ((bufferization.CloneOp,), _clone),
)
"""The ops whose effects upstream ties to their operands and results."""

_VECTOR_MEMORY: tuple[tuple[OpClasses, EffectsOf], ...] = (
    ((xvector.PrintOp,), _unknown),
    ((xvector.TransferReadOp,), _transfer_read),
    ((xvector.TransferWriteOp,), _transfer_write),
    ((xvector.LoadOp, xvector.MaskedLoadOp), _reads_operand(0)),
    ((xvector.StoreOp, xvector.MaskedStoreOp), _writes_operand(1)),
)
"""The vector ops that touch memory (upstream's vector memory effects)."""


@cache
def _own_effects_rule(cls: type[Operation]) -> EffectsOf:
    """How to compute the own effects of the ops of `cls` (one lookup per class)."""
    if issubclass(cls, _UNKNOWN_OPS):
        return _unknown
    if issubclass(cls, _PURE_OPS):
        return _none
    if issubclass(cls, _LINALG_OPS):
        return _linalg_effects
    if issubclass(cls, _RECURSIVE_OPS):
        return _none
    for classes, rule in (*_OWN_EFFECTS, *_VECTOR_MEMORY):
        if issubclass(cls, classes):
            return rule
    if issubclass(cls, _PURE_DIALECT_OPS + _VECTOR_OPS):
        return _none
    return _from_traits


def op_effects(op: Operation) -> list[Effect] | None:
    """The op's own memory effects (not those of nested ops); None if unknown."""
    return _own_effects_rule(type(op))(op)


@cache
def _recursive_class(cls: type[Operation]) -> bool | None:
    """Whether ops of `cls` have their bodies' effects (None: linalg ops, when they have
    regions)."""
    if issubclass(cls, _RECURSIVE_OPS):
        return True
    if issubclass(cls, _LINALG_OPS) and not issubclass(cls, _PURE_OPS):
        return None
    return False


def has_recursive_effects(op: Operation) -> bool:
    """Whether the effects of `op` include those of its nested ops."""
    recursive = _recursive_class(type(op))
    return bool(op.regions) if recursive is None else recursive


def recursive_effects(op: Operation) -> list[Effect] | None:
    """The effects of `op` and of the ops nested in it (where upstream counts them)."""
    own = op_effects(op)
    if own is None:
        return None
    if not has_recursive_effects(op):
        return own
    effects = list(own)
    for region in op.regions:
        for block in region.blocks:
            for nested in block.ops:
                inner = recursive_effects(nested)
                if inner is None:
                    return None
                effects.extend(inner)
    return effects


def is_memory_effect_free(op: Operation) -> bool:
    """No effects at all (nested ops included)."""
    effects = recursive_effects(op)
    return effects is not None and not effects


def only_reads(op: Operation) -> bool:
    """Upstream's `onlyHasEffect<Read>` on the op itself (it has at least one read)."""
    effects = op_effects(op)
    if effects is None or not effects:
        return False
    if has_recursive_effects(op):
        effects = recursive_effects(op)
        if effects is None:
            return False
    return all(e.kind == READ for e in effects)


def writes_or_unknown(op: Operation) -> bool:
    """Whether `op` (with nested ops) may write memory: what ends a CSE read window."""
    effects = recursive_effects(op)
    return effects is None or any(e.kind == WRITE for e in effects)


def would_be_trivially_dead(op: Operation) -> bool:
    """Upstream's `wouldOpBeTriviallyDead`: erasable once its results are unused."""
    if op.has_trait(IsTerminator, value_if_unregistered=False):
        return False
    if op.has_trait(SymbolOpInterface, value_if_unregistered=False):
        return False
    stack = [op]
    while stack:
        current = stack.pop()
        recursive = has_recursive_effects(current)
        if recursive:
            for region in current.regions:
                for block in region.blocks:
                    stack.extend(block.ops)
        effects = op_effects(current)
        if effects is None:
            return False
        own_allocs = {id(e.value) for e in effects if e.kind == ALLOC and e.value is not None}
        for effect in effects:
            if effect.kind == READ:
                continue
            if effect.value is not None and id(effect.value) in own_allocs:
                continue
            return False
    return True


def is_trivially_dead(op: Operation) -> bool:
    """Upstream's `isOpTriviallyDead`: no result is used and the op has no other effect."""
    return all(not r.uses for r in op.results) and would_be_trivially_dead(op)


def written_values(ops: Sequence[Operation]) -> list[SSAValue | None] | None:
    """The memrefs written by `ops` (None entries: any memory); None if unknown."""
    written: list[SSAValue | None] = []
    for op in ops:
        effects = recursive_effects(op)
        if effects is None:
            return None
        written.extend(e.value for e in effects if e.kind in (WRITE, FREE))
    return written


__all__ = [
    "ALLOC",
    "FREE",
    "READ",
    "WRITE",
    "Effect",
    "has_recursive_effects",
    "is_memory_effect_free",
    "is_trivially_dead",
    "only_reads",
    "op_effects",
    "recursive_effects",
    "would_be_trivially_dead",
    "writes_or_unknown",
    "written_values",
]
