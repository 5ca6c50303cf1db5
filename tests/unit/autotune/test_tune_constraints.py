"""User constraints in the schedule (`transform.smt.constrain_params`): the evaluator's
SMT-LIB semantics, the search space without the points that break them, and the check
when a selected schedule is applied."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedir.autotune.space import Space
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module
from schedir.dialects.transform.smt import ConstrainParamsOp
from schedir.transform.constraints import constraints_of, evaluate
from schedir.transform.knobs import read_knobs

ROOT = Path(__file__).resolve().parents[3]

_ARITH = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %a = transform.param.constant 1 -> !transform.param<i64>
    %b = transform.param.constant 1 -> !transform.param<i64>
    %q, %r, %s, %p, %d, %abs, %lt, %le, %gt, %ge, %eq, %ne, %ite = transform.smt.constrain_params(%a, %b)
        : (!transform.param<i64>, !transform.param<i64>) -> (!transform.any_param, !transform.any_param,
           !transform.any_param, !transform.any_param, !transform.any_param, !transform.any_param,
           !transform.any_param, !transform.any_param, !transform.any_param, !transform.any_param,
           !transform.any_param, !transform.any_param, !transform.any_param) {
    ^bb0(%x: !smt.int, %y: !smt.int):
      %q = smt.int.div %x, %y
      %r = smt.int.mod %x, %y
      %s = smt.int.add %x, %y, %x
      %p = smt.int.mul %x, %y
      %d = smt.int.sub %x, %y
      %abs = smt.int.abs %x
      %lt = smt.int.cmp lt %x, %y
      %le = smt.int.cmp le %x, %y
      %gt = smt.int.cmp gt %x, %y
      %ge = smt.int.cmp ge %x, %y
      %eq = smt.eq %x, %y : !smt.int
      %ne = smt.distinct %x, %y : !smt.int
      %ite = smt.ite %lt, %x, %y : !smt.int
      smt.yield %q, %r, %s, %p, %d, %abs, %lt, %le, %gt, %ge, %eq, %ne, %ite
        : !smt.int, !smt.int, !smt.int, !smt.int, !smt.int, !smt.int, !smt.bool, !smt.bool,
          !smt.bool, !smt.bool, !smt.bool, !smt.bool, !smt.int
    }
    transform.yield
  }
}
"""


def _constraint_op(text: str) -> ConstrainParamsOp:
    module = parse_module(text, "<test>", ctx=get_context())
    return next(op for op in module.walk() if isinstance(op, ConstrainParamsOp))


_OP = _constraint_op(_ARITH)


@settings(max_examples=300, deadline=None)
@given(st.integers(-(10**20), 10**20), st.integers(-(10**20), 10**20))
def test_integer_semantics_follow_smtlib(x: int, y: int) -> None:
    if y == 0:
        outcome = evaluate(_OP, [x, y])
        assert outcome.failed is None and "divides by zero" in outcome.reason
        return
    outcome = evaluate(_OP, [x, y])
    assert outcome.reason == ""
    q, r, s, p, d, a, lt, le, gt, ge, eq, ne, ite = outcome.yielded
    # SMT-LIB Ints: Euclidean division, the remainder is never negative.
    assert 0 <= r < abs(y) and x == y * q + r
    assert (s, p, d, a) == (2 * x + y, x * y, x - y, abs(x))
    assert (lt, le, gt, ge, eq, ne) == (x < y, x <= y, x > y, x >= y, x == y, x != y)
    assert ite == (x if x < y else y)


_KNOBS = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %m = transform.tune.knob<"m"> = 64 from options = [16, 24, 32, 48, 64, 96] -> !transform.param<i64>
    %r = transform.tune.knob<"r"> = 8 from options = [3, 4, 5, 8, 12] -> !transform.param<i64>
    %t = transform.tune.knob<"t"> = 4 from options = [1, 2, 4, 8] -> !transform.param<i64>
    %limit = transform.param.constant 96 -> !transform.param<i64>
    transform.smt.constrain_params(%m, %r, %t, %limit)
        : (!transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> () {
    ^bb0(%vm: !smt.int, %vr: !smt.int, %vt: !smt.int, %vl: !smt.int):
      %c0 = smt.int.constant 0
      %rem = smt.int.mod %vm, %vr
      %divides = smt.eq %rem, %c0 : !smt.int
      %work = smt.int.mul %vr, %vt
      %fits = smt.int.cmp le %work, %vl
      smt.assert %divides
      smt.assert %fits
    }
    transform.yield
  }
}
"""


def test_space_keeps_exactly_the_points_that_satisfy_the_constraint() -> None:
    module = parse_module(_KNOBS, "<knobs>", ctx=get_context())
    knobs = read_knobs(module)
    space = Space(knobs, constraints_of(module, knobs))
    assert len(space.constraints) == 1
    valid = space.valid_points()
    assert valid is not None

    def ok(m: object, r: object, t: object) -> bool:
        assert isinstance(m, int) and isinstance(r, int) and isinstance(t, int)
        return m % r == 0 and r * t <= 96

    expected = [p for p in space.points() if ok(p["m"], p["r"], p["t"])]
    assert valid == expected
    assert 0 < len(valid) < space.raw_size
    broken = next(p for p in space.points() if p not in expected)
    reason = space.violation(broken)
    assert reason is not None and "constraint violated" in reason and "<knobs>:" in reason


def test_constraint_inside_an_alternative_applies_only_to_its_region() -> None:
    text = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %k = transform.tune.knob<"k"> = 1 from options = [1, 2, 3] -> !transform.param<i64>
    transform.tune.alternatives<"alt"> selected_region = 0 {
      transform.smt.constrain_params(%k) : (!transform.param<i64>) -> () {
      ^bb0(%v: !smt.int):
        %c2 = smt.int.constant 2
        %ok = smt.int.cmp ge %v, %c2
        smt.assert %ok
      }
    }, {
    }
    transform.yield
  }
}
"""
    module = parse_module(text, "<alt>", ctx=get_context())
    knobs = read_knobs(module)
    space = Space(knobs, constraints_of(module, knobs))
    valid = space.valid_points()
    assert valid is not None
    assert {(p["k"], p["alt"]) for p in valid} == {(2, 0), (3, 0), (1, 1), (2, 1), (3, 1)}


