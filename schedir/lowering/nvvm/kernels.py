"""convert-gpu-to-nvvm: kernels to `func.func` with the NVVM attributes, and their memory
(workgroup attributions and shared allocations to `addrspace(3)` globals, private ones to
allocas); see convert_gpu_to_nvvm.py."""

from __future__ import annotations

from typing import cast

from xdsl.dialects import arith, func
from xdsl.dialects import memref as xmemref
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StringAttr,
    UnitAttr,
    i8,
    i32,
)
from xdsl.dialects.memref import MemorySpaceCastOp, ViewOp
from xdsl.ir import Operation, Region, SSAValue

from schedir.diagnostics import UnsupportedError
from schedir.dialects import gpu, memref
from schedir.dialects.gpu.attributes import AddressSpace, AddressSpaceAttr
from schedir.dialects.syntax import op_location
from schedir.lowering.gpu import upper_bound
from schedir.lowering.llvm.common import element_size
from schedir.transform.rewrites.gpu.mapping import WORKGROUP_BUFFER

PASS = "convert-gpu-to-nvvm"
KERNEL_ATTR = "nvvm.kernel"
MAXNTID_ATTR = "nvvm.maxntid"

_WORKGROUP = 3

# ---------------------------------------------------------------------------------------
# memory: attributions and allocations of kernels


def _is_workgroup(t: MemRefType) -> bool:
    space = t.memory_space
    if isinstance(space, IntegerAttr):
        return space.value.data == _WORKGROUP
    return isinstance(space, AddressSpaceAttr) and space.data == AddressSpace.WORKGROUP


def _is_private_or_default(t: MemRefType) -> bool:
    space = t.memory_space
    if isinstance(space, NoneAttr):
        return True
    if isinstance(space, IntegerAttr):
        return space.value.data in (0, 5)
    return isinstance(space, AddressSpaceAttr) and space.data == AddressSpace.PRIVATE


class Globals:
    """Creates the `addrspace(3)` globals of one gpu.module's shared memory."""

    def __init__(self, module: ModuleOp) -> None:
        self.module = module
        self.count: dict[str, int] = {}

    def new(self, kernel: str, t: MemRefType, anchor: Operation) -> SSAValue:
        """A `memref.global` for `t` and a `memref.get_global` of it before `anchor`."""
        if any(d < 0 for d in t.get_shape()):
            raise UnsupportedError(
                f"{PASS}: shared memory must have a static shape, got {t}", op_location(anchor)
            )
        index = self.count.get(kernel, 0)
        self.count[kernel] = index + 1
        name = f"__wg_{kernel}_{index}"
        glob = memref.GlobalOp.get(
            StringAttr(name), t, UnitAttr(), sym_visibility=StringAttr("private"), alignment=16
        )
        glob.location = anchor.location
        insert_at_top(self.module, glob)
        get = memref.GetGlobalOp(name, t)
        get.location = anchor.location
        block = anchor.parent
        assert block is not None
        block.insert_op_before(get, anchor)
        return get.results[0]

    def shared(self, kernel: str, t: MemRefType, anchor: Operation) -> SSAValue:
        """A shared-memory buffer of default-space type `t` (a global in workgroup memory,
        seen through a generic pointer; LLVM infers the shared accesses back)."""
        if _is_workgroup(t):
            return self.new(kernel, t, anchor)
        space = MemRefType(t.element_type, t.get_shape(), t.layout, AddressSpaceAttr.workgroup())
        value = self.new(kernel, space, anchor)
        space_cast = MemorySpaceCastOp(value, t)
        space_cast.location = anchor.location
        block = anchor.parent
        assert block is not None
        block.insert_op_before(space_cast, anchor)
        return space_cast.results[0]


DYNAMIC_SHARED_GLOBAL = "__dynamic_shmem__"
"""The external, unsized shared-memory array the dynamic shared memory is (PTX
`.extern .shared .align 1024 .b8 __dynamic_shmem__[]`)."""
DYNAMIC_SHARED_ALIGNMENT = 1024
"""Alignment of the dynamic shared memory: what 128B-swizzled TMA boxes need."""


def dynamic_shared_memory(module: ModuleOp, op: gpu.DynamicSharedMemoryOp) -> SSAValue:
    """`gpu.dynamic_shared_memory` as a view of the module's external shared array (a
    declaration: its size is the launch's)."""
    byte = MemRefType(i8, [0], memory_space=AddressSpaceAttr.workgroup())
    if not any(
        isinstance(o, xmemref.GlobalOp) and o.sym_name.data == DYNAMIC_SHARED_GLOBAL
        for o in module.ops
    ):
        glob = xmemref.GlobalOp.get(
            StringAttr(DYNAMIC_SHARED_GLOBAL),
            byte,
            UnitAttr(),
            sym_visibility=StringAttr("public"),
            alignment=DYNAMIC_SHARED_ALIGNMENT,
        )
        del glob.properties["initial_value"]
        glob.location = op.location
        insert_at_top(module, glob)
    get = memref.GetGlobalOp(DYNAMIC_SHARED_GLOBAL, byte)
    cast_op = xmemref.CastOp.get(get.results[0], op.resultMemref.type)
    for new in (get, cast_op):
        new.location = op.location
        block = op.parent
        assert block is not None
        block.insert_op_before(new, op)
    return cast_op.results[0]


