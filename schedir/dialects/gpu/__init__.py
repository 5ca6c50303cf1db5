"""The gpu dialect's ops with upstream MLIR's custom syntax (mlir/lib/Dialect/GPU/IR/GPUDialect.cpp).

xDSL defines these ops in generic form only; schedir redefines them so payloads, lowering
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

Block arguments of `gpu.launch` follow upstream's order: block ids (3), thread ids (3),
grid sizes (3), block sizes (3), then (with `clusters`) cluster ids and sizes, then the
workgroup and private memory attributions.

The ops live in sibling modules by family: `_gpu_launch` (launch, terminator),
`_gpu_module` (module, func, return, yield, binary, objects), `_gpu_launch_func`,
`_gpu_ids` (ids, sizes, barrier, shuffle), `_gpu_memory` (alloc, dealloc, memcpy, memset,
wait, printf); `_gpu_syntax` holds the syntax they share. This module gathers them.
"""

from __future__ import annotations

from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation

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
    ShuffleMode,
    ShuffleModeAttr,
    ShuffleOp,
    SubgroupIdOp,
    SubgroupSizeOp,
    ThreadIdOp,
)
from schedir.dialects.gpu.launch import LaunchOp, TerminatorOp, UnresolvedArgumentLike
from schedir.dialects.gpu.launch_func import LaunchFuncOp
from schedir.dialects.gpu.memory import AllocOp, DeallocOp, MemcpyOp, MemsetOp, PrintfOp, WaitOp
from schedir.dialects.gpu.module import (
    OBJECT_FORMATS,
    BinaryOp,
    FuncOp,
    ModuleOp,
    ObjectAttr,
    ReturnOp,
    SelectObjectAttr,
    YieldOp,
)
from schedir.dialects.gpu.syntax import (
    DIMS,
    INDEX,
    AsyncTokenType,
    DimensionAttr,
    DimensionEnum,
    dimension,
)

OPS: tuple[type[IRDLOperation], ...] = (
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
    AllocOp,
    DeallocOp,
    MemcpyOp,
    MemsetOp,
    WaitOp,
    PrintfOp,
)
"""The gpu ops schedir defines; they replace xDSL's of the same names."""

ATTRS: tuple[type[Attribute], ...] = (DimensionAttr, ShuffleModeAttr, ObjectAttr, SelectObjectAttr)

__all__ = [
    "ATTRS",
    "DIMS",
    "INDEX",
    "OBJECT_FORMATS",
    "OPS",
    "AllocOp",
    "AsyncTokenType",
    "BarrierOp",
    "BinaryOp",
    "BlockDimOp",
    "BlockIdOp",
    "ClusterDimOp",
    "ClusterIdOp",
    "DeallocOp",
    "DimensionAttr",
    "DimensionEnum",
    "DimensionOp",
    "FuncOp",
    "GlobalIdOp",
    "GridDimOp",
    "LaneIdOp",
    "LaunchFuncOp",
    "LaunchOp",
    "MemcpyOp",
    "MemsetOp",
    "ModuleOp",
    "NumSubgroupsOp",
    "ObjectAttr",
    "PrintfOp",
    "ReturnOp",
    "SelectObjectAttr",
    "ShuffleMode",
    "ShuffleModeAttr",
    "ShuffleOp",
    "SubgroupIdOp",
    "SubgroupSizeOp",
    "TerminatorOp",
    "ThreadIdOp",
    "UnresolvedArgumentLike",
    "WaitOp",
    "YieldOp",
    "dimension",
]
