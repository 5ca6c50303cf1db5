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
* `gpu.all_reduce` and `gpu.subgroup_reduce` -> xor-shuffle butterflies (the cross-warp
  step of an all-reduce through a workgroup buffer), first (`nvvm/reductions.py`);
* `gpu.barrier` -> `nvvm.barrier`; `gpu.shuffle` -> `nvvm.shfl.sync` over the first
  `width` lanes (`return_value_and_is_valid` when the validity result is used);
  `gpu.printf` -> `vprintf` (floats promoted to f64);
* math: `exp`, `log`, `sin`, `tanh`, `pow`, `erf`, ... -> libdevice (`__nv_expf`, `__nv_exp`;
  `__nv_fast_*` variants with the `afn` flag; f16/bf16 through f32), `arith.remf` ->
  `__nv_fmodf`; `absf`, `sqrt`, `floor`, `ceil`, `fma`, ... stay LLVM intrinsics, which
  NVPTX implements natively.

The steps are data: `pipelines.GPU_DEVICE_TO_CF` (structured and vector code to branches
and LLVM vectors), then the gpu-op and libdevice lowerings of `nvvm/gpu_ops.py` and
`nvvm/libdevice.py`, then `pipelines.GPU_DEVICE_TO_LLVM` (the `*-to-llvm` passes with
NVVM's address spaces); kernels and their memory are prepared first (`nvvm/kernels.py`).

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

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from schedir.dialects import gpu, llvm, nvvm
from schedir.lowering import get_all_passes
from schedir.lowering.gpu import GPU_OPS, gpu_modules
from schedir.lowering.llvm.common import (
    Handler,
    LLVMConversionPass,
    LLVMTypeConverter,
    Lowering,
    handler_for,
    unsupported,
)
from schedir.lowering.llvm.type_converter import NVVM_ADDRESS_SPACES
from schedir.lowering.nvvm import (
    GPU_OP_LOWERINGS,
    LIBDEVICE_LOWERINGS,
    NVGPU_LOWERINGS,
    PASS,
    Globals,
    lower_printf,
    lower_reductions,
    prepare_memory,
    to_func,
)
from schedir.lowering.pipelines import GPU_DEVICE_TO_CF, GPU_DEVICE_TO_LLVM

_LOWERINGS: dict[type[Operation], Handler] = {
    **GPU_OP_LOWERINGS,
    **LIBDEVICE_LOWERINGS,
    **NVGPU_LOWERINGS,
}
"""The gpu ops, the math ops that become libdevice calls and the nvgpu ops, by class."""

_DEVICE_OPS: tuple[type[Operation], ...] = (*llvm.LLVM.operations, *nvvm.NVVM.operations)
"""What device code may hold after the lowering: ops of the llvm and nvvm dialects."""


def _lower_gpu_ops(module: ModuleOp, converter: LLVMTypeConverter) -> None:
    lw = Lowering(converter, PASS)
    counter = [0]
    for op in list(module.walk()):
        if op.parent is None and op is not module:
            continue
        if isinstance(op, gpu.PrintfOp):
            lower_printf(lw, op, counter)
            continue
        handler = handler_for(_LOWERINGS, op)
        if handler is not None:
            handler(lw, op)
        elif isinstance(op, GPU_OPS):
            raise unsupported(PASS, op, "this gpu op has no NVVM lowering")
    lw.finish()


# ---------------------------------------------------------------------------------------
# the pass


def lower_device_module(ctx: Context, device: gpu.ModuleOp) -> None:
    """Lower the body of one `gpu.module` to the LLVM and NVVM dialects, in place."""
    temp = ModuleOp([])
    for op in list(device.body.ops):
        op.detach()
        temp.body.block.add_op(op)
    globals_ = Globals(temp)
    for op in list(temp.ops):
        if isinstance(op, gpu.FuncOp):
            if op.body.blocks:
                lower_reductions(op)
                prepare_memory(op, globals_)
            new = to_func(op)
            temp.body.block.insert_op_before(new, op)
            op.detach()
            op.erase()
    passes = get_all_passes()
    for name in GPU_DEVICE_TO_CF:
        passes[name]()().apply(ctx, temp)
    converter = LLVMTypeConverter(NVVM_ADDRESS_SPACES)
    _lower_gpu_ops(temp, converter)
    for name in GPU_DEVICE_TO_LLVM:
        device_pass = passes[name]()()
        if isinstance(device_pass, LLVMConversionPass):
            device_pass.convert(temp, converter)
        else:
            device_pass.apply(ctx, temp)
    for op in temp.walk():
        if op is temp or isinstance(op, _DEVICE_OPS):
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


__all__ = ["ConvertGpuToNVVM", "lower_device_module"]
