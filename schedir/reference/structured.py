"""Evaluation of a linalg structured op from its indexing maps, iterator types and body.

The iteration space has one axis per loop. Each operand becomes a *view*: an array that
broadcasts over the iteration space and holds, at every point, the element its indexing
map reads there. For maps whose results are sums of dims times constants (permutations,
broadcasts, constants, conv's `oh * 2 + kh`) the view is a strided window on the operand
itself (no copy); other maps (`floordiv`, `mod`) gather with index arrays.

The body is then evaluated on whole views at once. With reduction loops:

* fast path: when each output's body is `yield(combine(out, f(ins)))` with an associative,
  commutative `combine` (add, mul, max, min, and, or, xor), `f` is evaluated over the
  iteration space (in chunks bounded by `CHUNK_ELEMENTS`), reduced along the reduction
  axes with numpy, and combined with the output; when `f` is a product and `combine` an
  addition, the product and the sum are one `np.einsum` (BLAS for floats).
* sequential path, for every other body: the reduction points are visited one by one in
  lexicographic order, the body evaluated vectorized over all parallel loops at each.

Bounded (`bounded=True`, floats held with their error bounds, see `bounds`): the fast path
charges each reduction the bound of a sum of all its terms in any order (the full reduction
length plus the initial value), since a schedule may tile, split or vectorize it.
"""

from __future__ import annotations

import itertools
import math
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from xdsl.ir import Operation
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

from schedir.dialects import arith
from schedir.reference import bounds
from schedir.reference.arith_math import float_binary, int_binary
from schedir.reference.control import affine_eval
from schedir.reference.interpreter import fail, unsupported
from schedir.reference.values import FLOAT64, Elem, signed, storage_of, unsigned, wrap

CHUNK_ELEMENTS = 1 << 22
"""Largest part of an iteration space the fast path materializes at once."""


# ---- combiners -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Combine:
    """An associative, commutative reduction step, as the arith op (class) that performs it;
    `bounded` floats carry their error bounds."""

    op: type[Operation]
    elem: Elem
    bounded: bool = False

    @property
    def float_bounds(self) -> bool:
        """Whether values carry error bounds (bounded, and floats: integers are exact)."""
        return self.bounded and self.elem.is_float

    def apply(self, acc: Any, value: Any) -> np.ndarray:
        """`acc combine value`, elementwise."""
        if self.elem.is_float:
            return float_binary(self.op, acc, value, self.elem, self.bounded)
        return int_binary(self.op, acc, value, self.elem)

    def reduce(self, values: np.ndarray, axes: tuple[int, ...], terms: int = 1) -> np.ndarray:
        """Combine `values` along `axes` (kept as size-1 axes); bounded, as part of a
        reduction of `terms` terms in all."""
        if self.elem.is_float:
            ufunc = FLOAT_REDUCERS[self.op]
            if self.bounded:
                return bounds.reduce(self.op, ufunc, values, axes, self.elem, terms)
            return ufunc.reduce(np.asarray(values, dtype=FLOAT64), axis=axes, keepdims=True)
        ufunc, is_unsigned = INT_REDUCERS[self.op]
        ints = unsigned(values, self.elem) if is_unsigned else signed(values, self.elem)
        return wrap(ufunc.reduce(ints, axis=axes, keepdims=True), self.elem)


# NaN-propagating maximum/minimum reduce like arith.maximumf/minimumf; fmax/fmin ignore NaN
# like maxnumf/minnumf. Integer sums and products are exact modulo 2**64, hence modulo 2**w.
FLOAT_REDUCERS: dict[type[Operation], np.ufunc] = {
    arith.AddfOp: np.add,
    arith.MulfOp: np.multiply,
    arith.MaximumfOp: np.maximum,
    arith.MinimumfOp: np.minimum,
    arith.MaxnumfOp: np.fmax,
    arith.MinnumfOp: np.fmin,
}
INT_REDUCERS: dict[type[Operation], tuple[np.ufunc, bool]] = {
    arith.AddiOp: (np.add, False),
    arith.MuliOp: (np.multiply, False),
    arith.MaxSIOp: (np.maximum, False),
    arith.MinSIOp: (np.minimum, False),
    arith.MaxUIOp: (np.maximum, True),
    arith.MinUIOp: (np.minimum, True),
    arith.AndIOp: (np.bitwise_and, False),
    arith.OrIOp: (np.bitwise_or, False),
    arith.XOrIOp: (np.bitwise_xor, False),
}
COMBINERS = frozenset(FLOAT_REDUCERS) | frozenset(INT_REDUCERS)


