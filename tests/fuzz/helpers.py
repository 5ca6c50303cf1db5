"""Builders shared by the fuzz tests that compare generated schedules with iree-opt."""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from pathlib import Path

ANY = "!transform.any_op"


def transform_main(body: list[str]) -> str:
    """A schedule module whose `@__transform_main` (read-only `%root`) runs `body` lines."""
    inner = "\n".join(f"    {line}" for line in [*body, "transform.yield"])
    return (
        "module attributes {transform.with_named_sequence} {\n"
        "  transform.named_sequence @__transform_main("
        f"%root: {ANY} {{transform.readonly}}) {{\n{inner}\n  }}\n}}\n"
    )


def op_counts(ir: str) -> Counter[str]:
    """How many of each linalg op the payload holds (the schedule module cut off)."""
    payload_ir = ir.split("transform.with_named_sequence", 1)[0]
    return Counter(re.findall(r"= linalg\.(\w+)", payload_ir))


def run_upstream(iree_opt: str, source: Path) -> subprocess.CompletedProcess[str]:
    """iree-opt's transform interpreter on `source` (a minute at most)."""
    return subprocess.run(
        [iree_opt, "--transform-interpreter", str(source)],
        capture_output=True,
        text=True,
        timeout=60,
    )
