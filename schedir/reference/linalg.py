"""`linalg` ops: `generic`, `map` and `reduce` by their regions, `softmax` by its formula,
and the named ops by their definitions (see `named`).

A region body runs on whole arrays (see `structured`); `yield(combine(out, f(ins)))`
bodies are recognized so reductions take the vectorized fast path.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from schedir.dialects import arith, linalg
from schedir.reference import bounds
from schedir.reference.attrs import int_list
from schedir.reference.interpreter import Handler, Interpreter, unsupported
from schedir.reference.named import NAMED_OPS, identity_map, named_definition, named_maps, rank_of
from schedir.reference.structured import (
    COMBINERS,
    FLOAT_REDUCERS,
    Combine,
    Product,
    evaluate_structured,
)
from schedir.reference.values import FLOAT64, elem_of

# ---- operands and results ------------------------------------------------------------------


def split_operands(op: Operation) -> tuple[list[SSAValue], list[SSAValue]]:
    """The ins and outs of a linalg op."""
    if isinstance(op, LinalgStructuredOperation):
        return list(op.inputs), list(op.outputs)
    if isinstance(op, linalg.MapOp):
        return list(op.inputs), [op.init]
    if isinstance(op, linalg.SoftmaxOp):
        return [op.input], [op.output]
    raise unsupported(f"'{op.name}' is not a linalg op with ins and outs", op)


def _values(ip: Interpreter, values: Sequence[SSAValue]) -> list[Any]:
    """The current values of SSA values."""
    return [ip.value(v) for v in values]


def _finish(
    op: Operation, outs: Sequence[SSAValue], out_values: Sequence[Any], new: Sequence[np.ndarray]
) -> list[Any]:
    """Results for tensor outs; memref outs are written in place (no result)."""
    results = []
    for operand, old, value in zip(outs, out_values, new, strict=True):
        if isinstance(operand.type, MemRefType):
            old[...] = value
        else:
            results.append(value)
    return results


# ---- region bodies (generic, map, reduce) --------------------------------------------------


def _uses(v: SSAValue) -> list[Operation]:
    """The ops using `v`, once per use."""
    return [use.operation for use in v.uses]


class RegionBody:
    """The body of a `linalg.generic`, `map` or `reduce`, evaluated by the interpreter."""

    def __init__(self, ip: Interpreter, block: Block, n_in: int, n_out: int) -> None:
        self.ip = ip
        self.block = block
        args = self.block.args
        self.in_args = args[:n_in]
        self.out_args = args[n_in:]
        terminator = self.block.last_op
        assert terminator is not None
        self.terminator: Operation = terminator
        self._combines: list[Combine] | None = None
        self._products: list[bool] = []
        self._partials: list[SSAValue | tuple[SSAValue, SSAValue]] = []
        self._skip: frozenset[Operation] = frozenset()
        self._match(n_out)

    def _match(self, n_out: int) -> None:
        """Recognize `yield(combine(out_k, f_k))` for every output k (see the module doc)."""
        if len(self.out_args) != n_out or len(self.terminator.operands) != n_out:
            return
        combines: list[Combine] = []
        skip: set[Operation] = set()
        for k in range(n_out):
            combine = self.terminator.operands[k].owner
            out_arg = self.out_args[k]
            if not isinstance(combine, Operation) or combine.parent is not self.block:
                return
            if type(combine) not in COMBINERS or len(combine.operands) != 2:
                return
            lhs, rhs = combine.operands
            if (lhs is out_arg) == (rhs is out_arg):
                return
            f = rhs if lhs is out_arg else lhs
            if _uses(out_arg) != [combine] or len(_uses(combine.results[0])) != 1:
                return
            elem = elem_of(out_arg.type)
            if elem.is_float != (type(combine) in FLOAT_REDUCERS):
                return
            combines.append(Combine(type(combine), elem, self.ip.bounded))
            skip.add(combine)
            producer = f.owner
            product_op = arith.MulfOp if elem.is_float else arith.MuliOp
            sum_op = arith.AddfOp if elem.is_float else arith.AddiOp
            if (
                isinstance(producer, product_op)
                and producer.parent is self.block
                and isinstance(combine, sum_op)
                and not elem.is_bool
                and len(_uses(f)) == 1
            ):
                self._products.append(True)
                self._partials.append((producer.operands[0], producer.operands[1]))
                skip.add(producer)
            else:
                self._products.append(False)
                self._partials.append(f)
        self._combines = combines
        self._skip = frozenset(skip)

    def full(self, ins: list[Any], outs: list[Any], index: list[np.ndarray]) -> list[Any]:
        ip = self.ip
        ip.bind(self.in_args, ins)
        ip.bind(self.out_args, outs[: len(self.out_args)])
        ip.linalg_indices.append(index)
        try:
            terminator = ip.run_ops(self.block)
            return [ip.value(v) for v in terminator.operands]
        finally:
            ip.linalg_indices.pop()

    def combines(self) -> list[Combine] | None:
        return self._combines

    def products(self) -> list[bool]:
        return self._products

    def partial(self, ins: list[Any], index: list[np.ndarray]) -> list[Any]:
        ip = self.ip
        ip.bind(self.in_args, ins)
        ip.linalg_indices.append(index)
        try:
            ip.run_ops(self.block, self._skip)
        finally:
            ip.linalg_indices.pop()
        return [
            Product(ip.value(p[0]), ip.value(p[1])) if isinstance(p, tuple) else ip.value(p)
            for p in self._partials
        ]


def _generic_spec(op: linalg.GenericOp) -> tuple[list[AffineMap], list[bool]]:
    """A generic's indexing maps and which of its loops reduce (reduction or window)."""
    maps = [m.data for m in op.indexing_maps.data]
    reduced = (IteratorType.REDUCTION, IteratorType.WINDOW)
    return maps, [it.data in reduced for it in op.iterator_types.data]


