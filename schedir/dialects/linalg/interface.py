"""The structured-op interface: what transforms and lowerings ask of any structured op.

Upstream's `LinalgOp` interface, as functions over its two implementations here: xDSL's
`LinalgStructuredOperation` (linalg.generic, the named ops, reduce, transpose, broadcast)
and `StructuredOpInterface`, which schedir's `linalg.map` implements (its operands and body
are not laid out as a LinalgStructuredOperation's). `linalg.softmax` is not structured: as
upstream, it is an aggregate op, decomposed (see `aggregate`).

    is_structured(op)        dps_inputs(op) / dps_inits(op)
    indexing_maps(op)        iterator_types(op)        num_loops(op)
    static_loop_ranges(op)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, ArrayAttr, ShapedType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap


class StructuredOpInterface(ABC):
    """Upstream's LinalgOp interface for a structured op that is not one of xDSL's
    LinalgStructuredOperations (schedir's `linalg.map`)."""

    @abstractmethod
    def structured_inputs(self) -> Sequence[SSAValue]:
        """The input operands (`ins`)."""

    @abstractmethod
    def structured_inits(self) -> Sequence[SSAValue]:
        """The init operands (`outs`)."""

    @abstractmethod
    def structured_body(self) -> Region:
        """The body: one argument per input and per init element, ending in `linalg.yield`."""

    @abstractmethod
    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        """One indexing map per operand, inputs then inits."""

    @abstractmethod
    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        """One iterator type per loop."""


StructuredOp = LinalgStructuredOperation | StructuredOpInterface
"""Either implementation of the structured-op interface."""


def is_structured(op: Operation) -> bool:
    """Whether `op` is a structured (LinalgOp-like) op: generic, a named op, map, reduce,
    transpose or broadcast. Softmax is not (upstream: an aggregate op, decomposed)."""
    return isinstance(op, StructuredOp)


def as_structured(op: Operation) -> StructuredOp:
    """`op` as a structured op; TypeError if it is not one."""
    if not isinstance(op, StructuredOp):
        raise TypeError(f"'{op.name}' is not a structured linalg op")
    return op


def dps_inputs(op: Operation) -> tuple[SSAValue, ...]:
    """The input operands (`ins`)."""
    structured = as_structured(op)
    if isinstance(structured, StructuredOpInterface):
        return tuple(structured.structured_inputs())
    return tuple(structured.inputs)


def dps_inits(op: Operation) -> tuple[SSAValue, ...]:
    """The init operands (`outs`), one per result on tensors."""
    structured = as_structured(op)
    if isinstance(structured, StructuredOpInterface):
        return tuple(structured.structured_inits())
    return tuple(structured.outputs)


def indexing_maps(op: Operation) -> tuple[AffineMap, ...]:
    """One indexing map per operand, inputs then inits (loops -> operand indices)."""
    maps = as_structured(op).get_indexing_maps()
    return tuple(m.data for m in maps.data)


def iterator_types(op: Operation) -> tuple[str, ...]:
    """One of "parallel" / "reduction" / "window" per loop."""
    its = as_structured(op).get_iterator_types()
    return tuple(str(it.data.value) for it in its.data)


def num_loops(op: Operation) -> int:
    """Number of loops of the iteration space."""
    return len(iterator_types(op))


def static_loop_ranges(op: Operation) -> tuple[int, ...]:
    """The size of each loop, read off the operand shapes (-1 where dynamic or unknown).

    As upstream's `getStaticLoopRanges`: loop d takes the size of the first operand
    dimension indexed by exactly `d`."""
    maps = indexing_maps(op)
    operands = (*dps_inputs(op), *dps_inits(op))
    ranges = [-1] * num_loops(op)
    found = [False] * len(ranges)
    for operand, map_ in zip(operands, maps, strict=True):
        shape = operand.type.get_shape() if isinstance(operand.type, ShapedType) else ()
        for expr, size in zip(map_.results, shape, strict=True):
            if isinstance(expr, AffineDimExpr) and not found[expr.position]:
                found[expr.position] = True
                ranges[expr.position] = -1 if size == DYNAMIC_INDEX else size
    return tuple(ranges)


__all__ = [
    "StructuredOp",
    "StructuredOpInterface",
    "as_structured",
    "dps_inits",
    "dps_inputs",
    "indexing_maps",
    "is_structured",
    "iterator_types",
    "num_loops",
    "static_loop_ranges",
]