@dataclass(frozen=True)
class Product:
    """A partial value that is the product of two arrays (to be summed with einsum)."""

    lhs: Any
    rhs: Any


class Body(Protocol):
    """The scalar computation of a structured op, applied to whole arrays."""

    def full(self, ins: list[Any], outs: list[Any], index: list[np.ndarray]) -> list[Any]:
        """The values the body yields, given every input and output element."""
        ...

    def combines(self) -> list[Combine] | None:
        """Per output, the combine of a `yield(combine(out, f(ins)))` body, else None."""
        ...

    def products(self) -> list[bool]:
        """Per output, whether `f` is a product summed by the combine."""
        ...

    def partial(self, ins: list[Any], index: list[np.ndarray]) -> list[Any]:
        """Per output, `f(ins)` (a `Product` where `products()` says so)."""
        ...


# ---- views ---------------------------------------------------------------------------------


def linear_form(expr: AffineExpr) -> tuple[dict[int, int], int] | None:
    """`expr` as ({dim: coefficient}, constant) when it is linear in the dims, else None."""
    match expr:
        case AffineDimExpr():
            return {expr.position: 1}, 0
        case AffineConstantExpr():
            return {}, expr.value
        case AffineBinaryOpExpr(kind=AffineBinaryOpKind.Add):
            lhs, rhs = linear_form(expr.lhs), linear_form(expr.rhs)
            if lhs is None or rhs is None:
                return None
            coeffs = dict(lhs[0])
            for d, c in rhs[0].items():
                coeffs[d] = coeffs.get(d, 0) + c
            return coeffs, lhs[1] + rhs[1]
        case AffineBinaryOpExpr(kind=AffineBinaryOpKind.Mul):
            lhs, rhs = linear_form(expr.lhs), linear_form(expr.rhs)
            if lhs is None or rhs is None:
                return None
            if not lhs[0]:
                lhs, rhs = rhs, lhs
            if rhs[0]:
                return None
            return {d: c * rhs[1] for d, c in lhs[0].items()}, lhs[1] * rhs[1]
    return None


def loop_extents(
    op: Operation, shapes: Sequence[tuple[int, ...] | None], maps: Sequence[AffineMap]
) -> list[int]:
    """Each loop's extent: the size of the first operand dim its map result is exactly."""
    num_loops = maps[0].num_dims if maps else 0
    extents: list[int | None] = [None] * num_loops
    for shape, m in zip(shapes, maps, strict=True):
        for size, expr in zip(shape or (), m.results, strict=True):
            if isinstance(expr, AffineDimExpr) and extents[expr.position] is None:
                extents[expr.position] = size
    missing = [d for d, e in enumerate(extents) if e is None]
    if missing:
        raise unsupported(
            f"'{op.name}' op: no operand dimension gives the extent of loop d{missing[0]}", op
        )
    return [e for e in extents if e is not None]


def operand_view(
    op: Operation, index: int, value: Any, m: AffineMap, extents: Sequence[int]
) -> np.ndarray:
    """The view of one operand over the iteration space (broadcastable to `extents`).

    Checks every access is in bounds (and that pure-dim results match the extents, which a
    dynamic shape may break at runtime).
    """
    rank = len(extents)
    array = np.asarray(value)
    if not m.results:
        return (
            array.reshape((1,) * rank)
            if array.ndim == 0
            else array.reshape((1,) * rank + array.shape)
        )
    if array.ndim != len(m.results):
        raise fail(
            f"'{op.name}' op operand #{index} has rank {array.ndim}, its indexing map {len(m.results)}",
            op,
        )
    if 0 in extents:
        return np.empty([0 if e == 0 else 1 for e in extents], dtype=array.dtype)
    forms = [linear_form(e) for e in m.results]
    for dim, (expr, size) in enumerate(zip(m.results, array.shape, strict=True)):
        if isinstance(expr, AffineDimExpr) and extents[expr.position] != size:
            raise fail(
                f"'{op.name}' op operand #{index} has size {size} in dimension {dim}, "
                f"but loop d{expr.position} has extent {extents[expr.position]}",
                op,
            )
    if all(f is not None for f in forms):
        return _strided_view(op, index, array, [f for f in forms if f is not None], extents)
    # A map with floordiv/mod: gather with index arrays over the dims it uses.
    grid = [
        np.arange(e, dtype=np.int64).reshape([e if d == i else 1 for d in range(rank)])
        for i, e in enumerate(extents)
    ]
    indices = []
    for dim, (expr, size) in enumerate(zip(m.results, array.shape, strict=True)):
        idx = np.asarray(affine_eval(expr, grid, []), dtype=np.int64)
        if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= size):
            raise fail(
                f"'{op.name}' op operand #{index} is accessed out of bounds in dimension {dim} (size {size})",
                op,
            )
        indices.append(idx if idx.ndim else np.full((1,) * rank, int(idx)))
    return array[tuple(indices)]


