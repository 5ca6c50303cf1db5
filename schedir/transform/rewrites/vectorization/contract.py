"""Reductions of products to `vector.contract` (upstream VectorTransforms.cpp,
`populateVectorReductionToContractPatterns`), the set
`vectorize_children_and_apply_patterns` adds unless
`disable_multi_reduction_to_contract_patterns`:

* `MultiReduceToContract`: `multi_reduction <add>` of a `mulf` / `muli` becomes a
  `vector.contract` with identity operand maps;
* `CombineContractABTranspose`: a transposed lhs / rhs folds into its indexing map;
* `CombineContractBroadcastMask`: a leading-dim broadcast of lhs / rhs folds into its map
  (unused dims are dropped, a mask loses its leading unit dims);
* `CombineContractResultTranspose`: transposes of the accumulator and of the result fold
  into the result map.

Before (a vectorized 4x8x16 matmul, after the transfer permutation lowering):

    %a = vector.broadcast %ra : vector<4x16xf32> to vector<8x4x16xf32>
    %at = vector.transpose %a, [1, 0, 2] : vector<8x4x16xf32> to vector<4x8x16xf32>
    %b = vector.broadcast %rb : vector<16x8xf32> to vector<4x16x8xf32>
    %bt = vector.transpose %b, [0, 2, 1] : vector<4x16x8xf32> to vector<4x8x16xf32>
    %m = arith.mulf %at, %bt : vector<4x8x16xf32>
    %r = vector.multi_reduction <add>, %m, %acc [2] : vector<4x8x16xf32> to vector<4x8xf32>

After:

    %r = vector.contract {indexing_maps = [(m, n, k) -> (m, k), (m, n, k) -> (k, n),
           (m, n, k) -> (m, n)], iterator_types = ["parallel", "parallel", "reduction"],
           kind = #vector.kind<add>} %ra, %rb, %acc
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, VectorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap

from schedir.dialects import vector
from schedir.dialects.vector.attributes import (
    PARALLEL,
    REDUCTION,
    IteratorTypeAttr,
    inverse_permutation,
    kind_name,
    permutation_map,
    vec,
)
from schedir.dialects.vector.contract import contract_iterators, contract_maps
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vector.utils import defining, mask_operation, masking_op


def _contract(
    rw: CanonRewriter,
    like: Operation,
    lhs: SSAValue,
    rhs: SSAValue,
    acc: SSAValue,
    maps: Sequence[AffineMap],
    iterators: Sequence[Attribute],
) -> vector.ContractionOp:
    """A contract with `like`'s kind (upstream's builder defaults to add: the patterns
    only ever see add contractions they built themselves)."""
    new = vector.ContractionOp(
        lhs,
        rhs,
        acc,
        ArrayAttr(AffineMapAttr(m) for m in maps),
        ArrayAttr(cast(Sequence[IteratorTypeAttr], iterators)),
        like.kind if isinstance(like, vector.ContractionOp) else None,
    )
    return cast(vector.ContractionOp, rw.create(new, like))


def multi_reduce_to_contract(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `MultiReduceToContract`."""
    assert isinstance(op, vector.MultiDimReductionOp)
    if kind_name(op.kind) != "add":
        return False
    mul = op.source.owner
    if not isinstance(mul, arith.MulfOp | arith.MuliOp):
        return False
    mask = op.reduction_mask()
    n = len(mask)
    src_map = AffineMap.identity(n)
    dst_map = AffineMap(n, 0, tuple(AffineExpr.dimension(i) for i, r in enumerate(mask) if not r))
    iterators = [REDUCTION if r else PARALLEL for r in mask]
    new = _contract(
        rw, op, mul.operands[0], mul.operands[1], op.acc, [src_map, src_map, dst_map], iterators
    )
    rw.replace_values(op, [new.result])
    return True


