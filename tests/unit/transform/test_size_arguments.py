"""Size-like arguments of transform ops (tile sizes, thread counts, vector sizes, padding
multiples, unroll factors) are checked at the transform op, whether written statically or
given by a param: a negative value (upstream builds a loop with a negative step that never
ends) is a silenceable failure located at the op, never a hang or a wrong result; huge tile
sizes and unroll factors are fine, huge thread counts are refused.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.differential.harness import run_schedir
from tests.helpers import ANY, match, run_and_check, schedule_module

PAYLOAD = """  func.func @f(%a: tensor<37x5xf32>, %b: tensor<5x9xf32>, %o: tensor<37x9xf32>) -> tensor<37x9xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<37x5xf32>, tensor<5x9xf32>) outs(%o : tensor<37x9xf32>) -> tensor<37x9xf32>
    return %r : tensor<37x9xf32>
  }"""
PARAM = "!transform.param<i64>"


def _op_line(kind: str, value: str, position: int) -> tuple[str, str]:
    """A schedule applying op `kind` with `value` (a literal or `%p`) at `position`; the
    name the diagnostic gives the list."""
    sizes = ["0", "0", "0"]
    sizes[position] = value
    dyn = f", {PARAM}" if value == "%p" else ""
    three = ", ".join(sizes)
    two = ", ".join(sizes[:2])
    lines = {
        "tile_using_for": (
            f"    %t, %l = transform.structured.tile_using_for %m tile_sizes [{three}]"
            f" : ({ANY}{dyn}) -> ({ANY}, {ANY})\n",
            "tile sizes",
        ),
        "forall_tile_sizes": (
            f"    %t, %l = transform.structured.tile_using_forall %m tile_sizes [{two}]"
            f" : ({ANY}{dyn}) -> ({ANY}, {ANY})\n",
            "tile sizes",
        ),
        "forall_num_threads": (
            f"    %t, %l = transform.structured.tile_using_forall %m num_threads [{two}]"
            f" : ({ANY}{dyn}) -> ({ANY}, {ANY})\n",
            "num_threads",
        ),
        "fuse": (
            f"    %t, %l = transform.structured.fuse %m tile_sizes [{three}]"
            f" : ({ANY}{dyn}) -> ({ANY}, {ANY})\n",
            "tile sizes",
        ),
        "vectorize": (
            f"    transform.structured.vectorize %m vector_sizes [{', '.join(s if s != '0' else '64' for s in sizes)}]"
            f" : {ANY}{dyn}\n",
            "vector sizes",
        ),
        "tile_reduction_using_for": (
            f"    %f, %x, %c, %l = transform.structured.tile_reduction_using_for %m by tile_sizes = [{three}]"
            f" : ({ANY}) -> ({ANY}, {ANY}, {ANY}, {ANY})\n",
            "tile sizes",
        ),
    }
    return lines[kind]


KINDS = [
    "tile_using_for",
    "forall_tile_sizes",
    "forall_num_threads",
    "fuse",
    "vectorize",
    "tile_reduction_using_for",
]
BY_PARAM = {"tile_using_for", "forall_tile_sizes", "forall_num_threads", "fuse", "vectorize"}


def _schedule(kind: str, value: int, position: int, by_param: bool) -> tuple[str, str]:
    line, what = _op_line(kind, "%p" if by_param else str(value), position)
    param = f"    %p = transform.param.constant {value} : i64 -> {PARAM}\n" if by_param else ""
    return schedule_module(PAYLOAD, match("%m", "linalg.matmul") + param + line), what


def _error(text: str, tmp_path: Path) -> tuple[int | None, str]:
    case = tmp_path / "case.mlir"
    case.write_text(text)
    outcome = run_schedir(case, None)
    assert not outcome.ok, "a negative size was accepted"
    return outcome.error_line, outcome.message


@settings(max_examples=30)
@given(
    kind=st.sampled_from(KINDS),
    value=st.integers(min_value=-(2**40), max_value=-1),
    position=st.integers(min_value=0, max_value=1),
    by_param=st.booleans(),
)
def test_negative_sizes_fail_at_the_transform_op(
    kind: str, value: int, position: int, by_param: bool, tmp_path_factory: pytest.TempPathFactory
) -> None:
    if kind == "tile_reduction_using_for":
        position = 2  # only the reduction loop is tiled by partial reductions
    by_param = by_param and kind in BY_PARAM
    text, what = _schedule(kind, value, position, by_param)
    line, message = _error(text, tmp_path_factory.mktemp("neg"))
    op_line = len(text.splitlines()) - 3  # the op under test is the last of the sequence
    assert line == op_line, message
    assert (
        f"error: expected {what} to be non-negative, found {value} at position {position}"
        in message
    )


def test_huge_thread_count_is_refused(tmp_path: Path) -> None:
    text, _ = _schedule("forall_num_threads", 2**62, 0, False)
    _, message = _error(text, tmp_path)
    assert f"num_threads {2**62} at position 0 exceeds the supported maximum {2**31 - 1}" in message


def test_huge_tile_size_is_one_tile() -> None:
    text, _ = _schedule("tile_using_for", 2**62, 0, False)
    run_and_check(text, reduction=5)


def _unroll(factor: int, loop_ub: str) -> str:
    payload = f"""  func.func @f(%a: tensor<37xf32>, %n: index) -> tensor<37xf32> {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ub = {loop_ub}
    %r = scf.for %i = %c0 to %ub step %c1 iter_args(%t = %a) -> (tensor<37xf32>) {{
      %x = tensor.extract %t[%i] : tensor<37xf32>
      %y = arith.addf %x, %x : f32
      %u = tensor.insert %y into %t[%i] : tensor<37xf32>
      scf.yield %u : tensor<37xf32>
    }}
    return %r : tensor<37xf32>
  }}"""
    schedule = match("%l", "scf.for") + f"    transform.loop.unroll %l factor = {factor} : {ANY}\n"
    return schedule_module(payload, schedule)


@pytest.mark.parametrize("factor", [5, 36, 37, 38, 1000, 2**62])
def test_unroll_factor_at_or_above_the_trip_count(factor: int) -> None:
    run_and_check(_unroll(factor, "arith.constant 37 : index"), inputs=None)


def test_unroll_of_a_dynamic_loop_by_a_huge_factor_is_refused(tmp_path: Path) -> None:
    text = _unroll(2**62, "arith.minsi %n, %c1 : index")
    line, message = _error(text, tmp_path)
    assert "would copy the loop body more than the supported maximum of 65536 times" in message
    assert line == next(n for n, t in enumerate(text.splitlines(), 1) if "loop.unroll" in t)


def test_negative_size_through_the_cli_exits_1_without_hanging(tmp_path: Path) -> None:
    text, _ = _schedule("tile_using_for", -4, 0, True)
    case = tmp_path / "neg.mlir"
    case.write_text(text)
    result = subprocess.run(
        [
            shutil.which("schedir-run") or str(Path(sys.executable).parent / "schedir-run"),
            str(case),
            "--check",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1, result.stderr
    assert (
        f"{case}:" in result.stderr
        and "error: expected tile sizes to be non-negative" in result.stderr
    )
    assert "Traceback" not in result.stderr
