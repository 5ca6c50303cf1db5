"""`convert-gpu-to-nvvm`: the device code of every `gpu.module` to the LLVM and NVVM dialects.

Upstream's pass (Conversion/GPUToNVVM/LowerGpuOpsToNVVMOps.cpp) runs on each `gpu.module`
with the gpu, nvvm, libdevice and the standard arith/math/memref/scf/cf/func to LLVM
patterns. schedir does the same: the module's body is lowered on its own with schedir's
`*-to-llvm` passes and the GPU-specific steps below, then put back.

* `gpu.func` -> `llvm.func`: a kernel gets `gpu.kernel`, `nvvm.kernel` (emitted as
  `ptx_kernel`) and,
  from `known_block_size`, `nvvm.maxntid`; memref arguments become their descriptor
  fields (upstream's calling convention without bare pointers, see schedir/gpu/function.py);
* memory: workgroup attributions and `memref.alloc`s in `#gpu.address_space<workgroup>`
  (or 3) become `addrspace(3)` globals (`__wg_<kernel>_<n>`); private attributions and
  other statically shaped `memref.alloc`s in a kernel become allocas (per-thread memory:
  upstream's private space is address space 0 on NVPTX, where LLVM keeps allocas);
  their `memref.dealloc`s are dropped; `#gpu.address_space<global>` is `addrspace(1)`;
* ids and sizes: `gpu.thread_id x` -> `nvvm.read.ptx.sreg.tid.x : i32` sign-extended to
  i64, likewise `block_id` (`ctaid`), `block_dim` (`ntid`; a constant when the kernel
  has `known_block_size`), `grid_dim` (`nctaid`), `lane_id` (`laneid`);
* `gpu.barrier` -> `nvvm.barrier`; `gpu.shuffle` -> `nvvm.shfl.sync` over the first
  `width` lanes (`return_value_and_is_valid` when the validity result is used);
  `gpu.printf` -> `vprintf` (floats promoted to f64);
* math: `exp`, `log`, `sin`, `tanh`, `pow`, `erf`, ... -> libdevice (`__nv_expf`, `__nv_exp`;
  `__nv_fast_*` variants with the `afn` flag; f16/bf16 through f32), `arith.remf` ->
  `__nv_fmodf`; `absf`, `sqrt`, `floor`, `ceil`, `fma`, ... stay LLVM intrinsics, which
  NVPTX implements natively.

Before:

    gpu.module @k {
      gpu.func @k(%a: memref<32xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
        %t = gpu.thread_id x
        %v = memref.load %a[%t] : memref<32xf32>
        %e = math.exp %v : f32
        memref.store %e, %a[%t] : memref<32xf32>
        gpu.return
      }
    }

After:

    gpu.module @k {
      llvm.func @__nv_expf(f32) -> f32
      llvm.func @k(%0: !llvm.ptr, %1: !llvm.ptr, %2: i64, %3: i64, %4: i64)
          attributes {gpu.kernel, nvvm.kernel, nvvm.maxntid = array<i32: 32, 1, 1>} {
        %5 = nvvm.read.ptx.sreg.tid.x : i32
        %6 = llvm.sext %5 : i32 to i64
        %7 = llvm.getelementptr inbounds %1[%6] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %8 = llvm.load %7 : !llvm.ptr -> f32
        %9 = llvm.call @__nv_expf(%8) : (f32) -> f32
        llvm.store %9, %7 : f32, !llvm.ptr
        llvm.return
      }
    }
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    VectorType,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.dialects.memref import MemorySpaceCastOp, ViewOp
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from schedir.diagnostics import UnsupportedError
from schedir.dialects import _gpu_ops as gpu
from schedir.dialects import llvm, memref, nvvm
from schedir.dialects.gpu import AddressSpaceAttr
from schedir.dialects.syntax import op_location
from schedir.lowering._gpu_common import gpu_modules, upper_bound
from schedir.lowering._llvm_common import (
    PTR,
    LLVMTypeConverter,
    Lowering,
    const,
    element_size,
    unsupported,
)
from schedir.lowering._llvm_type_converter import NVVM_ADDRESS_SPACES
from schedir.transform.rewrites.gpu_mapping import WORKGROUP_BUFFER

PASS = "convert-gpu-to-nvvm"
KERNEL_ATTR = "nvvm.kernel"
MAXNTID_ATTR = "nvvm.maxntid"

_WORKGROUP = 3
_DEVICE_PASSES: tuple[str, ...] = (
    "convert-linalg-to-loops",
    "scf-forall-to-for",
    # vector IR a schedule left (contractions, n-D transfers) to 1-D LLVM vectors, as
    # upstream's pass includes the vector-to-LLVM patterns
    "lower-vector",
    "convert-vector-to-llvm",
    "lower-affine",
    "convert-scf-to-cf",
)
"""Structured and vector code to branches and LLVM vectors first; the gpu, math and memref
steps follow."""

LIBDEVICE: dict[str, str] = {
    "math.acos": "acos",
    "math.acosh": "acosh",
    "math.asin": "asin",
    "math.asinh": "asinh",
    "math.atan": "atan",
    "math.atan2": "atan2",
    "math.atanh": "atanh",
    "math.cbrt": "cbrt",
    "math.cos": "cos",
    "math.cosh": "cosh",
    "math.erf": "erf",
    "math.erfc": "erfc",
    "math.exp": "exp",
    "math.exp2": "exp2",
    "math.expm1": "expm1",
    "math.log": "log",
    "math.log10": "log10",
    "math.log1p": "log1p",
    "math.log2": "log2",
    "math.powf": "pow",
    "math.rsqrt": "rsqrt",
    "math.sin": "sin",
    "math.sinh": "sinh",
    "math.tan": "tan",
    "math.tanh": "tanh",
    "arith.remf": "fmod",
}
"""Ops lowered to libdevice calls (`__nv_<name>f` for f32, `__nv_<name>` for f64)."""

_FAST: frozenset[str] = frozenset(
    {"exp", "log", "sin", "cos", "tan", "pow", "log2", "log10", "exp10"}
)
"""Functions with a `__nv_fast_<name>f` variant, used under the `afn` fastmath flag."""

_SREG = {
    "gpu.thread_id": "tid",
    "gpu.block_id": "ctaid",
    "gpu.block_dim": "ntid",
    "gpu.grid_dim": "nctaid",
    "gpu.cluster_id": "clusterid",
    "gpu.cluster_dim": "nclusterid",
}


# ---------------------------------------------------------------------------------------
# memory: attributions and allocations of kernels


def _is_workgroup(t: MemRefType) -> bool:
    space = t.memory_space
    if isinstance(space, IntegerAttr):
        return space.value.data == _WORKGROUP
    return "<workgroup>" in str(space)


def _is_private_or_default(t: MemRefType) -> bool:
    space = t.memory_space
    if isinstance(space, NoneAttr):
        return True
    if isinstance(space, IntegerAttr):
        return space.value.data in (0, 5)
    return "<private>" in str(space)


class _Globals:
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
        _insert_at_top(self.module, glob)
        get = memref.GetGlobalOp(name, t)
        get.location = anchor.location
        anchor.parent.insert_op_before(get, anchor)  # type: ignore[union-attr]
        return get.results[0]

    def shared(self, kernel: str, t: MemRefType, anchor: Operation) -> SSAValue:
        """A shared-memory buffer of default-space type `t` (a global in workgroup memory,
        seen through a generic pointer; LLVM infers the shared accesses back)."""
        if _is_workgroup(t):
            return self.new(kernel, t, anchor)
        space = MemRefType(t.element_type, t.get_shape(), t.layout, AddressSpaceAttr.workgroup())
        value = self.new(kernel, space, anchor)
        cast = MemorySpaceCastOp(value, t)
        cast.location = anchor.location
        anchor.parent.insert_op_before(cast, anchor)  # type: ignore[union-attr]
        return cast.results[0]


def _insert_at_top(module: ModuleOp, op: Operation) -> None:
    first = module.body.block.first_op
    if first is None:
        module.body.block.add_op(op)
    else:
        module.body.block.insert_op_before(op, first)


def _prepare_memory(fn: gpu.FuncOp, globals_: _Globals) -> None:
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
        if op.name not in ("memref.alloc", "memref.alloca"):
            continue
        t = op.results[0].type
        assert isinstance(t, MemRefType)
        shared = op.attributes.get(WORKGROUP_BUFFER) is not None
        if _is_workgroup(t) or (shared and op.name == "memref.alloc"):
            if op.operands:
                raise UnsupportedError(
                    f"{PASS}: shared memory must have a static shape, got {t}", op_location(op)
                )
            new = globals_.shared(name, t, op)
        elif op.name == "memref.alloc" and _is_private_or_default(t):
            new = _private_buffer(op, t)
        else:
            continue
        op.results[0].replace_all_uses_with(new)
        replaced.add(new)
        op.detach()
        op.erase()
    for op in list(fn.walk()):
        if op.name == "memref.dealloc" and op.operands[0] in replaced:
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


def _to_func(fn: gpu.FuncOp) -> func.FuncOp:
    """`gpu.func` -> `func.func` with the NVVM kernel attributes (region moved)."""
    region = Region()
    fn.body.move_blocks(region)
    new = func.FuncOp(fn.sym_name.data, fn.function_type, region)
    new.location = fn.location
    new.attributes.update(fn.attributes)
    if fn.arg_attrs is not None:
        new.arg_attrs = fn.arg_attrs
    if fn.is_kernel:
        # Upstream keeps `gpu.kernel` (gpu.launch_func checks its callee has it).
        new.attributes["gpu.kernel"] = UnitAttr()
        new.attributes[KERNEL_ATTR] = UnitAttr()
        known = fn.known_block_size
        if isinstance(known, DenseArrayBase):
            new.attributes[MAXNTID_ATTR] = DenseArrayBase.from_list(i32, list(known.get_values()))
    for op in list(new.walk()):
        if isinstance(op, gpu.ReturnOp):
            ret = func.ReturnOp(*op.operands)
            ret.location = op.location
            op.parent.insert_op_before(ret, op)  # type: ignore[union-attr]
            op.detach()
            op.erase()
    return new


# ---------------------------------------------------------------------------------------
# gpu ops


def _known_block_size(op: Operation) -> list[int] | None:
    current = op.parent_op()
    while current is not None and current.name != "func.func":
        current = current.parent_op()
    if current is None:
        return None
    attr = current.attributes.get(MAXNTID_ATTR)
    return list(attr.get_values()) if isinstance(attr, DenseArrayBase) else None


def _id(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    dim = op.dimension.data.value  # type: ignore[attr-defined]
    register = _SREG[op.name]
    if register == "ntid":
        known = _known_block_size(op)
        if known is not None:
            lw.replace(op, [lw.index(known["xyz".index(dim)], op)])
            return
    value = emit(nvvm.SREG_OPS[f"{register}.{dim}"]())
    lw.replace(op, [emit(llvm.SExtOp(value, i64))])


def _lane_id(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    value = emit(nvvm.SREG_OPS["laneid"]())
    lw.replace(op, [emit(llvm.SExtOp(value, i64))])


def _barrier(lw: Lowering, op: Operation) -> None:
    lw.insert(nvvm.BarrierOp(), op)
    lw.replace(op, [])


_SHFL_KIND = {"xor": "bfly", "up": "up", "down": "down", "idx": "idx"}


def _shuffle(lw: Lowering, op: Operation) -> None:
    """Upstream's GPUShuffleOpLowering."""
    assert isinstance(op, gpu.ShuffleOp)
    emit = lw.emit(op)
    value = lw.value(op.value, op)
    offset = lw.value(op.offset, op)
    width = lw.value(op.width, op)
    if value.type not in (i32, Float32Type()):
        raise unsupported(PASS, op, f"shuffles of {value.type} (only 32-bit values)")
    one = const(emit, 1, i32)
    minus_one = const(emit, -1, i32)
    thirty_two = const(emit, 32, i32)
    inactive = emit(llvm.SubOp(thirty_two, width))
    active_mask = emit(llvm.LShrOp(minus_one, inactive))
    mode = op.mode.data.value
    clamp = inactive if mode == "up" else emit(llvm.SubOp(width, one))
    with_valid = op.valid.first_use is not None
    result_type: Attribute = (
        llvm.LLVMStructType.from_type_list([value.type, i1]) if with_valid else value.type
    )
    shfl = emit(
        nvvm.ShflSyncOp(
            _SHFL_KIND[mode], active_mask, value, offset, clamp, result_type, with_valid=with_valid
        )
    )
    if with_valid:
        result = emit(llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [0]), shfl, value.type))
        valid = emit(llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [1]), shfl, i1))
        lw.replace(op, [result, valid])
    else:
        lw.replace(op, [shfl, const(emit, 1, i1)])


