"""Search strategies: Optuna samplers over the knobs, used through ask-and-tell.

Each knob becomes one Optuna parameter holding the *index* of its option: an ordered
`IntDistribution` over the options sorted by value when every option is a number (so TPE
and CMA-ES see that 32 < 64 < 128), a `CategoricalDistribution` otherwise (strings,
arrays, `alternatives` regions). `auto` searches exhaustively when the valid space fits in
the budget and with `tpe` otherwise; `random` and `cmaes` are selectable. All samplers
are seeded: the same seed proposes the same candidates.

`tpe` is `LocalTPESampler`: multivariate TPE (`group=True` for `alternatives`' conditional
knobs, `constant_liar=True` so parallel workers spread out) interleaved with a local
search around the incumbent, the best verified candidate so far. The loop measures the
schedule as written first; a local step proposes an unvisited, statically valid neighbour
of the incumbent (one knob moved one option along its order, or a categorical knob
changed), so the search starts as a hill climb from the default and keeps refining
whatever TPE finds; TPE's steps explore the rest of the space. Kernel spaces are
separable to a useful degree and a schedule's default is usually a sensible start, so
the local steps pay off early, where TPE alone spends its budget on random start-up
trials; pure TPE (`TPESampler`) and pure local search each fall behind the mixture on
the recorded sweeps and on the synthetic spaces of `benchmarks/tune.py replay`. Every
proposal is unvisited and valid when one exists (a repeat costs no budget, but it is
wasted time), and each decision is derived from the study's trials and the seed alone,
so processes sharing a study need no shared sampler state.

Exhaustive search enqueues the valid points in order (`study.enqueue_trial` with
`skip_if_exists`, so processes sharing a study split the points instead of repeating them).
"""

from __future__ import annotations

import itertools
import random
import warnings
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from schedir.autotune.names import STRATEGIES
from schedir.autotune.space import Point, Space
from schedir.transform.knobs import Knob, KnobValue

if TYPE_CHECKING:
    import optuna
    from optuna.distributions import BaseDistribution
    from optuna.samplers import BaseSampler
    from optuna.trial import FrozenTrial


def resolve(strategy: str, valid_size: int | None, budget: int | None) -> str:
    """The strategy `auto` stands for: exhaustive when every valid point fits the budget
    (None: no limit), else tpe."""
    if strategy != "auto":
        return strategy
    if valid_size is not None and (budget is None or valid_size <= budget):
        return "exhaustive"
    return "tpe"


def _order(knob: Knob) -> list[int]:
    """Option indices in the order the parameter enumerates them."""
    indices = list(range(len(knob.options)))
    if knob.numeric:
        indices.sort(key=lambda i: (float(knob.options[i]), i))  # pyright: ignore[reportArgumentType]  # numeric: checked above
    return indices


def distributions(space: Space) -> dict[str, BaseDistribution]:
    """One Optuna distribution per knob (over positions in `_order`)."""
    from optuna.distributions import CategoricalDistribution, IntDistribution

    result: dict[str, BaseDistribution] = {}
    for knob in space.knobs:
        n = len(knob.options)
        if knob.numeric:
            result[knob.name] = IntDistribution(0, n - 1)
        else:
            result[knob.name] = CategoricalDistribution(tuple(range(n)))
    return result


def encode(space: Space, point: Mapping[str, KnobValue]) -> dict[str, int]:
    """The Optuna parameters of a point."""
    params: dict[str, int] = {}
    for knob in space.knobs:
        index = knob.options.index(point[knob.name])
        params[knob.name] = _order(knob).index(index)
    return params


def decode(space: Space, params: Mapping[str, object]) -> Point:
    """The point of Optuna parameters."""
    point: Point = {}
    for knob in space.knobs:
        position = params[knob.name]
        assert isinstance(position, int)
        point[knob.name] = knob.options[_order(knob)[position]]
    return point


