"""Memory effects of payload ops, as upstream's `MemoryEffectOpInterface` declares them.

xDSL's effect traits are incomplete for the ops schedir handles (linalg ops have none,
`affine.min` has none, every effect is on the whole universe). Dead-code removal, CSE,
LICM and subset hoisting need upstream's answers, so this module keeps them by op name:

* `op_effects(op)`: the op's own effects, each on a value when upstream ties it to one
  (`memref.load` reads its memref, `memref.alloc` allocates its result, a linalg op on
  buffers reads its inputs and reads and writes its inits); `None` when unknown;
* `recursive_effects(op)`: the same, including the ops nested in region ops with
  recursive effects (`scf.for`, `scf.if`, ...), as upstream's `getEffectsRecursively`;
* `would_be_trivially_dead(op)` / `is_trivially_dead(op)`: upstream's
  `wouldOpBeTriviallyDead` / `isOpTriviallyDead` (only reads, or allocates its own result).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation, SSAValue
from xdsl.traits import IsTerminator, MemoryEffectKind, SymbolOpInterface, get_effects

READ = "read"
WRITE = "write"
ALLOC = "alloc"
FREE = "free"


@dataclass(frozen=True)
class Effect:
    """One memory effect: its kind and the value it is on (None: any memory)."""

    kind: str
    value: SSAValue | None = None


_PURE_DIALECTS = frozenset({"arith", "math", "index", "complex", "tensor", "affine", "ub"})
"""Dialects whose ops (outside the exceptions below) have no memory effects."""

_PURE_OPS = frozenset(
    {
        "linalg.yield",
        "linalg.index",
        "scf.yield",
        "scf.condition",
        "scf.reduce.return",
        # Upstream's in_parallel is `Pure` (not recursive): a forall whose results are
        # unused is dead, while its parallel inserts alone are not.
        "scf.forall.in_parallel",
        "memref.subview",
        "memref.cast",
        "memref.reinterpret_cast",
        "memref.expand_shape",
        "memref.collapse_shape",
        "memref.memory_space_cast",
        "memref.extract_strided_metadata",
        "memref.extract_aligned_pointer_as_index",
        "memref.dim",
        "memref.rank",
        "memref.view",
        "memref.get_global",
        "memref.alloca_scope.return",
        "bufferization.to_buffer",
        "bufferization.to_tensor",
        "func.constant",
        "func.return",
        "gpu.thread_id",
        "gpu.block_id",
        "gpu.block_dim",
        "gpu.grid_dim",
        "gpu.lane_id",
        "gpu.global_id",
        "gpu.subgroup_id",
        "gpu.num_subgroups",
        "gpu.subgroup_size",
        "gpu.terminator",
        "gpu.return",
        "gpu.yield",
        "builtin.unrealized_conversion_cast",
    }
)

_UNKNOWN_OPS = frozenset(
    {
        # Upstream declares no effects for these: they must never be dropped or merged.
        "tensor.parallel_insert_slice",
        "affine.prefetch",
        "affine.dma_start",
        "affine.dma_wait",
    }
)

_RECURSIVE_OPS = frozenset(
    {
        "scf.for",
        "scf.if",
        "scf.while",
        "scf.forall",
        "scf.parallel",
        "scf.reduce",
        "scf.execute_region",
        "scf.index_switch",
        "affine.for",
        "affine.if",
        "affine.parallel",
        "memref.alloca_scope",
        "linalg.generic",
        "linalg.map",
        "linalg.reduce",
        # A masked vector.transfer_write has no result: it must not be dropped as dead.
        "vector.mask",
    }
)
"""Region ops whose effects are those of their bodies (`RecursiveMemoryEffects`).

The linalg ops with bodies are listed because their bodies are pure scalar code: their
own operand effects are added by `_linalg_effects`.
"""

_VECTOR_MEMORY_OPS = frozenset(
    {
        "vector.load",
        "vector.store",
        "vector.maskedload",
        "vector.maskedstore",
        "vector.transfer_read",
        "vector.transfer_write",
        "vector.gather",
        "vector.scatter",
        "vector.expandload",
        "vector.compressstore",
        "vector.print",
    }
)


def _is_memref(value: SSAValue) -> bool:
    return isinstance(value.type, MemRefType)


def _linalg_effects(op: Operation) -> list[Effect]:
    """Upstream's `getGenericEffectsImpl`: only buffer operands have effects."""
    from schedir.dialects.linalg.interface import dps_inits, dps_inputs, is_structured

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


def op_effects(op: Operation) -> list[Effect] | None:
    """The op's own memory effects (not those of nested ops); None if unknown."""
    name = op.name
    if name in _UNKNOWN_OPS:
        return None
    if name in _PURE_OPS:
        return []
    dialect = name.split(".", 1)[0]
    if name.startswith("linalg."):
        return _linalg_effects(op)
    if name in _RECURSIVE_OPS:
        return []
    match name:
        case "memref.load" | "affine.load" | "affine.vector_load":
            return [Effect(READ, op.operands[0])]
        case "affine.store" | "affine.vector_store":
            return [Effect(WRITE, op.operands[1])]
        case "memref.store":
            return [Effect(WRITE, op.operands[1])]
        case "memref.alloc" | "memref.alloca" | "bufferization.alloc_tensor":
            return [Effect(ALLOC, op.results[0])]
        case "memref.dealloc":
            return [Effect(FREE, op.operands[0])]
        case "memref.copy":
            return [Effect(READ, op.operands[0]), Effect(WRITE, op.operands[1])]
        case "memref.atomic_rmw" | "memref.generic_atomic_rmw":
            memref = op.operands[1] if len(op.operands) > 1 else None
            return [Effect(READ, memref), Effect(WRITE, memref)]
        case "memref.prefetch":
            return [Effect(READ, op.operands[0])]
        case "bufferization.materialize_in_destination":
            dest = op.operands[1]
            return [Effect(READ, op.operands[0]), Effect(WRITE, dest)] if _is_memref(dest) else []
        case "bufferization.clone":
            return [Effect(READ, op.operands[0]), Effect(ALLOC, op.results[0])]
        case _:
            pass
    if name in _VECTOR_MEMORY_OPS:
        return _vector_effects(op)
    if dialect in _PURE_DIALECTS or dialect == "vector":
        return []
    effects = get_effects(op)
    if effects is None:
        return None
    # xDSL's traits put every effect on the whole memory.
    return [Effect(_KIND[e.kind]) for e in effects]


_KIND = {
    MemoryEffectKind.READ: READ,
    MemoryEffectKind.WRITE: WRITE,
    MemoryEffectKind.ALLOC: ALLOC,
    MemoryEffectKind.FREE: FREE,
}


def _vector_effects(op: Operation) -> list[Effect] | None:
    name = op.name
    if name == "vector.print":
        return None
    if name == "vector.transfer_read":
        source = op.operands[0]
        return [Effect(READ, source)] if _is_memref(source) else []
    if name == "vector.transfer_write":
        dest = op.operands[1]
        return [Effect(WRITE, dest)] if _is_memref(dest) else []
    reads = name in ("vector.load", "vector.maskedload", "vector.gather", "vector.expandload")
    base = op.operands[0] if reads else op.operands[1]
    return [Effect(READ if reads else WRITE, base)]


def has_recursive_effects(op: Operation) -> bool:
    """Whether the effects of `op` include those of its nested ops."""
    return op.name in _RECURSIVE_OPS or (
        bool(op.regions) and op.name not in _PURE_OPS and op.name.startswith("linalg.")
    )


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
