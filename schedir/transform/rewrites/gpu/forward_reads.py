"""Forwarding reads of read-only memory: the payload algorithm of
`transform.schedir.gpu.forward_reads`.

A kernel that makes several passes over the same data (softmax: max, then the sum of the
exponentials, then the normalization) reads each element once per pass when every pass is
tiled over the threads on its own. Once the passes are mapped onto the same threads, the
reads of the later passes are the very reads of the first (same memref, same indices), and
when nothing in the target writes the memory they read, their values are those the first
read produced: the later reads are replaced by the first's results, which stay in registers
between the passes. The same holds for memory that is written only before the first read,
with a barrier in between (a reduction's result that one thread publishes in shared memory
and every thread then reads in each pass): every write lies in the kernel body's block
before a `gpu.barrier` that comes before the first read, so all threads' writes are done
when any thread reads, and none follows.

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


def _clobbers(root: Operation) -> list[tuple[Operation, Effect]] | None:
    """The writes and frees of the ops nested in `root`, each with its op (None: some
    op's are unknown)."""
    found: list[tuple[Operation, Effect]] = []
    for op in root.walk():
        if op is root or isinstance(op, _NO_OWN_WRITES):
            continue
        effects = op_effects(op)
        if effects is None:
            if has_recursive_effects(op):
                continue  # its own effects are those of the ops it holds, walked too
            return None
        found += [(op, e) for e in effects if e.kind in (WRITE, FREE)]
    return found


def _ancestor_in(block: Block, op: Operation) -> Operation | None:
    """The op of `block` that is or holds `op` (None: `op` is not in `block`)."""
    current: Operation | None = op
    while current is not None and current.parent_block() is not block:
        current = current.parent_op()
    return current


def _settled_before(writers: list[Operation], read: Operation) -> bool:
    """Whether every op of `writers` runs, in every thread, before `read` does: each lies
    in `read`'s kernel, in an op of the kernel body's block that comes before a
    `gpu.barrier` of that block that comes before (the op holding) `read`. Then all the
    writes are done and visible when any thread reads, and every later read of the same
    place in the kernel sees the same values unless a write follows `read` (none does:
    all come before it)."""
    kernel = kernel_of(read)
    if kernel is None or not writers:
        return kernel is not None
    body = kernel.regions[0].blocks.first
    if body is None:
        return False
    position = {op: i for i, op in enumerate(body.ops)}
    holder = _ancestor_in(body, read)
    if holder is None:
        return False
    barriers = [position[op] for op in body.ops if isinstance(op, gpu.BarrierOp) and op in position]
    for writer in writers:
        if kernel_of(writer) is not kernel:
            return False
        outer = _ancestor_in(body, writer)
        if outer is None:
            return False
        if not any(position[outer] < b < position[holder] for b in barriers):
            return False
    return True


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


def repeatable_read(op: Operation, root: Operation) -> bool:
    """Whether `op` is a read whose values a repetition of it anywhere after it in its
    kernel (or anywhere, outside kernels) would read again: no op nested in `root` writes
    the memory it reads, or every such write is settled before it (`_settled_before`)."""
    memref = _read_memref(op)
    clobbers = _clobbers(root)
    if memref is None or clobbers is None:
        return False
    written = _writers(clobbers, memref)
    return written is not None and (not written or _settled_before(written, op))


def _writers(clobbers: list[tuple[Operation, Effect]], memref: SSAValue) -> list[Operation] | None:
    """The ops of `clobbers` that may write `memref` (None: one writes unknown memory).
    A free is no write: a read after it is undefined, so the value of an earlier read
    serves it as well as any (a kernel's workgroup buffers are freed at its end)."""
    found: list[Operation] = []
    for writer, e in clobbers:
        if e.value is None:
            return None
        if e.kind == WRITE and may_alias(e.value, memref):
            found.append(writer)
    return found


def forward_reads(root: Operation, listener: PatternRewriterListener | None = None) -> int:
    """Replace each read of memory nothing in `root` writes, or that is written only
    before a barrier that precedes the first read (`_settled_before`), by an equivalent
    read that properly dominates it in the same kernel; the number of reads replaced."""
    clobbers = _clobbers(root)
    if clobbers is None:
        return 0
    writers: dict[SSAValue, list[Operation] | None] = {}

    def writers_of(memref: SSAValue) -> list[Operation] | None:
        if memref not in writers:
            writers[memref] = _writers(clobbers, memref)
        return writers[memref]

    rewriter = CanonRewriter(InsertPoint.at_end(Block()), listener)
    seen: dict[OpKey, list[Operation]] = {}
    replaced = 0
    for op in list(root.walk()):
        memref = _read_memref(op)
        if memref is None:
            continue
        written = writers_of(memref)
        if written is None:
            continue
        key = op_key(op)
        kernel = kernel_of(op)
        earlier = next(
            (
                first
                for first in seen.get(key, [])
                if kernel_of(first) is kernel
                and properly_dominates(first, op)
                and (not written or _settled_before(written, first))
            ),
            None,
        )
        if earlier is None:
            seen.setdefault(key, []).append(op)
            continue
        rewriter.replace_values(op, list(earlier.results))
        replaced += 1
    return replaced


__all__ = ["forward_reads", "repeatable_read"]
