"""The search space of a schedule: its knobs and the constraints on their values.

The knobs come from the schedule IR (`schedir.transform.knobs.read_knobs`); a point of the
space gives every knob one of its options. Constraints are of two kinds:

- *static*: known before compiling, checked on the point alone. The user writes them in
  the schedule (`transform.smt.constrain_params` over knob params, upstream's spelling:
  `schedir.transform.constraints`); a point that breaks one is *invalid*: never compiled,
  not counted in the budget, and the space's valid size excludes it.
- *dynamic*: known only once the candidate is built: a transform's precondition (a tile
  size it cannot use fails silenceably) or a target limit (threads or shared memory per
  block, registers spilled, `schedir.autotune.compile_pool`). Such a candidate is
  *pruned*, recorded in the store, and never compiled again.

A constraint says which knobs it `reads`; the valid points are counted and listed from the
combinations of those knobs alone, the others multiplying the count.

`key(point)` is the canonical text of a point (sorted JSON), the identity of a candidate
in the store and the tie-breaker between equally fast candidates.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from schedir.transform.knobs import Knob, KnobValue, format_value

Point = dict[str, KnobValue]


class Constraint(Protocol):
    """A static constraint: `violation(point)` says why a point breaks it, or None."""

    @property
    def description(self) -> str: ...

    @property
    def reads(self) -> tuple[str, ...] | None:
        """The knobs `violation` looks at (None: possibly all of them)."""
        ...

    def violation(self, point: Mapping[str, KnobValue]) -> str | None: ...


_VISITS_PER_POINT = 20
"""How many partial points the count may visit per point of its limit before giving up."""

_Factors = tuple[tuple[Knob, ...], tuple[tuple[int, ...], ...], tuple[Knob, ...]]
"""The knobs some constraint reads, their valid option-index combinations in order, and
the knobs no constraint reads."""


@dataclass(frozen=True)
class Space:
    """Knobs (in schedule order) and static constraints."""

    knobs: tuple[Knob, ...]
    constraints: tuple[Constraint, ...] = field(default=())
    _valid: dict[int, list[Point] | None] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    """`valid_points` by limit: the space is immutable and listing 176,512 valid points of a
    wgmma schedule takes a second."""
    _factors: dict[int, _Factors | None] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    """`_factored` by limit."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.knobs)

    def knob(self, name: str) -> Knob:
        return next(k for k in self.knobs if k.name == name)

    @property
    def raw_size(self) -> int:
        return math.prod(len(k.options) for k in self.knobs)

    def points(self) -> Iterator[Point]:
        """Every point, the first knob varying slowest."""
        for values in itertools.product(*(k.options for k in self.knobs)):
            yield dict(zip(self.names, values, strict=True))

    def violation(self, point: Mapping[str, KnobValue]) -> str | None:
        """Why `point` is invalid (the first broken constraint), or None."""
        for constraint in self.constraints:
            reason = constraint.violation(point)
            if reason is not None:
                return reason
        return None

    def valid_points(self, limit: int = 1_000_000) -> list[Point] | None:
        """Every valid point in order (the first knob varying slowest), or None when there
        are more than `limit` or they cannot be counted (`valid_size`)."""
        if limit not in self._valid:
            valid = None
            size = self.valid_size(limit)
            if size is not None and size <= limit:
                valid = self._list_valid(limit)
            self._valid[limit] = valid
        valid = self._valid[limit]
        return None if valid is None else [dict(p) for p in valid]

    def valid_size(self, limit: int = 1_000_000) -> int | None:
        """How many points are valid, or None when the knobs the constraints read have more
        than `limit` valid combinations. The knobs no constraint reads multiply the count
        without being enumerated; the others are searched depth first, a prefix that breaks
        a constraint not extended: the wgmma schedules' 26.6 M raw points (950,400
        combinations of the read knobs) are counted in a fraction of a second."""
        factored = self._factored(limit)
        if factored is None:
            return None
        _, combos, free = factored
        return len(combos) * math.prod(len(k.options) for k in free)

    def _factored(self, limit: int) -> _Factors | None:
        """(the knobs some constraint reads, their valid option-index combinations in
        order, the other knobs), or None when there are more than `limit` combinations
        (or finding them visits more than `_VISITS_PER_POINT * limit` partial points)."""
        if limit not in self._factors:
            self._factors[limit] = self._factor(limit)
        return self._factors[limit]

    def _factor(self, limit: int) -> _Factors | None:
        reads: list[frozenset[str]] = []
        for constraint in self.constraints:
            names = constraint.reads
            reads.append(frozenset(self.names if names is None else names))
        read = frozenset().union(*reads)
        bound = tuple(k for k in self.knobs if k.name in read)
        free = tuple(k for k in self.knobs if k.name not in read)
        # Depth-first over the read knobs, each constraint checked as soon as the knobs it
        # reads have values: a prefix that breaks one is not extended. The knobs are taken
        # in the order that completes constraints soonest (fewest knobs still unset first).
        order: list[str] = []
        pending = list(range(len(reads)))
        while pending:
            nearest = min(pending, key=lambda c: len(reads[c] - set(order)))
            order.extend(n for n in self.names if n in reads[nearest] and n not in order)
            pending = [c for c in pending if not reads[c] <= set(order)]
        knobs = [self.knob(name) for name in order]
        due: list[list[Constraint]] = [[] for _ in order]
        for constraint, names in zip(self.constraints, reads, strict=True):
            if not names:  # reads no knob: holds for every point or for none
                if constraint.violation({}) is not None:
                    return bound, (), free
                continue
            due[max(order.index(n) for n in names)].append(constraint)
        where = [order.index(k.name) for k in bound]
        combos: list[tuple[int, ...]] = []
        point: dict[str, KnobValue] = {}
        indices = [0] * len(order)
        visits = 0

        def extend(depth: int) -> bool:
            """Every valid completion of the prefix; False once past the limits."""
            nonlocal visits
            if depth == len(order):
                combos.append(tuple(indices[i] for i in where))
                return len(combos) <= limit
            knob = knobs[depth]
            for index, value in enumerate(knob.options):
                visits += 1
                if visits > _VISITS_PER_POINT * limit:
                    return False
                point[knob.name] = value
                indices[depth] = index
                if all(c.violation(point) is None for c in due[depth]) and not extend(depth + 1):
                    return False
            del point[knob.name]
            return True

        if not extend(0):
            return None
        combos.sort()
        return bound, tuple(combos), free

    def _list_valid(self, limit: int) -> list[Point]:
        factored = self._factored(limit)
        assert factored is not None
        bound, combos, free = factored
        position = {k.name: n for n, k in enumerate(self.knobs)}
        rows: list[tuple[int, ...]] = []
        for combo in combos:
            for rest in itertools.product(*(range(len(k.options)) for k in free)):
                row = [0] * len(self.knobs)
                for k, i in zip(bound, combo, strict=True):
                    row[position[k.name]] = i
                for k, i in zip(free, rest, strict=True):
                    row[position[k.name]] = i
                rows.append(tuple(row))
        rows.sort()
        return [
            {k.name: k.options[i] for k, i in zip(self.knobs, row, strict=True)} for row in rows
        ]

    def default(self) -> Point | None:
        """The point the schedule selects as written (None if a knob is unresolved)."""
        if any(k.selected is None for k in self.knobs):
            return None
        return {k.name: k.selected for k in self.knobs if k.selected is not None}


def key(point: Mapping[str, KnobValue]) -> str:
    """The canonical text of a point: sorted JSON (tuples as lists)."""
    return json.dumps(point, sort_keys=True, separators=(",", ":"))


def from_key(text: str) -> Point:
    """The point of a canonical key (lists back to tuples)."""
    return {name: _tupled(value) for name, value in json.loads(text).items()}


def _tupled(value: object) -> KnobValue:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    assert isinstance(value, int | float | str | bool)
    return value


def describe(point: Mapping[str, KnobValue], order: Sequence[str]) -> str:
    """`name=value,...` in schedule order, as the `best:` line prints it."""
    return ",".join(f"{name}={format_value(point[name])}" for name in order if name in point)


__all__ = ["Constraint", "Point", "Space", "describe", "from_key", "key"]
