"""`gpu-workgroup-to-dynamic-shared-memory`: a launch's shared buffers beyond the 48 KiB of
static shared memory become views of its dynamic shared memory (schedir's pass).

A `memref.alloc` in `#gpu.address_space<workgroup>` inside a `gpu.launch` becomes a
static `__shared__` array when the kernel is lowered (`convert-gpu-to-nvvm`), and CUDA caps
a kernel's static shared memory at 48 KiB; only dynamic shared memory goes beyond, up to
the device's opt-in limit (227 KiB on sm_90), which the runtime opts in to at the launch.
Where the static shared buffers of a launch (its workgroup-space allocations and
workgroup attributions) take more than 48 KiB, each workgroup-space allocation becomes a
`memref.view` of the block's `gpu.dynamic_shared_memory` at its own 128-byte aligned byte
offset (ldmatrix rows and 16-byte cp.async need 16 bytes), its deallocations go, and the
launch reserves their bytes as `dynamic_shared_memory_size` (after the dynamic shared
memory it already has, when its size is a constant). Launches within 48 KiB are unchanged
(static shared memory needs no opt-in and no launch argument).

    gpu.launch ... {
      %a = memref.alloc() : memref<40960xi8, #gpu.address_space<workgroup>>
      %b = memref.alloc() : memref<34816xi8, #gpu.address_space<workgroup>>
      ...
    }
    // ->
    %size = arith.constant 75776 : i32
    gpu.launch ... dynamic_shared_memory_size %size {
      %m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %c0 = arith.constant 0 : index
      %a = memref.view %m[%c0][] : ... to memref<40960xi8, #gpu.address_space<workgroup>>
      %c40960 = arith.constant 40960 : index
      %b = memref.view %m[%c40960][] : ... to memref<34816xi8, #gpu.address_space<workgroup>>
      ...
    }

More than the opt-in limit in all is an error at the launch. Buffers with a layout or
dynamic sizes stay allocations (`convert-gpu-to-nvvm` reports the dynamic ones).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    i8,
    i32,
)
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass

from schedir.diagnostics import UnsupportedError
from schedir.dialects import gpu
from schedir.dialects.gpu.attributes import AddressSpace, AddressSpaceAttr
from schedir.dialects.syntax import op_location
from schedir.dialects.utils import DYNAMIC_INDEX
from schedir.gpu.target import GpuTarget
from schedir.lowering.gpu import launches
from schedir.lowering.llvm.type_converter import element_size
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.gpu.mapping import WORKGROUP_BUFFER

PASS = "gpu-workgroup-to-dynamic-shared-memory"
STATIC_LIMIT = GpuTarget.max_shared_memory_per_block
"""Bytes of static shared memory a kernel may have (CUDA's 48 KiB on every arch)."""
_DYNAMIC_SIZE_SEGMENT = 10
"""The index of `dynamic_shared_memory_size` among gpu.launch's operand segments."""
OPT_IN_LIMIT = GpuTarget.max_shared_memory_per_block_optin
"""Bytes of shared memory a block may opt in to (sm_90's 227 KiB)."""
BUFFER_ALIGNMENT = 128
"""Byte alignment of each buffer in the dynamic shared memory (a multiple of the 16 bytes
of ldmatrix rows and cp.async transfers)."""


def _is_workgroup(t: MemRefType) -> bool:
    space = t.memory_space
    return isinstance(space, AddressSpaceAttr) and space.data == AddressSpace.WORKGROUP


def _bytes(t: MemRefType) -> int | None:
    """The bytes of a statically shaped buffer of type `t`, None otherwise."""
    width = element_size(t.element_type)
    if width is None or any(s == DYNAMIC_INDEX for s in t.get_shape()):
        return None
    return prod(t.get_shape()) * width


def _align(n: int) -> int:
    return -(-n // BUFFER_ALIGNMENT) * BUFFER_ALIGNMENT


def _shared_allocs(launch: gpu.LaunchOp) -> tuple[list[tuple[xmemref.AllocOp, int]], int]:
    """The launch's static workgroup-space allocations with their bytes (identity layout),
    and the bytes of all its static shared buffers (attributions and the default-space
    buffers its threads share included: they stay static)."""
    movable: list[tuple[xmemref.AllocOp, int]] = []
    total = 0
    for arg in launch.body.block.args:
        t = arg.type
        if isinstance(t, MemRefType) and _is_workgroup(t):
            total += _bytes(t) or 0
    for op in launch.body.walk():
        if not isinstance(op, xmemref.AllocOp):
            continue
        t = op.memref.type
        assert isinstance(t, MemRefType)
        size = _bytes(t)
        if size is None:
            continue
        if not _is_workgroup(t):
            # a default-space buffer the threads share is static shared memory too
            if op.attributes.get(WORKGROUP_BUFFER) is not None:
                total += size
            continue
        total += size
        if isinstance(t.layout, NoneAttr):
            movable.append((op, size))
    return movable, total


def _dynamic_memory(launch: gpu.LaunchOp) -> tuple[SSAValue | None, int]:
    """The launch's top-level `gpu.dynamic_shared_memory` (if any) and the bytes its
    launch already reserves."""
    block = launch.body.block
    dynamic = next((op for op in block.ops if isinstance(op, gpu.DynamicSharedMemoryOp)), None)
    size = launch.dynamicSharedMemorySize
    if size is None:
        return (dynamic.resultMemref if dynamic is not None else None), 0
    known = constant_int(size)
    if known is None:
        raise UnsupportedError(
            f"{PASS}: the gpu.launch's shared buffers take more than the {STATIC_LIMIT} bytes "
            "of static shared memory and its dynamic shared memory size is not a constant",
            op_location(launch),
        )
    return (dynamic.resultMemref if dynamic is not None else None), known


def _with_dynamic_size(launch: gpu.LaunchOp, size: SSAValue) -> gpu.LaunchOp:
    """`launch` reserving `size` bytes of dynamic shared memory (the same launch when it
    already has a size operand, else a new one with its region)."""
    old = launch.dynamicSharedMemorySize
    if old is not None:
        index = next(i for i, operand in enumerate(launch.operands) if operand is old)
        launch.operands[index] = size
        return launch
    segments = launch.properties["operandSegmentSizes"]
    assert isinstance(segments, DenseArrayBase)
    counts = [int(c) for c in segments.get_values()]
    # (async dependencies, 6 grid/block sizes, 3 cluster sizes, the dynamic size, the
    # async object): the size goes before the async object.
    at = sum(counts[:_DYNAMIC_SIZE_SEGMENT])
    counts[_DYNAMIC_SIZE_SEGMENT] = 1
    operands = list(launch.operands)
    operands.insert(at, size)
    properties = dict(launch.properties)
    properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, counts)
    new = gpu.LaunchOp.create(
        operands=operands,
        result_types=[r.type for r in launch.results],
        properties=properties,
        attributes=dict(launch.attributes),
        regions=[launch.detach_region(launch.body)],
    )
    new.location = launch.location
    parent = launch.parent
    assert parent is not None
    parent.insert_op_before(new, launch)
    for old_result, new_result in zip(launch.results, new.results, strict=True):
        old_result.replace_all_uses_with(new_result)
    launch.detach()
    launch.erase()
    return new


def move_to_dynamic_shared_memory(launch: gpu.LaunchOp) -> gpu.LaunchOp:
    """Move the launch's shared buffers into its dynamic shared memory when they exceed the
    static limit (see the module docstring); the launch (possibly a new op)."""
    movable, total = _shared_allocs(launch)
    if total <= STATIC_LIMIT or not movable:
        return launch
    dynamic, reserved = _dynamic_memory(launch)
    moved = sum(_align(size) for _, size in movable)
    needed = _align(reserved) + moved + (total - sum(size for _, size in movable))
    if needed > OPT_IN_LIMIT:
        raise UnsupportedError(
            f"{PASS}: the gpu.launch's shared memory takes {needed} bytes, more than the "
            f"{OPT_IN_LIMIT} bytes a block may have",
            op_location(launch),
        )
    block = launch.body.block
    if dynamic is None:
        op = gpu.DynamicSharedMemoryOp(
            MemRefType(i8, [DYNAMIC_INDEX], memory_space=AddressSpaceAttr.workgroup())
        )
        op.location = launch.location
        first = block.first_op
        assert first is not None
        block.insert_op_before(op, first)
        dynamic = op.resultMemref
    offset = _align(reserved)
    for alloc, size in movable:
        at = alloc.parent
        assert at is not None
        start = arith.ConstantOp(IntegerAttr(offset, IndexType()))
        view = xmemref.ViewOp(dynamic, start.result, [], alloc.memref.type)
        for new in (start, view):
            new.location = alloc.location
            at.insert_op_before(new, alloc)
        for use in list(alloc.memref.uses):
            if isinstance(use.operation, xmemref.DeallocOp):
                use.operation.detach()
                use.operation.erase()
        alloc.memref.replace_all_uses_with(view.result)
        alloc.detach()
        alloc.erase()
        offset += _align(size)
    size_op = arith.ConstantOp(IntegerAttr(offset, i32))
    size_op.location = launch.location
    parent = launch.parent
    assert parent is not None
    parent.insert_op_before(size_op, launch)
    return _with_dynamic_size(launch, size_op.result)


@dataclass(frozen=True)
class GpuWorkgroupToDynamicSharedMemory(ModulePass):
    """Move the shared buffers of launches beyond 48 KiB into dynamic shared memory (see
    the module docstring)."""

    name = "gpu-workgroup-to-dynamic-shared-memory"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for launch in launches(op):
            move_to_dynamic_shared_memory(launch)


__all__ = ["GpuWorkgroupToDynamicSharedMemory", "move_to_dynamic_shared_memory"]
