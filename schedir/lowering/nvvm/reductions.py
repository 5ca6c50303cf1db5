"""The collective reductions of `convert-gpu-to-nvvm`: `gpu.subgroup_reduce` and
`gpu.all_reduce` to warp shuffles, before the gpu ops are lowered one by one.

Upstream lowers them with the patterns that convert-gpu-to-nvvm applies first
(`populateGpuAllReducePatterns`, GPU/Transforms/AllReduceLowering.cpp) and the shuffle
lowering of subgroup reductions (`populateGpuLowerSubgroupReduceToShufflePatterns`,
GPU/Transforms/SubgroupReduceLowering.cpp). schedir does the same in gpu-dialect terms, so
the rest of the pass lowers what comes out (`gpu.shuffle` -> `nvvm.shfl.sync`):

* `gpu.subgroup_reduce <op> %v cluster(size = N, stride = S)` is a butterfly: for
  `d = S, 2S, ..., N*S/2`, `%v = <op>(%v, gpu.shuffle xor %v, d, 32)`; every lane ends with
  its cluster's result, bit-identical in all lanes (each step combines the same pair of
  values in both partners). Values narrower than 32 bits are shuffled zero-extended to
  i32, 64-bit ones as two i32 halves, vectors element by element.
* `gpu.all_reduce` (block size B from the kernel's `known_block_size`): a full-warp
  subgroup reduction; with one warp (B <= 32, a power of two) that is the result.
  Otherwise lane 0 of each of the W = B/32 warps stores its warp's result in a workgroup
  buffer of W elements, `gpu.barrier`, every warp reads the W values back (lane l reads
  element l mod W) and reduces them with a cluster of W lanes (W a power of two), or every
  thread combines them in order (otherwise); a second `gpu.barrier` keeps the buffer from
  being overwritten by a later execution of the same op before every warp has read it
  (none when the op runs once per thread: no loop around it in a single-block kernel; each
  all-reduce has a buffer of its own, so only its own next execution could overwrite it).
  The region form inlines the region as the combiner.

Before:

    %s = gpu.all_reduce add %v uniform {
    } : (f32) -> f32

After (B = 256):

    %0, %1 = gpu.shuffle xor %v, %c1, %c32 : f32
    %2 = arith.addf %v, %0 : f32
    ...                                   // offsets 2, 4, 8, 16
    scf.if %lane_is_0 {
      memref.store %w, %buf[%warp] : memref<8xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %x = memref.load %buf[%lane_mod_8] : memref<8xf32, #gpu.address_space<workgroup>>
    ...                                   // butterfly over offsets 1, 2, 4
    gpu.barrier
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    VectorType,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from schedir.diagnostics import UnsupportedError
from schedir.dialects import arith, gpu, memref, scf
from schedir.dialects.gpu.attributes import AddressSpace, AddressSpaceAttr
from schedir.dialects.gpu.reduce import AllReduceOperation
from schedir.dialects.syntax import op_location
from schedir.dialects.vector import ExtractOp, InsertOp
from schedir.lowering.nvvm.kernels import PASS

WARP_SIZE = 32


class Emit:
    """Inserts ops before an anchor op; calling it returns the op's first result."""

    def __init__(self, anchor: Operation) -> None:
        self.anchor = anchor

    def put(self, op: Operation) -> None:
        Rewriter.insert_op(op, InsertPoint.before(self.anchor))

    def __call__(self, op: Operation) -> SSAValue:
        self.put(op)
        return op.results[0]


Combine = Callable[[Emit, SSAValue, SSAValue], SSAValue]

