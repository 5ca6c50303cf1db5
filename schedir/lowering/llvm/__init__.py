"""Conversion patterns shared by the `*-to-llvm` passes: type conversion, memref descriptors, vectors."""