def _printf(lw: Lowering, op: Operation, counter: list[int]) -> None:
    """Upstream's GPUPrintfOpToVPrintfLowering: a format global and an argument buffer."""
    assert isinstance(op, gpu.PrintfOp)
    emit = lw.emit(op)
    text = op.format.data.encode("latin-1") + b"\0"
    name = f"printfFormat_{counter[0]}"
    counter[0] += 1
    module = _module_of(op)
    fmt_type = llvm.LLVMArrayType(len(text), i8)
    glob = llvm.GlobalOp(
        fmt_type, name, "internal", constant=True, value=StringAttr(text.decode("latin-1"))
    )
    _insert_at_top(module, glob)
    lw.declare("vprintf", llvm.LLVMFunctionType([PTR, PTR], i32), op)
    fmt = emit(llvm.AddressOfOp(SymbolRefAttr(name), PTR))
    args: list[SSAValue] = []
    for value in lw.values(op.args, op):
        if isinstance(value.type, Float32Type | Float16Type | BFloat16Type):
            value = emit(llvm.FPExtOp(value, Float64Type()))
        args.append(value)
    if args:
        struct = llvm.LLVMStructType.from_type_list([a.type for a in args])
        one = const(emit, 1, i64)
        buffer = emit(
            llvm.AllocaOp.create(
                operands=[one], result_types=[PTR], properties={"elem_type": struct}
            )
        )
        for index, value in enumerate(args):
            field = emit(llvm.GEPOp(buffer, [0, index], struct))
            emit(llvm.StoreOp(value, field))
    else:
        buffer = emit(llvm.ZeroOp.create(result_types=[PTR]))
    emit(llvm.CallOp("vprintf", fmt, buffer, return_type=i32))
    lw.replace(op, [])


