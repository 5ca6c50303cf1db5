"""`split-masked-transfers`: a masked transfer on a buffer gets an unmasked fast path.

A tile at the edge of an iteration space is vectorized with a mask
(`transform.structured.vectorize ... vector_sizes [...]`): its transfers read and write
only the lanes below the bounds of a `vector.create_mask`. Lowered as they are, masked
loads and stores become `llvm.masked.load` / `masked.store`, which the NVPTX backend
scalarizes into one guarded access per lane, also for the many tiles whose mask is full:
every tile of a kernel at an odd size would pay for the few at the edge. This pass gives
each masked `vector.transfer_read` / `transfer_write` on a memref whose mask is a
`vector.create_mask` a branch on the bounds: where every bound reaches the vector's size
(the mask is all set) the transfer runs unmasked, which lowers to whole-vector accesses
(`ld.global.v4` where the address is 16-byte aligned); elsewhere the masked transfer runs
as before. Both branches compute the same result (an all-set mask reads and writes every
lane), so this is a lowering choice, as upstream's `amdgpu-maskedload-to-load` (a branch
between an unmasked load and the masked one) and the full/partial split of
`vector.split_transfer_full_partial` are. Masks of constant bounds are left to the folds
(a full one is dropped, a partial one has no fast path). The GPU device pipeline runs it
before `lower-vector` (`pipelines.GPU_DEVICE_TO_CF`).

    %m = vector.create_mask %n : vector<4xi1>
    %v = vector.transfer_read %buf[%i], %pad, %m {in_bounds = [true]}
        : memref<?xf32>, vector<4xf32>
    // ->
    %full = arith.cmpi sge, %n, %c4 : index
    %v = scf.if %full -> (vector<4xf32>) {
      %u = vector.transfer_read %buf[%i], %pad {in_bounds = [true]} : memref<?xf32>, vector<4xf32>
      scf.yield %u : vector<4xf32>
    } else {
      %w = vector.transfer_read %buf[%i], %pad, %m {in_bounds = [true]} : memref<?xf32>, vector<4xf32>
      scf.yield %w : vector<4xf32>
    }
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, ModuleOp, VectorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from schedir.dialects import vector
from schedir.lowering.llvm.type_converter import element_size, strides_and_offset
from schedir.transform.rewrites.constants import constant_int

Transfer = vector.TransferReadOp | vector.TransferWriteOp


def _full_condition(op: Transfer) -> list[tuple[SSAValue, int]] | None:
    """The (bound, size) pairs that must hold (bound >= size) for `op`'s mask to be all
    set, or None where the op has no such mask or the mask can never be full."""
    mask = op.mask
    if mask is None or not isinstance(op.source.type, MemRefType):
        return None
    create = mask.owner
    if not isinstance(create, vector.CreateMaskOp):
        return None
    shape = mask.type.get_shape()  # type: ignore[attr-defined]  # a mask is a vector of i1 (the op verifies it)
    bounds = list(create.operands)
    if len(bounds) != len(shape):
        return None
    checks: list[tuple[SSAValue, int]] = []
    for bound, size in zip(bounds, shape, strict=True):
        value = constant_int(bound)
        if value is None:
            checks.append((bound, size))
        elif value < size:
            return None
    return checks or None


def _row_alignment(op: Transfer) -> int | None:
    """The byte alignment a whole-row `vector.load` / `store` of `op`'s vector may claim
    where its address is that aligned: the largest power of two up to 16 dividing the row's
    bytes, for a transfer of one row (leading vector dims of 1) along the memref's unit-
    stride last dimension, in bounds, of the memref's element type; else None."""
    memref_t = cast(MemRefType, op.source.type)
    vector_t = cast(
        VectorType, op.vector.type if isinstance(op, vector.TransferWriteOp) else op.result.type
    )
    shape, rank = vector_t.get_shape(), memref_t.get_num_dims()
    if (
        vector_t.get_element_type() != memref_t.get_element_type()
        or any(d != 1 for d in shape[:-1])
        or op.permutation_map.data != AffineMap.minor_identity(rank, len(shape))
        or not all(b.value.data for b in op.in_bounds.data)
    ):
        return None
    strides, _ = strides_and_offset(memref_t)
    elem = element_size(memref_t.get_element_type())
    if not strides or strides[-1] != 1 or not elem:
        return None
    row = shape[-1] * elem
    align = 16
    while align > elem and row % align:
        align //= 2
    return align if align > elem else None


