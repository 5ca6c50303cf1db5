"""The LLVM types of the nvgpu types (as upstream's NVGPU-to-NVVM type converter makes them):

- `!nvgpu.mbarrier.group<...>` -> `!llvm.ptr<3>`: the first barrier of the group's
  `[N x i64]` shared-memory global;
- `!nvgpu.mbarrier.token` -> `i64` (the phase state an arrive returns);
- `!nvgpu.tensormap.descriptor<...>` -> `!llvm.ptr`: the address of the 128-byte descriptor;
- `!nvgpu.warpgroup.descriptor<...>` -> `i64` (the wgmma matrix descriptor);
- `!nvgpu.warpgroup.accumulator<fragmented = vector<MxNxT>>` -> one struct per 64 rows, each
  holding the N/2 values a thread owns of that m64 x N tile:
  `!llvm.struct<(struct<(f32, ...)>, ...)>`;
- `!nvgpu.device.async.token` -> `i32`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntAttr, VectorType, i32, i64
from xdsl.ir import Attribute

from schedir.dialects import llvm
from schedir.dialects.nvgpu import types as nvgpu

WGMMA_ROWS = 64
"""Rows of the accumulator one wgmma instruction produces."""
WARPGROUP_THREADS = 128


def accumulator_struct(fragmented: VectorType) -> llvm.LLVMStructType:
    """The per-thread registers of a warpgroup accumulator: M/64 structs of N/2 values."""
    m, n = fragmented.get_shape()
    element = fragmented.get_element_type()
    inner = llvm.LLVMStructType.from_type_list([element] * (WGMMA_ROWS * n // WARPGROUP_THREADS))
    return llvm.LLVMStructType.from_type_list([inner] * max(m // WGMMA_ROWS, 1))


def nvgpu_llvm_type(t: Attribute) -> Attribute | None:
    """The LLVM type of an nvgpu type, None for other types."""
    match t:
        case nvgpu.MBarrierGroupType():
            return llvm.LLVMPointerType(IntAttr(3))
        case nvgpu.TensorMapDescriptorType():
            return llvm.LLVMPointerType()
        case nvgpu.MBarrierTokenType() | nvgpu.WarpgroupMatrixDescriptorType():
            return i64
        case nvgpu.WarpgroupAccumulatorType():
            return accumulator_struct(t.fragmented)
        case nvgpu.DeviceAsyncTokenType():
            return i32
    return None


__all__ = ["WARPGROUP_THREADS", "WGMMA_ROWS", "accumulator_struct", "nvgpu_llvm_type"]
