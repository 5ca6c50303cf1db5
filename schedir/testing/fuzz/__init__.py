"""The differential fuzzer: random payloads x random schedules, and mutants of them.

    python -m schedir.testing.fuzz --cases 1000 --seed 1 --out DIR [--mutate] [--jobs 2]
    python -m schedir.testing.fuzz --hours 2 --seed 7 --out DIR

Generated cases (`payload`, `schedule`) run through `schedir-run --check` in a worker
process and are checked against an independent numpy evaluation; a rejection is compared
with upstream's transform interpreter (`iree-opt`). Mutants (`mutate`) check that bad
input always ends in an MLIR-style diagnostic. `campaign` classifies, minimizes and writes
findings; `strategies` wraps the generators as hypothesis strategies for tests.
"""

from schedir.testing.fuzz.campaign import (
    FINDINGS,
    Case,
    Outcome,
    Runner,
    Summary,
    campaign,
    case_for,
    find_iree_opt,
    gen_case,
    gen_mutant,
    upstream_accepts,
)
from schedir.testing.fuzz.payload import Bounded, Payload, compare, evaluate, gen_payload
from schedir.testing.fuzz.schedule import Schedule, gen_schedule

__all__ = [
    "FINDINGS",
    "Bounded",
    "Case",
    "Outcome",
    "Payload",
    "Runner",
    "Schedule",
    "Summary",
    "campaign",
    "case_for",
    "compare",
    "evaluate",
    "find_iree_opt",
    "gen_case",
    "gen_mutant",
    "gen_payload",
    "gen_schedule",
    "upstream_accepts",
]
