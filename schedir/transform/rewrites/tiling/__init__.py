"""Tiling through the TilingInterface: into scf.for / scf.forall loops, and partial reductions."""