def _aligned_check(op: Transfer, align: int, created: list[Operation]) -> SSAValue:
    """`i1`: the address of `op`'s first element is a multiple of `align` bytes."""
    memref_t = cast(MemRefType, op.source.type)
    rank = memref_t.get_num_dims()
    metadata = memref.ExtractStridedMetaDataOp(op.source)
    pointer = memref.ExtractAlignedPointerAsIndexOp.get(op.source)
    created += [metadata, pointer]
    linear = metadata.results[1]
    for index, stride in zip(op.indices, metadata.results[2 + rank :], strict=True):
        product = arith.MuliOp(index, stride)
        total = arith.AddiOp(linear, product)
        created += [product, total]
        linear = total.result
    elem = arith.ConstantOp.from_int_and_width(
        element_size(memref_t.get_element_type()) or 1, IndexType()
    )
    offset_bytes = arith.MuliOp(linear, elem)
    address = arith.AddiOp(pointer.aligned_pointer, offset_bytes)
    low = arith.ConstantOp.from_int_and_width(align - 1, IndexType())
    bits = arith.AndIOp(address, low)
    zero = arith.ConstantOp.from_int_and_width(0, IndexType())
    aligned = arith.CmpiOp(bits, zero, "eq")
    created += [elem, offset_bytes, address, low, bits, zero, aligned]
    return aligned.result


def _row_access(op: Transfer, align: int) -> Operation:
    """`op` as an unmasked `vector.load` / `vector.store` claiming `align` bytes."""
    props = {"alignment": IntegerAttr(align, 64)}
    if isinstance(op, vector.TransferReadOp):
        return vector.LoadOp.build(
            operands=[op.source, list(op.indices)],
            result_types=[op.result.type],
            properties=props,
        )
    return vector.StoreOp.build(operands=[op.vector, op.source, list(op.indices)], properties=props)


def _unmasked(op: Transfer) -> Operation:
    """`op` without its mask (same operands and attributes otherwise)."""
    if isinstance(op, vector.TransferReadOp):
        return vector.TransferReadOp(
            op.source,
            list(op.indices),
            op.padding,
            op.result.type,
            op.in_bounds,
            op.permutation_map,
        )
    return vector.TransferWriteOp(
        op.vector, op.source, list(op.indices), op.in_bounds, permutation_map=op.permutation_map
    )


def split(op: Transfer, checks: list[tuple[SSAValue, int]]) -> None:
    """Replace `op` by the branch on `checks` (see the module docstring)."""
    created: list[Operation] = []
    condition: SSAValue | None = None
    for bound, size in checks:
        constant = arith.ConstantOp.from_int_and_width(size, IndexType())
        compare = arith.CmpiOp(bound, constant, "sge")
        created += [constant, compare]
        if condition is None:
            condition = compare.result
        else:
            both = arith.AndIOp(condition, compare.result)
            created.append(both)
            condition = both.result
    assert condition is not None
    align = _row_alignment(op)
    if align is None:
        fast = _unmasked(op)
    else:
        # The whole-row access where the address allows its alignment: the backend emits
        # one ld/st.global.v4 only for an address it knows to be 16-byte aligned.
        aligned = _aligned_check(op, align, created)
        both = arith.AndIOp(condition, aligned)
        created.append(both)
        condition = both.result
        fast = _row_access(op, align)
    branches: list[Region] = []
    for inner in (fast, op.clone()):
        inner.location = op.location
        yield_ = scf.YieldOp(*inner.results)
        yield_.location = op.location
        branches.append(Region(Block([inner, yield_])))
    branch = scf.IfOp(condition, [r.type for r in op.results], branches[0], branches[1])
    created.append(branch)
    for new in created:
        new.location = op.location
    Rewriter.insert_op(created, InsertPoint.before(op))
    Rewriter.replace_op(op, [], list(branch.results))


@dataclass(frozen=True)
class SplitMaskedTransfers(ModulePass):
    """Give masked transfers on buffers an unmasked fast path (see the module docstring)."""

    name = "split-masked-transfers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for transfer in [o for o in op.walk() if isinstance(o, Transfer)]:
            checks = _full_condition(transfer)
            if checks is not None:
                split(transfer, checks)


__all__ = ["SplitMaskedTransfers", "split"]
