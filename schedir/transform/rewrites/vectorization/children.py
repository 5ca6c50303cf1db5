"""`vectorize_children_and_apply_patterns` (upstream LinalgTransformOps.cpp).

One greedy rewrite of an isolated-from-above op with upstream's pattern set:

* every op with a vector form is vectorized without vector sizes (ops whose
  preconditions fail are left alone);
* transfer permutation-map lowering (unless disabled), reduction to contract (unless
  disabled), vector sinking (`populateSinkVectorOpsPatterns`);
* forwarding of transfers through promoted buffers (`memref.copy` in or out);
* the transfer canonicalizations (read after a differently permuted write becomes a
  broadcast + transpose, write after write to the same place drops the first) and the
  tensor subset folds into transfers (`canonicalize.tensor_subsets`);
* `memref.copy` and `tensor.insert_slice` vectorization, `vector.step` to a constant;
* with `vectorize_padding`: tensor.pad into its transfer_read / insert_slice users, else
  decomposed into empty + fill + insert_slice (then vectorized);
* with `fold_type_extensions_into_contract`: arith extensions fold into contractions.

The driver folds every op, as upstream's. Constants and `ub.poison` end up uniqued at
the start of the target's body, as upstream's operation folder leaves them.

    func.func @mm(...) { %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) ... }
  =>
    %va = vector.transfer_read %a[%c0, %c0], %0 {in_bounds = [true, true]} : ...
    %vb = vector.transfer_read %b[%c0, %c0], %0 {in_bounds = [true, true]} : ...
    %vc = vector.transfer_read %c[%c0, %c0], %0 {in_bounds = [true, true]} : ...
    %r = vector.contract {...} %va, %vb, %vc : vector<4x8xf32>, vector<8x16xf32> into vector<4x16xf32>
    %w = vector.transfer_write %r, %c[%c0, %c0] {in_bounds = [true, true]} : ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith, memref, ub
from xdsl.dialects.builtin import (
    AffineMapAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    ShapedType,
    TensorType,
    VectorType,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.rewriter import InsertPoint

from schedir.dialects import vector
from schedir.dialects.tensor import ExtractSliceOp, InsertSliceOp
from schedir.dialects.vector.attributes import (
    bool_array,
    compress_unused_dims,
    in_bounds_values,
    permutation_of_minor_identity_with_broadcasting,
    vec,
)
from schedir.transform.rewrites.canonicalize.driver import apply_patterns_greedily
from schedir.transform.rewrites.canonicalize.tensor import build_extract_slice, slice_params
from schedir.transform.rewrites.canonicalize.tensor_subsets import (
    fold_tensor_subset_into_transfers_patterns,
)
from schedir.transform.rewrites.constants import constant_int
from schedir.transform.rewrites.greedy import GreedyConfig, PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.contract import fold_arith_extension_patterns
from schedir.transform.rewrites.vector.sink import sink_patterns
from schedir.transform.rewrites.vector.transfer import permutation_patterns
from schedir.transform.rewrites.vector.utils import defining, entry_block
from schedir.transform.rewrites.vectorization.contract import reduction_to_contract_patterns
from schedir.transform.rewrites.vectorization.dispatch import has_vectorization_impl, vectorize
from schedir.transform.rewrites.vectorization.forwarding import copy_forwarding_patterns
from schedir.transform.rewrites.vectorization.pad import pad_patterns, vectorize_copy
from schedir.transform.rewrites.vectorization.state import VectorizationFailure
from schedir.transform.rewrites.vectorization.tensor import insert_slice_vectorization


@dataclass(frozen=True)
class ChildrenOptions:
    """The options of `vectorize_children_and_apply_patterns`."""

    vectorize_padding: bool = False
    vectorize_nd_extract: bool = False
    fold_type_extensions_into_contract: bool = False
    disable_multi_reduction_to_contract_patterns: bool = False
    disable_transfer_permutation_map_lowering_patterns: bool = False


# --- vectorization as a pattern ------------------------------------------------------------


def _vectorization_pattern(nd_extract: bool):
    def vectorization(op: Operation, rw: CanonRewriter) -> bool:
        """Upstream's `VectorizationPattern`: vectorize any op that has a vector form."""
        if not has_vectorization_impl(op):
            return False
        try:
            result = vectorize(rw, op, (), (), nd_extract=nd_extract)
        except VectorizationFailure:
            return False
        rw.replace_values(op, list(result.replacements))
        return True

    return vectorization


