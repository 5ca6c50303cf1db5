"""Forwarding reads of read-only memory: the payload algorithm of
`transform.schedir.gpu.forward_reads`.

A kernel that makes several passes over the same data (softmax: max, then the sum of the
exponentials, then the normalization) reads each element once per pass when every pass is
tiled over the threads on its own. Once the passes are mapped onto the same threads, the
reads of the later passes are the very reads of the first (same memref, same indices), and
when nothing in the target writes the memory they read, their values are those the first
read produced: the later reads are replaced by the first's results, which stay in registers
between the passes.

    %a = vector.transfer_read %x[%row, %t16], %pad : memref<64x8192xf32>, vector<1x16xf32>
    ... (barriers, shared-memory traffic, gpu.all_reduce: nothing writes %x)
    %b = vector.transfer_read %x[%row, %t16], %pad : memref<64x8192xf32>, vector<1x16xf32>

becomes the first read only, with the uses of %b on %a. A read is an op without regions
whose memory effects (`schedir.transform.rewrites.effects`) are known and are all reads of
one memref; two reads are the same when upstream's `OperationEquivalence` says so (class,
operands, attributes and result types). The earlier read must properly dominate the later
(structured, single-block regions), and both must lie in the same kernel (`gpu.launch` /
`gpu.func`) or both outside any. The memory is read-only when no op in the target writes
or frees memory that may alias it (barrier elimination's alias query: distinct
allocations, `llvm.noalias` arguments, ...); an op whose effects are unknown may write
anything, and then no read is forwarded. Writes by other threads are ops of the same
kernel body, so they are in the target too.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.rewriter import InsertPoint

from schedir.dialects import gpu
from schedir.transform.rewrites.bufferization.empty_tensor_elimination import properly_dominates
from schedir.transform.rewrites.cse import OpKey, op_key
from schedir.transform.rewrites.effects import (
    FREE,
    READ,
    WRITE,
    Effect,
    has_recursive_effects,
    op_effects,
)
from schedir.transform.rewrites.gpu.barrier_slots import kernel_of
from schedir.transform.rewrites.gpu.barriers import may_alias
from schedir.transform.rewrites.rewriter import CanonRewriter

_NO_OWN_WRITES = (
    gpu.BarrierOp,
    gpu.AllReduceOp,
    gpu.SubgroupReduceOp,
    gpu.ShuffleOp,
    gpu.LaunchOp,
    func.FuncOp,
    ModuleOp,
)
"""Ops whose effects upstream leaves undeclared but that write no memory of the program:
a barrier only orders the accesses around it, the cross-lane reductions and shuffles
exchange values (their scratch memory is the lowering's own), and a launch's, a
function's or a module's effects are those of the ops they hold (walked too)."""


def _clobbers(root: Operation) -> list[Effect] | None:
    """The writes and frees of the ops nested in `root` (None: some op's are unknown)."""
    found: list[Effect] = []
    for op in root.walk():
        if op is root or isinstance(op, _NO_OWN_WRITES):
            continue
        effects = op_effects(op)
        if effects is None:
            if has_recursive_effects(op):
                continue  # its own effects are those of the ops it holds, walked too
            return None
        found += [e for e in effects if e.kind in (WRITE, FREE)]
    return found


def _read_memref(op: Operation) -> SSAValue | None:
    """The memref a pure read reads (None if `op` is not one)."""
    if op.regions or not op.results:
        return None
    effects = op_effects(op)
    if not effects or any(e.kind != READ or e.value is None for e in effects):
        return None
    values = {e.value for e in effects}
    if len(values) != 1:
        return None
    (value,) = values
    return value if value is not None and isinstance(value.type, MemRefType) else None


def reads_readonly_memory(op: Operation, root: Operation) -> bool:
    """Whether `op` is a read of memory that no op nested in `root` writes or frees (so
    that repeating it anywhere in `root` gives the same values)."""
    memref = _read_memref(op)
    clobbers = _clobbers(root)
    if memref is None or clobbers is None:
        return False
    return not any(e.value is None or may_alias(e.value, memref) for e in clobbers)


def forward_reads(root: Operation, listener: PatternRewriterListener | None = None) -> int:
    """Replace each read of memory nothing in `root` writes by an equivalent read that
    properly dominates it in the same kernel; the number of reads replaced."""
    clobbers = _clobbers(root)
    if clobbers is None:
        return 0
    readonly: dict[SSAValue, bool] = {}

    def is_readonly(memref: SSAValue) -> bool:
        if memref not in readonly:
            readonly[memref] = not any(
                e.value is None or may_alias(e.value, memref) for e in clobbers
            )
        return readonly[memref]

    rewriter = CanonRewriter(InsertPoint.at_end(Block()), listener)
    seen: dict[OpKey, list[Operation]] = {}
    replaced = 0
    for op in list(root.walk()):
        memref = _read_memref(op)
        if memref is None or not is_readonly(memref):
            continue
        key = op_key(op)
        kernel = kernel_of(op)
        earlier = next(
            (
                first
                for first in seen.get(key, [])
                if kernel_of(first) is kernel and properly_dominates(first, op)
            ),
            None,
        )
        if earlier is None:
            seen.setdefault(key, []).append(op)
            continue
        rewriter.replace_values(op, list(earlier.results))
        replaced += 1
    return replaced


__all__ = ["forward_reads", "reads_readonly_memory"]