def _module_of(op: Operation) -> ModuleOp:
    current = op.parent_op()
    while current is not None and not isinstance(current, ModuleOp):
        current = current.parent_op()
    assert current is not None
    return current


# ---------------------------------------------------------------------------------------
# math to libdevice


def _libdevice(lw: Lowering, op: Operation) -> None:
    operands = lw.values(op.operands, op)
    elem = lw.convert(op.results[0].type, op)
    if isinstance(elem, VectorType) and elem.get_num_dims() == 1:
        # Upstream's ScalarizeVectorOpLowering: libdevice has scalar functions only.
        emit = lw.emit(op)
        scalar = cast(Attribute, elem.get_element_type())
        result = emit(llvm.PoisonOp(elem))
        for i in range(elem.get_shape()[0]):
            lane = lw.constant(i, i64, op)
            args = [emit(llvm.ExtractElementOp(a, lane)) for a in operands]
            value = _libdevice_call(lw, op, scalar, args)
            result = emit(llvm.InsertElementOp(result, value, lane))
        lw.replace(op, [result])
        return
    lw.replace(op, [_libdevice_call(lw, op, elem, operands)])


def _libdevice_call(
    lw: Lowering, op: Operation, elem: Attribute, operands: Sequence[SSAValue]
) -> SSAValue:
    """One call of the libdevice function of `op` on scalars of type `elem`."""
    base = LIBDEVICE[op.name]
    flags = op.properties.get("fastmath") or op.attributes.get("fastmath")
    names = {getattr(f, "value", str(f)) for f in getattr(flags, "data", ()) or ()}
    fast = bool(names & {"afn", "fast"})
    if isinstance(elem, Float64Type):
        name, call_type = f"__nv_{base}", elem
    elif isinstance(elem, Float32Type | Float16Type | BFloat16Type):
        # libdevice has no half-precision functions: compute in f32, as upstream does.
        prefix = "__nv_fast_" if fast and base in _FAST else "__nv_"
        name, call_type = f"{prefix}{base}f", Float32Type()
    else:
        raise unsupported(PASS, op, f"operand type {elem} (libdevice takes f32 and f64 scalars)")
    emit = lw.emit(op)
    lw.declare(name, llvm.LLVMFunctionType([call_type] * len(operands), call_type), op)
    if call_type != elem:
        operands = [emit(llvm.FPExtOp(a, call_type)) for a in operands]
    result = emit(llvm.CallOp(name, *operands, return_type=call_type))
    if call_type != elem:
        result = emit(llvm.FPTruncOp(result, elem))
    return result


