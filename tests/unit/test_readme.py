"""The README stands alone and its commands work as written on a fresh clone.

Every shell command of its ```sh blocks is classified: the cheap ones run here, in order,
in a copy of the repository's tracked files (what a clone holds) with the checkout's
schedir first on the path; the others are named in EXPENSIVE with the reason, so a new
command is either run or consciously left to CI. The ```python block runs too. Links
stay inside the repository (or are web addresses).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
README = (ROOT / "README.md").read_text()

EXPENSIVE = {
    'python -m pip install -e ".[dev]"': "installs into the environment",
    "python -m pytest -q -n auto": "the whole suite (this test is part of it)",
    "schedir-run examples/matmul_cuda.mlir --schedule schedules/matmul_cuda.mlir --target cuda"
    " --check": "needs a GPU (tests/gpu runs the CUDA schedules)",
    "schedir-tune examples/matmul_cpu.mlir --schedule schedules/matmul_cpu.mlir --budget 16"
    " -o t.mlir": "a tuning run (tests/unit/autotune runs the tool)",
    "schedir-run examples/matmul_cpu.mlir --schedule t.mlir --check": "needs the tuning run",
    "schedir-tune examples/matmul_cpu.mlir --schedule schedules/matmul_cpu.mlir --budget 16"
    " --report report": "a tuning run (tests/unit/autotune writes a report)",
    "basedpyright --project pyproject.toml": "minutes of type checking (CI runs it)",
    "schedir-run examples/matmul_cpu.mlir --schedule schedules/matmul_cpu.mlir --check --bench": (
        "minutes at 1024^3 on a shared CPU (tests/unit/schedules runs each schedule)"
    ),
    "schedir-opt examples/matmul_cpu.mlir --schedule schedules/matmul_cpu.mlir"
    " --verify-each-transform": "runs the 1024^3 payload after every step (minutes)",
    "python -m pytest -q tests/unit/test_layering.py tests/unit/test_source_rules.py": (
        "part of the suite"
    ),
    "python tools/upstream_conformance.py /path/to/upstream-tests --jobs 2 --json out.json": (
        "needs upstream's test files, which stay outside the repository "
        "(tests/unit/test_upstream_conformance.py runs the harness on files of its own)"
    ),
}


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", README, flags=re.M | re.S)


def _command(line: str) -> str:
    """The command of a README line, without its trailing comment."""
    return re.sub(r"\s+#\s.*$", "", line).strip()


SH_BLOCKS = [
    [_command(line) for line in block.splitlines() if _command(line)] for block in _blocks("sh")
]


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's tracked files (as a fresh clone has them), copied."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    target = tmp_path_factory.mktemp("clone")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():  # (a file deleted in the working tree is not copied)
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def _scripts(folder: Path) -> Path:
    """The console scripts pyproject.toml declares, as an install makes them, in `folder`
    (the environment's may predate a script or point at another checkout)."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    folder.mkdir(exist_ok=True)
    for name, target in scripts.items():
        module, function = target.split(":")
        script = folder / name
        script.write_text(
            f"#!{sys.executable}\nimport sys\nfrom {module} import {function}\n"
            f"sys.exit({function}())\n"
        )
        script.chmod(0o755)
    return folder


def _env(clone: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(clone)
    bins = [str(_scripts(clone.parent / f"{clone.name}-bin")), str(Path(sys.executable).parent)]
    env["PATH"] = os.pathsep.join([*bins, env.get("PATH", "")])
    env["XDG_CACHE_HOME"] = str(clone / ".cache")
    return env


def test_every_command_is_classified() -> None:
    commands = {c for block in SH_BLOCKS for c in block}
    assert set(EXPENSIVE) <= commands, set(EXPENSIVE) - commands
    assert SH_BLOCKS and len(commands - set(EXPENSIVE)) >= 10


@pytest.mark.parametrize("index", range(len(SH_BLOCKS)))
def test_readme_commands_run_as_written(clone: Path, index: int) -> None:
    for command in SH_BLOCKS[index]:
        if command in EXPENSIVE:
            continue
        result = subprocess.run(
            ["bash", "-c", f"set -eo pipefail; {command}"],
            cwd=clone,
            env=_env(clone),
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
        assert "internal compiler error" not in result.stderr, command
        if re.match(r"schedir-run .* --check", command):
            assert "check: OK" in result.stdout, f"{command}\n{result.stdout}"


def test_readme_python_runs_as_written(clone: Path) -> None:
    (block,) = _blocks("python")
    result = subprocess.run(
        [sys.executable, "-c", block],
        cwd=clone,
        env=_env(clone),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    assert "check: OK" in result.stdout


def test_readme_stands_alone() -> None:
    assert "../" not in README, "a path outside the repository"
    for target in re.findall(r"\]\(([^)]+)\)", README):
        if re.match(r"https?://", target):
            continue
        assert (ROOT / target.split("#")[0]).exists(), target
    # Every repository path the README names in backticks exists.
    for path in re.findall(
        r"`((?:schedir|tests|examples|schedules|benchmarks|\.ci)/[\w./-]*)`", README
    ):
        assert (ROOT / path.rstrip("/")).exists(), path
