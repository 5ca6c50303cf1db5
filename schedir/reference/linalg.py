"""`linalg` ops: `generic`, `map` and `reduce` by their regions, `softmax` by its formula,
and the named ops by their definitions (see `named`).

A region body runs on whole arrays (see `structured`); `yield(combine(out, f(ins)))`
bodies are recognized so reductions take the vectorized fast path.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, MemRefType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from schedir.reference.attrs import int_list, prop
from schedir.reference.interpreter import unsupported
from schedir.reference.named import (
    NAMED_OPS,
    identity_map,
    maps_property,
    named_definition,
    named_maps,
    rank_of,
)
from schedir.reference.structured import (
    COMBINERS,
    Combine,
    Product,
    evaluate_structured,
)
from schedir.reference.values import FLOAT64, elem_of

if TYPE_CHECKING:
    from schedir.reference.interpreter import Handler, Interpreter


# ---- operands and results ------------------------------------------------------------------


def split_operands(op: Operation) -> tuple[list[SSAValue], list[SSAValue]]:
    """The ins and outs of a structured op, by its operand fields, else its segments."""
    for ins_name, outs_name in (
        ("inputs", "outputs"),
        ("inputs", "inits"),
        ("inputs", "init"),
        ("input", "init"),
        ("input", "output"),
    ):
        ins, outs = getattr(op, ins_name, None), getattr(op, outs_name, None)
        if ins is not None and outs is not None:
            return _as_list(ins), _as_list(outs)
    sizes = int_list(prop(op, "operandSegmentSizes"))
    operands = list(op.operands)
    if sizes is not None and len(sizes) == 2:
        return operands[: sizes[0]], operands[sizes[0] :]
    half = len(operands) // 2
    return operands[:half], operands[half:]


def _as_list(values: Any) -> list[SSAValue]:
    """One operand or a variadic operand as a list."""
    return [values] if isinstance(values, SSAValue) else list(values)


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

    def __init__(self, ip: Interpreter, op: Operation, n_in: int, n_out: int) -> None:
        self.ip = ip
        self.block: Block = op.regions[0].blocks[0]
        args = self.block.args
        self.in_args = args[:n_in]
        self.out_args = args[n_in:]
        self.terminator = self.block.last_op
        assert self.terminator is not None
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
            if combine.name not in COMBINERS or len(combine.operands) != 2:
                return
            lhs, rhs = combine.operands
            if (lhs is out_arg) == (rhs is out_arg):
                return
            f = rhs if lhs is out_arg else lhs
            if _uses(out_arg) != [combine] or len(_uses(combine.results[0])) != 1:
                return
            elem = elem_of(out_arg.type)
            if elem.is_float != combine.name.endswith("f"):
                return
            combines.append(Combine(combine.name, elem))
            skip.add(combine)
            producer = f.owner
            product_name = "arith.mulf" if elem.is_float else "arith.muli"
            sum_name = "arith.addf" if elem.is_float else "arith.addi"
            if (
                isinstance(producer, Operation)
                and producer.parent is self.block
                and producer.name == product_name
                and combine.name == sum_name
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


def _iterator_is_reduction(attr: Any) -> bool:
    """Whether an iterator type is a reduction (or window) loop."""
    text = str(getattr(attr, "data", attr)).strip('"')
    return text in ("reduction", "window")


def _generic(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """linalg.generic by its maps, iterator types and region."""
    ins, outs = split_operands(op)
    maps = maps_property(op)
    iterators = prop(op, "iterator_types")
    if maps is None or not isinstance(iterators, ArrayAttr):
        raise unsupported("'linalg.generic' without indexing_maps and iterator_types", op)
    reduction = [_iterator_is_reduction(it) for it in iterators.data]
    return _run(ip, op, ins, outs, maps, reduction, RegionBody(ip, op, len(ins), len(outs)))


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
    ins, outs = split_operands(op)
    rank = rank_of(outs[0])
    maps = [identity_map(rank)] * (len(ins) + len(outs))
    return _run(ip, op, ins, outs, maps, [False] * rank, RegionBody(ip, op, len(ins), len(outs)))


def _reduce(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """linalg.reduce: its region over the input, reducing `dimensions`."""
    ins, outs = split_operands(op)
    dims = set(int_list(prop(op, "dimensions")) or [])
    rank = rank_of(ins[0])
    kept = AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in range(rank) if d not in dims))
    maps = [identity_map(rank)] * len(ins) + [kept] * len(outs)
    reduction = [d in dims for d in range(rank)]
    return _run(ip, op, ins, outs, maps, reduction, RegionBody(ip, op, len(ins), len(outs)))


def _index(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """linalg.index: the loop indices of the innermost linalg body."""
    dim = prop(op, "dim")
    if not ip.linalg_indices or not isinstance(dim, IntegerAttr):
        raise unsupported("'linalg.index' outside a linalg body", op)
    return [ip.linalg_indices[-1][dim.value.data]]


def _named(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """Every named structured op, by its definition in `named`."""
    ins, outs = split_operands(op)
    maps, reduction, body = named_definition(op, ins, outs)
    return _run(ip, op, ins, outs, maps, reduction, body)


def _softmax(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """exp(x - max(x)) / sum(exp(x - max(x))) along `dimension` (LinalgOps.cpp)."""
    ins, outs = split_operands(op)
    dim_attr = prop(op, "dimension")
    if not isinstance(dim_attr, IntegerAttr):
        raise unsupported("'linalg.softmax' without a dimension", op)
    dim = dim_attr.value.data
    x = np.asarray(ip.value(ins[0]), dtype=FLOAT64)
    if x.shape != np.shape(ip.value(outs[0])):
        raise unsupported(
            f"'linalg.softmax' from shape {x.shape} into {np.shape(ip.value(outs[0]))}", op
        )
    # Upstream's decomposition reduces the maximum with maxnumf.
    m = np.fmax.reduce(x, axis=dim, keepdims=True) if x.shape[dim] else x
    e = np.exp(x - m)
    y = e / np.sum(e, axis=dim, keepdims=True)
    elem = elem_of(outs[0].type)
    if not elem.is_float:
        raise unsupported(f"'linalg.softmax' on {elem.name}", op)
    return _finish(op, outs, [ip.value(v) for v in outs], [y])


def handlers() -> dict[str, Handler]:
    """The handlers of this module, by op name."""
    table: dict[str, Handler] = {
        "linalg.generic": _generic,
        "linalg.map": _map,
        "linalg.reduce": _reduce,
        "linalg.index": _index,
        "linalg.softmax": _softmax,
    }
    for short in NAMED_OPS:
        table[f"linalg.{short}"] = _named
    return table


def structured_spec(op: Operation) -> tuple[list[AffineMap], list[bool]] | None:
    """Indexing maps and reduction flags of a linalg op (for reduction lengths), if known."""
    if op.name == "linalg.generic":
        maps = maps_property(op)
        iterators = prop(op, "iterator_types")
        if maps is None or not isinstance(iterators, ArrayAttr):
            return None
        return maps, [_iterator_is_reduction(it) for it in iterators.data]
    if op.name == "linalg.reduce":
        ins, _ = split_operands(op)
        dims = set(int_list(prop(op, "dimensions")) or [])
        rank = rank_of(ins[0])
        kept = AffineMap(rank, 0, tuple(AffineDimExpr(d) for d in range(rank) if d not in dims))
        n = len(op.operands) // 2
        return [identity_map(rank)] * n + [kept] * n, [d in dims for d in range(rank)]
    if op.name == "linalg.softmax":
        dim = prop(op, "dimension")
        rank = rank_of(op.operands[0])
        if not isinstance(dim, IntegerAttr):
            return None
        return [identity_map(rank)], [d == dim.value.data for d in range(rank)]
    return named_maps(op)


__all__ = [
    "RegionBody",
    "handlers",
    "split_operands",
    "structured_spec",
]
