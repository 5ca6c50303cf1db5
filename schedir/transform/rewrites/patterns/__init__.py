"""The pattern sets of the `transform.apply_patterns.<dialect>.*` descriptors that
`canonicalize.driver` does not build, one module per dialect (`math`, `memref`, `tensor`,
`vector`).

Each descriptor class is joined to its set in `schedir.transform.ops.<dialect>` with
`@populates(<Descriptor>)`; the functions here only build sets.
"""
