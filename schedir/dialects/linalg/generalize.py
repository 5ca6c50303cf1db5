"""Any structured op as the `linalg.generic` it stands for (upstream's generalizeNamedOp)."""

from __future__ import annotations

from xdsl.dialects.builtin import AffineMapAttr
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Operation

from schedir.dialects.linalg.generic import GenericOp
from schedir.dialects.linalg.interface import (
    StructuredOpInterface,
    as_structured,
    dps_inits,
    dps_inputs,
    indexing_maps,
    iterator_types,
)


def as_generic(op: Operation) -> GenericOp:
    """A new, unattached `linalg.generic` equivalent to structured op `op` (upstream's
    `generalizeNamedOp`): same operands, result types, discardable attributes and location;
    the body takes one argument per input and per init element type and ends in
    `linalg.yield`."""
    structured = as_structured(op)
    if isinstance(op, GenericOp):
        generic = op.clone()
        generic.location = op.location
        return generic
    body = (
        structured.structured_body()
        if isinstance(structured, StructuredOpInterface)
        else structured.body
    )
    generic = GenericOp(
        list(dps_inputs(op)),
        list(dps_inits(op)),
        body.clone(),
        [AffineMapAttr(m) for m in indexing_maps(op)],
        [IteratorTypeAttr(IteratorType(t)) for t in iterator_types(op)],
        list(op.result_types),
    )
    generic.attributes |= dict(op.attributes)
    generic.location = op.location
    return generic


__all__ = ["as_generic"]
