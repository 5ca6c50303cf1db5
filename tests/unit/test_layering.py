"""The import layering of DESIGN.md, checked on the source (every import, even lazy ones).

cli, api -> autotune -> verify_each -> pipeline -> transform | lowering -> dialects, reference
gpu (whose CUDA host code runs through cpu's JIT) and cpu sit beside dialects and never import
xDSL; abi (the argument specs) sits on options and diagnostics, which are leaves.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[2] / "schedir"

# Rank of each top-level unit of the package: a module may import only lower ranks (or its
# own unit). transform and lowering share a rank and must not import each other.
RANKS = {
    "options": 0,
    "diagnostics": 0,
    "abi": 0.5,
    "dialects": 1,
    "cpu": 1,
    "gpu": 1.5,
    "reference": 2,
    "transform.rewrites": 2.5,
    "transform": 3,
    "lowering": 3,
    "pipeline": 4,
    "verify_each": 4.5,
    "autotune": 5,
    "api": 6,
    "cli": 7,
    "__init__": 8,
}
NO_XDSL = {"gpu", "cpu", "abi", "options", "diagnostics"}


def _unit(path: Path) -> str:
    rel = path.relative_to(PACKAGE)
    if rel.parts[:2] == ("transform", "rewrites"):
        return "transform.rewrites"
    return rel.parts[0].removesuffix(".py")


def _target_unit(module: str) -> str:
    parts = module.split(".")
    if parts[1:3] == ["transform", "rewrites"]:
        return "transform.rewrites"
    return parts[1]


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            if node.module == "schedir":
                found.extend((node.lineno, f"schedir.{alias.name}") for alias in node.names)
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_respect_layers(module: Path) -> None:
    unit = _unit(module)
    assert unit in RANKS, f"{module}: unit '{unit}' has no place in the layering; add it to RANKS"
    problems = []
    for line, name in _imports(module):
        if name.split(".")[0] == "xdsl" and unit in NO_XDSL:
            problems.append(f"line {line}: '{unit}' must not import xDSL ({name})")
        if not name.startswith("schedir.") or name.count(".") < 1:
            continue
        target = _target_unit(name)
        if target == unit or target not in RANKS:
            continue
        if RANKS[target] >= RANKS[unit]:
            problems.append(f"line {line}: '{unit}' may not import '{target}' ({name})")
    assert not problems, f"{module}:\n" + "\n".join(problems)


def test_only_cli_reads_the_environment() -> None:
    offenders = []
    for module in MODULES:
        if module.name == "cli.py":
            continue
        text = module.read_text()
        if "os.environ" in text or "os.getenv" in text:
            offenders.append(str(module.relative_to(PACKAGE)))
    assert not offenders, f"only schedir/cli.py may read the environment: {offenders}"
