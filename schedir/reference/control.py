"""Control flow and index arithmetic: `func`, `scf`, `cf.assert` and `affine` apply/min/max.

Loops run in Python, one iteration after another in lexicographic order (so `scf.forall`
and `scf.parallel` give the sequential answer a race-free program must equal). Affine maps
are evaluated with affine's own integer semantics: `floordiv` rounds toward minus infinity,
`ceildiv` toward plus infinity and `mod` is never negative for a positive divisor.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from xdsl.dialects.builtin import (
    AffineMapAttr,
    FlatSymbolRefAttr,
    SymbolRefAttr,
)
from xdsl.ir import Operation
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)

from schedir.reference.attrs import DYNAMIC, int_list, mixed, prop, segments
from schedir.reference.interpreter import fail, unsupported

if TYPE_CHECKING:
    from schedir.reference.interpreter import Handler, Interpreter

# ---- affine --------------------------------------------------------------------------------


def affine_eval(expr: AffineExpr, dims: Sequence[Any], syms: Sequence[Any]) -> Any:
    """Evaluate an affine expression on ints or int64 arrays (broadcasting)."""
    match expr:
        case AffineDimExpr():
            return dims[expr.position]
        case AffineSymExpr():
            return syms[expr.position]
        case AffineConstantExpr():
            return expr.value
        case AffineBinaryOpExpr():
            a = affine_eval(expr.lhs, dims, syms)
            b = affine_eval(expr.rhs, dims, syms)
            match expr.kind:
                case AffineBinaryOpKind.Add:
                    return a + b
                case AffineBinaryOpKind.Mul:
                    return a * b
                case AffineBinaryOpKind.FloorDiv:
                    return a // b
                case AffineBinaryOpKind.CeilDiv:
                    return -((-a) // b)
                case AffineBinaryOpKind.Mod:
                    # Python's and numpy's % take the divisor's sign, as affine's mod does.
                    return a % b
    raise TypeError(f"unknown affine expression {expr}")


def _affine_map(op: Operation) -> AffineMap:
    """The affine map of an affine op."""
    attr = prop(op, "map")
    if not isinstance(attr, AffineMapAttr):
        raise unsupported(f"'{op.name}' op without an affine map", op)
    return attr.data


def _affine_values(op: Operation, args: list[Any]) -> list[Any]:
    """Every result of an affine op's map on its operands."""
    m = _affine_map(op)
    ints = [np.asarray(a, dtype=np.int64) for a in args]
    dims, syms = ints[: m.num_dims], ints[m.num_dims :]
    return [np.asarray(affine_eval(e, dims, syms), dtype=np.int64) for e in m.results]


