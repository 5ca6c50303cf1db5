"""Structured-op rewrites that neither tile nor pad: generalize, interchange, decompose.

Each function takes a rewriter positioned anywhere and a payload op, rewrites the payload
as upstream's C++ does (mlir/lib/Dialect/Linalg/Transforms/{Generalization,
Interchange}.cpp and `SoftmaxOp::decomposeOperation`) and returns a frozen record of
what it built. A precondition that does not hold raises `RewriteFailure` with upstream's
reason; the transform op decides whether that is silenceable.

    %g = linalg.matmul ins(%a, %b) outs(%c)          generalize -> linalg.generic
    linalg.generic {iterator_types = [p, p, r]}      interchange [2, 0, 1] -> [r, p, p]
    linalg.softmax                                   decompose -> fill/max/exp/fill/sum/div
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects import tensor as xtensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects import affine, linalg
from schedir.dialects.linalg.aggregate import decompose_softmax
from schedir.dialects.linalg.generalize import as_generic
from schedir.dialects.linalg.interface import dps_inits, dps_inputs, is_structured
from schedir.dialects.tensor import ExtractSliceOp, InsertSliceOp


class RewriteFailure(Exception):
    """A payload rewrite's precondition failed; `reason` is upstream's match-failure text."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class GeneralizeResult:
    """`generic` replaced the named op (or is the op itself, when it was generic)."""

    generic: linalg.GenericOp


@dataclass(frozen=True)
class InterchangeResult:
    """The interchanged generic (modified in place, as upstream) and its new index ops."""

    generic: linalg.GenericOp
    index_ops: tuple[Operation, ...]


@dataclass(frozen=True)
class DecomposeResult:
    """The ops of an aggregate's decomposition and the ops defining its new results."""

    ops: tuple[Operation, ...]
    result_ops: tuple[Operation, ...]


def generalize(rewriter: PatternRewriter, op: Operation) -> GeneralizeResult:
    """Replace structured op `op` by an equivalent `linalg.generic` (upstream's
    `generalizeNamedOp`); a generic is returned unchanged."""
    if isinstance(op, linalg.GenericOp):
        return GeneralizeResult(op)
    if not is_structured(op):
        raise RewriteFailure("preconditions not met")
    generic = as_generic(op)
    rewriter.replace(op, generic, list(generic.results))
    return GeneralizeResult(generic)


def interchange(
    rewriter: PatternRewriter, generic: linalg.GenericOp, permutation: Sequence[int]
) -> InterchangeResult:
    """Permute the loops of `generic` in place: new loop `i` is old loop `permutation[i]`.

    Indexing maps are composed with the inverse permutation, iterator types permuted,
    and each `linalg.index` becomes `affine.apply` of the permuted dims over fresh
    `linalg.index` ops of every loop (upstream's `interchangeGenericOp`).
    """
    num_loops = len(generic.iterator_types.data)
    if sorted(permutation) != list(range(num_loops)):
        raise RewriteFailure("interchange vector is not a permutation of the loops")
    # inverse[old] = new: old loop `old` is now loop `inverse[old]`.
    inverse = [0] * num_loops
    for new, old in enumerate(permutation):
        inverse[old] = new
    to_new = AffineMap(num_loops, 0, tuple(AffineDimExpr(inverse[d]) for d in range(num_loops)))
    maps = [AffineMapAttr(m.data.compose(to_new)) for m in generic.indexing_maps.data]
    iterators = [generic.iterator_types.data[old] for old in permutation]
    generic.properties["indexing_maps"] = ArrayAttr(maps)
    generic.properties["iterator_types"] = ArrayAttr[IteratorTypeAttr](iterators)
    rewriter.handle_operation_modification(generic)
    new_index_ops: list[Operation] = []
    for index_op in [o for o in generic.body.walk() if isinstance(o, linalg.IndexOp)]:
        if index_op.parent_op() is not generic:
            continue  # an index of a nested structured op refers to that op's loops
        old_dim = index_op.dim.value.data
        fresh = [linalg.IndexOp(d) for d in range(num_loops)]
        apply = affine.ApplyOp(
            [o.result for o in fresh],
            AffineMapAttr(AffineMap(num_loops, 0, (AffineDimExpr(inverse[old_dim]),))),
        )
        for new_op in (*fresh, apply):
            new_op.location = index_op.location
        rewriter.insert([*fresh, apply], InsertPoint.before(index_op))
        rewriter.replace(index_op, [], [apply.result])
        new_index_ops += [*fresh, apply]
    return InterchangeResult(generic, tuple(new_index_ops))


