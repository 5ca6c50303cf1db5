"""The `tpe` strategy's sampler (TPE with local steps around the incumbent): proposals are
reproducible, never repeat a visited point nor break a static constraint while an
unvisited valid point is left (so a search covers a small space in exactly its size),
differ between trials running at once, and start as a hill climb from the default."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

import optuna
from hypothesis import given, settings
from hypothesis import strategies as st

from schedir.autotune import strategies
from schedir.autotune.space import Space, key
from schedir.transform.knobs import Knob, KnobValue

optuna.logging.set_verbosity(optuna.logging.WARNING)


class _Banned:
    """A static constraint: the listed points are invalid."""

    description = "banned"
    reads = None

    def __init__(self, banned: set[str]) -> None:
        self.banned = banned

    def violation(self, point: Mapping[str, KnobValue]) -> str | None:
        return "banned" if key(point) in self.banned else None


@st.composite
def spaces(draw: st.DrawFn) -> Space:
    """1 to 3 knobs of 1 to 4 options (numbers or strings), some points banned."""
    knobs = []
    for i in range(draw(st.integers(1, 3))):
        n = draw(st.integers(1, 4))
        if draw(st.booleans()):
            options: tuple[KnobValue, ...] = tuple(
                sorted(draw(st.sets(st.integers(1, 512), min_size=n, max_size=n)))
            )
        else:
            options = tuple(f"v{j}" for j in range(n))
        knobs.append(Knob(f"k{i}", options, draw(st.sampled_from(options))))
    space = Space(tuple(knobs))
    points = [key(p) for p in space.points()]
    banned = set(draw(st.lists(st.sampled_from(points), max_size=len(points) // 2)))
    banned.discard(key(space.default() or {}))
    return Space(space.knobs, (_Banned(banned),))


def _time(point: Mapping[str, KnobValue]) -> float:
    """A smooth made-up time of a point (strings by their digits)."""
    total = 1.0
    for i, value in enumerate(point.values()):
        x = float(value) if isinstance(value, int) else float(str(value)[1:])
        total += (math.log2(x + 1) - 3 - i) ** 2
    return total


def _search(
    space: Space, seed: int, count: int, share: float = strategies.LOCAL_SHARE
) -> list[str]:
    """`count` proposals of an ask-and-tell search (the default first, as the loop does)."""
    study = optuna.create_study(sampler=strategies.sampler("tpe", seed, count, space, share))
    dists = strategies.distributions(space)
    default = space.default()
    assert default is not None
    study.enqueue_trial(strategies.encode(space, default))
    proposed = []
    for _ in range(count):
        trial = study.ask(dists)
        point = strategies.decode(space, trial.params)
        proposed.append(key(point))
        study.tell(trial, _time(point))
    return proposed


@settings(max_examples=30, deadline=None)
@given(space=spaces(), seed=st.integers(0, 3))
def test_proposals_cover_the_valid_space_without_repeats(space: Space, seed: int) -> None:
    valid = space.valid_points()
    assert valid is not None
    proposed = _search(space, seed, len(valid))
    assert sorted(proposed) == sorted(key(p) for p in valid)


def test_same_seed_same_search_and_other_seed_another() -> None:
    numeric = tuple(Knob(f"k{i}", (8, 16, 32, 64, 128), 32) for i in range(4))
    space = Space((*numeric, Knob("order", ("v0", "v1", "v2"), "v0")))
    first = _search(space, 7, 24)
    assert first == _search(space, 7, 24)
    assert first != _search(space, 8, 24)


def test_local_steps_climb_from_the_default() -> None:
    # Only local steps: each proposal is one step from an earlier point (the default
    # first), so the search walks the ordered options instead of jumping.
    space = Space(tuple(Knob(f"k{i}", tuple(2**j for j in range(6)), 1) for i in range(3)))
    proposed = _search(space, 0, 12, share=1.0)
    positions = [[int(math.log2(v)) for v in optuna_point(p)] for p in proposed]
    for later in range(1, len(positions)):
        assert any(
            sum(abs(a - b) for a, b in zip(positions[later], positions[earlier], strict=True)) <= 1
            or max(abs(a - b) for a, b in zip(positions[later], positions[earlier], strict=True))
            == 1
            for earlier in range(later)
        ), positions[: later + 1]
    # The smooth time falls: the best of the first 12 beats the default clearly.
    times = [
        _time(dict(zip(("k0", "k1", "k2"), (2**x for x in p), strict=True))) for p in positions
    ]
    assert min(times) < times[0] / 2


def optuna_point(text: str) -> list[int]:
    """The values of a point's key, in knob order."""
    import json

    return [int(v) for _, v in sorted(json.loads(text).items())]


def test_trials_running_at_once_get_different_points() -> None:
    space = Space(tuple(Knob(f"k{i}", (1, 2, 3, 4), 2) for i in range(3)))
    study = optuna.create_study(sampler=strategies.sampler("tpe", 0, 32, space))
    dists = strategies.distributions(space)
    for point in itertools.islice(space.points(), 12):
        study.enqueue_trial(strategies.encode(space, point))
        trial = study.ask(dists)
        study.tell(trial, _time(strategies.decode(space, trial.params)))
    running = [key(strategies.decode(space, study.ask(dists).params)) for _ in range(16)]
    assert len(set(running)) == len(running)
