"""Differential testing against upstream MLIR's transform interpreter (iree-opt).

Each case is a .mlir file holding a payload and its schedule (or two files: `<case>.mlir`
and `<case>.schedule.mlir`, the upstream preload style). Both interpreters run it:

* acceptance must agree: both succeed, or both fail with an error on the same line;
* on success the *structure* must agree: the tree of loops (kind, static trip counts,
  mapping) of every function and, inside it, the structured ops with their operand and
  result shapes. Value names, constant placement and affine map spelling may differ.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp, ShapedType
from xdsl.ir import Operation, SSAValue

from schedir.diagnostics import SchedirError, SourceManager
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module

LOOP_OPS = ("scf.for", "scf.forall", "scf.parallel", "scf.while", "gpu.launch")
ERROR_LINE = re.compile(r":(\d+):\d+: error:")


@dataclass(frozen=True)
class Outcome:
    """What one interpreter did with a case: output text or the line of its first error."""

    ok: bool
    text: str
    error_line: int | None
    message: str


def iree_opt() -> str:
    found = shutil.which("iree-opt")
    assert found is not None, "iree-opt (pip install iree-base-compiler) is the upstream oracle"
    return found


def run_upstream(case: Path, library: Path | None) -> Outcome:
    args = [iree_opt()]
    if library is not None:
        args.append(f"--transform-preload-library=transform-library-paths={library}")
    args += ["--transform-interpreter", str(case)]
    result = subprocess.run(args, capture_output=True, text=True, timeout=300)
    if result.returncode == 0:
        return Outcome(True, result.stdout, None, "")
    match = ERROR_LINE.search(result.stderr)
    return Outcome(False, "", int(match.group(1)) if match else None, result.stderr)


def run_schedir(case: Path, library: Path | None) -> Outcome:
    from schedir.api import OptRequest, run_opt

    sources = SourceManager()
    schedule = (str(library), library.read_text()) if library is not None else None
    request = OptRequest(text=case.read_text(), filename=str(case), schedule=schedule)
    try:
        return Outcome(True, run_opt(request, sources), None, "")
    except SchedirError as err:
        line = err.location.line if err.location is not None else None
        return Outcome(False, "", line, err.render(sources))


@dataclass(frozen=True)
class Node:
    """One loop or structured op of the structure tree."""

    label: str
    children: tuple[Node, ...] = ()

    def render(self, indent: int = 0) -> str:
        lines = ["  " * indent + self.label]
        lines += [c.render(indent + 1) for c in self.children]
        return "\n".join(lines)


def structure(text: str) -> str:
    """The loop/structured-op tree of every function of a module, as text."""
    module = parse_module(text, "<structure>", ctx=get_context(), verify=False)
    trees = []
    for op in module.walk():
        if op.name == "func.func":
            name = op.properties["sym_name"].data  # type: ignore[union-attr]
            trees.append(Node(f"func @{name}", _children(op)).render())
    return "\n".join(trees)


def _children(op: Operation) -> tuple[Node, ...]:
    nodes: list[Node] = []
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                if inner.name in LOOP_OPS:
                    nodes.append(Node(_loop_label(inner), _children(inner)))
                elif inner.name.startswith("linalg.") and inner.name not in (
                    "linalg.yield",
                    "linalg.index",
                ):
                    nodes.append(Node(_linalg_label(inner)))
                else:
                    nodes.extend(_children(inner))
    return tuple(nodes)


def _loop_label(op: Operation) -> str:
    if op.name == "scf.forall":
        ubs = op.properties.get("staticUpperBound")
        steps = op.properties.get("staticStep")
        mapping = op.attributes.get("mapping") or op.properties.get("mapping")
        text = f"scf.forall ub={_ints(ubs)} step={_ints(steps)}"
        if isinstance(mapping, ArrayAttr):
            text += f" mapping={[str(m) for m in mapping.data]}"
        return text
    if op.name == "scf.for":
        lb, ub, step = (_const(v) for v in op.operands[:3])
        return f"scf.for {lb} to {ub} step {step} iter_args={len(op.operands) - 3}"
    return op.name


def _ints(attr: object) -> str:
    values = getattr(attr, "get_values", None)
    if values is not None:
        return str([v if v >= -(2**62) else "?" for v in values()])
    return "?"


def _const(value: SSAValue) -> str:
    owner = getattr(value, "op", None)
    if owner is not None and owner.name == "arith.constant":
        attr = owner.properties.get("value") or owner.attributes.get("value")
        if isinstance(attr, IntegerAttr):
            return str(attr.value.data)
    return "?"


def _linalg_label(op: Operation) -> str:
    def shape(v: SSAValue) -> str:
        t = v.type
        if isinstance(t, ShapedType):
            return "x".join("?" if d < 0 else str(d) for d in t.get_shape()) or "scalar"
        return "scalar"

    ins = ",".join(shape(v) for v in op.operands)
    return f"{op.name}({ins})"


def check_case(case: Path, library: Path | None = None) -> None:
    """Assert that schedir and upstream agree on `case` (acceptance, error line, structure)."""
    upstream = run_upstream(case, library)
    ours = run_schedir(case, library)
    if upstream.ok != ours.ok:
        raise AssertionError(
            f"upstream {'accepts' if upstream.ok else 'rejects'} {case.name}, schedir "
            f"{'accepts' if ours.ok else 'rejects'} it\n--- upstream\n{upstream.message}\n--- schedir\n{ours.message}"
        )
    if not upstream.ok:
        assert upstream.error_line == ours.error_line, (
            f"both reject {case.name} but at different lines: upstream {upstream.error_line}, "
            f"schedir {ours.error_line}\n--- upstream\n{upstream.message}\n--- schedir\n{ours.message}"
        )
        return
    expected, got = structure(upstream.text), structure(ours.text)
    assert got == expected, (
        f"structure differs for {case.name}\n--- upstream\n{expected}\n--- schedir\n{got}"
    )


def as_module(op: Operation) -> ModuleOp:
    assert isinstance(op, ModuleOp)
    return op