def decompose_aggregate(rewriter: PatternRewriter, op: Operation) -> DecomposeResult:
    """Decompose an `AggregatedOpInterface` op (`linalg.softmax`) into structured ops."""
    if not isinstance(op, linalg.SoftmaxOp):
        raise RewriteFailure("payload is not a decomposable op")
    if not isinstance(op.input.type, TensorType) or not isinstance(op.output.type, TensorType):
        raise RewriteFailure("only tensor semantics can be decomposed")
    new_ops = decompose_softmax(op)
    last = new_ops[-1]
    rewriter.replace(op, new_ops, list(last.results))
    return DecomposeResult(tuple(new_ops), (last,))


# --- decompose (DownscaleSizeOneWindowed2DConvolution and friends) ------------------------

_DOWNSCALE: dict[type[Operation], tuple[str, tuple[int, int, int, int]]] = {
    linalg.Conv2DNhwcHwcfOp: ("linalg.conv_1d_nwc_wcf", (0, 1, 1, 2)),
    linalg.Conv2DNchwFchwOp: ("linalg.conv_1d_ncw_fcw", (2, 3, 2, 3)),
    linalg.PoolingNhwcSumOp: ("linalg.pooling_nwc_sum", (0, 1, 1, 2)),
    linalg.PoolingNchwSumOp: ("linalg.pooling_ncw_sum", (0, 1, 2, 3)),
    linalg.PoolingNhwcMaxOp: ("linalg.pooling_nwc_max", (0, 1, 1, 2)),
    linalg.PoolingNhwcMinOp: ("linalg.pooling_nwc_min", (0, 1, 1, 2)),
    linalg.PoolingNchwMaxOp: ("linalg.pooling_ncw_max", (0, 1, 2, 3)),
    linalg.DepthwiseConv2DNhwcHwcOp: ("linalg.depthwise_conv_1d_nwc_wc", (0, 1, 1, 2)),
}
"""2-D op -> the name of its 1-D op (looked up, since schedir's linalg defines few of them)
and the (kh, kw, oh, ow) positions in its kernel and output types. Upstream also
downscales pooling_nhwc_{max,min}_unsigned and conv_2d, which schedir does not define."""


class MissingOp(Exception):
    """The rewrite needs an op schedir's linalg dialect does not define."""


@dataclass(frozen=True)
class DecomposeConvResult:
    """The 1-D op computing the 2-D op whose unit window dimension was dropped."""

    conv_1d: Operation


def _linalg_class(name: str) -> type[Operation] | None:
    return {cls.name: cls for cls in linalg.Linalg.operations}.get(name)


