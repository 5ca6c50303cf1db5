"""`schedir.tune`: the autotuner (`schedir.autotune.tune`), its winner compiled by
`schedir.compile` when `TuneResult.kernel` is first used."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from schedir.autotune import TuneResult
from schedir.autotune import tune as _search

if TYPE_CHECKING:
    from schedir import api


def tune(
    payload: str | os.PathLike[str],
    schedule: str | os.PathLike[str] | None = None,
    target: str = "cpu",
    entry: str | None = None,
    **settings: Any,
) -> TuneResult:
    """Search the knobs of a schedule; see `schedir.autotune.tune` for the settings."""
    options = settings.get("options")

    def build(schedule_text: str) -> api.Kernel:
        # (imported here: the run starts its zygote before it imports xDSL)
        from schedir import api

        if schedule is None:  # the tuned text is the whole payload with its schedule
            return api.compile(schedule_text, None, target, entry, options)
        return api.compile(payload, schedule_text, target, entry, options)

    return _search(payload, schedule, target, entry, build_kernel=build, **settings)


__all__ = ["TuneResult", "tune"]