_FLOAT_COMBINERS: dict[AllReduceOperation, Callable[[SSAValue, SSAValue], Operation]] = {
    AllReduceOperation.ADD: arith.AddfOp,
    AllReduceOperation.MUL: arith.MulfOp,
    AllReduceOperation.MINNUMF: arith.MinnumfOp,
    AllReduceOperation.MAXNUMF: arith.MaxnumfOp,
    AllReduceOperation.MINIMUMF: arith.MinimumfOp,
    AllReduceOperation.MAXIMUMF: arith.MaximumfOp,
}
_INTEGER_COMBINERS: dict[AllReduceOperation, Callable[[SSAValue, SSAValue], Operation]] = {
    AllReduceOperation.ADD: arith.AddiOp,
    AllReduceOperation.MUL: arith.MuliOp,
    AllReduceOperation.MINSI: arith.MinSIOp,
    AllReduceOperation.MINUI: arith.MinUIOp,
    AllReduceOperation.MAXSI: arith.MaxSIOp,
    AllReduceOperation.MAXUI: arith.MaxUIOp,
    AllReduceOperation.AND: arith.AndIOp,
    AllReduceOperation.OR: arith.OrIOp,
    AllReduceOperation.XOR: arith.XOrIOp,
}


class ReductionError(UnsupportedError):
    """A collective reduction this lowering cannot produce code for (the caller names its
    pass in front of the message)."""


def _unsupported(op: Operation, why: str) -> ReductionError:
    return ReductionError(f"'{op.name}' {why}", op_location(op))


def _named_combiner(operation: AllReduceOperation, element: Attribute) -> Combine:
    table = _FLOAT_COMBINERS if isinstance(element, AnyFloat) else _INTEGER_COMBINERS
    cls = table[operation]

    def combine(emit: Emit, a: SSAValue, b: SSAValue) -> SSAValue:
        return emit(cls(a, b))

    return combine


def _region_combiner(block: Block) -> Combine:
    """The combiner that clones `block` (two arguments, ends in gpu.yield) at each use."""

    def combine(emit: Emit, a: SSAValue, b: SSAValue) -> SSAValue:
        mapping: dict[SSAValue, SSAValue] = {block.args[0]: a, block.args[1]: b}
        result: SSAValue | None = None
        for inner in block.ops:
            if isinstance(inner, gpu.YieldOp):
                result = mapping.get(inner.values[0], inner.values[0])
                break
            emit.put(inner.clone(value_mapper=mapping))
        assert result is not None
        return result

    return combine


def _i32(emit: Emit, value: int) -> SSAValue:
    return emit(arith.ConstantOp(IntegerAttr(value, i32)))


def _index(emit: Emit, value: int) -> SSAValue:
    return emit(arith.ConstantOp(IntegerAttr(value, IndexType())))


def _shuffle_xor(emit: Emit, value: SSAValue, offset: int) -> SSAValue:
    """`gpu.shuffle xor` of a scalar of any width up to 64 bits over the whole warp."""
    t = value.type
    width = t.bitwidth if isinstance(t, AnyFloat | IntegerType) else 0
    offset_v = _i32(emit, offset)
    lanes = _i32(emit, WARP_SIZE)
    if t == i32 or (isinstance(t, AnyFloat) and width == 32):
        shfl = gpu.ShuffleOp(value, offset_v, lanes, "xor")
        emit.put(shfl)
        return shfl.shuffleResult
    as_int = IntegerType(width)
    bits = value if isinstance(t, IntegerType) else emit(arith.BitcastOp(value, as_int))
    if width < 32:
        wide = emit(arith.ExtUIOp(bits, i32))
        shfl = gpu.ShuffleOp(wide, offset_v, lanes, "xor")
        emit.put(shfl)
        narrow = emit(arith.TruncIOp(shfl.shuffleResult, as_int))
    else:  # 64 bits: two halves
        low = emit(arith.TruncIOp(bits, i32))
        shift = emit(arith.ConstantOp(IntegerAttr(32, as_int)))
        high = emit(arith.TruncIOp(emit(arith.ShRUIOp(bits, shift)), i32))
        parts: list[SSAValue] = []
        for half in (low, high):
            shfl = gpu.ShuffleOp(half, offset_v, lanes, "xor")
            emit.put(shfl)
            parts.append(emit(arith.ExtUIOp(shfl.shuffleResult, as_int)))
        narrow = emit(arith.OrIOp(parts[0], emit(arith.ShLIOp(parts[1], shift))))
    return narrow if isinstance(t, IntegerType) else emit(arith.BitcastOp(narrow, t))


