"""`gpu-host-alloc-to-device`: host buffers of a GPU program live in device memory.

schedir runs the host function of a CUDA program in the CPU JIT with device pointers in
every memref descriptor (the entry's arguments are device arrays, see schedir/gpu/host.py).
After `gpu-kernel-outlining`, what is left on the host of a `gpu.container_module` only
allocates, copies and launches; this pass (schedir's, upstream has no equivalent: its
users write `gpu.alloc` themselves) makes those buffers device memory:

* `memref.alloc` / `memref.alloca` in the default or global memory space -> `gpu.alloc`
  (an alloca also gets a `gpu.dealloc` before each return of its function);
* `memref.dealloc` of such a buffer -> `gpu.dealloc`;
* `memref.copy` between contiguous buffers -> `gpu.memcpy` (device to device).

Host code that reads or writes buffer contents (`memref.load`/`store`, linalg or vector
ops, strided copies) cannot run there: it is an error naming the op, which the schedule
should have mapped into a kernel. Modules without kernels are left alone.

    %b = memref.alloc() : memref<64xf32>
    memref.copy %a, %b : memref<64xf32> to memref<64xf32>
    // ->
    %b = gpu.alloc () : memref<64xf32>
    gpu.memcpy %b, %a : memref<64xf32>, memref<64xf32>
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import affine, bufferization, func, memref
from xdsl.dialects import linalg as xlinalg
from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp, NoneAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from schedir.diagnostics import UnsupportedError
from schedir.dialects import gpu
from schedir.dialects.gpu.attributes import AddressSpace, AddressSpaceAttr
from schedir.dialects.linalg import Linalg
from schedir.dialects.syntax import op_location
from schedir.dialects.vector import Vector
from schedir.lowering.gpu_kernel_outlining import CONTAINER
from schedir.lowering.llvm.type_converter import is_contiguous_row_major

PASS = "gpu-host-alloc-to-device"

_ACCESSES: tuple[type[Operation], ...] = (
    memref.LoadOp,
    memref.StoreOp,
    memref.AtomicRMWOp,
    affine.LoadOp,
    affine.StoreOp,
    bufferization.MaterializeInDestinationOp,
    *xlinalg.Linalg.operations,
    *Linalg.operations,
    *xvector.Vector.operations,
    *Vector.operations,
)
"""Ops that read or write buffer contents: memref, affine and bufferization accesses and
every linalg and vector op (xDSL's classes, and schedir's where they are not subclasses)."""


def _is_device_space(t: MemRefType) -> bool:
    space = t.memory_space
    if isinstance(space, NoneAttr):
        return True
    if isinstance(space, IntegerAttr):
        return space.value.data in (0, 1)
    return isinstance(space, AddressSpaceAttr) and space.data == AddressSpace.GLOBAL


def _host_access_error(op: Operation) -> UnsupportedError:
    return UnsupportedError(
        f"{PASS}: '{op.name}' accesses buffer contents in host code, where buffers are "
        "device memory: map it into a kernel (tile_using_forall with #gpu.block mapping, "
        "then gpu.map_forall_to_blocks / map_nested_forall_to_threads)",
        op_location(op),
    )


def _replace(old: Operation, new: Operation) -> None:
    new.location = old.location
    parent = old.parent
    assert parent is not None
    parent.insert_op_before(new, old)
    for a, b in zip(old.results, new.results, strict=False):
        a.replace_all_uses_with(b)
    old.detach()
    old.erase()


def _convert_function(fn: Operation) -> None:
    device: set[SSAValue] = set()
    allocas: list[SSAValue] = []
    for op in list(fn.walk()):
        if isinstance(op, memref.AllocOp | memref.AllocaOp):
            t = op.results[0].type
            assert isinstance(t, MemRefType)
            if not _is_device_space(t):
                continue
            alloc = gpu.AllocOp(t, list(op.operands))
            result = alloc.results[0]
            _replace(op, alloc)
            device.add(result)
            if isinstance(op, memref.AllocaOp):
                allocas.append(result)
        elif isinstance(op, memref.DeallocOp):
            _replace(op, gpu.DeallocOp(op.operands[0]))
        elif isinstance(op, memref.CopyOp):
            source, target = op.operands
            assert isinstance(source.type, MemRefType) and isinstance(target.type, MemRefType)
            if not (is_contiguous_row_major(source.type) and is_contiguous_row_major(target.type)):
                raise UnsupportedError(
                    f"{PASS}: a strided 'memref.copy' on the host is not supported (only "
                    "contiguous buffers are copied with gpu.memcpy); map the copy into a kernel",
                    op_location(op),
                )
            _replace(op, gpu.MemcpyOp(target, source))
        elif isinstance(op, _ACCESSES):
            raise _host_access_error(op)
    for value in allocas:
        for ret in [o for o in fn.walk() if isinstance(o, func.ReturnOp)]:
            dealloc = gpu.DeallocOp(value)
            dealloc.location = ret.location
            block = ret.parent
            assert block is not None
            block.insert_op_before(dealloc, ret)


def host_alloc_to_device(module: ModuleOp) -> None:
    """Apply the pass to every host function of a module with kernels."""
    if CONTAINER not in module.attributes:
        return
    for op in module.ops:
        if isinstance(op, func.FuncOp):
            _convert_function(op)


@dataclass(frozen=True)
class GpuHostAllocToDevice(ModulePass):
    """Host buffers become device buffers (see the module docstring)."""

    name = "gpu-host-alloc-to-device"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        host_alloc_to_device(op)


__all__ = ["GpuHostAllocToDevice", "host_alloc_to_device"]