def _strided_view(
    op: Operation,
    index: int,
    array: np.ndarray,
    forms: list[tuple[dict[int, int], int]],
    extents: Sequence[int],
) -> np.ndarray:
    """A zero-copy window: loop d advances the address by sum_j strides[j] * coeff[j][d]."""
    rank = len(extents)
    loop_strides = [0] * rank
    for dim, ((coeffs, const), size, stride) in enumerate(
        zip(forms, array.shape, array.strides, strict=True)
    ):
        lo = const + sum(min(0, c * (extents[d] - 1)) for d, c in coeffs.items())
        hi = const + sum(max(0, c * (extents[d] - 1)) for d, c in coeffs.items())
        if lo < 0 or hi >= size:
            raise fail(
                f"'{op.name}' op operand #{index} is accessed at [{lo}, {hi}] in dimension {dim} of size {size}",
                op,
            )
        for d, c in coeffs.items():
            loop_strides[d] += c * stride
    shape = [extents[d] if _uses(forms, d) else 1 for d in range(rank)]
    strides = [loop_strides[d] if shape[d] > 1 else 0 for d in range(rank)]
    # The constants (always inside the operand, checked above) give the window's origin.
    origin = array[tuple(slice(const, None) for _, const in forms)]
    return np.lib.stride_tricks.as_strided(origin, shape=shape, strides=strides, writeable=False)


def _uses(forms: list[tuple[dict[int, int], int]], d: int) -> bool:
    """Whether any result of a linear form reads loop `d`."""
    return any(coeffs.get(d, 0) != 0 for coeffs, _ in forms)


# ---- iteration -----------------------------------------------------------------------------


def _box_index(view: np.ndarray, box: Sequence[tuple[int, int]]) -> tuple[slice, ...]:
    """The part of a view inside `box` (broadcast dims stay whole)."""
    return tuple(
        slice(lo, hi) if n > 1 else slice(None) for n, (lo, hi) in zip(view.shape, box, strict=True)
    )


def _box_grid(box: Sequence[tuple[int, int]]) -> list[np.ndarray]:
    """The loop indices of `box`, one broadcastable array per loop."""
    rank = len(box)
    return [
        np.arange(lo, hi, dtype=np.int64).reshape([hi - lo if d == i else 1 for d in range(rank)])
        for i, (lo, hi) in enumerate(box)
    ]


