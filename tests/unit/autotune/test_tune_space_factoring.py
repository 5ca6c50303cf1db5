"""The valid points of a space are counted and listed from the knobs its constraints read:
the same count, points and order as checking every raw point, for spaces of any shape."""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from schedir.autotune.space import Space, key
from schedir.transform.knobs import Knob, KnobValue


class _Subset:
    """A constraint over some knobs (or, with `reads` None, any): the listed combinations of
    their values are invalid."""

    description = "subset"

    def __init__(self, names: tuple[str, ...], banned: set[tuple[KnobValue, ...]], declared: bool):
        self.names = names
        self.banned = banned
        self.reads = names if declared else None

    def violation(self, point: Mapping[str, KnobValue]) -> str | None:
        values = tuple(point[name] for name in self.names)
        return f"{self.names} = {values}" if values in self.banned else None


@st.composite
def spaces(draw: st.DrawFn) -> Space:
    """1 to 5 knobs of 1 to 4 options; 0 to 3 constraints over random subsets of them
    (possibly none: a constraint that reads no knob bans every point or none)."""
    knobs = tuple(
        Knob(f"k{i}", tuple(range(draw(st.integers(1, 4)))), 0)
        for i in range(draw(st.integers(1, 5)))
    )
    constraints = []
    for _ in range(draw(st.integers(0, 3))):
        chosen = draw(st.lists(st.sampled_from(knobs), unique=True))
        names = tuple(k.name for k in chosen)
        combos = list(Space(tuple(chosen)).points()) if chosen else [{}]
        banned = draw(st.lists(st.sampled_from(combos), max_size=len(combos)))
        constraints.append(
            _Subset(names, {tuple(p[n] for n in names) for p in banned}, draw(st.booleans()))
        )
    return Space(knobs, tuple(constraints))


@settings(max_examples=200, deadline=None)
@given(space=spaces())
def test_factored_count_and_listing_match_every_point_checked(space: Space) -> None:
    brute = [p for p in space.points() if space.violation(p) is None]
    assert space.valid_size() == len(brute)
    listed = space.valid_points()
    assert listed is not None
    assert [key(p) for p in listed] == [key(p) for p in brute]


def test_knobs_no_constraint_reads_are_not_enumerated() -> None:
    # 4^12 = 16.7 M raw points; the one constraint reads two knobs: 16 combinations to check.
    knobs = tuple(Knob(f"k{i}", (1, 2, 3, 4), 1) for i in range(12))
    checked: list[Mapping[str, KnobValue]] = []

    class Counting(_Subset):
        def violation(self, point: Mapping[str, KnobValue]) -> str | None:
            checked.append(dict(point))
            return super().violation(point)

    space = Space(knobs, (Counting(("k3", "k7"), {(1, 1), (2, 4)}, True),))
    assert space.valid_size() == 14 * 4**10
    assert len(checked) == 16
    assert space.valid_points() is None  # over the listing limit
    assert space.valid_size(limit=8) is None  # 14 valid combinations of the read knobs > 8
    small = Space(knobs[:4], (Counting(("k3",), {(2,)}, True),))
    listed = small.valid_points()
    assert listed is not None and len(listed) == 3 * 4**3
    assert all(p["k3"] != 2 for p in listed)
