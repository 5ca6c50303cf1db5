"""Constraints a schedule writes on its params: upstream's `transform.smt.constrain_params`,
evaluated (not solved).

    transform.smt.constrain_params(%bn, %rn) : (!transform.param<i64>, !transform.param<i64>) -> () {
    ^bb0(%n: !smt.int, %r: !smt.int):
      %c0 = smt.int.constant 0
      %rem = smt.int.mod %n, %r
      %ok = smt.eq %rem, %c0 : !smt.int
      smt.assert %ok
    }

`evaluate(op, values)` runs the region on concrete values (ints for `!smt.int`, bools for
`!smt.bool`) with SMT-LIB's semantics (integers unbounded; `div`/`mod` Euclidean, so the
remainder is in [0, |divisor|)); it returns the yielded values and the first `smt.assert`
that is false. A division by zero, which SMT-LIB leaves unspecified, counts as a violated
constraint. The transform op's apply (`schedir.transform.ops.smt`) checks the selected
values this way.

`constraints_of(root, knobs)` gives the autotuner one `ParamConstraint` per
`constrain_params` op whose operands are all knobs or `transform.param.constant`s: a point
of the search space that breaks it is invalid and is never compiled. An op inside a region
of `transform.tune.alternatives` applies only to the points that select that region.
Other ops (over params computed at apply time) are checked when the candidate is built.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import IntegerAttr, i1, i64
from xdsl.ir import Attribute, Operation, SSAValue

from schedir.diagnostics import Location
from schedir.dialects import smt
from schedir.dialects.syntax import op_location
from schedir.dialects.transform.core.handles import ParamConstantOp
from schedir.dialects.transform.smt import ConstrainParamsOp
from schedir.dialects.transform.tune import KnobOp, TuneAlternativesOp
from schedir.transform.knobs import Knob, KnobValue

SmtValue = int | bool


class EvaluationError(Exception):
    """The region cannot be evaluated (an op with no concrete semantics here)."""

    def __init__(self, message: str, op: Operation) -> None:
        super().__init__(message)
        self.op = op


@dataclass(frozen=True)
class Outcome:
    """What evaluating a region gave: the yielded values and the first false assertion
    (the op and why), or None when every assertion holds."""

    yielded: tuple[SmtValue, ...]
    failed: smt.AssertOp | None = None
    reason: str = ""


def _euclid(a: int, b: int) -> tuple[int, int]:
    """SMT-LIB's `div` and `mod`: a = b*q + r with 0 <= r < |b|."""
    r = a % abs(b)
    return (a - r) // b, r


def _cmp(op: smt.IntCmpOp, a: int, b: int) -> bool:
    pred = op.predicate
    if pred is smt.IntPredicate.lt:
        return a < b
    if pred is smt.IntPredicate.le:
        return a <= b
    if pred is smt.IntPredicate.gt:
        return a > b
    return a >= b


class _DivisionByZero(Exception):
    """A `div`/`mod` by zero: SMT-LIB leaves its value open, a constraint does not hold."""


def _div(op: Operation, v: Sequence[SmtValue]) -> SmtValue:
    a, b = int(v[0]), int(v[1])
    if b == 0:
        raise _DivisionByZero
    return _euclid(a, b)[0] if isinstance(op, smt.IntDivOp) else _euclid(a, b)[1]


def _product(v: Sequence[SmtValue]) -> int:
    result = 1
    for x in v:
        result *= int(x)
    return result


def _xor(v: Sequence[SmtValue]) -> bool:
    return sum(bool(x) for x in v) % 2 == 1


def _distinct(v: Sequence[SmtValue]) -> bool:
    return len(set(v)) == len(v)


_SEMANTICS: Mapping[type[Operation], Callable[[Operation, Sequence[SmtValue]], SmtValue]] = {
    smt.IntConstantOp: lambda op, v: op.value.data,  # pyright: ignore[reportAttributeAccessIssue]  # keyed by class
    smt.ConstantBoolOp: lambda op, v: op.value,  # pyright: ignore[reportAttributeAccessIssue]  # keyed by class
    smt.IntAddOp: lambda op, v: sum(int(x) for x in v),
    smt.IntMulOp: lambda op, v: _product(v),
    smt.IntSubOp: lambda op, v: int(v[0]) - int(v[1]),
    smt.IntDivOp: _div,
    smt.IntModOp: _div,
    smt.IntAbsOp: lambda op, v: abs(int(v[0])),
    smt.IntCmpOp: lambda op, v: _cmp(op, int(v[0]), int(v[1])),  # pyright: ignore[reportArgumentType]  # keyed by class
    smt.EqOp: lambda op, v: all(a == b for a, b in itertools.pairwise(v)),
    smt.DistinctOp: lambda op, v: _distinct(v),
    smt.IteOp: lambda op, v: v[1] if v[0] else v[2],
    smt.NotOp: lambda op, v: not v[0],
    smt.AndOp: lambda op, v: all(v),
    smt.OrOp: lambda op, v: any(v),
    smt.XOrOp: lambda op, v: _xor(v),
    smt.ImpliesOp: lambda op, v: (not v[0]) or bool(v[1]),
}
"""The value of each evaluable op from its operands' values."""


def evaluate(op: ConstrainParamsOp, values: Sequence[SmtValue]) -> Outcome:
    """Run the region of `op` on `values` (one per block argument)."""
    block = op.body.block
    env: dict[SSAValue, SmtValue] = dict(zip(block.args, values, strict=True))
    for inner in block.ops:
        operands = [env[o] for o in inner.operands]
        if isinstance(inner, smt.AssertOp):
            if not operands[0]:
                return Outcome((), inner, "the asserted condition is false")
            continue
        if isinstance(inner, smt.YieldOp):
            return Outcome(tuple(operands))
        semantics = _SEMANTICS.get(type(inner))
        if semantics is None:
            raise EvaluationError(f"'{inner.name}' cannot be evaluated on concrete values", inner)
        try:
            env[inner.results[0]] = semantics(inner, operands)
        except _DivisionByZero:
            return Outcome((), None, f"'{inner.name}' divides by zero")
    return Outcome(())