def _chunks(extents: Sequence[int], order: Sequence[int]) -> list[list[tuple[int, int]]]:
    """Boxes covering the space, at most CHUNK_ELEMENTS each, split along `order` first-to-last.

    Dims are taken whole from the last of `order` backwards while they fit; the first that
    does not fit is cut into pieces; the ones before it are visited one index at a time.
    """
    sizes = {d: extents[d] for d in range(len(extents))}
    inner = 1
    cut = None
    for d in reversed(order):
        if inner * extents[d] > CHUNK_ELEMENTS:
            cut = d
            break
        inner *= extents[d]
    if cut is None:
        return [[(0, e) for e in extents]]
    position = list(order).index(cut)
    sizes[cut] = max(1, CHUNK_ELEMENTS // inner)
    for d in order[:position]:
        sizes[d] = 1
    ranges = [
        [(lo, min(lo + sizes[d], extents[d])) for lo in range(0, extents[d], sizes[d])]
        for d in range(len(extents))
    ]
    return [list(box) for box in itertools.product(*ranges)]


def evaluate_structured(
    op: Operation,
    ins: Sequence[Any],
    outs: Sequence[Any],
    maps: Sequence[AffineMap],
    reduction: Sequence[bool],
    body: Body,
    out_elems: Sequence[Elem],
) -> list[np.ndarray]:
    """The new values of `outs` after the structured op; the operands are not modified."""
    operands = [*ins, *outs]
    shapes = [
        np.shape(v) if np.ndim(v) or m.results else None
        for v, m in zip(operands, maps, strict=True)
    ]
    extents = loop_extents(op, shapes, maps)
    rank = len(extents)
    views = [
        operand_view(op, i, v, m, extents)
        for i, (v, m) in enumerate(zip(operands, maps, strict=True))
    ]
    in_views, out_views = views[: len(ins)], views[len(ins) :]
    out_maps = maps[len(ins) :]
    parallel = [d for d in range(rank) if not reduction[d]]
    reduced = tuple(d for d in range(rank) if reduction[d])
    for k, m in enumerate(out_maps):
        _check_output_map(op, k, m, reduction, extents)
    acc_shape = [1 if reduction[d] else extents[d] for d in range(rank)]
    accs = [
        np.array(np.broadcast_to(storage_of(v, e), acc_shape))
        for v, e in zip(out_views, out_elems, strict=True)
    ]
    if 0 in extents:
        pass
    elif not reduced:
        _run_parallel(body, in_views, accs, extents, out_elems)
    else:
        combines = body.combines()
        if combines is not None:
            _run_fast(body, combines, in_views, accs, extents, reduced, parallel)
        else:
            _run_sequential(body, in_views, accs, extents, reduced, out_elems)
    return [
        _write_output(acc, m, np.shape(out))
        for acc, m, out in zip(accs, out_maps, outs, strict=True)
    ]


def _check_output_map(
    op: Operation, k: int, m: AffineMap, reduction: Sequence[bool], extents: Sequence[int]
) -> None:
    """Outputs must be indexed by a permutation of the parallel loops."""
    dims = [e.position for e in m.results if isinstance(e, AffineDimExpr)]
    if (
        len(dims) != len(m.results)
        or len(set(dims)) != len(dims)
        or any(reduction[d] for d in dims)
    ):
        raise unsupported(
            f"'{op.name}' op output #{k} has indexing map {m}, not a permutation of parallel loops",
            op,
        )
    missing = [
        d for d in range(len(extents)) if not reduction[d] and d not in dims and extents[d] > 1
    ]
    if missing:
        raise unsupported(
            f"'{op.name}' op output #{k} is written repeatedly along parallel loop d{missing[0]}",
            op,
        )


def _write_output(acc: np.ndarray, m: AffineMap, shape: tuple[int, ...]) -> np.ndarray:
    """An accumulator (in loop order) laid out as its output operand."""
    dims = [e.position for e in m.results if isinstance(e, AffineDimExpr)]
    rest = [d for d in range(acc.ndim) if d not in dims]
    return np.transpose(acc, dims + rest).reshape(shape)


def _run_parallel(
    body: Body,
    in_views: list[np.ndarray],
    accs: list[np.ndarray],
    extents: Sequence[int],
    out_elems: Sequence[Elem],
) -> None:
    """No reduction loops: evaluate the body once per chunk of the space."""
    for box in _chunks(extents, range(len(extents))):
        ins = [v[_box_index(v, box)] for v in in_views]
        window = tuple(slice(lo, hi) for lo, hi in box)
        outs = [acc[window] for acc in accs]
        results = body.full(ins, outs, _box_grid(box))
        shape = [hi - lo for lo, hi in box]
        for acc, value, elem in zip(accs, results, out_elems, strict=True):
            acc[window] = np.broadcast_to(storage_of(value, elem), shape)


def _run_sequential(
    body: Body,
    in_views: list[np.ndarray],
    accs: list[np.ndarray],
    extents: Sequence[int],
    reduced: tuple[int, ...],
    out_elems: Sequence[Elem],
) -> None:
    """Visit the reduction points one by one, vectorized over parallel loops."""
    for point in itertools.product(*(range(extents[d]) for d in reduced)):
        at = dict(zip(reduced, point, strict=True))
        box = [(at[d], at[d] + 1) if d in at else (0, extents[d]) for d in range(len(extents))]
        ins = [v[_box_index(v, box)] for v in in_views]
        results = body.full(ins, list(accs), _box_grid(box))
        for k, (value, elem) in enumerate(zip(results, out_elems, strict=True)):
            accs[k] = np.array(np.broadcast_to(storage_of(value, elem), accs[k].shape))


def _run_fast(
    body: Body,
    combines: list[Combine],
    in_views: list[np.ndarray],
    accs: list[np.ndarray],
    extents: Sequence[int],
    reduced: tuple[int, ...],
    parallel: list[int],
) -> None:
    """Evaluate f, reduce it with numpy and combine it into the outputs."""
    rank = len(extents)
    products = body.products()
    # Every term of the reduction, and the initial value: the bounded sums are charged the
    # rounding of a sum of that many terms in any order.
    terms = math.prod(extents[d] for d in reduced) + 1
    for k, combine in enumerate(combines):
        if combine.float_bounds:
            accs[k][...] = bounds.initial(accs[k], combine.elem, combine.op, terms)
    if all(products):
        # einsum never materializes the iteration space: evaluate it whole.
        boxes = [[(0, e) for e in extents]]
    else:
        boxes = _chunks(extents, [*parallel, *reduced])
    for box in boxes:
        ins = [v[_box_index(v, box)] for v in in_views]
        partials = body.partial(ins, _box_grid(box))
        window = tuple(
            slice(lo, hi) if d in parallel else slice(None) for d, (lo, hi) in enumerate(box)
        )
        shape = [hi - lo for lo, hi in box]
        for k, (combine, value) in enumerate(zip(combines, partials, strict=True)):
            if isinstance(value, Product) and combine.float_bounds:
                partial = bounds.einsum_bound(
                    lambda a, b, shape=shape, elem=combine.elem: _einsum(
                        Product(a, b), shape, reduced, elem
                    ),
                    value.lhs,
                    value.rhs,
                    combine.elem,
                    terms,
                )
            elif isinstance(value, Product):
                partial = _einsum(value, shape, reduced, combine.elem)
            else:
                full = np.broadcast_to(storage_of(value, combine.elem), shape)
                partial = combine.reduce(full, reduced, terms)
            acc_shape = [1 if d in reduced else shape[d] for d in range(rank)]
            accs[k][window] = combine.apply(accs[k][window], np.broadcast_to(partial, acc_shape))


def _einsum(
    product: Product, shape: Sequence[int], reduced: tuple[int, ...], elem: Elem
) -> np.ndarray:
    """sum over `reduced` of lhs * rhs (both broadcastable to `shape`), keeping reduced axes."""
    rank = len(shape)
    letters = string.ascii_letters
    dtype = FLOAT64 if elem.is_float else np.dtype(np.int64)
    operands, subscripts = [], []
    present: set[int] = set()
    for x in (product.lhs, product.rhs):
        x = np.asarray(x)
        x = x.reshape((1,) * (rank - x.ndim) + x.shape) if x.ndim < rank else x
        dims = [d for d in range(rank) if x.shape[d] > 1]
        present.update(dims)
        operands.append(
            (signed(x, elem) if not elem.is_float else x)
            .astype(dtype, copy=False)
            .reshape([x.shape[d] for d in dims])
        )
        subscripts.append("".join(letters[d] for d in dims))
    kept = [d for d in range(rank) if d in present and d not in reduced]
    spec = f"{subscripts[0]},{subscripts[1]}->{''.join(letters[d] for d in kept)}"
    result = np.einsum(
        spec, *operands, optimize=len(operands[0].shape) + len(operands[1].shape) > 2
    )
    # A reduction loop neither factor depends on adds the same product once per step.
    repeat = math.prod(shape[d] for d in reduced if d not in present)
    result = result * repeat if repeat != 1 else result
    out_shape = [shape[d] if d in kept else 1 for d in range(rank)]
    result = np.asarray(result).reshape(out_shape)
    return result if elem.is_float else wrap(result, elem)


# ---- bodies --------------------------------------------------------------------------------


@dataclass
class FunctionBody:
    """A body written in Python: a named op's scalar function."""

    compute: Callable[[list[Any], list[Any], list[np.ndarray]], list[Any]]
    combine_list: list[Combine] | None = None
    partial_fn: Callable[[list[Any]], list[Any]] | None = None
    product_list: list[bool] | None = None

    def full(self, ins: list[Any], outs: list[Any], index: list[np.ndarray]) -> list[Any]:
        return self.compute(ins, outs, index)

    def combines(self) -> list[Combine] | None:
        return self.combine_list

    def products(self) -> list[bool]:
        return self.product_list or [False] * len(self.combine_list or ())

    def partial(self, ins: list[Any], index: list[np.ndarray]) -> list[Any]:
        assert self.partial_fn is not None
        return self.partial_fn(ins)


__all__ = [
    "CHUNK_ELEMENTS",
    "COMBINERS",
    "FLOAT_REDUCERS",
    "INT_REDUCERS",
    "Body",
    "Combine",
    "FunctionBody",
    "Product",
    "evaluate_structured",
    "linear_form",
    "loop_extents",
    "operand_view",
]
