"""Control flow and index arithmetic: `func`, `scf`, `cf.assert` and `affine` apply/min/max.

Loops run in Python, one iteration after another in lexicographic order (so `scf.forall`
and `scf.parallel` give the sequential answer a race-free program must equal). Affine maps
are evaluated with affine's own integer semantics: `floordiv` rounds toward minus infinity,
`ceildiv` toward plus infinity and `mod` is never negative for a positive divisor.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects import cf, func
from xdsl.ir import Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)

from schedir.dialects import affine, scf, tensor
from schedir.reference.attrs import mixed
from schedir.reference.interpreter import Handler, Interpreter, fail, unsupported
from schedir.reference.tensor_ops import insert_slice_into

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


def _affine_values(op: Operation, args: list[Any]) -> list[Any]:
    """Every result of an affine op's map on its operands."""
    assert isinstance(op, affine.ApplyOp | affine.MinOp | affine.MaxOp)
    m = op.map.data
    ints = [np.asarray(a, dtype=np.int64) for a in args]
    dims, syms = ints[: m.num_dims], ints[m.num_dims :]
    return [np.asarray(affine_eval(e, dims, syms), dtype=np.int64) for e in m.results]


def _affine_apply(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """affine.apply."""
    return _affine_values(op, args)


def _affine_min(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """affine.min / affine.max."""
    values = _affine_values(op, args)
    reduce = np.minimum if isinstance(op, affine.MinOp) else np.maximum
    out = values[0]
    for v in values[1:]:
        out = reduce(out, v)
    return [out]


# ---- func and cf ---------------------------------------------------------------------------


def _call(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """func.call."""
    assert isinstance(op, func.CallOp)
    return ip.call(ip.function(op.callee.root_reference.data, op), args)


def _assert(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """cf.assert: an InputError when the condition is false."""
    assert isinstance(op, cf.AssertOp)
    if not bool(np.all(args[0])):
        raise fail(f"'cf.assert' failed: {op.msg.data}", op)
    return []


# ---- scf -----------------------------------------------------------------------------------


def _yielded(ip: Interpreter, region: Region, args: Sequence[Any]) -> list[Any]:
    """The values a region yields, run on `args`."""
    _terminator, values = ip.run_region(region, args)
    return values


def _for(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """scf.for with iter_args."""
    assert isinstance(op, scf.ForOp)
    lb, ub, step = (int(v) for v in args[:3])
    if step <= 0:
        raise fail(f"'scf.for' step must be positive, got {step}", op)
    carried = list(args[3:])
    iv_dtype = np.asarray(args[0]).dtype
    for i in range(lb, ub, step):
        iv = np.asarray(i, dtype=iv_dtype)
        carried = _yielded(ip, op.body, [iv, *carried])
    return carried


def _if(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """scf.if (both sides and a select on a vector condition)."""
    assert isinstance(op, scf.IfOp)
    cond = np.asarray(args[0])
    then_region, else_region = op.true_region, op.false_region
    if cond.ndim == 0:
        if bool(cond):
            return _yielded(ip, then_region, [])
        return _yielded(ip, else_region, []) if else_region.blocks else []
    # A vector condition: the scf.if sits in a vectorized linalg body. Both sides are
    # evaluated over every element and the results selected.
    if not else_region.blocks:
        raise unsupported("'scf.if' without an else region on a vector condition", op)
    a = _yielded(ip, then_region, [])
    b = _yielded(ip, else_region, [])
    return [np.where(cond, x, y) for x, y in zip(a, b, strict=True)]


def _execute_region(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """scf.execute_region."""
    assert isinstance(op, scf.ExecuteRegionOp)
    return _yielded(ip, op.region, [])


def _index_switch(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """scf.index_switch."""
    assert isinstance(op, scf.IndexSwitchOp)
    cases = list(op.cases.get_values())
    value = int(args[0])
    # The case regions follow the order of `cases`.
    region = op.case_regions[cases.index(value)] if value in cases else op.default_region
    return _yielded(ip, region, [])


def _while(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """scf.while."""
    assert isinstance(op, scf.WhileOp)
    before, after = op.before_region, op.after_region
    current = list(args)
    while True:
        _terminator, values = ip.run_region(before, current)
        cond, forwarded = values[0], values[1:]
        if not bool(cond):
            return forwarded
        current = _yielded(ip, after, forwarded)


def _points(lbs: Sequence[int], ubs: Sequence[int], steps: Sequence[int], op: Operation) -> Any:
    """Every point of a loop nest, lexicographically."""
    if any(s <= 0 for s in steps):
        raise fail(f"'{op.name}' steps must be positive, got {list(steps)}", op)
    return itertools.product(*(range(lo, hi, s) for lo, hi, s in zip(lbs, ubs, steps, strict=True)))


def _parallel(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """scf.parallel with scf.reduce, iterations in lexicographic order."""
    assert isinstance(op, scf.ParallelOp)
    lbs, ubs, steps = (
        [int(ip.value(v)) for v in values] for values in (op.lowerBound, op.upperBound, op.step)
    )
    accs = [ip.value(v) for v in op.initVals]
    for point in _points(lbs, ubs, steps, op):
        ivs = [np.int64(i) for i in point]
        terminator, values = ip.run_region(op.body, ivs)
        if not isinstance(terminator, scf.ReduceOp):
            continue
        # Each reduced value is combined into its partial result by its own region,
        # called as (partial, value), in iteration order.
        for k, region in enumerate(terminator.reductions):
            _, (accs[k],) = ip.run_region(region, [accs[k], values[k]])
    return accs


def _forall(ip: Interpreter, op: Operation, args: list[Any]) -> list[Any]:
    """scf.forall with shared_outs, iterations in lexicographic order."""
    assert isinstance(op, scf.ForallOp)
    static_ub = list(op.staticUpperBound.get_values())
    rank = len(static_ub)
    lbs = mixed(op.staticLowerBound.get_values(), [ip.value(v) for v in op.dynamicLowerBound])
    ubs = mixed(static_ub, [ip.value(v) for v in op.dynamicUpperBound])
    steps = mixed(op.staticStep.get_values(), [ip.value(v) for v in op.dynamicStep])
    inits = [ip.value(v) for v in op.outputs]
    # Every iteration sees the shared outs as they were on entry (they are SSA values);
    # its tensor.parallel_insert_slice ops write into the results, in iteration order.
    results = [np.array(v, copy=True) for v in inits]
    body = op.body.block
    shared: list[SSAValue] = list(body.args[rank:])
    for point in _points(lbs, ubs, steps, op):
        ip.bind(body.args, [*(np.int64(i) for i in point), *inits])
        terminator = ip.run_ops(body)
        assert isinstance(terminator, scf.InParallelOp)
        for insert in terminator.yielding_ops:
            if not isinstance(insert, tensor.ParallelInsertSliceOp):
                raise unsupported(f"'{insert.name}' inside 'scf.forall.in_parallel'", insert)
            if insert.dest not in shared:
                raise unsupported(
                    "'tensor.parallel_insert_slice' into a value that is not a shared out", insert
                )
            k = shared.index(insert.dest)
            insert_slice_into(results[k], insert, [ip.value(v) for v in insert.operands])
    return results


def handlers() -> dict[type[Operation], Handler]:
    """The handlers of this module, by op class."""
    return {
        func.CallOp: _call,
        cf.AssertOp: _assert,
        affine.ApplyOp: _affine_apply,
        affine.MinOp: _affine_min,
        affine.MaxOp: _affine_min,
        scf.ForOp: _for,
        scf.IfOp: _if,
        scf.ExecuteRegionOp: _execute_region,
        scf.IndexSwitchOp: _index_switch,
        scf.WhileOp: _while,
        scf.ParallelOp: _parallel,
        scf.ForallOp: _forall,
    }


__all__ = ["affine_eval", "handlers"]