LOCAL_SHARE = 0.5
"""Probability that a proposal after the first is a local step (when the incumbent has an
unvisited neighbour): half local refinement, half TPE exploration."""
RANDOM_ENUMERATION_LIMIT = 100_000
"""Raw space size up to which a random proposal, when draws keep hitting visited points,
is chosen among every unvisited one (so no repeat while one is left)."""
TPE_RETRIES = 8
"""TPE proposals tried before a repeat or an invalid point falls back to a random one."""


def neighbours(space: Space, params: Mapping[str, int]) -> list[dict[str, int]]:
    """The parameters one move away: a numeric knob one option up or down its order, a
    categorical knob (strings, arrays, `alternatives`) to any other option."""
    found: list[dict[str, int]] = []
    for knob in space.knobs:
        position = params[knob.name]
        n = len(knob.options)
        moves = (position - 1, position + 1) if knob.numeric else range(n)
        for moved in moves:
            if 0 <= moved < n and moved != position:
                found.append({**params, knob.name: moved})
    return found


DIAGONAL = True
"""Whether a local step, once the incumbent's one-knob moves are all visited, moves
several knobs one step each (Kernel Tuner's "adjacent" neighbourhood, after its
"Hamming" one: a variable neighbourhood search)."""
DIAGONAL_TRIES = 256


def _diagonal(
    space: Space, params: Mapping[str, int], fresh: Any, rng: random.Random
) -> dict[str, int] | None:
    """A random unvisited valid point one step away in each of at least two knobs."""
    for _ in range(DIAGONAL_TRIES):
        moved = dict(params)
        for knob in space.knobs:
            n = len(knob.options)
            if knob.numeric:
                moved[knob.name] = min(n - 1, max(0, params[knob.name] + rng.choice((-1, 0, 1))))
            elif rng.random() < 0.5:
                moved[knob.name] = rng.randrange(n)
        if sum(moved[n] != params[n] for n in params) >= 2 and fresh(moved):
            return moved
    return None