def butterfly(emit: Emit, value: SSAValue, combine: Combine, size: int, stride: int) -> SSAValue:
    """Reduce a scalar over clusters of `size` lanes `stride` apart with xor shuffles."""
    offset = stride
    while offset < size * stride:
        value = combine(emit, value, _shuffle_xor(emit, value, offset))
        offset <<= 1
    return value


def _check_scalar(op: Operation, t: Attribute) -> None:
    if not isinstance(t, AnyFloat | IntegerType) or t.bitwidth > 64:
        raise _unsupported(op, f"of {t} (scalars of at most 64 bits)")


def _reduce_value(
    op: Operation, emit: Emit, value: SSAValue, combine: Combine, size: int, stride: int
) -> SSAValue:
    """Butterfly over a scalar, or over each element of a 1-D vector."""
    t = value.type
    if not isinstance(t, VectorType):
        _check_scalar(op, t)
        return butterfly(emit, value, combine, size, stride)
    element = t.element_type
    _check_scalar(op, element)
    result = value
    for i in range(t.get_shape()[0]):
        scalar = emit(ExtractOp(value, [i], element))
        reduced = butterfly(emit, scalar, combine, size, stride)
        result = emit(InsertOp(reduced, result, [i], t))
    return result


def lower_subgroup_reduce(op: gpu.SubgroupReduceOp) -> None:
    """Replace one `gpu.subgroup_reduce` by its xor-shuffle butterfly."""
    size = WARP_SIZE if op.size is None else op.size
    stride = op.stride
    if size * stride > WARP_SIZE:
        raise _unsupported(
            op,
            f"with clusters of {size} lanes {stride} apart (more than the {WARP_SIZE} lanes "
            "of a warp)",
        )
    element = op.value.type
    if isinstance(element, VectorType):
        element = element.element_type
    combine = _named_combiner(op.operation, element)
    result = _reduce_value(op, Emit(op), op.value, combine, size, stride)
    op.result.replace_all_uses_with(result)
    Rewriter.erase_op(op)


def _kernel(op: Operation) -> gpu.FuncOp | None:
    current = op.parent_op()
    while current is not None and not isinstance(current, gpu.FuncOp):
        current = current.parent_op()
    return current


def _block_size(op: gpu.AllReduceOp) -> tuple[int, int, int]:
    kernel = _kernel(op)
    known = None if kernel is None else kernel.known_block_size
    if not isinstance(known, DenseArrayBase):
        raise _unsupported(
            op,
            "needs the block size: its gpu.func has no known_block_size (launch it from a "
            "gpu.launch with constant block sizes)",
        )
    x, y, z = (int(v) for v in cast(DenseArrayBase[IntegerType], known).get_values())  # i32
    return x, y, z


def _depends_on_thread(value: SSAValue, seen: set[SSAValue] | None = None) -> bool:
    """Whether `value` is computed from a thread or lane id (so differs between threads)."""
    seen = set() if seen is None else seen
    if value in seen:
        return False
    seen.add(value)
    owner = value.owner
    if not isinstance(owner, Operation):
        return False
    if isinstance(owner, gpu.ThreadIdOp | gpu.LaneIdOp | gpu.GlobalIdOp | gpu.SubgroupIdOp):
        return True
    return any(_depends_on_thread(operand, seen) for operand in owner.operands)


def _check_reached_by_all(op: gpu.AllReduceOp) -> None:
    current = op.parent_op()
    while current is not None and not isinstance(current, gpu.FuncOp):
        if isinstance(current, scf.IfOp) and _depends_on_thread(current.cond):
            raise _unsupported(
                op,
                "must be reached by every thread of the block, but it is under an scf.if on "
                "the thread id (a thread-mapped loop with fewer iterations than the block "
                "has threads?)",
            )
        current = current.parent_op()


def _runs_once(op: gpu.AllReduceOp) -> bool:
    """Whether `op` runs at most once per thread of a launch: only `scf.if`s (single-block
    regions) lie between it and a kernel `gpu.func` of one block, so its buffer (its own) is
    written once and needs no barrier after the reads."""
    current = op.parent_op()
    while current is not None and not isinstance(current, gpu.FuncOp):
        if not isinstance(current, scf.IfOp):
            return False
        current = current.parent_op()
    return (
        current is not None
        and current.kernel is not None
        and all(len(region.blocks) == 1 for region in current.regions)
    )


