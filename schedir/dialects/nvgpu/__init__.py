"""The nvgpu dialect (upstream NVGPUOps.td): NVIDIA tensor-core and asynchronous-copy
ops on memrefs and vectors, between the gpu/vector dialects and nvvm.

xDSL has no nvgpu dialect. schedir defines the ops of the tensor-core route in upstream's
syntax (as upstream prints them today, properties as keywords; the legacy attr-dict
spelling is read too) with upstream's verifiers:

    %b = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    nvgpu.mbarrier.init %b[%c0], %c128 : !bar
    nvgpu.tma.async.load %tmap[%x, %y], %b[%c0] to %smem : !tmap, !bar -> memref<64x64xf16, 3>
    nvgpu.mbarrier.try_wait.parity %b[%c0], %phase, %ticks : !bar
    %dA = nvgpu.warpgroup.generate.descriptor %smem, %tmap : memref<64x64xf16, 3>, !tmap -> !descA
    %d = nvgpu.warpgroup.mma %dA, %dB, %acc transposeB : !descA, !descB, !acc -> !acc

Modules by family: `types` (the types and tensor-map enums), `mbarrier`, `tma`,
`warpgroup` (wgmma), `warp` (ldmatrix, mma.sync), `async_copy` (cp.async); `syntax`
holds what their custom forms share. This module builds the dialect.
"""

from __future__ import annotations

from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation

from schedir.dialects.nvgpu import async_copy, mbarrier, tma, warp, warpgroup
from schedir.dialects.nvgpu.async_copy import (
    DeviceAsyncCopyOp,
    DeviceAsyncCreateGroupOp,
    DeviceAsyncWaitOp,
)
from schedir.dialects.nvgpu.mbarrier import (
    MBarrierArriveExpectTxOp,
    MBarrierArriveNoCompleteOp,
    MBarrierArriveOp,
    MBarrierCreateOp,
    MBarrierInitOp,
    MBarrierTestWaitOp,
    MBarrierTryWaitParityOp,
)
from schedir.dialects.nvgpu.tma import (
    TmaAsyncLoadOp,
    TmaAsyncStoreOp,
    TmaCreateDescriptorOp,
    TmaFenceOp,
    TmaPrefetchOp,
)
from schedir.dialects.nvgpu.types import (
    TYPES,
    DeviceAsyncTokenType,
    MBarrierGroupType,
    MBarrierTokenType,
    TensorMapDescriptorType,
    WarpgroupAccumulatorType,
    WarpgroupMatrixDescriptorType,
)
from schedir.dialects.nvgpu.warp import LdMatrixOp, MmaSyncOp
from schedir.dialects.nvgpu.warpgroup import (
    WarpgroupGenerateDescriptorOp,
    WarpgroupMmaInitAccumulatorOp,
    WarpgroupMmaOp,
    WarpgroupMmaStoreOp,
)

OPS: tuple[type[IRDLOperation], ...] = (
    *mbarrier.OPS,
    *tma.OPS,
    *warpgroup.OPS,
    *warp.OPS,
    *async_copy.OPS,
)

NVGPU = Dialect("nvgpu", list(OPS), list(TYPES))
"""The nvgpu dialect."""

__all__ = [
    "NVGPU",
    "OPS",
    "DeviceAsyncCopyOp",
    "DeviceAsyncCreateGroupOp",
    "DeviceAsyncTokenType",
    "DeviceAsyncWaitOp",
    "LdMatrixOp",
    "MBarrierArriveExpectTxOp",
    "MBarrierArriveNoCompleteOp",
    "MBarrierArriveOp",
    "MBarrierCreateOp",
    "MBarrierGroupType",
    "MBarrierInitOp",
    "MBarrierTestWaitOp",
    "MBarrierTokenType",
    "MBarrierTryWaitParityOp",
    "MmaSyncOp",
    "TensorMapDescriptorType",
    "TmaAsyncLoadOp",
    "TmaAsyncStoreOp",
    "TmaCreateDescriptorOp",
    "TmaFenceOp",
    "TmaPrefetchOp",
    "WarpgroupAccumulatorType",
    "WarpgroupGenerateDescriptorOp",
    "WarpgroupMatrixDescriptorType",
    "WarpgroupMmaInitAccumulatorOp",
    "WarpgroupMmaOp",
    "WarpgroupMmaStoreOp",
]
