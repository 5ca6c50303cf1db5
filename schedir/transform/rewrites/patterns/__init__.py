"""The pattern sets of the `transform.apply_patterns.<dialect>.*` descriptors, one module per dialect."""
