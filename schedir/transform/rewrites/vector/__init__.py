"""Vector rewrites: the pattern sets that lower vector ops step by step towards the 1-D
ops the LLVM conversion takes, and the vector ops' folders (upstream's
Dialect/Vector/Transforms and the `fold` methods of VectorOps.cpp).

Each `*_patterns()` function builds the pattern set of one
`transform.apply_patterns.vector.*` descriptor (`schedir.transform.rewrites.patterns.vector`
maps the descriptors to them); `lowering/lower_vector` and `convert-vector-to-llvm` run
them as passes. `with_folds` puts the folders in front of a set, as upstream's greedy
driver folds every op it visits.

| module | what |
| --- | --- |
| `utils` | builders (constants, poison, extract/insert/broadcast/..., arith combines, masking) and queries the rewrites share |
| `fold_extract`, `folders` | the folders (`vector.extract` / `vector.insert`; the others), `FOLDERS`, `with_folds` |
| `contract`, `contract_generic` | `vector.contract` lowering by strategy and its generic unrolling; folding arith extensions into contractions |
| `outerproduct` | `vector.outerproduct` to fma / mul + combine per row |
| `reduction` | `vector.multi_reduction`: reorder, flatten, unroll |
| `shape` | `vector.broadcast`, `vector.shape_cast`, `vector.transpose` to element moves |
| `masks` | `vector.create_mask` / `constant_mask` lowering; masked transfers |
| `transfer` | transfer permutation maps, transfers to loads / stores, rank-reducing subviews |
| `to_scf` | n-D transfers to loops of lower-rank transfers |
| `unit_dims` | casting away leading unit dims |
| `sink` | sinking broadcasts / transposes below elementwise ops, extracts above them |
| `llvm_prep` | what `convert-vector-to-llvm` rewrites before converting |
"""

from schedir.transform.rewrites.vector.contract import (
    STRATEGIES,
    fold_arith_extension_patterns,
    lower_contraction_patterns,
)
from schedir.transform.rewrites.vector.folders import FOLDERS, with_folds
from schedir.transform.rewrites.vector.llvm_prep import (
    interleave_to_shuffle_patterns,
    lower_bitcast_patterns,
    lower_interleave_patterns,
    prep_patterns,
)
from schedir.transform.rewrites.vector.masks import (
    lower_masked_transfers_patterns,
    lower_masks_patterns,
)
from schedir.transform.rewrites.vector.outerproduct import lower_outer_product_patterns
from schedir.transform.rewrites.vector.reduction import (
    flattening_patterns,
    reorder_patterns,
    unrolling_patterns,
)
from schedir.transform.rewrites.vector.shape import (
    lower_broadcast_patterns,
    lower_shape_cast_patterns,
    lower_transpose_patterns,
)
from schedir.transform.rewrites.vector.sink import sink_patterns
from schedir.transform.rewrites.vector.to_scf import transfer_to_scf_patterns
from schedir.transform.rewrites.vector.transfer import (
    lower_transfer_patterns,
    permutation_patterns,
    rank_reducing_subview_patterns,
)
from schedir.transform.rewrites.vector.unit_dims import cast_away_leading_one_dim_patterns
from schedir.transform.rewrites.vector.utils import constant

__all__ = [
    "FOLDERS",
    "STRATEGIES",
    "cast_away_leading_one_dim_patterns",
    "constant",
    "flattening_patterns",
    "fold_arith_extension_patterns",
    "interleave_to_shuffle_patterns",
    "lower_bitcast_patterns",
    "lower_broadcast_patterns",
    "lower_contraction_patterns",
    "lower_interleave_patterns",
    "lower_masked_transfers_patterns",
    "lower_masks_patterns",
    "lower_outer_product_patterns",
    "lower_shape_cast_patterns",
    "lower_transfer_patterns",
    "lower_transpose_patterns",
    "permutation_patterns",
    "prep_patterns",
    "rank_reducing_subview_patterns",
    "reorder_patterns",
    "sink_patterns",
    "transfer_to_scf_patterns",
    "unrolling_patterns",
    "with_folds",
]
