"""Canonicalization: each dialect's folders and canonicalization patterns, and the driver
that runs them (upstream's `fold` methods and `getCanonicalizationPatterns`).

* `driver`: `apply_patterns_greedily`, `apply_patterns_to_ops`, `canonicalize` (the
  greedy driver of `..greedy` with every op's folder), `canonicalization_patterns` and the
  other descriptor sets (`pattern_set`, `DESCRIPTORS`); what transform ops and passes use;
* one module per dialect family, each with a `FOLDERS` table (op class -> folder) and/or
  `patterns()` sets: `affine` (apply/min/max and the affine-map helpers other rewrites
  build with, `composed_folded_apply`), `affine_loops` (min/max over loop induction
  variables), `arith` / `arith_float` (folders), `arith_patterns`, `linalg`, `memref`,
  `scf`, `scf_forall`, `tensor` (and the slice helpers), `tensor_elements`,
  `tensor_subsets` (`tensor.fold_tensor_subset_ops`).

The families import only `..greedy` and each other downwards; `driver` imports them all.
"""
