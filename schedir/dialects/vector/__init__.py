"""The vector dialect as schedir uses it: every op schedules produce, in upstream syntax.

xDSL's vector dialect lacks `contract`, `multi_reduction`, `shape_cast`, `outerproduct`,
`transpose`, the strided slices, `constant_mask`, `mask`, `step`, `interleave` and the
element conversions, and prints several of the ops it has in a syntax upstream no longer
reads (`vector.shuffle` masks as arrays, load/store flags in the attribute dictionary).
This dialect holds schedir's definitions (subclassing xDSL's where one exists, so
`isinstance(op, xdsl.dialects.vector.TransferReadOp)` still holds, with the same
constructors and property names) and xDSL's `fma`, `bitcast` and `print` as they are:

    %r = vector.transfer_read %m[%i, %j], %pad {in_bounds = [true]} : memref<?x?xf32>, vector<4xf32>
    %c = vector.contract {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel",
           "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %acc
           : vector<4x8xf32>, vector<8x2xf32> into vector<4x2xf32>
    %s = vector.multi_reduction <add>, %v, %acc [1] : vector<4x8xf32> to vector<4xf32>
    %t = vector.transpose %v, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
    %x = vector.extract_strided_slice %v offsets = [0, 2], sizes = [2, 4], strides = [1, 1]
           : vector<4x8xf32> to vector<2x4xf32>
    %y = vector.mask %mask { vector.reduction <add>, %x : vector<4xf32> into f32 }
           : vector<4xi1> -> f32

Verifiers give upstream's messages. The ops live in modules by family: `transfer`,
`memory` (load, store, masked load/store, type_cast), `masks` (create_mask, constant_mask,
mask and yield, and the MaskableOpInterface), `contract`, `reductions`, `compute` (outer
product, fma, step), `shape` (broadcast, splat, shape_cast, transpose, extract, insert),
`slices` (strided slices, shuffle, interleave, element conversions, bitcast); `attributes`
holds the attributes and the helpers they share. Folders and lowerings live in
`schedir.transform.rewrites.vector`; the LLVM conversion in
`schedir.lowering.convert_vector_to_llvm`.
"""

from __future__ import annotations

from xdsl.dialects import vector as xvector
from xdsl.ir import Dialect

from schedir.dialects.vector.attributes import CombiningKindAttr, IteratorTypeAttr
from schedir.dialects.vector.compute import COMPUTE_OPS, FMAOp, OuterProductOp, StepOp
from schedir.dialects.vector.contract import ContractionOp
from schedir.dialects.vector.masks import MASK_OPS, ConstantMaskOp, CreateMaskOp, MaskOp, YieldOp
from schedir.dialects.vector.memory import (
    MEMORY_OPS,
    LoadOp,
    MaskedLoadOp,
    MaskedStoreOp,
    StoreOp,
    TypeCastOp,
)
from schedir.dialects.vector.reductions import MultiDimReductionOp, ReductionOp
from schedir.dialects.vector.shape import (
    SHAPE_OPS,
    BroadcastOp,
    ExtractOp,
    InsertOp,
    ShapeCastOp,
    SplatOp,
    TransposeOp,
)
from schedir.dialects.vector.slices import (
    SLICE_OPS,
    BitCastOp,
    DeinterleaveOp,
    ExtractStridedSliceOp,
    FromElementsOp,
    InsertStridedSliceOp,
    InterleaveOp,
    ShuffleOp,
    ToElementsOp,
)
from schedir.dialects.vector.transfer import TRANSFER_OPS, TransferReadOp, TransferWriteOp

_OPS = (
    *TRANSFER_OPS,
    *MEMORY_OPS,
    *MASK_OPS,
    ContractionOp,
    MultiDimReductionOp,
    ReductionOp,
    *COMPUTE_OPS,
    *SHAPE_OPS,
    *SLICE_OPS,
    xvector.PrintOp,
)

Vector = Dialect(
    "vector",
    list(dict.fromkeys(_OPS)),
    [CombiningKindAttr, IteratorTypeAttr],
)
"""schedir's vector dialect (see the module docstring)."""

__all__ = [
    "BitCastOp",
    "BroadcastOp",
    "CombiningKindAttr",
    "ConstantMaskOp",
    "ContractionOp",
    "CreateMaskOp",
    "DeinterleaveOp",
    "ExtractOp",
    "ExtractStridedSliceOp",
    "FMAOp",
    "FromElementsOp",
    "InsertOp",
    "InsertStridedSliceOp",
    "InterleaveOp",
    "IteratorTypeAttr",
    "LoadOp",
    "MaskOp",
    "MaskedLoadOp",
    "MaskedStoreOp",
    "MultiDimReductionOp",
    "OuterProductOp",
    "ReductionOp",
    "ShapeCastOp",
    "ShuffleOp",
    "SplatOp",
    "StepOp",
    "StoreOp",
    "ToElementsOp",
    "TransferReadOp",
    "TransferWriteOp",
    "TransposeOp",
    "TypeCastOp",
    "Vector",
    "YieldOp",
]