def decompose_conv(
    rewriter: PatternRewriter,
    op: Operation,
    lookup: Callable[[str], type[Operation] | None] = _linalg_class,
) -> DecomposeConvResult:
    """A 2-D convolution or pooling whose kernel and output are 1 along H (or W) as the
    1-D op on rank-reduced slices, inserted back into the output (upstream's
    `DownscaleSizeOneWindowed2DConvolution` / `DownscaleDepthwiseConv2DNhwcHwcOp` /
    `DownscaleConv2DOp`)."""
    downscale = next((d for cls, d in _DOWNSCALE.items() if isinstance(op, cls)), None)
    if downscale is None:
        raise RewriteFailure("not a 2-D convolution or pooling with a 1-D form")
    input_, kernel = dps_inputs(op)
    (output,) = dps_inits(op)
    types = [v.type for v in (input_, kernel, output)]
    if not all(isinstance(t, TensorType) for t in types):
        raise RewriteFailure("only tensor semantics is supported")
    target_name, (kh, kw, oh, ow) = downscale
    kernel_shape = kernel.type.get_shape()  # type: ignore[union-attr]  # the operand is a ranked shaped type (the op verifies it)
    output_shape = output.type.get_shape()  # type: ignore[union-attr]  # the operand is a ranked shaped type (the op verifies it)
    remove_h = kernel_shape[kh] == 1 and output_shape[oh] == 1
    remove_w = kernel_shape[kw] == 1 and output_shape[ow] == 1
    if not remove_h and not remove_w:
        raise RewriteFailure("no unit window dimension to remove")
    target = lookup(target_name)
    if target is None:
        raise MissingOp(target_name)
    spatial = 0 if remove_h else 1
    drop_io, drop_kernel = (oh, kh) if remove_h else (ow, kw)
    new_ops: list[Operation] = []

    def mixed_sizes(value: SSAValue) -> list[int | SSAValue]:
        """Upstream's `getMixedSizes`: static sizes, `tensor.dim` for dynamic ones."""
        sizes: list[int | SSAValue] = []
        for d, size in enumerate(value.type.get_shape()):  # type: ignore[union-attr]  # the operand is a ranked shaped type (the op verifies it)
            if size != DYNAMIC_INDEX:
                sizes.append(size)
                continue
            index = arith.ConstantOp(IntegerAttr(d, IndexType()))
            dim = xtensor.DimOp(value, index)
            new_ops.extend([index, dim])
            sizes.append(dim.result)
        return sizes

    def rank_reduced(value: SSAValue, drop: int) -> SSAValue:
        shape = list(value.type.get_shape())  # type: ignore[union-attr]  # the operand is a ranked shaped type (the op verifies it)
        element = value.type.get_element_type()  # type: ignore[union-attr]  # the value is shaped (the op verifies it); xDSL declares the element type on each shaped class only
        sizes = mixed_sizes(value)
        result = TensorType(element, [s for d, s in enumerate(shape) if d != drop])
        slice_op = ExtractSliceOp(value, [0] * len(shape), sizes, [1] * len(shape), result)
        new_ops.append(slice_op)
        return slice_op.result

    new_input = rank_reduced(input_, drop_io)
    new_kernel = rank_reduced(kernel, drop_kernel)
    new_output = rank_reduced(output, drop_io)
    props: dict[str, Attribute | None] = {}
    for name in ("dilations", "strides"):
        attr = op.properties.get(name)
        if isinstance(attr, DenseIntOrFPElementsAttr):
            values = [int(v) for v in attr.get_values()]
            del values[spatial]
            props[name] = DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(values)]), values)
    assert issubclass(target, linalg.NamedStructuredOp)  # the 1-D forms are named ops
    conv = target([new_input, new_kernel], [new_output], properties=props)
    new_ops.append(conv)
    sizes = mixed_sizes(output)
    insert = InsertSliceOp.build(
        operands=[conv.results[0], output, [], [s for s in sizes if isinstance(s, SSAValue)], []],
        result_types=[output.type],
        properties={
            "static_offsets": DenseArrayBase.from_list(i64, [0] * len(sizes)),
            "static_sizes": DenseArrayBase.from_list(
                i64, [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes]
            ),
            "static_strides": DenseArrayBase.from_list(i64, [1] * len(sizes)),
        },
    )
    new_ops.append(insert)
    for new_op in new_ops:
        new_op.location = op.location
    rewriter.replace(op, new_ops, [insert.results[0]])
    return DecomposeConvResult(conv)


__all__ = [
    "DecomposeConvResult",
    "DecomposeResult",
    "GeneralizeResult",
    "InterchangeResult",
    "MissingOp",
    "RewriteFailure",
    "decompose_aggregate",
    "decompose_conv",
    "generalize",
    "interchange",
]
