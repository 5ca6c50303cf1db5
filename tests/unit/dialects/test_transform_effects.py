"""Handle effects (consumed vs read) of every transform op, checked against upstream.

Each op case sits in a named sequence whose op-handle arguments are all annotated
`{transform.consumed}`. Upstream's named-sequence verifier warns "op argument #N is not
consumed in the body but is marked as consumed" for exactly the arguments the body does
not consume, which gives upstream's `getEffects` for the op; schedir's answer is
`TransformOpInterface.consumed_values()` of the parsed op.
"""

from __future__ import annotations

import re
import subprocess

from test_transform_helpers import ARGS, Case, body_of, parse, roundtrip, tool, wrap
from test_transform_syntax import CORE_CASES
from test_transform_syntax_ext import EXT_CASES
from test_transform_syntax_structured import STRUCTURED_CASES

from schedir.dialects.transform.core import NamedSequenceOp
from schedir.dialects.transform.interfaces import consumed_block_arguments

_WARNING = re.compile(r"<stdin>:(\d+):\d+: warning: op argument #(\d+) is not consumed")


def _schedir_consumed(case: Case) -> set[int]:
    module = parse(wrap(case.current or case.printed))
    seq = next(op for op in module.walk() if isinstance(op, NamedSequenceOp))
    return consumed_block_arguments(seq.body.block)


def _used_args(case: Case) -> set[int]:
    module = parse(wrap(case.current or case.printed))
    seq = next(op for op in module.walk() if isinstance(op, NamedSequenceOp))
    return {i for i, arg in enumerate(seq.body.block.args) if arg.uses}


def _upstream_consumed(cases: list[Case]) -> list[set[int]]:
    """One module, one named sequence `@s<i>` per case; warnings point at its line."""
    lines = ["module attributes {transform.with_named_sequence} {"]
    header_line: dict[int, int] = {}
    for index, case in enumerate(cases):
        body = body_of(roundtrip(wrap(case.current or case.printed)))
        header_line[len(lines) + 1] = index
        lines.append(f"  transform.named_sequence @s{index}({ARGS}) {{")
        lines.extend("    " + line for line in body.splitlines())
        lines.extend(["    transform.yield", "  }"])
    lines.append("}")
    result = subprocess.run(
        [tool("iree-opt"), "--mlir-print-op-on-diagnostic=false", "-"],
        input="\n".join(lines),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert ": error:" not in result.stderr, result.stderr[-3000:]
    not_consumed: list[set[int]] = [set() for _ in cases]
    for match in _WARNING.finditer(result.stderr):
        not_consumed[header_line[int(match.group(1))]].add(int(match.group(2)))
    consumed_args = {0, 1, 2, 5, 6, 7, 8, 9}  # the op/value handles marked consumed
    return [(consumed_args & _used_args(case)) - not_consumed[i] for i, case in enumerate(cases)]


def test_consumed_operands_match_upstream() -> None:
    cases = [
        c
        for c in (*CORE_CASES, *STRUCTURED_CASES, *EXT_CASES)
        # Cases of several ops or with nested regions are not about one op's effects.
        if "\n" not in (c.current or c.printed)
    ]
    upstream = _upstream_consumed(cases)
    mismatches = [
        f"{case.current or case.printed}\n  upstream consumes {want}, schedir {got}"
        for case, want in zip(cases, upstream, strict=True)
        if (got := _schedir_consumed(case)) != want
    ]
    assert not mismatches, "\n".join(mismatches)
    assert len(cases) > 80


def test_every_op_declares_effects_and_return_modes() -> None:
    from schedir.dialects.transform import Transform
    from schedir.dialects.transform.interfaces import TransformOpInterface

    ops = list(Transform.operations)
    assert len(ops) > 150
    for op in ops:
        assert issubclass(op, TransformOpInterface), op.name
        assert "Return modes" in (op.__doc__ or ""), op.name
        operand_names = {name for name, _ in op.get_irdl_definition().operands}
        assert set(op.consumed_operands) <= operand_names, op.name