def _fpowi(lw: Lowering, op: Operation) -> None:
    base, power = lw.values(op.operands, op)
    elem = base.type
    if isinstance(elem, Float64Type):
        name = "__nv_powi"
    elif isinstance(elem, Float32Type):
        name = "__nv_powif"
    else:
        raise unsupported(PASS, op, f"operand type {elem}")
    emit = lw.emit(op)
    if power.type != i32:
        power = emit(llvm.TruncOp(power, i32))
    lw.declare(name, llvm.LLVMFunctionType([elem, i32], elem), op)
    lw.replace(op, [emit(llvm.CallOp(name, base, power, return_type=elem))])


Handler = Callable[[Lowering, Operation], None]

_HANDLERS: dict[str, Handler] = {
    **dict.fromkeys(_SREG, _id),
    "gpu.lane_id": _lane_id,
    "gpu.barrier": _barrier,
    "gpu.shuffle": _shuffle,
    **dict.fromkeys(LIBDEVICE, _libdevice),
    "math.fpowi": _fpowi,
}


def _lower_gpu_ops(module: ModuleOp, converter: LLVMTypeConverter) -> None:
    lw = Lowering(converter, PASS)
    counter = [0]
    for op in list(module.walk()):
        if op.parent is None and op is not module:
            continue
        if op.name == "gpu.printf":
            _printf(lw, op, counter)
            continue
        handler = _HANDLERS.get(op.name)
        if handler is not None:
            handler(lw, op)
        elif op.name.startswith("gpu."):
            raise unsupported(PASS, op, "this gpu op has no NVVM lowering")
    lw.finish()


