"""The linalg dialect as schedir uses it, with upstream MLIR's syntax.

Ops: generic, yield, index (`generic`); map, reduce, transpose, broadcast and the aggregate
softmax (`ops`); pack and unpack (`relayout`); fill, copy, matmul, batch_matmul, matvec, vecmat, dot (`named`);
conv_2d_nhwc_hwcf, conv_2d_nhwc_fhwc, conv_2d_nchw_fchw, depthwise_conv_2d_nhwc_hwc,
pooling_nchw_max, pooling_nchw_sum, pooling_nhwc_max, pooling_nhwc_min, pooling_nhwc_sum
(`conv`); `base` holds what they share (scalar casts, the structured verifier, `ins(...)
outs(...)` syntax). xDSL's named elementwise ops (linalg.add, linalg.exp, ...) are not
registered: upstream removed them (use linalg.map or linalg.generic).

What the transform and lowering layers ask of any structured op is in `interface`
(is_structured, dps_inputs, dps_inits, indexing_maps, iterator_types, num_loops,
static_loop_ranges); `generalize` turns one into a `linalg.generic` (as_generic) and
`aggregate` decomposes softmax (decompose_softmax).
"""

from __future__ import annotations

from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Dialect

from schedir.dialects.linalg.base import TypeFn, TypeFnAttr
from schedir.dialects.linalg.conv import (
    CONV_OPS,
    Conv2DNchwFchwOp,
    Conv2DNhwcFhwcOp,
    Conv2DNhwcHwcfOp,
    DepthwiseConv2DNhwcHwcOp,
    PoolingNchwMaxOp,
    PoolingNchwSumOp,
    PoolingNhwcMaxOp,
    PoolingNhwcMinOp,
    PoolingNhwcSumOp,
)
from schedir.dialects.linalg.generic import GenericOp, IndexOp, YieldOp
from schedir.dialects.linalg.named import (
    NAMED_OPS,
    BatchMatmulOp,
    CopyOp,
    DotOp,
    FillOp,
    MatmulOp,
    MatvecOp,
    NamedStructuredOp,
    VecmatOp,
)
from schedir.dialects.linalg.ops import BroadcastOp, MapOp, ReduceOp, SoftmaxOp, TransposeOp
from schedir.dialects.linalg.relayout import PackOp, UnPackOp

Linalg = Dialect(
    "linalg",
    [
        GenericOp,
        YieldOp,
        IndexOp,
        *NAMED_OPS,
        *CONV_OPS,
        MapOp,
        ReduceOp,
        TransposeOp,
        BroadcastOp,
        SoftmaxOp,
        PackOp,
        UnPackOp,
    ],
    [IteratorTypeAttr, TypeFnAttr],
)
"""schedir's linalg dialect (see the module docstring)."""

__all__ = [
    "BatchMatmulOp",
    "BroadcastOp",
    "Conv2DNchwFchwOp",
    "Conv2DNhwcFhwcOp",
    "Conv2DNhwcHwcfOp",
    "CopyOp",
    "DepthwiseConv2DNhwcHwcOp",
    "DotOp",
    "FillOp",
    "GenericOp",
    "IndexOp",
    "IteratorTypeAttr",
    "Linalg",
    "MapOp",
    "MatmulOp",
    "MatvecOp",
    "NamedStructuredOp",
    "PackOp",
    "PoolingNchwMaxOp",
    "PoolingNchwSumOp",
    "PoolingNhwcMaxOp",
    "PoolingNhwcMinOp",
    "PoolingNhwcSumOp",
    "ReduceOp",
    "SoftmaxOp",
    "TransposeOp",
    "TypeFn",
    "TypeFnAttr",
    "UnPackOp",
    "VecmatOp",
    "YieldOp",
]
