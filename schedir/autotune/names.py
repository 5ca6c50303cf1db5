"""Names the autotuner's entry point checks before it imports anything else."""

from __future__ import annotations

STRATEGIES = ("auto", "exhaustive", "random", "tpe", "cmaes")
"""The search strategies (`schedir.autotune.strategies`)."""

__all__ = ["STRATEGIES"]
