"""A value used where its definition does not dominate is a verifier error at the use,
with `file:line:col`, the source line and a note at the definition, as upstream's
verifier reports it; generated programs are compared with iree-opt's verifier.

Programs are chains of `arith.addi` over the arguments whose statements are shuffled (a
use may come before its definition), optionally nested in an `scf.for` body or split
over CFG blocks.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedir.diagnostics import SchedirError, SourceManager
from schedir.dialects.syntax import parse_module
from tests.differential.harness import iree_opt

ERROR = re.compile(r":(\d+):(\d+): error: (.*)")


def _program(order: list[int], nest: int | None) -> str:
    """`%v<i> = arith.addi %v<i-1>, %a` for i in `order`; statement `nest` and the ones
    after it go into an `scf.for` body."""
    lines = ["func.func @f(%a: i32, %lb: index, %ub: index, %s: index) -> i32 {"]
    indent = "  "
    for position, i in enumerate(order):
        if nest is not None and position == nest:
            lines.append("  scf.for %iv = %lb to %ub step %s {")
            indent = "    "
        prev = f"%v{i - 1}" if i > 0 else "%a"
        lines.append(f"{indent}%v{i} = arith.addi {prev}, %a : i32")
    if nest is not None:
        lines.append("  }")
    lines.append("  return %a : i32")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _schedir(text: str) -> tuple[int, int, str] | None:
    sources = SourceManager()
    try:
        parse_module(text, "case.mlir", sources=sources)
    except SchedirError as err:
        rendered = err.render(sources)
        match = ERROR.search(rendered)
        assert match, rendered
        assert "note: operand defined here" in rendered
        return int(match.group(1)), int(match.group(2)), match.group(3)
    return None


def _upstream(text: str, tmp: Path) -> tuple[int, int, str] | None:
    path = tmp / "case.mlir"
    path.write_text(text)
    result = subprocess.run([iree_opt(), str(path)], capture_output=True, text=True, timeout=60)
    if result.returncode == 0:
        return None
    match = ERROR.search(result.stderr)
    assert match, result.stderr
    return int(match.group(1)), int(match.group(2)), match.group(3)


@settings(max_examples=25)
@given(data=st.data())
def test_dominance_errors_match_upstream(
    data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    n = data.draw(st.integers(min_value=1, max_value=6))
    order = data.draw(st.permutations(list(range(n))))
    nest = data.draw(st.none() | st.integers(min_value=0, max_value=n - 1))
    text = _program(order, nest)
    assert _schedir(text) == _upstream(text, tmp_path_factory.mktemp("dom"))


def test_use_in_a_block_not_dominated_by_the_definition() -> None:
    text = """func.func @f(%c: i1) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = arith.constant 1 : i32
  cf.br ^bb3
^bb2:
  cf.br ^bb3
^bb3:
  return %x : i32
}
"""
    sources = SourceManager()
    with pytest.raises(SchedirError) as info:
        parse_module(text, "cfg.mlir", sources=sources)
    rendered = info.value.render(sources)
    assert rendered.startswith("cfg.mlir:9:3: error: operand #0 does not dominate this use")
    assert "cfg.mlir:4:8: note: operand defined here (op in the same region)" in rendered


def test_uses_dominated_across_blocks_and_in_unreachable_blocks_verify() -> None:
    text = """func.func @f(%c: i1) -> i32 {
  %x = arith.constant 1 : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  cf.br ^bb2
^bb2:
  return %x : i32
^bb3:
  %y = arith.addi %z, %x : i32
  %z = arith.addi %y, %x : i32
  return %z : i32
}
"""
    parse_module(text, "ok.mlir", sources=SourceManager())
