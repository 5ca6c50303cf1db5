"""A reduction over the threads of a block as one `gpu.all_reduce` per thread: the payload
algorithm of `transform.schedir.gpu.reduce_to_all_reduce`.

The target is the merge of per-thread partial results that `tile_reduction_using_for` /
`tile_reduction_using_forall` leave (a `linalg.reduce` of a `1x...xN` partial tensor into a
`1x...x1` init): every dim but one is a parallel dim of extent 1, the reduction dim has a
static extent N, and the body combines the input with the init in one recognized op. The
partials go through an `scf.forall` over N iterations (one per thread once mapped) in which
iteration `t` reads partial `t`, reduces it over the block with `gpu.all_reduce` and writes
the result back into slot `t` (its own: no two iterations touch the same element); the
target then merges only slot 0 into its init (a one-element reduction, for one thread to
run: `tile_using_forall ... num_threads [1]`).

    %r = linalg.reduce ins(%p : tensor<1x256xf32>) outs(%init : tensor<1xf32>) dimensions = [1]
      (%in: f32, %out: f32) { %s = arith.addf %in, %out : f32  linalg.yield %s : f32 }

becomes

    %r = scf.forall (%t) in (256) shared_outs(%o = %p) -> (tensor<1x256xf32>) {
      %v = tensor.extract %o[%c0, %t] : tensor<1x256xf32>
      %a = gpu.all_reduce add %v uniform {
      } : (f32) -> f32
      %slot = tensor.extract_slice %o[0, %t] [1, 1] [1, 1] : tensor<1x256xf32> to tensor<1x1xf32>
      %f = linalg.fill ins(%a : f32) outs(%slot : tensor<1x1xf32>) -> tensor<1x1xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %f into %o[0, %t] [1, 1] [1, 1]
          : tensor<1x1xf32> into tensor<1x256xf32>
      }
    } {mapping = [#gpu.thread<x>]}
    %first = tensor.extract_slice %r[0, 0] [1, 1] [1, 1] : tensor<1x256xf32> to tensor<1x1xf32>
    %m = linalg.reduce ins(%first : tensor<1x1xf32>) outs(%init : tensor<1xf32>) dimensions = [1] ...
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ShapedType, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects import gpu, linalg
from schedir.dialects.gpu.reduce import AllReduceOperation
from schedir.dialects.linalg.interface import (
    dps_inits,
    dps_inputs,
    indexing_maps,
    is_structured,
    iterator_types,
)
from schedir.dialects.scf import ForallOp
from schedir.dialects.tensor import (
    ExtractOp,
    ExtractSliceOp,
    ParallelInsertSliceOp,
)

_KINDS: Sequence[tuple[type[Operation], AllReduceOperation]] = (
    (arith.AddfOp, AllReduceOperation.ADD),
    (arith.AddiOp, AllReduceOperation.ADD),
    (arith.MulfOp, AllReduceOperation.MUL),
    (arith.MuliOp, AllReduceOperation.MUL),
    (arith.MaxnumfOp, AllReduceOperation.MAXNUMF),
    (arith.MinnumfOp, AllReduceOperation.MINNUMF),
    (arith.MaximumfOp, AllReduceOperation.MAXIMUMF),
    (arith.MinimumfOp, AllReduceOperation.MINIMUMF),
    (arith.MaxSIOp, AllReduceOperation.MAXSI),
    (arith.MinSIOp, AllReduceOperation.MINSI),
    (arith.MaxUIOp, AllReduceOperation.MAXUI),
    (arith.MinUIOp, AllReduceOperation.MINUI),
    (arith.AndIOp, AllReduceOperation.AND),
    (arith.OrIOp, AllReduceOperation.OR),
    (arith.XOrIOp, AllReduceOperation.XOR),
)
"""The combiner ops of a reduction body and the `gpu.all_reduce` operation of each."""


class AllReduceRewriteError(Exception):
    """The target is not a reduction this rewrite handles (a silenceable failure)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class AllReduceRewrite:
    """What `reduce_to_all_reduce` built: the forall, its `gpu.all_reduce`, and the target
    now merging only the first (reduced) partial."""

    forall: ForallOp
    all_reduce: gpu.AllReduceOp
    merge: Operation


def _kind(combiner: Operation) -> AllReduceOperation | None:
    return next((kind for cls, kind in _KINDS if isinstance(combiner, cls)), None)


