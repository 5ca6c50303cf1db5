"""GPU rewrites.

* `mapping`: mapping `scf.forall` loops to blocks and threads (`map_forall_to_blocks`,
  `map_nested_forall_to_threads`), the launch limits, and the block-shared buffers of a
  launch;
* `copy`: distributing a copy over threads (`map_copy_to_threads`);
* `barriers`: `gpu.eliminate_barriers` (its pattern set), with `barrier_slots`, the
  per-thread slots that prove accesses of different threads disjoint.
"""
