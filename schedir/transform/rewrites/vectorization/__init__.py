"""Vectorization of linalg and tensor ops (upstream Linalg/Transforms/Vectorization.cpp)."""
