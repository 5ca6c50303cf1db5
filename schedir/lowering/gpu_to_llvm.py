"""`gpu-to-llvm`: host-side gpu ops to calls of upstream's CUDA runtime wrappers.

Upstream's pass (Conversion/GPUCommon/GPUToLLVMConversion.cpp) lowers the host side of a
GPU program to calls of the `mgpu*` functions of mlir/lib/ExecutionEngine/
CudaRuntimeWrappers.cpp. schedir does the same, in the form upstream used before the
offloading attributes (the kernel binary is a global of the host module):

* each `gpu.binary` becomes `llvm.mlir.global internal constant @<name>_binary` holding its
  first object (PTX text with a terminating NUL, or a cubin), and is erased;
* `gpu.launch_func @m::@k` (synchronous) becomes
  `mgpuModuleLoad(@m_binary, size)`, `mgpuModuleGetFunction(module, "k")`,
  `mgpuStreamCreate()`, `mgpuLaunchKernel(f, gx, gy, gz, bx, by, bz, smem, stream,
  params, null, n)`, `mgpuStreamSynchronize`, `mgpuStreamDestroy`, `mgpuModuleUnload`.
  `params` is an array of pointers to the kernel's parameters, which are the launch
  operands with every memref expanded into its descriptor fields (the kernel ABI of
  `convert-gpu-to-nvvm`); the parameter storage is allocated in the function's entry
  block so that launches in loops do not grow the stack;
* `gpu.alloc` -> `mgpuMemAlloc(bytes, null, false)` and a row-major descriptor;
  `gpu.dealloc` -> `mgpuMemFree(allocated, null)`; `gpu.memcpy` ->
  `mgpuMemcpy(dst, src, bytes, null)`; `gpu.memset` of 32/16-bit values ->
  `mgpuMemset32/16`; a synchronous `gpu.wait` without dependencies does nothing.

Asynchronous forms (`async`, `!gpu.async.token`) are not supported yet: an error names
the op. The host runtime of schedir implements the `mgpu*` functions on cuda-python
(schedir/gpu/host.py); any implementation of upstream's ABI works.

    gpu.launch_func @k::@k blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%a : memref<128xf32>)
    // ->
    %0 = llvm.mlir.addressof @k_binary : !llvm.ptr
    %1 = llvm.call @mgpuModuleLoad(%0, %size) : (!llvm.ptr, i64) -> !llvm.ptr
    %2 = llvm.mlir.addressof @k_k_name : !llvm.ptr
    %3 = llvm.call @mgpuModuleGetFunction(%1, %2) : (!llvm.ptr, !llvm.ptr) -> !llvm.ptr
    %4 = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    ... stores of the 5 descriptor fields of %a, pointers to them in %params ...
    llvm.call @mgpuLaunchKernel(%3, %c4, %c1, %c1, %c32, %c1, %c1, %smem, %4, %params,
        %null, %c5) : (...) -> ()
    llvm.call @mgpuStreamSynchronize(%4) : (!llvm.ptr) -> ()
    llvm.call @mgpuStreamDestroy(%4) : (!llvm.ptr) -> ()
    llvm.call @mgpuModuleUnload(%1) : (!llvm.ptr) -> ()
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from schedir.diagnostics import LoweringError
from schedir.dialects import gpu, llvm
from schedir.dialects.syntax import op_location
from schedir.lowering.gpu import GPU_OPS
from schedir.lowering.llvm.common import (
    PTR,
    LLVMTypeConverter,
    Lowering,
    const,
    element_size,
    is_contiguous_row_major,
    unsupported,
)
from schedir.lowering.llvm.memref import (
    Emit,
    IndexMath,
    build_descriptor,
    element_pointer,
    size_in_bytes,
)
from schedir.lowering.llvm.memref_views import descriptor, row_major_strides

PASS = "gpu-to-llvm"
VOID = llvm.LLVMVoidType()

RUNTIME_API: dict[str, llvm.LLVMFunctionType] = {
    "mgpuModuleLoad": llvm.LLVMFunctionType([PTR, i64], PTR),
    "mgpuModuleUnload": llvm.LLVMFunctionType([PTR], VOID),
    "mgpuModuleGetFunction": llvm.LLVMFunctionType([PTR, PTR], PTR),
    "mgpuLaunchKernel": llvm.LLVMFunctionType(
        [PTR, i64, i64, i64, i64, i64, i64, i32, PTR, PTR, PTR, i64], VOID
    ),
    "mgpuStreamCreate": llvm.LLVMFunctionType([], PTR),
    "mgpuStreamSynchronize": llvm.LLVMFunctionType([PTR], VOID),
    "mgpuStreamDestroy": llvm.LLVMFunctionType([PTR], VOID),
    "mgpuMemAlloc": llvm.LLVMFunctionType([i64, PTR, i8], PTR),
    "mgpuMemFree": llvm.LLVMFunctionType([PTR, PTR], VOID),
    "mgpuMemcpy": llvm.LLVMFunctionType([PTR, PTR, i64, PTR], VOID),
    "mgpuMemset32": llvm.LLVMFunctionType([PTR, i32, i64, PTR], VOID),
    "mgpuMemset16": llvm.LLVMFunctionType([PTR, i16, i64, PTR], VOID),
}
"""The runtime-wrapper functions this pass calls, with upstream's C signatures
(`intptr_t`/`size_t`/`uint64_t` as i64, `bool` as i8, handles and pointers as ptr)."""


def _string_global(module: ModuleOp, name: str, data: str) -> llvm.GlobalOp:
    text = data + "\0"
    glob = llvm.GlobalOp(
        llvm.LLVMArrayType(len(text.encode("latin-1")), i8),
        name,
        "internal",
        constant=True,
        value=StringAttr(text),
    )
    first = module.body.block.first_op
    if first is None:
        module.body.block.add_op(glob)
    else:
        module.body.block.insert_op_before(glob, first)
    return glob


class _HostLowering:
    """One run of the pass: the binaries' globals and the runtime declarations."""

    def __init__(self, module: ModuleOp) -> None:
        self.module = module
        self.lw = Lowering(LLVMTypeConverter(), PASS)
        self.binaries: dict[str, tuple[str, int]] = {}
        self.names: dict[tuple[str, str], str] = {}

    def call(self, anchor: Operation, name: str, *args: SSAValue) -> SSAValue | None:
        ftype = RUNTIME_API[name]
        self.lw.declare(name, ftype, anchor)
        result = None if isinstance(ftype.output, llvm.LLVMVoidType) else ftype.output
        call = llvm.CallOp(name, *args, return_type=result)
        self.lw.insert(call, anchor)
        return call.results[0] if call.results else None

    # -- binaries ----------------------------------------------------------------------

    def collect_binaries(self) -> None:
        for op in list(self.module.ops):
            if not isinstance(op, gpu.BinaryOp):
                continue
            handler = op.handler
            if not isinstance(handler, gpu.SelectObjectAttr):
                raise unsupported(PASS, op, f"the offloading handler {handler}")
            obj = handler.select(op.objects.data)
            if obj is None:
                raise LoweringError(
                    f"{PASS}: 'gpu.binary' @{op.sym_name.data}: the requested target object "
                    "couldn't be found",
                    op_location(op),
                )
            name = f"{op.sym_name.data}_binary"
            data = obj.object.data
            _string_global(self.module, name, data)
            # PTX is read as a C string (the NUL is part of the image); a cubin is not.
            size = len(data.encode("latin-1")) + (1 if obj.format.data == "assembly" else 0)
            self.binaries[op.sym_name.data] = (name, size)
            op.detach()
            op.erase()

    def kernel_name(self, module_name: str, kernel: str) -> str:
        key = (module_name, kernel)
        found = self.names.get(key)
        if found is None:
            found = self.names[key] = f"{module_name}_{kernel}_name"
            _string_global(self.module, found, kernel)
        return found

    # -- ops ---------------------------------------------------------------------------

    def launch(self, op: gpu.LaunchFuncOp) -> None:
        lw = self.lw
        if op.asyncToken is not None or op.asyncDependencies or op.asyncObject is not None:
            raise unsupported(PASS, op, "asynchronous launches")
        if op.clusterSizeX is not None:
            raise unsupported(PASS, op, "thread block clusters")
        binary = self.binaries.get(op.module_name)
        if binary is None:
            raise LoweringError(
                f"{PASS}: no gpu.binary @{op.module_name} for this launch (run "
                "convert-gpu-to-nvvm and gpu-module-to-binary first)",
                op_location(op),
            )
        emit = lw.emit(op)
        blob = emit(llvm.AddressOfOp(SymbolRefAttr(binary[0]), PTR))
        module = self.call(op, "mgpuModuleLoad", blob, const(emit, binary[1], i64))
        assert module is not None
        name = emit(
            llvm.AddressOfOp(SymbolRefAttr(self.kernel_name(op.module_name, op.kernel_name)), PTR)
        )
        function = self.call(op, "mgpuModuleGetFunction", module, name)
        assert function is not None
        stream = self.call(op, "mgpuStreamCreate")
        assert stream is not None
        params = self._params(op, emit)
        sizes = lw.values([*op.grid_sizes, *op.block_sizes], op)
        smem = (
            lw.value(op.dynamicSharedMemorySize, op)
            if op.dynamicSharedMemorySize is not None
            else const(emit, 0, i32)
        )
        null = emit(llvm.ZeroOp.create(result_types=[PTR]))
        count = const(emit, len(self._fields(op)), i64)
        self.call(op, "mgpuLaunchKernel", function, *sizes, smem, stream, params, null, count)
        self.call(op, "mgpuStreamSynchronize", stream)
        self.call(op, "mgpuStreamDestroy", stream)
        self.call(op, "mgpuModuleUnload", module)
        lw.replace(op, [])

    def _fields(self, op: gpu.LaunchFuncOp) -> list[SSAValue]:
        """The kernel parameters: each memref's descriptor fields, other values as they are."""
        lw = self.lw
        fields: list[SSAValue] = []
        for value in op.kernelOperands:
            converted = lw.value(value, op)
            t = value.type
            if isinstance(t, MemRefType):
                rank = t.get_num_dims()
                positions: list[tuple[int, ...]] = [(0,), (1,), (2,)]
                positions += [(3, i) for i in range(rank)] + [(4, i) for i in range(rank)]
                fields += [lw.field(converted, *p) for p in positions]
            else:
                fields.append(converted)
        return fields

    def _params(self, op: gpu.LaunchFuncOp, emit: Emit) -> SSAValue:
        """`void **params`: storage for every field, in the function's entry block."""
        fields = self._fields(op)
        entry = _entry_block(op)
        struct = llvm.LLVMStructType.from_type_list([f.type for f in fields] or [i8])
        array = llvm.LLVMArrayType(max(len(fields), 1), PTR)
        one = llvm.ConstantOp(IntegerAttr(1, i64), i64)
        storage = llvm.AllocaOp.create(
            operands=[one.results[0]], result_types=[PTR], properties={"elem_type": struct}
        )
        pointers = llvm.AllocaOp.create(
            operands=[one.results[0]], result_types=[PTR], properties={"elem_type": array}
        )
        first = entry.first_op
        for new in (one, storage, pointers):
            new.location = op.location
            if first is None:
                entry.add_op(new)
            else:
                entry.insert_op_before(new, first)
        add = self.lw.emit(op)
        for index, value in enumerate(fields):
            slot = add(llvm.GEPOp(storage.results[0], [0, index], struct))
            add(llvm.StoreOp(value, slot))
            entry_ptr = add(llvm.GEPOp(pointers.results[0], [0, index], array))
            add(llvm.StoreOp(slot, entry_ptr))
        return pointers.results[0]

    def alloc(self, op: gpu.AllocOp) -> None:
        lw = self.lw
        if op.asyncToken is not None or op.asyncDependencies:
            raise unsupported(PASS, op, "asynchronous allocations")
        t = op.memref.type
        assert isinstance(t, MemRefType)
        if not is_contiguous_row_major(t):
            raise unsupported(PASS, op, f"allocations with layout {t.layout}")
        emit = lw.emit(op)
        math = IndexMath(lw, op, emit)
        dynamic = iter(lw.values(op.dynamicSizes, op))
        sizes = [math.const(s) if s >= 0 else next(dynamic) for s in t.get_shape()]
        count = math.const(1)
        for size in sizes:
            count = math.mul(count, size)
        elem = lw.convert(t.get_element_type(), op)
        nbytes = size_in_bytes(lw, op, emit, elem, count)
        null = emit(llvm.ZeroOp.create(result_types=[PTR]))
        pointer = self.call(
            op, "mgpuMemAlloc", nbytes, null, const(emit, 1 if op.hostShared else 0, i8)
        )
        assert pointer is not None
        desc_type = lw.convert(t, op)
        typed = pointer
        target = lw.converter.pointer_type(t.memory_space)
        if target != PTR:
            typed = emit(llvm.AddrSpaceCastOp(pointer, target))
        desc = build_descriptor(
            emit, desc_type, typed, typed, math.const(0), sizes, row_major_strides(math, sizes)
        )
        lw.replace(op, [desc])

    def dealloc(self, op: gpu.DeallocOp) -> None:
        lw = self.lw
        if op.asyncToken is not None or op.asyncDependencies:
            raise unsupported(PASS, op, "asynchronous deallocations")
        emit = lw.emit(op)
        desc = descriptor(lw, op, op.memref, emit)
        allocated = desc.allocated()
        if allocated.type != PTR:
            allocated = emit(llvm.AddrSpaceCastOp(allocated, PTR))
        self.call(op, "mgpuMemFree", allocated, emit(llvm.ZeroOp.create(result_types=[PTR])))
        lw.replace(op, [])

    def memcpy(self, op: gpu.MemcpyOp) -> None:
        lw = self.lw
        if op.asyncToken is not None or op.asyncDependencies:
            raise unsupported(PASS, op, "asynchronous copies")
        emit = lw.emit(op)
        math = IndexMath(lw, op, emit)
        dst = descriptor(lw, op, op.dst, emit)
        src = descriptor(lw, op, op.src, emit)
        for d in (dst, src):
            if not is_contiguous_row_major(d.type):
                raise unsupported(PASS, op, f"copies of strided memrefs ({d.type})")
        count = math.const(1)
        for i in range(dst.rank):
            count = math.mul(count, dst.size(i))
        elem = lw.convert(dst.type.get_element_type(), op)
        nbytes = size_in_bytes(lw, op, emit, elem, count)
        dst_ptr = _generic(emit, element_pointer(lw, emit, dst, [math.const(0)] * dst.rank, op))
        src_ptr = _generic(emit, element_pointer(lw, emit, src, [math.const(0)] * src.rank, op))
        self.call(
            op, "mgpuMemcpy", dst_ptr, src_ptr, nbytes, emit(llvm.ZeroOp.create(result_types=[PTR]))
        )
        lw.replace(op, [])

    def memset(self, op: gpu.MemsetOp) -> None:
        lw = self.lw
        emit = lw.emit(op)
        math = IndexMath(lw, op, emit)
        dst = descriptor(lw, op, op.dst, emit)
        if not is_contiguous_row_major(dst.type):
            raise unsupported(PASS, op, f"memset of a strided memref ({dst.type})")
        value = lw.value(op.value, op)
        width = element_size(value.type)
        if width not in (2, 4):
            raise unsupported(PASS, op, f"memset of {value.type} (16- and 32-bit values only)")
        int_type = IntegerType(width * 8)
        if value.type != int_type:
            value = emit(llvm.BitcastOp(value, int_type))
        count = math.const(1)
        for i in range(dst.rank):
            count = math.mul(count, dst.size(i))
        pointer = _generic(emit, element_pointer(lw, emit, dst, [math.const(0)] * dst.rank, op))
        name = "mgpuMemset32" if width == 4 else "mgpuMemset16"
        self.call(op, name, pointer, value, count, emit(llvm.ZeroOp.create(result_types=[PTR])))
        lw.replace(op, [])

    def wait(self, op: gpu.WaitOp) -> None:
        if op.asyncToken is not None or op.asyncDependencies:
            raise unsupported(PASS, op, "asynchronous GPU tokens")
        self.lw.replace(op, [])


