"""Structured (linalg) transform ops (upstream LinalgTransformOps.td).

- `match`: `structured.match`, a handle to the ops nested in a target that pass filters;
- `tile`: `tile_using_for`, `tile_using_forall`;
- `fuse`: `fuse_into_containing_op`, `fuse`;
- `partition`: reduction tiling and splitting (`tile_reduction_using_for/forall`,
  `split_reduction`), `multitile_sizes`, `split` and `pad`;
- `pack`: `pack`, `pack_transpose`, `lower_pack`, `lower_unpack`;
- `rewrite`: `generalize`, `specialize`, `interchange`, `decompose`,
  `decompose_interface`, `convert_to_loops`, `rewrite_in_destination_passing_style`;
- `vectorize`: `vectorize`, `vectorize_children_and_apply_patterns`,
  `hoist_redundant_vector_transfers`, `hoist_redundant_vector_broadcasts`;
- `memory`: `promote`, `bufferize_to_allocation`, `insert_slice_to_copy`;
- `bufferization`: `eliminate_empty_tensors`;
- `gpu`: `gpu.map_copy_to_threads`;
- `padding`: `hoist_pad`, `hoist_pad.build_packing_loop_nest`, `pad_tiling_interface`,
  `promote_tensor`;
- `patterns`: the `apply_patterns.linalg.*` descriptors.

Each module is applied by the module of the same name in `schedir.transform.ops.structured`.
The `match.structured` matcher family (LinalgMatchOps.td) is in `match_structured.py`.
"""

from __future__ import annotations

from xdsl.irdl import IRDLOperation

from schedir.dialects.transform.structured import (
    bufferization,
    fuse,
    gpu,
    match,
    memory,
    pack,
    padding,
    partition,
    patterns,
    rewrite,
    tile,
    vectorize,
)

OPS: tuple[type[IRDLOperation], ...] = (
    *match.OPS,
    *tile.OPS,
    *fuse.OPS,
    *partition.OPS,
    *pack.OPS,
    *rewrite.OPS,
    *vectorize.OPS,
    *padding.OPS,
    *memory.OPS,
    *bufferization.OPS,
    *gpu.OPS,
    *patterns.OPS,
)

__all__ = ["OPS"]
