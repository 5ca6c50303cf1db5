"""Greedy packing of the matmul in a structured op (upstream Linalg/Transforms/
Transforms.cpp `linalg::packMatmulGreedily`), the payload algorithm of
`transform.structured.pack_greedily`.

1. Find the contraction loops (`inferContractionDims`): m (parallel, in the LHS and the
   result, not the RHS), n (in the RHS and the result, not the LHS) and k (reduction, in
   both inputs); the most minor of each kind is taken. An op with fewer than three loops,
   or without an m, n or k loop, is not packed.
2. Generalize the op and interchange its loops so that m, n and k are the last three, in
   the order `mnk_order` gives (m goes to position `num_loops - 3 + mnk_order[0]`, ...); the
   other loops keep their order in front.
3. Pack the generic (`linalg::pack`, `schedir.transform.rewrites.pack.pack_op`) by the
   sizes of m, n and k (0: not packed), or, where a padded multiple is given, by the loop
   size rounded up to that multiple (one padded tile).

For a 1023x255 by 255x127 matmul with sizes [8, 16, 32] and order [1, 2, 0], the loops
become (k, m, n) and the packed generic reads A as 128x8x32x8 (m/8, k/32, 8, 32 rearranged
by the A map), B as 8x8x32x16 and writes C as 128x8x8x16.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Operation
from xdsl.ir.affine import AffineDimExpr
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from schedir.dialects import linalg
from schedir.dialects.linalg.interface import (
    dps_inits,
    dps_inputs,
    indexing_maps,
    iterator_types,
    num_loops,
)
from schedir.transform.rewrites.pack import PackFailure, PackResult, pack_op
from schedir.transform.rewrites.specialize import contraction_dims
from schedir.transform.rewrites.structured_misc import generalize, interchange
from schedir.transform.rewrites.tiling.affine import IndexBuilder, Ofr, compose
from schedir.transform.rewrites.tiling.interface import dim_of


def permutation_vector(size: int, positions: Sequence[int], desired: Sequence[int]) -> list[int]:
    """Upstream's `computePermutationVector`: `positions[i]` goes to `desired[i]`, the
    other entries keep their relative order in the free slots."""
    result = [-1] * size
    for position, target in zip(positions, desired, strict=True):
        result[target] = position
    rest = iter(p for p in range(size) if p not in positions)
    return [entry if entry != -1 else next(rest) for entry in result]


def _loop_size(b: IndexBuilder, generic: linalg.GenericOp, loop: int) -> Ofr:
    """The size of `loop`: the first operand dimension indexed by exactly that loop
    (upstream's `createLoopRanges`)."""
    operands = [*dps_inputs(generic), *dps_inits(generic)]
    for operand, map_ in zip(operands, indexing_maps(generic), strict=True):
        for position, expr in enumerate(map_.results):
            if isinstance(expr, AffineDimExpr) and expr.position == loop:
                return dim_of(b, operand, position)
    raise PackFailure("loop size is not an operand dimension")


def pack_matmul_greedily(
    rewriter: PatternRewriter,
    op: Operation,
    mnk_packed_sizes: Sequence[Ofr],
    mnk_padded_multiples: Sequence[int],
    mnk_order: Sequence[int],
) -> PackResult:
    """Pack the matmul in structured op `op` (see the module); raises PackFailure, before
    changing anything, when `op` has no matmul to pack."""
    loops = num_loops(op)
    if loops <= 2:
        raise PackFailure("need 3+ loops to find a matmul to pack")
    if len(dps_inputs(op)) != 2 or len(dps_inits(op)) != 1:
        raise PackFailure("couldn't infer matmul iterators")
    dims = contraction_dims(indexing_maps(op), iterator_types(op))
    if not dims["m"] or not dims["n"] or not dims["k"]:
        raise PackFailure("couldn't infer matmul iterators")
    mnk_positions = [dims["m"][-1], dims["n"][-1], dims["k"][-1]]
    desired = [loops - 3 + order for order in mnk_order]
    packed_sizes: list[Ofr] = [0, 0, 0]
    multiples = [0, 0, 0]
    for i, order in enumerate(mnk_order):
        packed_sizes[order] = mnk_packed_sizes[i]
        multiples[order] = mnk_padded_multiples[i] if mnk_padded_multiples else 0
    generic = generalize(rewriter, op).generic
    permutation = permutation_vector(loops, mnk_positions, desired)
    generic = interchange(rewriter, generic, permutation).generic
    rewriter.insertion_point = InsertPoint.before(generic)
    b = IndexBuilder(rewriter, generic.location)
    adjusted: list[Ofr] = [0] * (loops - 3)
    for i in range(3):
        if multiples[i] == 0:
            adjusted.append(packed_sizes[i])
            continue
        size = compose(_loop_size(b, generic, loops - 3 + i))
        adjusted.append(b.apply(size.ceildiv(multiples[i]) * multiples[i]))
    return pack_op(rewriter, generic, adjusted)


__all__ = ["pack_matmul_greedily", "permutation_vector"]
