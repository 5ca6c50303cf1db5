"""Tiling through the TilingInterface (upstream's `scf::tileUsingSCF`).

* `tile_using_scf`: `tile_using_scf` into `scf.for` / `scf.forall` loops, `TilingOptions`,
  `TilingError`;
* `interface`: what a tile of an op is (`is_tileable`, `loop_iterator_types`, the tiled
  implementation of structured ops);
* `reduction`: partial-reduction tiling (`tile_reduction_using_for` / `..._forall`);
* `affine`: the index arithmetic tiling builds (`IndexBuilder`, `Aff`, `Ofr`).
"""