# --- transfer canonicalizations ----------------------------------------------------------------


def _transfer_indices(op: Operation) -> list[SSAValue]:
    if isinstance(op, vector.TransferReadOp | vector.TransferWriteOp):
        return list(op.indices)
    return []


def _chunk(op: Operation) -> list[int]:
    """Upstream's `getTransferChunkAccessed`: the accessed size per shaped dim."""
    if isinstance(op, vector.TransferReadOp):
        vtype, shaped = cast(VectorType, op.result.type), op.source.type
    else:
        op = cast(vector.TransferWriteOp, op)
        vtype, shaped = cast(VectorType, op.vector.type), op.source.type
    m = cast(AffineMapAttr, op.properties["permutation_map"]).data
    sizes = [1] * len(cast(ShapedType, shaped).get_shape())
    for size, expr in zip(vtype.get_shape(), m.results, strict=True):
        if isinstance(expr, AffineDimExpr):
            sizes[expr.position] = size
    return sizes


def read_after_write_to_broadcast(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `TransferReadAfterWriteToBroadcast`: a read of what a write with
    another permutation just wrote is a broadcast + transpose of the written vector."""
    assert isinstance(op, vector.TransferReadOp)
    rank = len(op.permutation_map.data.results)
    if not all(in_bounds_values(op.in_bounds, rank)) or not isinstance(op.source.type, TensorType):
        return False
    write = defining(op.source, vector.TransferWriteOp)
    if write is None:
        return False
    if _chunk(op) != _chunk(write):
        return False
    read_map, write_map = op.permutation_map.data, write.permutation_map.data
    if read_map.unused_dims_bit_vector() != write_map.unused_dims_bit_vector():
        return False
    if (
        _transfer_indices(op) != _transfer_indices(write)
        or op.mask is not None
        or write.mask is not None
    ):
        return False
    composed = compress_unused_dims(read_map).compose(compress_unused_dims(write_map))
    if not composed.results:
        return False
    permutation = permutation_of_minor_identity_with_broadcasting(composed)
    if permutation is None:
        return False
    dest = cast(VectorType, op.result.type).get_shape()
    shape = [0] * len(dest)
    for index, position in enumerate(permutation):
        shape[position] = dest[index]
    elem = cast(VectorType, write.vector.type).get_element_type()
    broadcast = rw.create(vector.BroadcastOp(write.vector, vec(shape, elem)), op).results[0]
    transposed = rw.create(vector.TransposeOp(broadcast, permutation), op).results[0]
    rw.replace_values(op, [transposed])
    return True


def fold_write_after_write(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `FoldWaw`: a write fully overwriting the single-use write it writes into
    writes into that write's destination instead."""
    assert isinstance(op, vector.TransferWriteOp)
    if not isinstance(op.source.type, TensorType):
        return False
    previous = defining(op.source, vector.TransferWriteOp)
    if previous is None or not previous.results[0].has_one_use():
        return False
    if (
        op.vector.type != previous.vector.type
        or _transfer_indices(op) != _transfer_indices(previous)
        or op.permutation_map != previous.permutation_map
        or op.mask is not None
        or previous.mask is not None
    ):
        return False
    rank = len(op.permutation_map.data.results)
    if not all(in_bounds_values(op.in_bounds, rank)):
        return False
    operands = list(op.operands)
    operands[1] = previous.source
    op.operands = operands
    rw.modified(op)
    return True


def swap_extract_slice_of_transfer_write(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `SwapExtractSliceOfTransferWrite`: a write of a whole tensor, cut by an
    extract_slice and inserted, writes into a slice of the insert's destination (so that
    they bufferize in place)."""
    assert isinstance(op, InsertSliceOp)
    offsets, sizes, strides = slice_params(op)
    if any(constant_int(s) != 1 for s in strides):
        return False
    extract = defining(op.source, ExtractSliceOp)
    if extract is None or not extract.results[0].has_one_use():
        return False
    e_offsets, e_sizes, e_strides = slice_params(extract)
    if any(constant_int(s) != 1 for s in e_strides):
        return False
    write = defining(extract.source, vector.TransferWriteOp)
    if write is None or not write.results[0].has_one_use():
        return False
    rank = len(write.permutation_map.data.results)
    if len(cast(TensorType, op.source.type).get_shape()) != rank:
        return False  # rank-reducing
    if any(constant_int(o) != 0 for o in e_offsets):
        return False
    if any(constant_int(i) != 0 for i in write.indices):
        return False
    if len(sizes) != len(e_sizes) or any(
        not (a is b or (constant_int(a) is not None and constant_int(a) == constant_int(b)))
        for a, b in zip(sizes, e_sizes, strict=True)
    ):
        return False
    vector_shape = list(cast(VectorType, write.vector.type).get_shape())
    shaped = cast(TensorType, write.source.type).get_shape()
    result_shape = list(write.permutation_map.data.apply_permutation(list(shaped)))
    if write.mask is not None or vector_shape != result_shape:
        return False
    slice_op = build_extract_slice(op.dest, (offsets, sizes, strides), op.source.type)
    rw.create(slice_op, extract)
    new = vector.TransferWriteOp(
        write.vector,
        slice_op.results[0],
        list(write.indices),
        bool_array([False] * rank),
        None,
        write.permutation_map,
        cast(TensorType, op.source.type),
    )
    rw.create(new, write)
    operands = list(op.operands)
    operands[0] = new.results[0]
    op.operands = operands
    rw.modified(op)
    return True


def lower_step(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `StepToArithConstantOpRewrite`: `vector.step` is the constant
    `[0, 1, ..., n-1]`."""
    vtype = cast(VectorType[IndexType], op.results[0].type)
    size = vtype.get_shape()[0]
    attr = DenseIntOrFPElementsAttr.from_list(vtype, list(range(size)))
    rw.replace_with_op(op, arith.ConstantOp(attr))
    return True


# --- constants at the start of the body --------------------------------------------------------


def _hoist_poison():
    owned: dict[Block, dict[object, Operation]] = {}

    def hoist_poison(op: Operation, rw: CanonRewriter) -> bool:
        """Upstream's operation folder on `ub.poison`: one per type, at the front of the
        entry block of the isolated region."""
        entry = entry_block(op)
        if entry is None:
            return False
        known = owned.setdefault(entry, {})
        existing = known.get(op.results[0].type)
        if existing is op:
            return False
        if existing is not None and existing.parent is not None:
            rw.replace_values(op, list(existing.results))
            return True
        known[op.results[0].type] = op
        if op.parent_block() is entry and (entry.first_op is op or op.prev_op in known.values()):
            return False
        first = entry.first_op
        assert first is not None
        rw.move_op(op, InsertPoint.before(first))
        return True

    return hoist_poison


# --- the pattern set and the driver ------------------------------------------------------------


def children_patterns(options: ChildrenOptions) -> PatternSet:
    """The pattern set of `vectorize_children_and_apply_patterns`, in upstream's order."""
    # Upstream gives the copy forwarding patterns benefit 2: they are tried first.
    patterns = copy_forwarding_patterns()
    patterns.add(None, _vectorization_pattern(options.vectorize_nd_extract))
    if not options.disable_transfer_permutation_map_lowering_patterns:
        patterns.update(permutation_patterns())
    if not options.disable_multi_reduction_to_contract_patterns:
        patterns.update(reduction_to_contract_patterns())
    patterns.update(sink_patterns())
    patterns.add(vector.TransferReadOp, read_after_write_to_broadcast)
    patterns.add(vector.TransferWriteOp, fold_write_after_write)
    patterns.add(InsertSliceOp, swap_extract_slice_of_transfer_write)
    patterns.update(fold_tensor_subset_into_transfers_patterns())
    patterns.add(memref.CopyOp, vectorize_copy)
    patterns.add(InsertSliceOp, insert_slice_vectorization)
    if options.vectorize_padding:
        patterns.update(pad_patterns())
    patterns.add(vector.StepOp, lower_step)
    if options.fold_type_extensions_into_contract:
        patterns.update(fold_arith_extension_patterns())
    patterns.add(ub.PoisonOp, _hoist_poison())
    return patterns


def vectorize_children_and_apply_patterns(
    target: Operation,
    options: ChildrenOptions = ChildrenOptions(),
    listener: PatternRewriterListener | None = None,
) -> bool:
    """Run the set greedily on the body of `target` (isolated from above); returns
    whether the rewrite converged."""
    result = apply_patterns_greedily(target, children_patterns(options), GreedyConfig(), listener)
    return result.converged


__all__ = [
    "ChildrenOptions",
    "children_patterns",
    "fold_write_after_write",
    "lower_step",
    "read_after_write_to_broadcast",
    "swap_extract_slice_of_transfer_write",
    "vectorize_children_and_apply_patterns",
]
