"""Loop rewrites.

* `unroll_and_peel`: `scf.for` unrolling and peeling (with the min/max simplification
  of peeled loops);
* `unroll_and_jam`: full unrolling and unroll-and-jam of `scf.for`;
* `forall_to_for`: `scf.forall` to nested `scf.for`;
* `licm`: loop-invariant code motion and subset hoisting (`is_loop_like`,
  `move_loop_invariant_code`, `hoist_loop_invariant_subsets`).
"""
