"""Vectorization of linalg and tensor ops (upstream Linalg/Transforms/Vectorization.cpp):
`vectorize` rewrites one op into vector ops (the payload algorithm of
`transform.structured.vectorize`), `vectorize_children_and_apply_patterns` vectorizes
every op under a target with upstream's pattern set around it.

| module | what |
| --- | --- |
| `dispatch` | `vectorize` and `has_vectorization_impl`: the entry point, by op class |
| `state` | `VectorizationFailure`, `VectorizeResult`, `VectorizationState` (canonical shape, masks), valid element types and vector sizes |
| `linalg` | linalg ops: preconditions, operand reads, the generic path and named contractions |
| `body` | the body of a linalg op replayed on vectors (reductions, `linalg.index`, `tensor.extract`), the writes of yielded values |
| `tensor` | `tensor.pad` and `tensor.insert_slice`, and the masked read / write helpers |
| `children` | `vectorize_children_and_apply_patterns`: its pattern set and driver, the transfer canonicalizations |
| `contract` | reductions of products to `vector.contract` and contract combines |
| `forwarding` | transfers forwarded through promoted buffers |
| `pad` | `tensor.pad` folded into its users or decomposed; `memref.copy` vectorization |
"""

from schedir.transform.rewrites.vectorization.children import (
    ChildrenOptions,
    vectorize_children_and_apply_patterns,
)
from schedir.transform.rewrites.vectorization.dispatch import has_vectorization_impl, vectorize
from schedir.transform.rewrites.vectorization.state import VectorizationFailure, VectorizeResult

__all__ = [
    "ChildrenOptions",
    "VectorizationFailure",
    "VectorizeResult",
    "has_vectorization_impl",
    "vectorize",
    "vectorize_children_and_apply_patterns",
]
