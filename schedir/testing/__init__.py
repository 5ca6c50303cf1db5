"""Testing tools that ship with schedir: the differential fuzzer (`schedir.testing.fuzz`).

This package sits at the top of the layering, beside `cli`: it drives the tools the way a
user does (through `schedir.cli` in a worker process) and never feeds anything back into
the compiler.
"""