def _check(op: Operation) -> tuple[int, int, Operation, AllReduceOperation]:
    """The reduction dim, its extent, the combiner and its operation, or an error."""
    if not is_structured(op):
        raise AllReduceRewriteError("expected a linalg operation")
    inputs, inits = dps_inputs(op), dps_inits(op)
    if len(inputs) != 1 or len(inits) != 1:
        raise AllReduceRewriteError(
            f"expected one input and one init, got {len(inputs)} and {len(inits)}"
        )
    types = [inputs[0].type, inits[0].type]
    if not all(isinstance(t, TensorType) for t in types):
        raise AllReduceRewriteError("expected an operation on tensors")
    shapes = [cast(ShapedType, t).get_shape() for t in types]
    if any(d < 0 for shape in shapes for d in shape):
        raise AllReduceRewriteError("expected static shapes")
    iterators = iterator_types(op)
    reductions = [i for i, it in enumerate(iterators) if it == "reduction"]
    if len(reductions) != 1:
        raise AllReduceRewriteError(f"expected one reduction dim, got {len(reductions)}")
    (dim,) = reductions
    in_map, init_map = indexing_maps(op)
    for m in (in_map, init_map):
        if not all(isinstance(e, AffineDimExpr) for e in m.results):
            raise AllReduceRewriteError("expected projected permutation indexing maps")
    extents = dict.fromkeys(range(len(iterators)), 1)
    for expr, size in zip(in_map.results, shapes[0], strict=True):
        extents[cast(AffineDimExpr, expr).position] = size
    parallel = [extents[d] for d in range(len(iterators)) if d != dim]
    if any(size != 1 for size in parallel):
        raise AllReduceRewriteError(
            f"expected parallel dims of extent 1 (one reduction per block), got {parallel}"
        )
    body = op.regions[0].block
    in_arg, out_arg = body.args
    ops = list(body.ops)
    if len(ops) != 2 or len(ops[0].operands) != 2 or set(ops[0].operands) != {in_arg, out_arg}:
        raise AllReduceRewriteError("expected a body that combines the input with the init")
    combiner = ops[0]
    if tuple(ops[1].operands) != (combiner.results[0],):
        raise AllReduceRewriteError("expected a body that yields its combination")
    kind = _kind(combiner)
    if kind is None:
        raise AllReduceRewriteError(f"'{combiner.name}' is not a combiner gpu.all_reduce has")
    return dim, extents[dim], combiner, kind


def reduce_to_all_reduce(
    rewriter: PatternRewriter, op: Operation, mapping: Sequence[Attribute]
) -> AllReduceRewrite:
    """Reduce the partials of `op` over the block with one `gpu.all_reduce` per thread and
    leave `op` merging only the first of them (see the module docstring); `mapping` is the
    forall's (one thread or warp dimension)."""
    dim, extent, _, kind = _check(op)
    (source,) = dps_inputs(op)
    in_map = indexing_maps(op)[0]
    rank = len(in_map.results)
    rewriter.insertion_point = InsertPoint.before(op)
    forall = ForallOp([0], [extent], [1], [source], list(mapping))
    rewriter.insert(forall)
    t = forall.induction_vars[0]
    (slots,) = forall.region_iter_args
    rewriter.insertion_point = InsertPoint.before(forall.terminator)
    zero = rewriter.insert(arith.ConstantOp(IntegerAttr(0, IndexType()))).results[0]
    position = [i for i, e in enumerate(in_map.results) if cast(AffineDimExpr, e).position == dim]
    indices = [t if i in position else zero for i in range(rank)]
    element_type = cast(TensorType[Attribute], source.type).get_element_type()
    value = rewriter.insert(ExtractOp(slots, indices, element_type)).results[0]
    all_reduce = gpu.AllReduceOp(value, kind, uniform=True)
    rewriter.insert(all_reduce)
    one_type = TensorType(element_type, [1] * rank)
    # The result is written by filling this thread's own 1x..x1 slot (bufferized in place,
    # no copy), not by inserting a new tensor.
    offsets: list[SSAValue | int] = [t if i in position else 0 for i in range(rank)]
    slot = rewriter.insert(ExtractSliceOp(slots, offsets, [1] * rank, [1] * rank, one_type))
    filled = rewriter.insert(linalg.FillOp([all_reduce.result], [slot.results[0]], [one_type]))
    rewriter.insertion_point = InsertPoint.at_end(forall.terminator.region.block)
    rewriter.insert(ParallelInsertSliceOp(filled.results[0], slots, offsets, [1] * rank))
    rewriter.insertion_point = InsertPoint.before(op)
    first = rewriter.insert(
        ExtractSliceOp(forall.results[0], [0] * rank, [1] * rank, [1] * rank, one_type)
    )
    op.operands[0] = first.results[0]
    return AllReduceRewrite(forall, all_reduce, op)


__all__ = ["AllReduceRewrite", "AllReduceRewriteError", "reduce_to_all_reduce"]