def combine_contract_ab_transpose(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `CombineContractABTranspose`."""
    assert isinstance(op, vector.ContractionOp)
    maps = contract_maps(op)
    operands = [op.lhs, op.rhs]
    changed = False
    for index in range(2):
        transpose = defining(operands[index], vector.TransposeOp)
        if transpose is None:
            continue
        perm = transpose.perm()
        maps[index] = inverse_permutation(permutation_map(perm)).compose(maps[index])
        operands[index] = transpose.vector
        changed = True
    if not changed:
        return False
    new = _contract(rw, op, operands[0], operands[1], op.acc, maps, list(op.iterator_types.data))
    rw.replace_values(op, [new.result])
    return True


def combine_contract_result_transpose(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `CombineContractResultTranspose` (rooted at the result transpose)."""
    assert isinstance(op, vector.TransposeOp)
    contract = defining(op.vector, vector.ContractionOp)
    if contract is None or not contract.results[0].has_one_use():
        return False
    acc_t = defining(contract.acc, vector.TransposeOp)
    if acc_t is None:
        return False
    maps = contract_maps(contract)
    acc_map = permutation_map(acc_t.perm())
    res_map = permutation_map(op.perm())
    if inverse_permutation(acc_map) != res_map:
        return False
    maps[-1] = res_map.compose(maps[-1])
    rw.set_insertion_point(op)
    new = _contract(
        rw,
        contract,
        contract.lhs,
        contract.rhs,
        acc_t.vector,
        maps,
        list(contract.iterator_types.data),
    )
    new.location = op.location
    rw.replace_values(op, [new.result])
    return True


def _unused_dims(maps: Sequence[AffineMap], num_dims: int) -> list[bool]:
    used: set[int] = set()
    for m in maps:
        used |= {e.position for e in m.results if isinstance(e, AffineDimExpr)}
    return [d not in used for d in range(num_dims)]


def _result_index(m: AffineMap, dim: int) -> int | None:
    for i, e in enumerate(m.results):
        if isinstance(e, AffineDimExpr) and e.position == dim:
            return i
    return None


def combine_contract_broadcast(op: Operation, rw: CanonRewriter) -> bool:
    """Upstream's `CombineContractBroadcastMask` (`combineContractAndBroadcast`)."""
    assert isinstance(op, vector.ContractionOp)
    maps = contract_maps(op)
    iterators = contract_iterators(op)
    operands = [op.lhs, op.rhs]
    changed = False
    for index in range(2):
        broadcast = defining(operands[index], vector.BroadcastOp)
        if broadcast is None:
            continue
        source = broadcast.source
        src_t = source.type
        dst_t = cast(VectorType, broadcast.results[0].type)
        if not isinstance(src_t, VectorType) or src_t.get_num_dims() == dst_t.get_num_dims():
            continue
        diff = dst_t.get_num_dims() - src_t.get_num_dims()
        if any(s != dst_t.get_shape()[diff + i] for i, s in enumerate(src_t.get_shape())):
            continue  # an inner-dim broadcast: contract cannot express it
        m = maps[index]
        if any(
            dst_t.get_shape()[i] != 1
            and iterators[cast(AffineDimExpr, m.results[i]).position] == "reduction"
            for i in range(diff)
        ):
            continue  # folding would drop a non-unit reduction dim
        bmap = AffineMap(
            dst_t.get_num_dims(),
            0,
            tuple(AffineExpr.dimension(diff + i) for i in range(src_t.get_num_dims())),
        )
        maps[index] = bmap.compose(m)
        operands[index] = source
        changed = True
    if not changed:
        return False
    num_dims = maps[0].num_dims
    unused = _unused_dims(maps, num_dims)
    kept = [d for d in range(num_dims) if not unused[d]]
    maps = [m.drop_dims(tuple(unused)) if any(unused) else m for m in maps]
    new_iterators = [op.iterator_types.data[d] for d in kept]
    names = [iterators[d] for d in kept]
    if not any(
        names[i] == "reduction"
        and _result_index(maps[0], i) is not None
        and _result_index(maps[1], i) is not None
        for i in range(len(names))
    ):
        return False
    if any(_unused_dims(maps[:2], len(kept))):
        return False
    mask_op = masking_op(op)
    mask: SSAValue | None = None
    if mask_op is not None:
        mask_t = cast(VectorType, mask_op.mask.type)
        dropped = [d for d in range(num_dims) if unused[d]]
        if any(mask_t.get_shape()[d] != 1 for d in dropped):
            return False  # "Cannont drop non-unit mask dim."
        mask = mask_op.mask
        if dropped:
            rw.set_insertion_point(mask_op)
            reduced = vec(mask_t.get_shape()[len(dropped) :], mask_t.get_element_type())
            mask = rw.create(vector.ShapeCastOp(mask, reduced), op).results[0]
    if mask_op is not None:
        rw.set_insertion_point(mask_op)
    new = _contract(rw, op, operands[0], operands[1], op.acc, maps, new_iterators)
    if mask_op is None:
        rw.replace_values(op, [new.result])
        return True
    wrapped = mask_operation(rw, new, mask)
    rw.replace_values(mask_op, list(wrapped.results))
    return True


def reduction_to_contract_patterns() -> PatternSet:
    """Upstream's `populateVectorReductionToContractPatterns`."""
    return (
        PatternSet()
        .add(vector.MultiDimReductionOp, multi_reduce_to_contract)
        .add(vector.ContractionOp, combine_contract_broadcast, combine_contract_ab_transpose)
        .add(vector.TransposeOp, combine_contract_result_transpose)
    )


__all__ = [
    "combine_contract_ab_transpose",
    "combine_contract_broadcast",
    "combine_contract_result_transpose",
    "multi_reduce_to_contract",
    "reduction_to_contract_patterns",
]
