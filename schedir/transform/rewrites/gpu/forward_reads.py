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

A read of a buffer slot every thread filled with the same block-uniform value (a reduction
that each thread merged itself, `reduce_to_all_reduce ... {merge_in_threads}`) is that
value (`forward_uniform_slots`):

    %r = gpu.all_reduce add %v uniform {} : (f32) -> f32
    %m = arith.addf %r, %init : f32                 // %init a constant
    memref.store %m, %slots[%c0, %tid] : memref<1x256xf32, 3>
    gpu.barrier
    %s = memref.load %slots[%c0, %c0] : memref<1x256xf32, 3>   // -> %m
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import MemRefType, ModuleOp, VectorType
from xdsl.dialects.math import Math
from xdsl.dialects.memref import SubviewOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.rewriter import InsertPoint

from schedir.dialects import gpu, vector
from schedir.dialects.arith import Arith
from schedir.dialects.utils import Mixed, constant_index, mixed_values
from schedir.dialects.vector.shape import BroadcastOp
from schedir.dialects.vector.transfer import TransferReadOp, TransferWriteOp
from schedir.transform.rewrites.bufferization.empty_tensor_elimination import properly_dominates
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.cse import OpKey, op_key
from schedir.transform.rewrites.effects import (
    FREE,
    READ,
    WRITE,
    Effect,
    has_recursive_effects,
    op_effects,
)
from schedir.transform.rewrites.gpu.barrier_slots import block_dims, kernel_of
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


_UNIFORM_OPS = (gpu.BlockIdOp, gpu.GridDimOp, gpu.BlockDimOp, gpu.AllReduceOp)
"""Ops whose results are the same in every thread of a block (a `gpu.all_reduce` gives
every thread the reduction of all the block's values)."""

_PURE_OPS: frozenset[type[Operation]] = frozenset(
    {
        *Arith.operations,
        *Math.operations,
        vector.BroadcastOp,
        vector.ExtractOp,
        vector.InsertOp,
        vector.SplatOp,
    }
)
"""Ops computing their results from their operands alone (the arith and math dialects, vector
broadcast / extract / insert / splat): with block-uniform operands, block-uniform results."""

_LAUNCH_THREAD_IDS = range(3, 6)
"""The positions of the thread ids among a `gpu.launch` body's arguments."""


def block_uniform(value: SSAValue, kernel: Operation, depth: int = 0) -> bool:
    """Whether `value` is, soundly, the same in every thread of a block of `kernel`:
    defined outside it, a body argument other than the thread ids, a block id or size, a
    `gpu.all_reduce` result, or the result of an `arith` / `math` op or a vector
    broadcast / extract / insert / splat without memory effects whose operands all are."""
    if depth > 64:
        return False
    if isinstance(value, BlockArgument):
        owner = value.owner.parent_op()
        if owner is kernel:
            return (
                isinstance(kernel, gpu.LaunchOp)
                and value.owner is kernel.regions[0].blocks.first
                and value.index not in _LAUNCH_THREAD_IDS
            )
        return owner is not None and not _inside(owner, kernel)
    if not isinstance(value, OpResult):
        return False
    op = value.op
    if not _inside(op, kernel):
        return True
    if isinstance(op, _UNIFORM_OPS):
        return True
    if type(op) not in _PURE_OPS or op.regions or op_effects(op) != []:
        return False
    return all(block_uniform(operand, kernel, depth + 1) for operand in op.operands)


def _inside(op: Operation, kernel: Operation) -> bool:
    current: Operation | None = op
    while current is not None and current is not kernel:
        current = current.parent_op()
    return current is kernel


def _one_element_read(op: Operation) -> tuple[SSAValue, list[SSAValue]] | None:
    """The memref and indices of a read of exactly one element (a `memref.load`, or an
    unmasked `vector.transfer_read` every non-broadcast dim of which has size 1)."""
    if isinstance(op, memref.LoadOp):
        return op.memref, list(op.indices)
    if not isinstance(op, TransferReadOp) or op.mask is not None:
        return None
    shape = cast(VectorType, op.result.type).get_shape()
    for expr, size in zip(op.permutation_map.data.results, shape, strict=True):
        if isinstance(expr, AffineConstantExpr) and expr.value == 0:
            continue  # a broadcast dim
        if not isinstance(expr, AffineDimExpr) or size != 1:
            return None
    return op.source, list(op.indices)


def _splat_write(op: Operation) -> tuple[SSAValue, list[SSAValue], SSAValue] | None:
    """The memref, indices and scalar of a write of one element (a `memref.store`, or an
    unmasked `vector.transfer_write` of a 1x..x1 `vector.broadcast` of a scalar)."""
    if isinstance(op, memref.StoreOp):
        return op.memref, list(op.indices), op.value
    if not isinstance(op, TransferWriteOp) or op.mask is not None or op.result is not None:
        return None
    if any(size != 1 for size in cast(VectorType, op.vector.type).get_shape()):
        return None
    source = op.vector.owner
    if not isinstance(source, BroadcastOp) or isinstance(source.source.type, VectorType):
        return None
    return op.source, list(op.indices), source.source


def _indices_in(memory: SSAValue, indices: list[Mixed], target: SSAValue) -> list[Mixed] | None:
    """`indices` of `memory` as indices of `target`: `memory` is `target` or a view of it
    through same-rank `memref.subview`s of unit strides, each dimension's offset or index
    a constant 0 (the other is the index in the source); None otherwise."""
    depth = 0
    while memory is not target:
        view = memory.owner
        if not isinstance(view, SubviewOp) or depth > 8:
            return None
        offsets = mixed_values(view.static_offsets, view.offsets)
        strides = mixed_values(view.static_strides, view.strides)
        if len(offsets) != len(indices) or any(constant_index(st) != 1 for st in strides):
            return None
        composed: list[Mixed] = []
        for offset, index in zip(offsets, indices, strict=True):
            if constant_index(index) == 0:
                composed.append(offset)
            elif constant_index(offset) == 0:
                composed.append(index)
            else:
                return None
        memory, indices, depth = view.source, composed, depth + 1
    return indices


