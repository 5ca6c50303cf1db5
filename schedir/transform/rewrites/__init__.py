"""Payload algorithms as plain functions: no handles, no interpreter.

Each takes a rewriter and payload ops and returns a frozen result record (or raises a
failure the transform op turns into a diagnostic), so transform ops, passes, tests and the
autotuner can all call it. Modules are imported by their full path: a package here does
not import its modules, so loading one rewrite loads only what it needs.

From the bottom up (each layer imports only the ones above it in this list):

* `rewriter` (the `CanonRewriter` every rewrite uses), `constants` (reading, computing
  and materializing constants), `mixed` (mixed static/dynamic offset/size/stride lists);
* `effects` (upstream's memory effects by op class), `dce`, `cse`;
* `greedy`: the greedy pattern driver, `PatternSet` (patterns by root op class) and the
  folder and pattern types;
* `canonicalize/`: each dialect's folders and canonicalization patterns;
  `canonicalize.driver` assembles them (with `vector.folders` and `gpu.barriers`) and is
  the entry point of `transform.apply_patterns` and the `canonicalize` pass;
* `patterns/`: the other `transform.apply_patterns.<dialect>.*` sets, one module per
  dialect;
* the algorithms: `tiling/`, `fusion/`, `loops/`, `gpu/`, `bufferization/`, `vector/`,
  `vectorization/`, and the single-op structured rewrites `padding`, `promotion`,
  `specialize`, `split_reduction`, `structured_misc` (decompose, generalize, ...),
  `multibuffer`, `insert_slice_to_copy`, `hoisting`.
"""
