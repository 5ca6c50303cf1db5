"""Bufferization rewrites a schedule drives: allocations, empty-tensor elimination, function results, hoisting."""
