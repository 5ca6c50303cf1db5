"""Copies from global to shared memory as asynchronous copies in groups (upstream's
`transform.nvgpu.create_async_groups`, mlir/lib/Dialect/NVGPU/Transforms/CreateAsyncGroups.cpp).

A copy is a 1-D `vector.transfer_write` (or `vector.store`) into workgroup memory of the
value of a 1-D `vector.transfer_read` (or `vector.load`) from another memory space, both
in bounds with minor identity maps, of 4, 8 or 16 bytes. Each becomes one
`nvgpu.device_async_copy` (`cp.async`); a read masked by a 1-D `vector.create_mask`
copies the mask's size of elements (`srcElements`: the rest is zero-filled). Copies that
follow one another in a block, with only side-effect-free ops or their own reads between
them, form one group: `nvgpu.device_async_create_group` of their tokens after the last
and an `nvgpu.device_async_wait` on it right after (numGroups 0: the data is in shared
memory before anything after it runs).

    %v = vector.transfer_read %A[%i, %j], %pad {in_bounds = [true]} : memref<4096x4096xf16>, vector<8xf16>
    vector.transfer_write %v, %s[%k, %l] {in_bounds = [true]} : vector<8xf16>, memref<128x32xf16, 3>
  ->
    %t = nvgpu.device_async_copy %A[%i, %j], %s[%k, %l], 8 bypassL1 : memref<4096x4096xf16> to memref<128x32xf16, 3>
    %g = nvgpu.device_async_create_group %t
    nvgpu.device_async_wait %g

`bypass_l1` sets `bypassL1` (`cp.async.cg`) on the 16-byte copies (the only size it is
valid for). Multi-dimensional transfers are left alone: unroll them to 1-D first
(`apply_patterns.vector.transfer_to_scf max_transfer_rank = 1 full_unroll = true`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, BoolAttr, MemRefType, VectorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import is_side_effect_free

from schedir.dialects import affine, vector
from schedir.dialects import nvgpu as ng
from schedir.dialects.nvgpu.types import element_bit_width, is_shared_memory_space

_READS = (xvector.TransferReadOp, xvector.LoadOp)
_WRITES = (xvector.TransferWriteOp, xvector.StoreOp)


@dataclass(frozen=True)
class AsyncGroupsResult:
    """The asynchronous copies made and the groups (create_group ops) they form."""

    copies: list[ng.DeviceAsyncCopyOp]
    groups: list[ng.DeviceAsyncCreateGroupOp]


@dataclass(frozen=True)
class _Copy:
    """A write into shared memory of a read from global memory."""

    write: Operation
    read: Operation
    elements: int
    src_elements: SSAValue | None


def _all_true(attr: ArrayAttr[BoolAttr] | None, rank: int) -> bool:
    return attr is not None and len(attr.data) == rank and all(b.value.data for b in attr.data)


def _minor_identity(attr: AffineMapAttr, rank: int) -> bool:
    map_ = attr.data
    return map_.num_symbols == 0 and map_.is_minor_identity() and len(map_.results) == rank


def _vector_type(value: SSAValue) -> VectorType | None:
    t = value.type
    return t if isinstance(t, VectorType) and t.get_num_dims() == 1 else None


def _read_parts(op: Operation) -> tuple[SSAValue, SSAValue | None] | None:
    """(source memref, srcElements or None) of a read that can feed an async copy."""
    if isinstance(op, xvector.LoadOp):
        return op.base, None
    if not isinstance(op, xvector.TransferReadOp):
        return None
    if not _minor_identity(op.permutation_map, 1):
        return None
    if op.mask is None:
        return (op.source, None) if _all_true(op.in_bounds, 1) else None
    mask = op.mask.owner
    if isinstance(mask, vector.CreateMaskOp) and len(mask.operands) == 1:
        return op.source, mask.operands[0]
    return None


def _copy(write: Operation) -> _Copy | None:
    """The copy `write` ends, or None when it does not qualify."""
    if isinstance(write, xvector.TransferWriteOp):
        if write.mask is not None or not _all_true(write.in_bounds, 1):
            return None
        if not _minor_identity(write.permutation_map, 1):
            return None
        value, target = write.vector, write.source
    elif isinstance(write, xvector.StoreOp):
        value, target = write.vector, write.base
    else:
        return None
    target_type = target.type
    vector_type = _vector_type(value)
    read = value.owner
    if vector_type is None or not isinstance(read, Operation) or not isinstance(read, _READS):
        return None
    if not isinstance(target_type, MemRefType) or not is_shared_memory_space(
        target_type.memory_space
    ):
        return None
    parts = _read_parts(read)
    if parts is None:
        return None
    source, src_elements = parts
    source_type = source.type
    if not isinstance(source_type, MemRefType) or is_shared_memory_space(source_type.memory_space):
        return None
    if source_type.element_type != target_type.element_type:
        return None
    if any(use.operation is not write for use in read.results[0].uses):
        return None
    elements = vector_type.get_shape()[0]
    bits = element_bit_width(vector_type.element_type) or 0
    if bits * elements not in (32, 64, 128):
        return None
    return _Copy(write, read, elements, src_elements)


def _pure(op: Operation) -> bool:
    # affine.min/max/apply are pure (schedir's ops do not carry the trait yet).
    return is_side_effect_free(op) or isinstance(op, affine.MinOp | affine.MaxOp | affine.ApplyOp)


def _indices(op: Operation) -> list[SSAValue]:
    assert isinstance(op, (*_READS, *_WRITES))
    return list(op.indices)


def _base(op: Operation) -> SSAValue:
    if isinstance(op, xvector.TransferReadOp | xvector.TransferWriteOp):
        return op.source
    assert isinstance(op, xvector.LoadOp | xvector.StoreOp)
    return op.base


def create_async_groups(
    rewriter: PatternRewriter, root: Operation, bypass_l1: bool
) -> AsyncGroupsResult:
    """Rewrite the copies under `root` (module doc) and group them."""
    copies: list[ng.DeviceAsyncCopyOp] = []
    groups: list[ng.DeviceAsyncCreateGroupOp] = []
    blocks: list[Block] = [b for op in root.walk() for r in op.regions for b in r.blocks]
    for block in blocks:
        found = [c for c in (_copy(op) for op in block.ops) if c is not None]
        reads = {c.read for c in found if c.read.parent_block() is block}
        writes = {c.write: c for c in found}
        run: list[ng.DeviceAsyncCopyOp] = []
        for op in list(block.ops):
            copy = writes.get(op)
            if copy is not None:
                new = ng.DeviceAsyncCopyOp(
                    _base(copy.read),
                    _indices(copy.read),
                    _base(copy.write),
                    _indices(copy.write),
                    copy.elements,
                    copy.src_elements,
                    bypass_l1=bypass_l1 and copy.elements * _bytes(copy.write) == 16,
                )
                new.location = op.location
                rewriter.insert(new, InsertPoint.before(op))
                rewriter.erase(op)
                rewriter.erase(copy.read)
                copies.append(new)
                run.append(new)
                continue
            if op in reads or _pure(op):
                continue
            if run:
                groups.append(_close(rewriter, run))
                run = []
        if run:
            groups.append(_close(rewriter, run))
    return AsyncGroupsResult(copies, groups)


def _bytes(write: Operation) -> int:
    """The element size in bytes of the memref a copy writes."""
    t = _base(write).type
    assert isinstance(t, MemRefType)
    return (element_bit_width(t.element_type) or 0) // 8


def _close(
    rewriter: PatternRewriter, run: list[ng.DeviceAsyncCopyOp]
) -> ng.DeviceAsyncCreateGroupOp:
    """A group of the copies in `run` after the last, and a wait for it."""
    group = ng.DeviceAsyncCreateGroupOp([c.async_token for c in run])
    wait = ng.DeviceAsyncWaitOp(group.async_token)
    for new in (group, wait):
        new.location = run[-1].location
    rewriter.insert([group, wait], InsertPoint.after(run[-1]))
    return group


__all__ = ["AsyncGroupsResult", "create_async_groups"]