def _affine_apply(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """affine.apply."""
    return _affine_values(op, args)


def _affine_min(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """affine.min / affine.max."""
    values = _affine_values(op, args)
    reduce = np.minimum if op.name == "affine.min" else np.maximum
    out = values[0]
    for v in values[1:]:
        out = reduce(out, v)
    return [out]


# ---- func and cf ---------------------------------------------------------------------------


def _call(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """func.call."""
    callee = prop(op, "callee")
    if isinstance(callee, SymbolRefAttr | FlatSymbolRefAttr):
        name = callee.root_reference.data if isinstance(callee, SymbolRefAttr) else callee.data
    else:
        raise unsupported("'func.call' without a callee symbol", op)
    return ip.call(ip.function(name, op), args)


def _assert(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """cf.assert: an InputError when the condition is false."""
    if not bool(np.all(args[0])):
        msg = prop(op, "msg")
        text = msg.data if msg is not None and hasattr(msg, "data") else "assertion failed"
        raise fail(f"'cf.assert' failed: {text}", op)
    return []


# ---- scf -----------------------------------------------------------------------------------


def _yielded(ip: Interpreter, region: Any, args: Sequence[Any], op: Operation) -> list[Any]:
    """The values a region yields, run on `args`."""
    _terminator, values = ip.run_region(region, args)
    return values


def _for(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """scf.for with iter_args."""
    lb, ub, step = (int(v) for v in args[:3])
    if step <= 0:
        raise fail(f"'scf.for' step must be positive, got {step}", op)
    carried = list(args[3:])
    iv_dtype = np.asarray(args[0]).dtype
    for i in range(lb, ub, step):
        iv = np.asarray(i, dtype=iv_dtype)
        carried = _yielded(ip, op.regions[0], [iv, *carried], op)
    return carried


def _if(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """scf.if (both sides and a select on a vector condition)."""
    cond = np.asarray(args[0])
    then_region, else_region = op.regions[0], op.regions[1]
    if cond.ndim == 0:
        if bool(cond):
            return _yielded(ip, then_region, [], op)
        return _yielded(ip, else_region, [], op) if else_region.blocks else []
    # A vector condition: the scf.if sits in a vectorized linalg body. Both sides are
    # evaluated over every element and the results selected.
    if not else_region.blocks:
        raise unsupported("'scf.if' without an else region on a vector condition", op)
    a = _yielded(ip, then_region, [], op)
    b = _yielded(ip, else_region, [], op)
    return [np.where(cond, x, y) for x, y in zip(a, b, strict=True)]


def _execute_region(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """scf.execute_region."""
    return _yielded(ip, op.regions[0], [], op)


def _index_switch(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """scf.index_switch."""
    cases = int_list(prop(op, "cases")) or []
    value = int(args[0])
    # Region 0 is the default; the case regions follow in the order of `cases`.
    region = op.regions[1 + cases.index(value)] if value in cases else op.regions[0]
    return _yielded(ip, region, [], op)


def _while(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """scf.while."""
    before, after = op.regions[0], op.regions[1]
    current = list(args)
    while True:
        _terminator, values = ip.run_region(before, current)
        cond, forwarded = values[0], values[1:]
        if not bool(cond):
            return forwarded
        current = _yielded(ip, after, forwarded, op)


def _points(lbs: Sequence[int], ubs: Sequence[int], steps: Sequence[int], op: Operation) -> Any:
    """Every point of a loop nest, lexicographically."""
    if any(s <= 0 for s in steps):
        raise fail(f"'{op.name}' steps must be positive, got {list(steps)}", op)
    return itertools.product(*(range(lo, hi, s) for lo, hi, s in zip(lbs, ubs, steps, strict=True)))


def _parallel(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """scf.parallel with scf.reduce, iterations in lexicographic order."""
    segs = segments(op, 4)
    if segs is None:
        raise unsupported("'scf.parallel' without operand segment sizes", op)
    lbs, ubs, steps = ([int(args[i]) for i in seg] for seg in segs[:3])
    accs = [args[i] for i in segs[3]]
    body = op.regions[0]
    for point in _points(lbs, ubs, steps, op):
        ivs = [np.int64(i) for i in point]
        terminator, values = ip.run_region(body, ivs)
        if terminator.name != "scf.reduce":
            continue
        # Each reduced value is combined into its partial result by its own region,
        # called as (partial, value), in iteration order.
        for k, region in enumerate(terminator.regions):
            _, (accs[k],) = ip.run_region(region, [accs[k], values[k]])
    return accs


def _forall(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    # Imported here: tensor_ops uses this module's helpers.
    """scf.forall with shared_outs, iterations in lexicographic order."""
    from schedir.reference.tensor_ops import insert_slice_into

    static_lb = int_list(prop(op, "staticLowerBound", "static_lower_bound"))
    static_ub = int_list(prop(op, "staticUpperBound", "static_upper_bound"))
    static_step = int_list(prop(op, "staticStep", "static_step"))
    if static_ub is None:
        raise unsupported("'scf.forall' without static upper bounds", op)
    rank = len(static_ub)
    static_lb = static_lb if static_lb is not None else [0] * rank
    static_step = static_step if static_step is not None else [1] * rank
    it = iter(args)
    lbs = mixed(static_lb, [next(it) for v in static_lb if v == DYNAMIC])
    ubs = mixed(static_ub, [next(it) for v in static_ub if v == DYNAMIC])
    steps = mixed(static_step, [next(it) for v in static_step if v == DYNAMIC])
    inits = list(it)
    # Every iteration sees the shared outs as they were on entry (they are SSA values);
    # its tensor.parallel_insert_slice ops write into the results, in iteration order.
    results = [np.array(v, copy=True) for v in inits]
    body = op.regions[0].blocks[0]
    for point in _points(lbs, ubs, steps, op):
        ip.bind(body.args, [*(np.int64(i) for i in point), *inits])
        terminator = ip.run_ops(body)
        for insert in terminator.regions[0].blocks[0].ops if terminator.regions else ():
            if insert.name != "tensor.parallel_insert_slice":
                raise unsupported(f"'{insert.name}' inside 'scf.forall.in_parallel'", insert)
            dest = insert.operands[1]
            if dest not in body.args[rank:]:
                raise unsupported(
                    "'tensor.parallel_insert_slice' into a value that is not a shared out", insert
                )
            k = list(body.args[rank:]).index(dest)
            insert_slice_into(results[k], insert, [ip.value(v) for v in insert.operands])
    return results


def handlers() -> dict[str, Handler]:
    """The handlers of this module, by op name."""
    return {
        "func.call": _call,
        "cf.assert": _assert,
        "affine.apply": _affine_apply,
        "affine.min": _affine_min,
        "affine.max": _affine_min,
        "scf.for": _for,
        "scf.if": _if,
        "scf.execute_region": _execute_region,
        "scf.index_switch": _index_switch,
        "scf.while": _while,
        "scf.parallel": _parallel,
        "scf.forall": _forall,
    }


__all__ = ["DYNAMIC", "affine_eval", "handlers", "int_list", "mixed", "prop", "segments"]
