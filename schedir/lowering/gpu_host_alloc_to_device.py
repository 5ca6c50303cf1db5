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

Contiguity is known from the types, and the entry boundary supplies it: One-Shot
Bufferize with function boundaries and no layout option (what upstream schedules write)
gives every memref argument the fully dynamic layout `strided<[?, ?], offset: ?>`, but
schedir's host ABI (schedir/gpu/host.py) passes each memref argument of an entry C-contiguous
with offset 0 and refuses strided device arrays. So each memref argument of a public
function that nothing in the module calls gets the identity layout, and a `memref.cast`
back to the declared layout keeps its uses as they were; a copy whose operands are such
casts (through any chain of casts) of contiguous buffers is a `gpu.memcpy`:

    func.func @f(%a: memref<4x8xf32, strided<[?, ?], offset: ?>>, %out: memref<4x8xf32>) {
      memref.copy %a, %out : memref<4x8xf32, strided<[?, ?], offset: ?>> to memref<4x8xf32>
    // ->
    func.func @f(%a: memref<4x8xf32>, %out: memref<4x8xf32>) {
      %0 = memref.cast %a : memref<4x8xf32> to memref<4x8xf32, strided<[?, ?], offset: ?>>
      gpu.memcpy %out, %a : memref<4x8xf32>, memref<4x8xf32>

Host code that reads or writes buffer contents (`memref.load`/`store`, linalg or vector
ops, copies of strided views) cannot run there: it is an error naming the op, which the
schedule should have mapped into a kernel. Modules without kernels are left alone.

    %b = memref.alloc() : memref<64xf32>
    memref.copy %a, %b : memref<64xf32> to memref<64xf32>
    // ->
    %b = gpu.alloc () : memref<64xf32>
    gpu.memcpy %b, %a : memref<64xf32>, memref<64xf32>
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import affine, bufferization, func, memref
from xdsl.dialects import linalg as xlinalg
from xdsl.dialects import memref as xmemref
from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import (
    FunctionType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StringAttr,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from schedir.diagnostics import UnsupportedError
from schedir.dialects import gpu
from schedir.dialects import memref as smemref
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
    Rewriter.replace_op(old, new)


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
            source, target = _contiguous(op.operands[0]), _contiguous(op.operands[1])
            if source is None or target is None:
                raise UnsupportedError(
                    f"{PASS}: a 'memref.copy' of a strided view on the host is not supported "
                    "(only contiguous buffers are copied with gpu.memcpy); map the copy into "
                    "a kernel",
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


def _contiguous(value: SSAValue) -> SSAValue | None:
    """`value`, or the buffer it is a cast of, typed contiguous row-major; None if neither."""
    while True:
        t = value.type
        if isinstance(t, MemRefType) and is_contiguous_row_major(cast(MemRefType[Attribute], t)):
            return value
        owner = value.owner
        if not isinstance(owner, xmemref.CastOp):
            return None
        value = owner.source


def _called(module: ModuleOp) -> set[str]:
    """Names of the functions some `func.call` in the module calls."""
    return {
        op.callee.root_reference.data
        for op in module.walk()
        if isinstance(op, func.CallOp) and isinstance(op.callee, SymbolRefAttr)
    }


def _is_entry(fn: func.FuncOp, called: set[str]) -> bool:
    visibility = fn.sym_visibility
    public = visibility is None or (
        isinstance(visibility, StringAttr) and visibility.data == "public"
    )
    return public and bool(fn.body.blocks) and fn.sym_name.data not in called


def specialize_entry_layouts(fn: func.FuncOp) -> None:
    """Identity layouts for an entry's memref arguments, cast back for their uses.

    The host ABI passes every memref argument C-contiguous with offset 0 (see the module
    docstring), so the identity layout is what the argument has at run time.
    """
    entry = fn.body.blocks[0]
    anchor = entry.first_op  # the casts go before it, in argument order
    for index, arg in enumerate(list(entry.args)):
        t = arg.type
        if not isinstance(t, MemRefType):
            continue
        declared = cast(MemRefType[Attribute], t)
        if isinstance(declared.layout, NoneAttr) or not _is_device_space(declared):
            continue
        identity = MemRefType(
            declared.element_type, declared.get_shape(), NoneAttr(), declared.memory_space
        )
        new_arg = entry.insert_arg(identity, index)
        new_arg.name_hint = arg.name_hint
        back = smemref.CastOp.build(operands=[new_arg], result_types=[declared])
        back.location = fn.location
        if anchor is None:
            entry.add_op(back)
        else:
            entry.insert_op_before(back, anchor)
        arg.replace_all_uses_with(back.results[0])
        entry.erase_arg(arg)
    inputs = [a.type for a in entry.args]
    fn.function_type = FunctionType.from_lists(inputs, list(fn.function_type.outputs.data))


def host_alloc_to_device(module: ModuleOp) -> None:
    """Apply the pass to every host function of a module with kernels."""
    if CONTAINER not in module.attributes:
        return
    called = _called(module)
    for op in module.ops:
        if isinstance(op, func.FuncOp):
            if _is_entry(op, called):
                specialize_entry_layouts(op)
            _convert_function(op)


@dataclass(frozen=True)
class GpuHostAllocToDevice(ModulePass):
    """Host buffers become device buffers (see the module docstring)."""

    name = "gpu-host-alloc-to-device"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        host_alloc_to_device(op)


__all__ = ["GpuHostAllocToDevice", "host_alloc_to_device", "specialize_entry_layouts"]
