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

    def violation(self, point: Mapping[str, KnobValue]) -> str | None: ...


@dataclass(frozen=True)
class Space:
    """Knobs (in schedule order) and static constraints."""

    knobs: tuple[Knob, ...]
    constraints: tuple[Constraint, ...] = field(default=())
    _valid: dict[int, list[Point] | None] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    """`valid_points` by limit: the space is immutable and its constraints are evaluated
    on every point (seconds for the GPU matmul's 155,000)."""

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
        """Every valid point in order, or None when the raw space has more than `limit`."""
        if limit not in self._valid:
            valid = None
            if self.raw_size <= limit:
                valid = [p for p in self.points() if self.violation(p) is None]
            self._valid[limit] = valid
        valid = self._valid[limit]
        return None if valid is None else [dict(p) for p in valid]

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
