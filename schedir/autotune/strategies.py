"""Search strategies: Optuna samplers over the knobs, used through ask-and-tell.

Each knob becomes one Optuna parameter holding the *index* of its option: an ordered
`IntDistribution` over the options sorted by value when every option is a number (so TPE
and CMA-ES see that 32 < 64 < 128), a `CategoricalDistribution` otherwise (strings,
arrays, `alternatives` regions). `auto` searches exhaustively when the valid space fits in
the budget and with multivariate TPE otherwise; `random` and `cmaes` are selectable. All
samplers are seeded: the same seed proposes the same candidates.

Exhaustive search enqueues the valid points in order (`study.enqueue_trial` with
`skip_if_exists`, so processes sharing a study split the points instead of repeating them).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING

from schedir.autotune.space import Point, Space
from schedir.transform.knobs import Knob, KnobValue

if TYPE_CHECKING:
    from optuna.distributions import BaseDistribution
    from optuna.samplers import BaseSampler

STRATEGIES = ("auto", "exhaustive", "random", "tpe", "cmaes")


def resolve(strategy: str, valid_size: int | None, budget: int | None) -> str:
    """The strategy `auto` stands for: exhaustive when every valid point fits the budget."""
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


def sampler(strategy: str, seed: int, budget: int | None) -> BaseSampler:
    """The seeded Optuna sampler of a (resolved) strategy."""
    import optuna

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        if strategy in ("random", "exhaustive"):
            return optuna.samplers.RandomSampler(seed=seed)
        # Few random startup trials, then TPE: on the recorded CPU matmul sweep
        # (benchmarks/data/tune_sweep_cpu.json), 6 of 64 reach 96% of the exhaustive best
        # within 32 candidates where 10 reach 93% (median of 10 seeds).
        startup = max(4, min(6, (budget or 48) // 8))
        if strategy == "tpe":
            return optuna.samplers.TPESampler(
                seed=seed,
                multivariate=True,
                group=True,
                constant_liar=True,
                n_startup_trials=startup,
            )
        if strategy == "cmaes":
            return optuna.samplers.CmaEsSampler(
                seed=seed,
                n_startup_trials=startup,
                warn_independent_sampling=False,
                independent_sampler=optuna.samplers.RandomSampler(seed=seed),
            )
    raise ValueError(f"unknown strategy '{strategy}' (one of {', '.join(STRATEGIES)})")


__all__ = ["STRATEGIES", "decode", "distributions", "encode", "resolve", "sampler"]