def _make_local_tpe_class() -> type:
    """`LocalTPESampler`, defined on first use (Optuna is imported lazily)."""
    import optuna
    from optuna.trial import TrialState

    class LocalTPESampler(optuna.samplers.BaseSampler):
        """Multivariate TPE interleaved with a local search around the incumbent (see
        the module doc)."""

        def __init__(self, space: Space, seed: int, budget: int | None, local_share: float) -> None:
            self._space = space
            self._local_share = local_share
            self._dists = distributions(space)
            self._seed = seed
            # TPE models the best quarter of the trials after a few random start-up
            # trials; the local steps count as start-up trials too.
            self._tpe = optuna.samplers.TPESampler(
                seed=seed,
                multivariate=True,
                group=True,
                constant_liar=True,
                n_startup_trials=max(4, min(10, (budget or 48) // 6)),
            )

        def reseed_rng(self) -> None:
            self._tpe.reseed_rng()

        def infer_relative_search_space(
            self, study: optuna.Study, trial: FrozenTrial
        ) -> dict[str, BaseDistribution]:
            return dict(self._dists)

        def sample_relative(
            self,
            study: optuna.Study,
            trial: FrozenTrial,
            search_space: dict[str, BaseDistribution],
        ) -> dict[str, Any]:
            if not search_space:
                return {}
            names = self._space.names
            trials = study.get_trials(deepcopy=False)
            visited = {
                tuple(t.params[n] for n in names)
                for t in trials
                if t.number != trial.number and all(n in t.params for n in names)
            }
            # Decisions from the seed and the trial number only: reproducible, and the
            # same in every process sharing the study.
            rng = random.Random(f"{self._seed}:{trial.number}")

            def fresh(params: Mapping[str, Any]) -> bool:
                values = tuple(params.get(n) for n in names)
                return values not in visited and self._valid(params)

            if rng.random() < self._local_share:
                step = self._local_step(trials, fresh, rng)
                if step is not None:
                    return step
            for _ in range(TPE_RETRIES):
                params = self._tpe_params(study, trial)
                if fresh(params):
                    return params
            step = self._local_step(trials, fresh, rng)
            if step is not None:
                return step
            return self._random_fresh(fresh, rng) or {}

        def _valid(self, params: Mapping[str, Any]) -> bool:
            return self._space.violation(decode(self._space, params)) is None

        def _local_step(
            self, trials: Sequence[FrozenTrial], fresh: Any, rng: random.Random
        ) -> dict[str, int] | None:
            """An unvisited valid neighbour of the incumbent (of the next best when the
            incumbent's neighbourhood is done), or None: a move of one knob first, then
            (`DIAGONAL`) a move of several knobs at once, one step each."""
            complete = sorted(
                (t for t in trials if t.state == TrialState.COMPLETE and t.value is not None),
                key=lambda t: (t.value, t.number),
            )
            seen: set[tuple[int, ...]] = set()
            for incumbent in complete[:3]:
                params = {n: int(incumbent.params[n]) for n in self._space.names}
                values = tuple(params.values())
                if values in seen:
                    continue
                seen.add(values)
                options = [p for p in neighbours(self._space, params) if fresh(p)]
                if options:
                    return rng.choice(options)
                if DIAGONAL:
                    moved = _diagonal(self._space, params, fresh, rng)
                    if moved is not None:
                        return moved
            return None

        def _tpe_params(self, study: optuna.Study, trial: FrozenTrial) -> dict[str, Any]:
            space = self._tpe.infer_relative_search_space(study, trial)
            params = dict(self._tpe.sample_relative(study, trial, space))
            for name, dist in self._dists.items():
                if name not in params:
                    params[name] = self._tpe.sample_independent(study, trial, name, dist)
            # Every choice is an option's position (TPE may hand back numpy integers).
            return {name: int(value) for name, value in params.items()}

        def _random_fresh(self, fresh: Any, rng: random.Random) -> dict[str, int] | None:
            """A random unvisited valid point: drawn, or (few left) chosen among all."""
            for _ in range(64):
                params = {k.name: rng.randrange(len(k.options)) for k in self._space.knobs}
                if fresh(params):
                    return params
            if self._space.raw_size > RANDOM_ENUMERATION_LIMIT:
                return None
            names = self._space.names
            ranges = (range(len(k.options)) for k in self._space.knobs)
            left = [
                params
                for values in itertools.product(*ranges)
                if fresh(params := dict(zip(names, values, strict=True)))
            ]
            return rng.choice(left) if left else None

        def sample_independent(
            self,
            study: optuna.Study,
            trial: FrozenTrial,
            param_name: str,
            param_distribution: BaseDistribution,
        ) -> Any:
            return self._tpe.sample_independent(study, trial, param_name, param_distribution)

        def before_trial(self, study: optuna.Study, trial: FrozenTrial) -> None:
            self._tpe.before_trial(study, trial)

        def after_trial(
            self,
            study: optuna.Study,
            trial: FrozenTrial,
            state: TrialState,
            values: Sequence[float] | None,
        ) -> None:
            self._tpe.after_trial(study, trial, state, values)

    return LocalTPESampler


_LOCAL_TPE: list[type] = []


def sampler(
    strategy: str, seed: int, budget: int | None, space: Space, local_share: float = LOCAL_SHARE
) -> BaseSampler:
    """The seeded Optuna sampler of a (resolved) strategy over `space` (`local_share`: the
    share of local steps of `tpe`; 0 is Optuna's TPE alone, for comparisons)."""
    import optuna

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        if strategy in ("random", "exhaustive"):
            return optuna.samplers.RandomSampler(seed=seed)
        if strategy == "tpe":
            if not _LOCAL_TPE:
                _LOCAL_TPE.append(_make_local_tpe_class())
            return _LOCAL_TPE[0](space, seed, budget, local_share)
        if strategy == "cmaes":
            return optuna.samplers.CmaEsSampler(
                seed=seed,
                n_startup_trials=max(4, min(6, (budget or 48) // 8)),
                warn_independent_sampling=False,
                independent_sampler=optuna.samplers.RandomSampler(seed=seed),
            )
    raise ValueError(f"unknown strategy '{strategy}' (one of {', '.join(STRATEGIES)})")


__all__ = [
    "LOCAL_SHARE",
    "STRATEGIES",
    "decode",
    "distributions",
    "encode",
    "neighbours",
    "resolve",
    "sampler",
]