def _thread_id_dim(value: Mixed, kernel: Operation) -> int | None:
    """0, 1, 2 if `value` is the thread id x, y, z of `kernel` (None otherwise)."""
    if isinstance(value, OpResult) and isinstance(value.op, gpu.ThreadIdOp):
        return "xyz".index(value.op.dim)
    if (
        isinstance(value, BlockArgument)
        and isinstance(kernel, gpu.LaunchOp)
        and value.owner is kernel.regions[0].blocks.first
        and value.index in _LAUNCH_THREAD_IDS
    ):
        return value.index - 3
    return None


def _some_thread_writes(written: list[Mixed], read: list[SSAValue], kernel: Operation) -> bool:
    """Whether some thread of the block writes, at indices `written`, the element of the
    constant indices `read`: every written index is that constant or a thread id (each
    dimension at most once) whose block size exceeds it."""
    if len(written) != len(read):
        return False
    sizes = block_dims(kernel)
    seen: set[int] = set()
    for w, r in zip(written, read, strict=True):
        at = constant_int(r)
        if at is None:
            return False
        if constant_index(w) == at:
            continue
        dim = _thread_id_dim(w, kernel)
        size = None if dim is None else sizes[dim]
        if dim is None or dim in seen or size is None or not 0 <= at < size:
            return False
        seen.add(dim)
    return True


def _uniform_slot_value(read: Operation) -> SSAValue | None:
    """The block-uniform scalar `read` reads (see `forward_uniform_slots`), or None."""
    accessed = _one_element_read(read)
    kernel = kernel_of(read)
    if accessed is None or kernel is None or len(kernel.regions[0].blocks) != 1:
        return None
    target, indices = accessed
    body = kernel.regions[0].blocks.first
    assert body is not None
    holder = _ancestor_in(body, read)
    if holder is None:
        return None
    if holder is not read and _may_write(holder, target) is not False:
        return None
    barrier = False
    current = holder.prev_op
    while current is not None:
        if isinstance(current, gpu.BarrierOp):
            barrier = True
        else:
            writes = _may_write(current, target)
            if writes is None:
                return None
            if writes:
                splat = _splat_write(current)
                if splat is None or not barrier:
                    return None
                memory, written, scalar = splat
                in_target = _indices_in(memory, list(written), target)
                if (
                    in_target is None
                    or not _some_thread_writes(in_target, indices, kernel)
                    or not block_uniform(scalar, kernel)
                ):
                    return None
                return scalar
        current = current.prev_op
    return None


def _may_write(root: Operation, memory: SSAValue) -> bool | None:
    """Whether an op nested in `root` (or `root`) may write `memory` (None: unknown)."""
    clobbers = _clobbers_with_root(root)
    if clobbers is None:
        return None
    written = _writers(clobbers, memory)
    return None if written is None else bool(written)


def _clobbers_with_root(root: Operation) -> list[tuple[Operation, Effect]] | None:
    """The writes and frees of `root` and the ops nested in it (None: some unknown)."""
    found: list[tuple[Operation, Effect]] = []
    for op in root.walk():
        if isinstance(op, _NO_OWN_WRITES):
            continue
        effects = op_effects(op)
        if effects is None:
            if has_recursive_effects(op):
                continue
            return None
        found += [(op, e) for e in effects if e.kind in (WRITE, FREE)]
    return found


def forward_uniform_slots(root: Operation, listener: PatternRewriterListener | None = None) -> int:
    """Replace each read of one element of a buffer that the threads of the block last
    filled, each its own slot, with one block-uniform scalar, by that scalar (broadcast to
    the read's type); the number of reads replaced.

    The read's holder in the kernel body's block (a `gpu.launch` of one block) comes after
    a `gpu.barrier` of that block, which comes after the write W; no op in between (nor
    in the holder) may write the buffer. W is an op of that block (every thread runs it):
    a `memref.store` or a one-element `vector.transfer_write` of a `vector.broadcast` of
    a block-uniform scalar (`block_uniform`), at indices each a constant equal to the
    read's or a thread id whose block size exceeds the read's constant there. So some
    thread wrote the element the read reads, with the value every thread holds, before
    the barrier, and nothing wrote it since: a reduction's result that each thread
    publishes in its own slot (`reduce_to_all_reduce` with `merge_in_threads`) and every
    thread then reads from slot 0 is the value each thread already holds. The barrier
    stays (barrier elimination removes it once no access it orders is left)."""
    rewriter = CanonRewriter(InsertPoint.at_end(Block()), listener)
    replaced = 0
    for op in list(root.walk()):
        scalar = _uniform_slot_value(op)
        if scalar is None:
            continue
        result = op.results[0]
        if isinstance(result.type, VectorType):
            vector_type = cast(VectorType[Attribute], result.type)
            if vector_type.get_element_type() != scalar.type:
                continue
            rewriter.replace_with_op(op, BroadcastOp(scalar, vector_type))
        elif result.type == scalar.type:
            rewriter.replace_values(op, [scalar])
        else:
            continue
        replaced += 1
    return replaced


__all__ = ["block_uniform", "forward_reads", "forward_uniform_slots", "repeatable_read"]