def _dry_run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    from schedir.cli import tune_main

    assert tune_main([*args, "--dry-run"]) == 0
    return capsys.readouterr().out


def test_dry_run_counts_the_valid_space_of_the_cpu_matmul(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = _dry_run(
        capsys,
        str(ROOT / "examples/matmul_cpu.mlir"),
        "--schedule",
        str(ROOT / "schedules/matmul_cpu.mlir"),
    )
    raw = 5 * 5 * 4 * 6 * 4 * 4
    # (reg_m, reg_n) whose accumulators + B row + A broadcast, in registers of 16 floats,
    # exceed AVX-512's 32: 8x64, 12x64 and 14x64 (3 of the 24 register tiles; 14x32
    # takes 28 + 2 + 1, 6x64 24 + 4 + 1).
    valid = raw // 24 * 21
    assert f"raw space: {raw} points" in out
    assert f"valid space: {valid} points" in out
    assert "constraint: transform.smt.constrain_params(reg_m, reg_n)" in out


def _tune_small_with(tmp_path: Path, name: str, tail: str) -> Any:
    """Tune the small matmul exhaustively (9 points) with `tail` (ops ending in
    `transform.yield`) in place of the small schedule's yield."""
    import schedir
    from tests.unit.autotune.conftest import PAYLOAD

    schedule = tmp_path / name
    text = (Path(__file__).parent / "small_schedule.mlir").read_text()
    schedule.write_text(text.replace("    transform.yield", tail, 1))
    return schedir.tune(
        str(PAYLOAD),
        schedule=str(schedule),
        budget=9,
        strategy="exhaustive",
        compile_workers=2,
        peer=False,
        first_timeout=5.0,
        storage=str(tmp_path / "s.journal"),
    )


def test_invalid_points_are_never_compiled(tmp_path: Path) -> None:
    constraint = """    transform.smt.constrain_params(%tm, %tn) : (!transform.param<i64>, !transform.param<i64>) -> () {
    ^bb0(%m: !smt.int, %n: !smt.int):
      %ok = smt.int.cmp le %m, %n
      smt.assert %ok
    }
    transform.yield"""
    result = _tune_small_with(tmp_path, "constrained.mlir", constraint)
    compiled = {r.point for r in result.trials if r.status not in ("invalid", "duplicate")}
    # tile_m <= tile_n: (4,4) (4,7) (4,32) (8,32) (16,32); the others are never built.
    assert len(compiled) == 5
    for point in compiled:
        values = eval(point)  # a JSON object of numbers
        assert values["tile_m"] <= values["tile_n"]
    assert result.candidates == 5
    # The default (8, 4) breaks the constraint: no head start compiles it either.
    assert result.breakdown is not None and not result.breakdown.head_start
    assert not any("head start" in step for step in result.breakdown.startup)
    best_m, best_n = result.knobs["tile_m"], result.knobs["tile_n"]
    assert isinstance(best_m, int) and isinstance(best_n, int) and best_m <= best_n


def test_run_fails_with_a_diagnostic_when_the_selection_breaks_a_constraint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from schedir.cli import run_main

    text = (ROOT / "schedules/matmul_cpu.mlir").read_text()
    # reg_m 8 x reg_n 64: 32 accumulators, more than the constraint allows
    assert 'knob<"reg_n"> = 64' in text
    bad = text.replace('knob<"reg_m"> = 6', 'knob<"reg_m"> = 8')
    assert bad != text
    schedule = tmp_path / "bad.mlir"
    schedule.write_text(bad)
    code = run_main([str(ROOT / "examples/matmul_cpu.mlir"), "--schedule", str(schedule)])
    err = capsys.readouterr().err
    assert code == 1
    assert "error: constraint violated for params (8, 64)" in err
    assert "note: the false assertion" in err and "smt.assert %fits" in err
    assert "Traceback" not in err


def test_points_where_the_schedule_fails_silenceably_are_pruned(tmp_path: Path) -> None:
    """A transform op that fails silenceably for some knob values (here a
    `transform.match.param.cmpi`) is reported as an error at the entry point, as upstream's
    interpreter does; the tuner still records those points as pruned, not as compile
    errors (they were recorded as compile errors: the escalation hid the silenceable
    failure)."""
    guard = """    %sixteen = transform.param.constant 16 : i64 -> !transform.param<i64>
    transform.match.param.cmpi ne %tm, %sixteen : !transform.param<i64>
    transform.yield"""
    result = _tune_small_with(tmp_path, "guarded.mlir", guard)
    by_status: dict[str, set[int]] = {}
    for r in result.trials:
        by_status.setdefault(r.status, set()).add(eval(r.point)["tile_m"])
    assert by_status.get("pruned") == {16}, by_status
    assert "compile-error" not in by_status, by_status
    assert result.knobs["tile_m"] != 16