def insert_at_top(module: ModuleOp, op: Operation) -> None:
    first = module.body.block.first_op
    if first is None:
        module.body.block.add_op(op)
    else:
        module.body.block.insert_op_before(op, first)


def prepare_memory(fn: gpu.FuncOp, globals_: Globals) -> None:
    """Attributions and kernel allocations to globals (shared) and allocas (private)."""
    entry = fn.body.block
    first = entry.first_op
    assert first is not None
    name = fn.sym_name.data
    for arg in fn.workgroup_attribution_args:
        assert isinstance(arg.type, MemRefType)
        arg.replace_all_uses_with(globals_.new(name, arg.type, first))
    for arg in fn.private_attribution_args:
        assert isinstance(arg.type, MemRefType)
        alloca = memref.AllocaOp.get(
            arg.type.element_type, shape=arg.type.get_shape(), memory_space=arg.type.memory_space
        )
        alloca.location = fn.location
        entry.insert_op_before(alloca, first)
        arg.replace_all_uses_with(alloca.results[0])
    for arg in [*fn.workgroup_attribution_args, *fn.private_attribution_args]:
        entry.erase_arg(arg)
    fn.workgroup_attributions = None
    replaced: set[SSAValue] = set()
    for op in list(fn.walk()):
        if isinstance(op, gpu.DynamicSharedMemoryOp):
            op.results[0].replace_all_uses_with(dynamic_shared_memory(globals_.module, op))
            op.detach()
            op.erase()
    for op in list(fn.walk()):
        if not isinstance(op, xmemref.AllocOp | xmemref.AllocaOp):
            continue
        t = op.results[0].type
        assert isinstance(t, MemRefType)
        shared = op.attributes.get(WORKGROUP_BUFFER) is not None
        if _is_workgroup(t) or (shared and isinstance(op, xmemref.AllocOp)):
            if op.operands:
                raise UnsupportedError(
                    f"{PASS}: shared memory must have a static shape, got {t}", op_location(op)
                )
            new = globals_.shared(name, t, op)
        elif isinstance(op, xmemref.AllocOp) and _is_private_or_default(t):
            new = _private_buffer(op, t)
        else:
            continue
        op.results[0].replace_all_uses_with(new)
        replaced.add(new)
        op.detach()
        op.erase()
    for op in list(fn.walk()):
        if isinstance(op, xmemref.DeallocOp) and op.operands[0] in replaced:
            op.detach()
            op.erase()


def _private_buffer(op: Operation, t: MemRefType) -> SSAValue:
    """A per-thread buffer for `op`: an alloca, statically sized when the dynamic sizes
    have static upper bounds (then a `memref.view` of the bytes gives the shape)."""
    block = op.parent
    assert block is not None
    alignment = op.properties.get("alignment")
    if not op.operands:
        alloca = memref.AllocaOp.get(
            t.element_type, shape=t.get_shape(), memory_space=t.memory_space, layout=t.layout
        )
        if isinstance(alignment, IntegerAttr):
            alloca.properties["alignment"] = alignment
        alloca.location = op.location
        block.insert_op_before(alloca, op)
        return alloca.results[0]
    bounds = [upper_bound(v) for v in op.operands]
    elem_bytes = element_size(t.element_type)
    if any(b is None for b in bounds) or elem_bytes is None or not isinstance(t.layout, NoneAttr):
        # No static bound: a dynamic alloca (PTX `alloca`, sm_52+), kept to the kernel's end.
        alloca = memref.AllocaOp.get(
            t.element_type,
            shape=t.get_shape(),
            dynamic_sizes=list(op.operands),
            memory_space=t.memory_space,
        )
        alloca.location = op.location
        block.insert_op_before(alloca, op)
        return alloca.results[0]
    dynamic = iter(bounds)
    count = 1
    for size in t.get_shape():
        count *= size if size >= 0 else max(next(dynamic) or 0, 0)
    raw = memref.AllocaOp.get(
        i8, shape=[max(count, 1) * elem_bytes], memory_space=t.memory_space, alignment=16
    )
    zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
    view = ViewOp(raw.results[0], zero.results[0], list(op.operands), t)
    for new in (raw, zero, view):
        new.location = op.location
        block.insert_op_before(new, op)
    return view.results[0]


def to_func(fn: gpu.FuncOp) -> func.FuncOp:
    """`gpu.func` -> `func.func` with the NVVM kernel attributes (region moved)."""
    region = Region()
    fn.body.move_blocks(region)
    new = func.FuncOp(fn.sym_name.data, fn.function_type, region)
    new.location = fn.location
    new.attributes.update(fn.attributes)
    if fn.arg_attrs is not None:
        new.properties["arg_attrs"] = fn.arg_attrs
    if fn.is_kernel:
        # Upstream keeps `gpu.kernel` (gpu.launch_func checks its callee has it).
        new.attributes["gpu.kernel"] = UnitAttr()
        new.attributes[KERNEL_ATTR] = UnitAttr()
        known = fn.known_block_size
        if isinstance(known, DenseArrayBase):
            sizes = cast(DenseArrayBase[IntegerType], known).get_values()  # an i32 array
            new.attributes[MAXNTID_ATTR] = DenseArrayBase.from_list(i32, list(sizes))
    for op in list(new.walk()):
        if isinstance(op, gpu.ReturnOp):
            ret = func.ReturnOp(*op.operands)
            ret.location = op.location
            block = op.parent
            assert block is not None
            block.insert_op_before(ret, op)
            op.detach()
            op.erase()
    return new
