"""Bufferization rewrites a schedule drives (the bufferization passes themselves are in
`schedir.lowering.bufferization`).

* `to_allocation`: `transform.structured.bufferize_to_allocation`;
* `empty_tensor_elimination`: `tensor.empty` elimination (`eliminate_empty_tensors`,
  `eliminate_linalg_anchored_empty_tensors`) and the aliasing and dominance queries it
  rests on;
* `results`: function results as upstream's One-Shot Bufferize returns them
  (`upstream_results`);
* `loop_hoisting`: `hoist_buffers_from_loops`.
"""