def _linear_thread_id(emit: Emit, sizes: tuple[int, int, int]) -> SSAValue:
    x, y, _ = sizes
    tid = emit(gpu.ThreadIdOp("x"))
    if sizes[1] > 1 or sizes[2] > 1:
        ty = emit(gpu.ThreadIdOp("y"))
        tid = emit(arith.AddiOp(tid, emit(arith.MuliOp(ty, _index(emit, x)))))
    if sizes[2] > 1:
        tz = emit(gpu.ThreadIdOp("z"))
        tid = emit(arith.AddiOp(tid, emit(arith.MuliOp(tz, _index(emit, x * y)))))
    return tid


def lower_all_reduce(op: gpu.AllReduceOp) -> None:
    """Replace one `gpu.all_reduce` by warp butterflies and a cross-warp step through a
    workgroup buffer (see the module docstring)."""
    sizes = _block_size(op)
    threads = sizes[0] * sizes[1] * sizes[2]
    _check_reached_by_all(op)
    t = op.value.type
    _check_scalar(op, t)
    if op.operation is not None:
        combine = _named_combiner(op.operation, t)
    else:
        combine = _region_combiner(op.body.block)
    emit = Emit(op)
    if threads <= WARP_SIZE:
        if threads & (threads - 1):
            raise _unsupported(op, f"in a block of {threads} threads (a power of two up to 32)")
        result = butterfly(emit, op.value, combine, threads, 1)
    elif threads % WARP_SIZE:
        raise _unsupported(op, f"in a block of {threads} threads (a multiple of {WARP_SIZE})")
    else:
        warps = threads // WARP_SIZE
        partial = butterfly(emit, op.value, combine, WARP_SIZE, 1)
        buffer_type = MemRefType(t, [warps], memory_space=AddressSpaceAttr(AddressSpace.WORKGROUP))
        buffer = emit(
            memref.AllocOp.get(
                buffer_type.element_type, shape=[warps], memory_space=buffer_type.memory_space
            )
        )
        tid = _linear_thread_id(emit, sizes)
        lane = emit(arith.RemUIOp(tid, _index(emit, WARP_SIZE)))
        warp = emit(arith.DivUIOp(tid, _index(emit, WARP_SIZE)))
        first_lane = emit(arith.CmpiOp(lane, _index(emit, 0), "eq"))
        store = memref.StoreOp.get(partial, buffer, [warp])
        emit.put(scf.IfOp(first_lane, [], [store, scf.YieldOp()]))
        emit.put(gpu.BarrierOp())
        if warps & (warps - 1) == 0:
            slot = emit(arith.RemUIOp(lane, _index(emit, warps)))
            mine = emit(memref.LoadOp.get(buffer, [slot]))
            result = butterfly(emit, mine, combine, warps, 1)
        else:
            result = emit(memref.LoadOp.get(buffer, [_index(emit, 0)]))
            for w in range(1, warps):
                result = combine(emit, result, emit(memref.LoadOp.get(buffer, [_index(emit, w)])))
        if not _runs_once(op):
            emit.put(gpu.BarrierOp())
    op.result.replace_all_uses_with(result)
    Rewriter.erase_op(op)


def lower_reductions(kernel: gpu.FuncOp, pass_name: str = PASS) -> None:
    """Lower every `gpu.all_reduce` and `gpu.subgroup_reduce` of `kernel` (all-reduces
    first: they produce subgroup-level butterflies directly); an error names `pass_name`."""
    try:
        for op in list(kernel.walk()):
            if isinstance(op, gpu.AllReduceOp):
                lower_all_reduce(op)
        for op in list(kernel.walk()):
            if isinstance(op, gpu.SubgroupReduceOp):
                lower_subgroup_reduce(op)
    except ReductionError as err:
        raise UnsupportedError(f"{pass_name}: {err.message}", err.location) from None


__all__ = [
    "WARP_SIZE",
    "ReductionError",
    "butterfly",
    "lower_all_reduce",
    "lower_reductions",
    "lower_subgroup_reduce",
]
