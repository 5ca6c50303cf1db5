"""The differential fuzzer in CI: generated cases and mutants, a fixed seed and a seed
from the date (printed, so a failure replays), 500 cases per run.

A finding fails the test with its replay command, unless it is an open class of another
area (known.py, each with its strict-xfail regression). Each test also checks that the
campaign ran every case and that most of them did something (so it cannot pass empty).
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from schedir.testing.fuzz import Case, Outcome, Runner, campaign, case_for, find_iree_opt
from schedir.testing.fuzz.worker import ToolResult
from tests.fuzz.known import OPEN

GENERATED = 75
MUTANTS = 175
FIXED_SEED = 1


def date_seed() -> int:
    """Today's seed (the UTC date as YYYYMMDD): each day of CI runs new cases."""
    return int(datetime.datetime.now(datetime.UTC).strftime("%Y%m%d"))


SEEDS = [FIXED_SEED, date_seed()]
TIMEOUT = 20
"""Seconds per case: a case takes 0.2-3 s; a hang costs this much."""


def _unexplained(seed: int, mutants: bool, findings: list[dict[str, object]]) -> list[str]:
    """The findings no open class explains, as lines with their replay commands."""
    lines = []
    for info in findings:
        index = int(str(info["case"]).rsplit("-", 1)[1])
        case: Case = case_for(seed, index, mutants)
        outcome = Outcome(str(info["kind"]), str(info["detail"]), ToolResult("exit", 1, "", ""))
        known = [name for name, o in OPEN.items() if o.matches(case, outcome)]
        print(f"{info['case']}: {info['kind']}: {info['detail']} (known: {known or 'no'})")
        if not known:
            lines.append(f"{info['kind']}: {info['detail']}\n  replay: {info['replay']}")
    return lines


def _run(seed: int, mutants: bool, count: int, tmp_path: Path) -> None:
    print(
        f"fuzz seed {seed} ({'mutants' if mutants else 'generated cases'}); replay with "
        f"python -m schedir.testing.fuzz --seed {seed} --cases {count}"
        f"{' --mutate' if mutants else ''} --out DIR"
    )
    summary = campaign(
        seed,
        cases=count,
        mutants=mutants,
        iree_opt=find_iree_opt(),
        timeout=TIMEOUT,
        minimize=False,
        scratch=tmp_path,
    )
    print(summary.as_json())
    assert summary.cases == count
    if mutants:
        assert summary.kinds["rejected"] > count // 4, summary.kinds
    else:
        assert summary.kinds["ok"] > count // 4, summary.kinds
    problems = _unexplained(seed, mutants, summary.findings)
    assert not problems, f"{len(problems)} fuzz finding(s):\n" + "\n".join(problems)


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_cases(seed: int, tmp_path: Path) -> None:
    _run(seed, False, GENERATED, tmp_path)


@pytest.mark.parametrize("seed", SEEDS)
def test_mutants(seed: int, tmp_path: Path) -> None:
    _run(seed, True, MUTANTS, tmp_path)


def test_rejections_without_the_oracle_are_unjudged(tmp_path: Path) -> None:
    # A schedule schedir rejects with a located error: without iree-opt (as on the GPU
    # machines) it is `unjudged`, not a finding; `--only I,J,...` with the oracle judges it.
    rejected = "transform.structured.tile_using_for %h tile_sizes [-3]"
    text = f"""
func.func @f(%a: tensor<5x7xf32>, %b: tensor<5x7xf32>) -> tensor<5x7xf32> {{
  %r = linalg.add ins(%a, %a : tensor<5x7xf32>, tensor<5x7xf32>) outs(%b : tensor<5x7xf32>) -> tensor<5x7xf32>
  return %r : tensor<5x7xf32>
}}
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    %h = transform.structured.match ops{{["linalg.add"]}} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = {rejected} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }}
}}
"""
    without = Runner(tmp_path, None, timeout=TIMEOUT)
    try:
        outcome = without.run(Case("neg", text, upstream=text.replace("[-3]", "[x]")))
    finally:
        without.close()
    assert outcome.kind == "unjudged", (outcome.kind, outcome.detail)
    assert not outcome.is_finding
