"""Loop rewrites: unrolling, peeling, forall to for, loop-invariant code motion."""
