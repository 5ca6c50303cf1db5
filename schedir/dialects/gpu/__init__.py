"""The gpu dialect as schedir uses it: upstream MLIR's syntax, mapping and memory attributes.

xDSL defines the gpu ops in generic form only and lacks the attributes a schedule uses to
map loops onto the GPU or to place buffers in its memories. schedir redefines the ops with
upstream's custom syntax (mlir/lib/Dialect/GPU/IR/GPUDialect.cpp), so payloads, lowering
stages and lit tests read and print as upstream does:

    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c8, %sz = %c1) {
      %i = gpu.thread_id x
      gpu.barrier
      gpu.terminator
    }
    gpu.launch_func @k::@k blocks in (%c4, %c1, %c1) threads in (%c32, %c8, %c1)
        args(%a : memref<16xf32>)
    gpu.module @k {
      gpu.func @k(%a: memref<16xf32>) kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
        gpu.return
      }
    }
    scf.forall (%i, %j) in (4, 8) { ... } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    %buf = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>

Block arguments of `gpu.launch` follow upstream's order: block ids (3), thread ids (3),
grid sizes (3), block sizes (3), then (with `clusters`) cluster ids and sizes, then the
workgroup and private memory attributions.

The ops live in modules by family: `launch` (launch, terminator), `module` (module, func,
return, yield, binary, the `#gpu.object` attributes), `launch_func`, `ids` (ids, sizes,
barrier, shuffle), `reduce` (subgroup_reduce, all_reduce), `memory` (alloc, dealloc, memcpy, memset, wait, printf); `attributes`
holds the loop-mapping and address-space attributes and `syntax` what the ops share
(async tokens, memory attributions, `#gpu.dim`). This module builds the dialect.
"""

from __future__ import annotations

from xdsl.dialects import gpu as xgpu
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import IRDLOperation

from schedir.dialects.gpu.attributes import (
    AddressSpaceAttr,
    BlockMappingAttr,
    DeviceMappingAttr,
    LaneMappingAttr,
    MemorySpaceMappingAttr,
    ThreadMappingAttr,
    WarpgroupMappingAttr,
    WarpMappingAttr,
)
from schedir.dialects.gpu.ids import (
    BarrierOp,
    BlockDimOp,
    BlockIdOp,
    ClusterDimOp,
    ClusterIdOp,
    DimensionOp,
    GlobalIdOp,
    GridDimOp,
    LaneIdOp,
    NumSubgroupsOp,
    ShuffleModeAttr,
    ShuffleOp,
    SubgroupIdOp,
    SubgroupSizeOp,
    ThreadIdOp,
)
from schedir.dialects.gpu.launch import LaunchOp, TerminatorOp
from schedir.dialects.gpu.launch_func import LaunchFuncOp
from schedir.dialects.gpu.memory import (
    AllocOp,
    DeallocOp,
    DynamicSharedMemoryOp,
    MemcpyOp,
    MemsetOp,
    PrintfOp,
    WaitOp,
)
from schedir.dialects.gpu.module import (
    BinaryOp,
    FuncOp,
    ModuleOp,
    ObjectAttr,
    ReturnOp,
    SelectObjectAttr,
    YieldOp,
)
from schedir.dialects.gpu.reduce import (
    AllReduceOp,
    AllReduceOperation,
    AllReduceOperationAttr,
    SubgroupReduceOp,
)
from schedir.dialects.gpu.syntax import AsyncTokenType, DimensionAttr

_OPS: tuple[type[IRDLOperation], ...] = (
    LaunchOp,
    TerminatorOp,
    ModuleOp,
    FuncOp,
    ReturnOp,
    YieldOp,
    BinaryOp,
    LaunchFuncOp,
    ThreadIdOp,
    BlockIdOp,
    BlockDimOp,
    GridDimOp,
    GlobalIdOp,
    ClusterIdOp,
    ClusterDimOp,
    LaneIdOp,
    SubgroupIdOp,
    NumSubgroupsOp,
    SubgroupSizeOp,
    BarrierOp,
    ShuffleOp,
    SubgroupReduceOp,
    AllReduceOp,
    AllocOp,
    DeallocOp,
    MemcpyOp,
    MemsetOp,
    WaitOp,
    PrintfOp,
    DynamicSharedMemoryOp,
)
"""The gpu ops schedir defines; they replace xDSL's of the same names."""

_ATTRS: tuple[type[Attribute], ...] = (
    DimensionAttr,
    ShuffleModeAttr,
    AllReduceOperationAttr,
    ObjectAttr,
    SelectObjectAttr,
    BlockMappingAttr,
    ThreadMappingAttr,
    WarpMappingAttr,
    WarpgroupMappingAttr,
    LaneMappingAttr,
    MemorySpaceMappingAttr,
    AddressSpaceAttr,
)
"""The gpu attributes schedir defines; they replace xDSL's of the same names."""


def _dialect() -> Dialect:
    # xDSL's ops and attributes whose names schedir does not define keep their classes;
    # a name is what the registry resolves, so the filter compares names.
    own_ops = {op.name for op in _OPS}
    own_attrs = {attr.name for attr in _ATTRS}
    return Dialect(
        "gpu",
        [*_OPS, *(op for op in xgpu.GPU.operations if op.name not in own_ops)],
        [
            *(attr for attr in xgpu.GPU.attributes if attr.name not in own_attrs),
            *_ATTRS,
        ],
    )


GPU = _dialect()
"""xDSL's gpu dialect with schedir's ops and attributes in place of its own."""

__all__ = [
    "GPU",
    "AddressSpaceAttr",
    "AllReduceOp",
    "AllReduceOperation",
    "AllReduceOperationAttr",
    "AllocOp",
    "AsyncTokenType",
    "BarrierOp",
    "BinaryOp",
    "BlockDimOp",
    "BlockIdOp",
    "BlockMappingAttr",
    "ClusterDimOp",
    "ClusterIdOp",
    "DeallocOp",
    "DeviceMappingAttr",
    "DimensionAttr",
    "DimensionOp",
    "DynamicSharedMemoryOp",
    "FuncOp",
    "GlobalIdOp",
    "GridDimOp",
    "LaneIdOp",
    "LaneMappingAttr",
    "LaunchFuncOp",
    "LaunchOp",
    "MemcpyOp",
    "MemorySpaceMappingAttr",
    "MemsetOp",
    "ModuleOp",
    "NumSubgroupsOp",
    "ObjectAttr",
    "PrintfOp",
    "ReturnOp",
    "SelectObjectAttr",
    "ShuffleModeAttr",
    "ShuffleOp",
    "SubgroupIdOp",
    "SubgroupReduceOp",
    "SubgroupSizeOp",
    "TerminatorOp",
    "ThreadIdOp",
    "ThreadMappingAttr",
    "WaitOp",
    "WarpMappingAttr",
    "WarpgroupMappingAttr",
    "YieldOp",
]