def smt_value(attr: Attribute, sort: Attribute) -> SmtValue | None:
    """The value a param attribute gives an argument of `sort`, or None if it cannot."""
    if isinstance(sort, smt.BoolType):
        if isinstance(attr, IntegerAttr) and attr.type == i1:
            return bool(attr.value.data)
        return None
    if isinstance(attr, IntegerAttr) and attr.type != i1:
        return int(attr.value.data)
    return None


def _knob_value(value: KnobValue, sort: Attribute) -> SmtValue | None:
    if isinstance(sort, smt.BoolType):
        return value if isinstance(value, bool) else None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


Source = tuple[str, str | SmtValue]
"""Where an operand's value comes from: ("knob", name) or ("constant", value)."""


@dataclass(frozen=True)
class ParamConstraint:
    """One `constrain_params` op over knobs: `violation(point)` says why a point breaks it."""

    op: ConstrainParamsOp
    sources: tuple[Source, ...]
    region_of: tuple[tuple[str, int], ...] = ()
    """(alternatives knob, region index) pairs the op sits in: it applies only there."""
    location: Location | None = None
    _memo: dict[tuple[object, ...], str | None] = field(
        default_factory=dict, compare=False, hash=False
    )

    @property
    def description(self) -> str:
        names = [str(v) for kind, v in self.sources if kind == "knob"]
        where = f" at {self.location}" if self.location is not None else ""
        return f"transform.smt.constrain_params({', '.join(names)}){where}"

    @property
    def knobs(self) -> tuple[str, ...]:
        return tuple(str(v) for kind, v in self.sources if kind == "knob")

    @property
    def reads(self) -> tuple[str, ...]:
        """The knobs `violation` looks at: the op's operands and the regions it sits in."""
        return self.knobs + tuple(name for name, _ in self.region_of)

    def violation(self, point: Mapping[str, KnobValue]) -> str | None:
        if any(point.get(name) != index for name, index in self.region_of):
            return None
        memo_key = tuple(point.get(name) for name in self.knobs)
        if memo_key in self._memo:
            return self._memo[memo_key]
        reason = self._check(point)
        self._memo[memo_key] = reason
        return reason

    def _check(self, point: Mapping[str, KnobValue]) -> str | None:
        block = self.op.body.block
        values: list[SmtValue] = []
        for (kind, source), arg in zip(self.sources, block.args, strict=True):
            if kind == "constant":
                assert isinstance(source, int | bool)
                values.append(source)
                continue
            value = _knob_value(point[str(source)], arg.type)
            if value is None:
                return (
                    f"knob {source} = {point[str(source)]!r} is not a value of {arg.type} "
                    f"({self.description})"
                )
            values.append(value)
        try:
            outcome = evaluate(self.op, values)
        except EvaluationError as err:
            return f"{err} ({self.description})"
        if outcome.failed is None and not outcome.reason:
            return None
        names = ", ".join(
            f"{source}={value}"
            for (kind, source), value in zip(self.sources, values, strict=True)
            if kind == "knob"
        )
        where = op_location(outcome.failed) if outcome.failed is not None else self.location
        at = f" at {where}" if where is not None else ""
        return f"constraint violated{at}: {outcome.reason} for {names}"


def _source(value: SSAValue) -> Source | None:
    owner = value.owner
    if isinstance(owner, KnobOp):
        return ("knob", owner.name_.data)
    if isinstance(owner, ParamConstantOp):
        attr = owner.value
        is_bool = isinstance(attr, IntegerAttr) and attr.type == i1
        constant = smt_value(attr, smt.BoolType() if is_bool else smt.IntType())
        return ("constant", constant) if constant is not None else None
    return None


def _regions_of(op: Operation) -> tuple[tuple[str, int], ...] | None:
    """The (alternatives name, region index) pairs around `op`; None inside an
    alternatives op chosen by a param (not a knob of its own)."""
    found: list[tuple[str, int]] = []
    current = op
    while True:
        region = current.parent_region()
        parent = current.parent_op()
        if region is None or parent is None:
            return tuple(found)
        if isinstance(parent, TuneAlternativesOp):
            if parent.selected_region_param is not None:
                return None
            found.append((parent.name_.data, list(parent.alternatives).index(region)))
        current = parent


def constraints_of(root: Operation, knobs: Sequence[Knob]) -> tuple[ParamConstraint, ...]:
    """The static constraints the schedule under `root` writes on `knobs`."""
    names = {k.name for k in knobs}
    found: list[ParamConstraint] = []
    for op in root.walk():
        if not isinstance(op, ConstrainParamsOp):
            continue
        sources = [_source(p) for p in op.params]
        regions = _regions_of(op)
        if regions is None or any(s is None for s in sources):
            continue
        resolved = tuple(s for s in sources if s is not None)
        if not any(kind == "knob" and value in names for kind, value in resolved):
            continue
        found.append(ParamConstraint(op, resolved, regions, op_location(op)))
    return tuple(found)


def attr_of(value: SmtValue) -> Attribute:
    """The param attribute of a yielded value (i64 integers, booleans as i1)."""
    if isinstance(value, bool):
        return IntegerAttr(int(value), i1)
    return IntegerAttr(value, i64)


__all__ = [
    "EvaluationError",
    "Outcome",
    "ParamConstraint",
    "attr_of",
    "constraints_of",
    "evaluate",
    "smt_value",
]