def _generic(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """linalg.generic by its maps, iterator types and region."""
    assert isinstance(op, linalg.GenericOp)
    ins, outs = split_operands(op)
    maps, reduction = _generic_spec(op)
    body = RegionBody(ip, op.body.block, len(ins), len(outs))
    return _run(ip, op, ins, outs, maps, reduction, body)


def _run(
    ip: Interpreter,
    op: Operation,
    ins: list[SSAValue],
    outs: list[SSAValue],
    maps: Sequence[AffineMap],
    reduction: Sequence[bool],
    body: Any,
) -> list[Any]:
    """Evaluate a structured op and return its tensor results."""
    in_values, out_values = _values(ip, ins), _values(ip, outs)
    out_elems = [elem_of(v.type) for v in outs]
    new = evaluate_structured(op, in_values, out_values, maps, reduction, body, out_elems)
    return _finish(op, outs, out_values, new)


def _map(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """linalg.map: its region over the output's shape."""
    assert isinstance(op, linalg.MapOp)
    ins, outs = split_operands(op)
    rank = rank_of(outs[0])
    maps = [identity_map(rank)] * (len(ins) + len(outs))
    body = RegionBody(ip, op.mapper.block, len(ins), len(outs))
    return _run(ip, op, ins, outs, maps, [False] * rank, body)


def _reduce_spec(op: linalg.ReduceOp) -> tuple[list[AffineMap], list[bool]]:
    """A reduce's indexing maps and which of its loops reduce (`dimensions`)."""
    dims = set(int_list(op.dimensions))
    rank = rank_of(op.inputs[0])
    kept = AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in range(rank) if d not in dims))
    maps = [identity_map(rank)] * len(op.inputs) + [kept] * len(op.outputs)
    return maps, [d in dims for d in range(rank)]


def _reduce(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """linalg.reduce: its region over the input, reducing `dimensions`."""
    assert isinstance(op, linalg.ReduceOp)
    ins, outs = split_operands(op)
    maps, reduction = _reduce_spec(op)
    body = RegionBody(ip, op.body.block, len(ins), len(outs))
    return _run(ip, op, ins, outs, maps, reduction, body)


def _index(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """linalg.index: the loop indices of the innermost linalg body."""
    assert isinstance(op, linalg.IndexOp)
    if not ip.linalg_indices:
        raise unsupported("'linalg.index' outside a linalg body", op)
    return [ip.linalg_indices[-1][op.dim.value.data]]


def _named(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """Every named structured op, by its definition in `named`."""
    ins, outs = split_operands(op)
    maps, reduction, body = named_definition(op, ins, outs, ip.bounded)
    return _run(ip, op, ins, outs, maps, reduction, body)


def _softmax(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """exp(x - max(x)) / sum(exp(x - max(x))) along `dimension` (LinalgOps.cpp)."""
    assert isinstance(op, linalg.SoftmaxOp)
    ins, outs = split_operands(op)
    dim = op.dimension.value.data
    x = np.asarray(ip.value(ins[0]))
    x = x if bounds.is_bounded(x) else x.astype(FLOAT64)
    if x.shape != np.shape(ip.value(outs[0])):
        raise unsupported(
            f"'linalg.softmax' from shape {x.shape} into {np.shape(ip.value(outs[0]))}", op
        )
    elem = elem_of(outs[0].type)
    if not elem.is_float:
        raise unsupported(f"'linalg.softmax' on {elem.name}", op)
    if ip.bounded:
        return _finish(op, outs, [ip.value(v) for v in outs], [bounds.softmax(x, dim, elem)])
    # Upstream's decomposition reduces the maximum with maxnumf.
    m = np.fmax.reduce(x, axis=dim, keepdims=True) if x.shape[dim] else x
    e = np.exp(x - m)
    y = e / np.sum(e, axis=dim, keepdims=True)
    return _finish(op, outs, [ip.value(v) for v in outs], [y])


def handlers() -> dict[type[Operation], Handler]:
    """The handlers of this module, by op class."""
    return {
        linalg.GenericOp: _generic,
        linalg.MapOp: _map,
        linalg.ReduceOp: _reduce,
        linalg.IndexOp: _index,
        linalg.SoftmaxOp: _softmax,
        **dict.fromkeys(NAMED_OPS, _named),
    }


def structured_spec(op: Operation) -> tuple[list[AffineMap], list[bool]] | None:
    """Indexing maps and reduction flags of a linalg op (for reduction lengths), if known."""
    if isinstance(op, linalg.GenericOp):
        return _generic_spec(op)
    if isinstance(op, linalg.ReduceOp):
        return _reduce_spec(op)
    if isinstance(op, linalg.SoftmaxOp):
        rank = rank_of(op.input)
        dim = op.dimension.value.data
        return [identity_map(rank)], [d == dim for d in range(rank)]
    return named_maps(op)


__all__ = [
    "RegionBody",
    "handlers",
    "split_operands",
    "structured_spec",
]
