"""Upstream's `linalg::vectorize` entry point (Vectorization.cpp): picks the vectorization
of an op by its class, a linalg op (`linalg`), a `tensor.pad` or a `tensor.insert_slice`
(`tensor`).

    %r = linalg.matmul ins(%a, %b : ...) outs(%c : ...)   (vector_sizes [8, 16, 4])
  =>
    the masked transfer_reads, a vector.contract or a multi_reduction of products, and a
    masked transfer_write, as `vectorize_linalg` builds them
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import tensor
from xdsl.ir import Operation

from schedir.dialects.linalg.interface import is_structured
from schedir.dialects.tensor import InsertSliceOp
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.vectorization.linalg import vectorize_linalg
from schedir.transform.rewrites.vectorization.state import VectorizationFailure, VectorizeResult
from schedir.transform.rewrites.vectorization.tensor import vectorize_insert_slice, vectorize_pad


def has_vectorization_impl(op: Operation) -> bool:
    """Upstream's `hasVectorizationImpl`: linalg ops, `tensor.pad`, `tensor.insert_slice`
    (schedir has no `linalg.pack` / `linalg.unpack`)."""
    return is_structured(op) or isinstance(op, tensor.PadOp | InsertSliceOp)


def vectorize(
    rw: CanonRewriter,
    op: Operation,
    vector_sizes: Sequence[int] = (),
    scalable: Sequence[bool] = (),
    *,
    nd_extract: bool = False,
    assume_dynamic_dims_match_vec_sizes: bool = False,
    create_named_contraction: bool = False,
) -> VectorizeResult:
    """Upstream's `linalg::vectorize`: vector ops computing `op`, inserted before it; the
    caller replaces `op` by the result's values. Raises `VectorizationFailure` (IR
    unchanged) when a precondition does not hold.

    Scalable sizes are refused: schedir's CPU and GPU targets have no scalable vectors.
    """
    if any(scalable):
        raise VectorizationFailure("scalable vectors are not supported by schedir's targets")
    if is_structured(op):
        return vectorize_linalg(
            rw,
            op,
            vector_sizes,
            nd_extract=nd_extract,
            assume_dynamic_dims_match_vec_sizes=assume_dynamic_dims_match_vec_sizes,
            create_named_contraction=create_named_contraction,
        )
    if isinstance(op, tensor.PadOp):
        return vectorize_pad(rw, op, vector_sizes)
    if isinstance(op, InsertSliceOp):
        return vectorize_insert_slice(rw, op, vector_sizes)
    raise VectorizationFailure(f"'{op.name}' has no vectorization")


__all__ = ["has_vectorization_impl", "vectorize"]
