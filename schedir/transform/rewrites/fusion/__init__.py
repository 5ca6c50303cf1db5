"""Fusing producers into loops.

* `into_containing_op`: `transform.structured.fuse_into_containing_op` (upstream's
  `FuseIntoContainingOp`);
* `greedy`: tile a consumer and greedily fuse its producers
  (`tile_consumer_and_fuse_producers`, behind `transform.structured.fuse`).
"""
