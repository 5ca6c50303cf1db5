"""The pattern sets of the `transform.apply_patterns.<dialect>.*` descriptors that
`canonicalize.driver` does not build, one module per dialect (`math`, `memref`, `tensor`,
`vector`).

`schedir.transform.ops.patterns` looks a descriptor `<dialect>.<name>` up in module
`schedir.transform.rewrites.patterns.<dialect>`: in its `DESCRIPTOR_PATTERNS`
(name -> set) or, for sets built from the descriptor's options,
`DESCRIPTOR_PATTERN_BUILDERS` (name -> function of the descriptor op).
"""