def _generic(emit: Emit, pointer: SSAValue) -> SSAValue:
    """`pointer` in the generic address space (the runtime takes plain pointers)."""
    if pointer.type == PTR:
        return pointer
    return emit(llvm.AddrSpaceCastOp(pointer, PTR))


def _entry_block(op: Operation) -> Block:
    current = op.parent_op()
    while current is not None and not isinstance(current, func.FuncOp | llvm.FuncOp):
        current = current.parent_op()
    if current is None or not current.regions[0].blocks:
        raise LoweringError(f"{PASS}: '{op.name}' must be inside a function", op_location(op))
    block = current.regions[0].blocks.first
    assert block is not None
    return block


def lower_gpu_host(module: ModuleOp) -> None:
    """Lower the host-side gpu ops of `module` (see the module docstring)."""
    host = _HostLowering(module)
    host.collect_binaries()
    for op in list(module.walk()):
        if op.parent is None and op is not module:
            continue
        match op:
            case gpu.LaunchFuncOp():
                host.launch(op)
            case gpu.AllocOp():
                host.alloc(op)
            case gpu.DeallocOp():
                host.dealloc(op)
            case gpu.MemcpyOp():
                host.memcpy(op)
            case gpu.MemsetOp():
                host.memset(op)
            case gpu.WaitOp():
                host.wait(op)
            case gpu.ModuleOp():
                raise LoweringError(
                    f"{PASS}: gpu.module @{op.sym_name.data} was not compiled (run "
                    "convert-gpu-to-nvvm and gpu-module-to-binary first)",
                    op_location(op),
                )
            case _ if isinstance(op, GPU_OPS):
                raise unsupported(PASS, op, "this gpu op has no host lowering")
            case _:
                pass
    host.lw.finish()


@dataclass(frozen=True)
class GpuToLLVM(ModulePass):
    """Lower the host side of GPU programs to runtime calls (see the module docstring)."""

    name = "gpu-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower_gpu_host(op)


__all__ = ["RUNTIME_API", "GpuToLLVM", "lower_gpu_host"]