# ---------------------------------------------------------------------------------------
# the pass


def lower_device_module(ctx: Context, device: gpu.ModuleOp) -> None:
    """Lower the body of one `gpu.module` to the LLVM and NVVM dialects, in place."""
    from schedir.lowering import get_all_passes
    from schedir.lowering.convert_arith_to_llvm import lower_arith
    from schedir.lowering.convert_cf_to_llvm import lower_cf
    from schedir.lowering.convert_func_to_llvm import lower_func
    from schedir.lowering.convert_math_to_llvm import lower_math
    from schedir.lowering.finalize_memref_to_llvm import lower_memref

    temp = ModuleOp([])
    for op in list(device.body.ops):
        op.detach()
        temp.body.block.add_op(op)
    globals_ = _Globals(temp)
    for op in list(temp.ops):
        if isinstance(op, gpu.FuncOp):
            if op.body.blocks:
                _prepare_memory(op, globals_)
            new = _to_func(op)
            temp.body.block.insert_op_before(new, op)
            op.detach()
            op.erase()
    passes = get_all_passes()
    for name in _DEVICE_PASSES:
        passes[name]()().apply(ctx, temp)
    converter = LLVMTypeConverter(NVVM_ADDRESS_SPACES)
    _lower_gpu_ops(temp, converter)
    lower_math(temp, converter)
    lower_arith(temp, converter)
    lower_memref(temp, converter)
    lower_func(temp, converter)
    lower_cf(temp, converter)
    passes["reconcile-unrealized-casts"]()().apply(ctx, temp)
    for op in temp.walk():
        if op is temp or op.name.startswith(("llvm.", "nvvm.")):
            continue
        raise unsupported(PASS, op, "it is left in device code after lowering")
    for op in list(temp.ops):
        op.detach()
        device.body.add_op(op)


@dataclass(frozen=True)
class ConvertGpuToNVVM(ModulePass):
    """Lower every `gpu.module` to the LLVM and NVVM dialects (see the module docstring)."""

    name = "convert-gpu-to-nvvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for device in gpu_modules(op):
            lower_device_module(ctx, device)


__all__ = [
    "KERNEL_ATTR",
    "LIBDEVICE",
    "MAXNTID_ATTR",
    "ConvertGpuToNVVM",
    "lower_device_module",
]
