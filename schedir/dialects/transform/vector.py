"""Vector transform extension (upstream VectorTransformOps.td): pattern-set descriptors
for lowering and simplifying vector ops, used inside `transform.apply_patterns`.

```mlir
transform.apply_patterns to %f {
  transform.apply_patterns.vector.lower_contraction lowering_strategy = outerproduct
  transform.apply_patterns.vector.multi_reduction_unrolling lowering_strategy = innerreduction
} : !transform.any_op
```

Enum options are stored as `i32`, in upstream's order.
"""

from __future__ import annotations

from xdsl.irdl import IRDLOperation

from schedir.dialects.transform.patterns import Option, make_descriptors

CONTRACT_LOWERING = ("dot", "llvmintr", "outerproduct", "parallelarith")
MULTI_REDUCTION_LOWERING = ("innerparallel", "innerreduction")
TRANSPOSE_LOWERING = ("eltwise", "llvmintr", "shuffle_1d", "shuffle_16x16")
TRANSFER_SPLIT = ("none", "vector-transfer", "linalg-copy", "force-in-bounds")

_DESCRIPTORS: tuple[tuple[str, str, tuple[Option, ...]], ...] = (
    (
        "vector.lower_contraction",
        "Lower vector.contract (outerproduct by default).",
        (Option("lowering_strategy", "enum", 2, CONTRACT_LOWERING),),
    ),
    (
        "vector.lower_transfer",
        "Lower transfer ops of rank up to max_transfer_rank to loads/stores.",
        (Option("max_transfer_rank", "int", 1),),
    ),
    ("vector.transfer_permutation_patterns", "Lower permutation maps of transfer ops.", ()),
    ("vector.lower_broadcast", "Lower vector.broadcast.", ()),
    ("vector.lower_shape_cast", "Lower vector.shape_cast.", ()),
    (
        "vector.reorder_multi_reduction_dims",
        "Transpose multi_reduction dims to the strategy's order.",
        (Option("lowering_strategy", "enum", 0, MULTI_REDUCTION_LOWERING),),
    ),
    (
        "vector.multi_reduction_flattening",
        "Flatten multi_reduction to 2-D.",
        (Option("lowering_strategy", "enum", 0, MULTI_REDUCTION_LOWERING),),
    ),
    (
        "vector.multi_reduction_unrolling",
        "Unroll 2-D multi_reduction into reductions.",
        (Option("lowering_strategy", "enum", 0, MULTI_REDUCTION_LOWERING),),
    ),
    (
        "vector.lower_transpose",
        "Lower vector.transpose.",
        (
            Option("lowering_strategy", "enum", 0, TRANSPOSE_LOWERING),
            Option("avx2_lowering_strategy", "bool", False),
        ),
    ),
    ("vector.lower_outerproduct", "Lower vector.outerproduct.", ()),
    ("vector.lower_masks", "Lower create_mask/constant_mask.", ()),
    ("vector.lower_masked_transfers", "Lower masked transfer ops.", ()),
    ("vector.lower_create_mask", "Lower vector.create_mask.", ()),
    ("vector.lower_gather", "Lower vector.gather.", ()),
    ("vector.lower_scan", "Lower vector.scan.", ()),
    ("vector.lower_bitcast", "Lower vector.bitcast.", ()),
    ("vector.lower_interleave", "Lower vector.interleave.", ()),
    ("vector.lower_step", "Lower vector.step.", (Option("index_bitwidth", "int", required=True),)),
    (
        "vector.transfer_to_scf",
        "Lower transfer ops to scf loops of lower-rank transfers.",
        (Option("max_transfer_rank", "int", 1), Option("full_unroll", "bool", False)),
    ),
    (
        "vector.split_transfer_full_partial",
        "Split transfers into a fast in-bounds path and a slow path.",
        (Option("split_transfer_strategy", "enum", 2, TRANSFER_SPLIT),),
    ),
    ("vector.cast_away_vector_leading_one_dim", "Drop leading unit dims of vector ops.", ()),
    (
        "vector.rank_reducing_subview_patterns",
        "Rank-reducing subviews for transfers with unit dims.",
        (),
    ),
    (
        "vector.drop_unit_dims_with_shape_cast",
        "Drop unit dims of elementwise vector ops with shape_cast.",
        (),
    ),
    (
        "vector.drop_inner_most_unit_dims_from_xfer_ops",
        "Drop innermost unit dims of transfers.",
        (),
    ),
    (
        "vector.flatten_vector_transfer_ops",
        "Flatten contiguous transfers to 1-D.",
        (Option("target_vector_bitwidth", "uint"),),
    ),
    ("vector.fold_arith_extension", "Fold arith extensions into vector.contract.", ()),
    (
        "vector.reduction_to_contract",
        "Rewrite reductions of elementwise products as vector.contract.",
        (),
    ),
    ("vector.elementwise_to_vector", "Vectorize elementwise ops on vectors.", ()),
    ("vector.materialize_masks", "Materialize masks.", ()),
    ("vector.sink_ops", "Sink elementwise ops through broadcast/transpose.", ()),
    ("vector.sink_mem_ops", "Sink loads through extract ops.", ()),
    ("vector.rewrite_narrow_types", "Rewrite narrow-type bitcasts and extensions.", ()),
    ("vector.unroll_to_elements", "Unroll vector.to_elements.", ()),
    ("vector.unroll_from_elements", "Unroll vector.from_elements.", ()),
    ("vector.interleave_and_deinterleave_to_shuffle", "Lower (de)interleave to shuffles.", ()),
)

OPS: tuple[type[IRDLOperation], ...] = make_descriptors(_DESCRIPTORS)

__all__ = [
    "CONTRACT_LOWERING",
    "MULTI_REDUCTION_LOWERING",
    "OPS",
    "TRANSFER_SPLIT",
    "TRANSPOSE_LOWERING",
]
