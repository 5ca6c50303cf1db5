"""schedir as an xDSL plugin (schedir/universe.py): `xdsl-opt` of the same environment
parses and prints schedir's payloads and schedules and runs schedir's passes.

The plugin is found the way xDSL finds every plugin, through `importlib.metadata` entry
points of the `xdsl.universe` group. The entry point is the one pyproject.toml declares:
the tests put it in a distribution's metadata folder on the path of a subprocess (the
checkout under test need not be installed), and run xdsl-opt there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
GROUP = "xdsl.universe"
FILES = sorted((ROOT / "examples").glob("*.mlir")) + sorted((ROOT / "schedules").glob("*.mlir"))


def _declared() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return dict(project.get("entry-points", {}).get(GROUP, {}))


@pytest.fixture(scope="module")
def plugin_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the metadata of a distribution with pyproject's entry points."""
    folder = tmp_path_factory.mktemp("plugin")
    info = folder / "schedir_plugin_under_test-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: schedir-plugin-under-test\nVersion: 0\n"
    )
    lines = [f"[{GROUP}]", *(f"{k} = {v}" for k, v in _declared().items())]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    return folder


def _python(plugin_path: Path, code: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(plugin_path), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
    )


XDSL_OPT = "import sys; from xdsl.tools.xdsl_opt import main; sys.argv[0] = 'xdsl-opt'; main()"


def _xdsl_opt(plugin_path: Path, *args: str) -> str:
    result = _python(plugin_path, XDSL_OPT, *args)
    assert result.returncode == 0, result.stderr
    return result.stdout


def _xdsl_style(text: str) -> str:
    """schedir-opt's output (upstream style: `module`, `#map` aliases) as xDSL prints it."""
    from schedir.dialects.context import get_context
    from schedir.dialects.syntax import parse_module, print_op

    return print_op(parse_module(text, "schedir-opt output", ctx=get_context())).strip()


def test_pyproject_declares_the_universe() -> None:
    assert _declared() == {"schedir": "schedir.universe:SCHEDIR_UNIVERSE"}


def test_entry_point_resolves_to_a_universe_with_every_dialect_and_pass(
    plugin_path: Path,
) -> None:
    code = """
import json
from importlib.metadata import entry_points
from xdsl.universe import Universe
# One declared entry point (an installed schedir and the test's dist-info may both list it).
(value,) = {p.value for p in entry_points(group="xdsl.universe") if p.name == "schedir"}
(point,) = [p for p in entry_points(group="xdsl.universe") if p.value == value][:1]
universe = point.load()
assert isinstance(universe, Universe)
multiverse = Universe.get_multiverse()  # no name clash with xDSL's own universe
linalg = multiverse.all_dialects["linalg"]()
print(json.dumps({
    "dialects": sorted(universe.all_dialects),
    "passes": sorted(universe.all_passes),
    "multiverse_passes": sorted(multiverse.all_passes),
    "linalg_matmul": linalg_matmul.__module__ if (linalg_matmul := next(
        op for op in linalg.operations if op.name == "linalg.matmul")) else "",
    "linalg_ops": sorted(op.name for op in linalg.operations),
    "interpreter": multiverse.all_passes["transform-interpreter"]().__module__,
}))
"""
    result = _python(plugin_path, code)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    from schedir.dialects.context import DIALECT_FACTORIES
    from schedir.lowering import get_own_passes

    assert found["dialects"] == sorted(name for name, _ in DIALECT_FACTORIES)
    assert set(get_own_passes()) <= set(found["passes"])
    # schedir's classes win; xDSL's ops schedir lacks are still there.
    assert found["linalg_matmul"].startswith("schedir.")
    assert "linalg.exp" in found["linalg_ops"]
    assert found["interpreter"] == "schedir.universe"
    # xDSL's own passes stay available next to schedir's.
    assert {"canonicalize", "cse", "convert-linalg-to-memref-stream"} <= set(
        found["multiverse_passes"]
    )


def test_xdsl_opt_prints_every_example_and_schedule_as_schedir_does(plugin_path: Path) -> None:
    code = """
import io, sys, json
from contextlib import redirect_stdout
from xdsl.xdsl_opt_main import xDSLOptMain
out = {}
for path in sys.argv[1:]:
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        xDSLOptMain(args=[path]).run()
    out[path] = buffer.getvalue()
print(json.dumps(out))
"""
    result = _python(plugin_path, code, *map(str, FILES))
    assert result.returncode == 0, result.stderr
    printed: dict[str, str] = json.loads(result.stdout)
    from schedir.dialects import get_context
    from schedir.dialects.syntax import parse_module, print_op

    for path in FILES:
        text = printed[str(path)]
        module = parse_module(path.read_text(), str(path), ctx=get_context())
        assert text.strip() == print_op(module).strip(), path.name
        # What xdsl-opt prints, schedir parses back to the same module.
        again = parse_module(text, "xdsl-opt output", ctx=get_context())
        assert print_op(again) == print_op(module), path.name


@pytest.mark.parametrize(
    "passes",
    [
        "linalg-generalize-named-ops",
        "one-shot-bufferize{bufferize-function-boundaries=true}",
        "linalg-decompose-aggregated-ops,linalg-generalize-named-ops,"
        "one-shot-bufferize{bufferize-function-boundaries=true},convert-linalg-to-loops",
    ],
)
def test_xdsl_opt_runs_schedir_passes(
    plugin_path: Path, passes: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from schedir.cli import opt_main

    payload = ROOT / "examples" / "softmax.mlir"
    out = _xdsl_opt(plugin_path, str(payload), "-p", passes)
    assert opt_main([str(payload), "-p", passes]) == 0
    assert out.strip() == _xdsl_style(capsys.readouterr().out)


def test_xdsl_opt_transform_interpreter_applies_a_schedule(
    plugin_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from schedir.cli import opt_main

    payload = ROOT / "examples" / "matmul_cpu.mlir"
    schedule = ROOT / "schedules" / "matmul_cpu.mlir"
    combined = payload.read_text() + "\n" + schedule.read_text()
    folder = plugin_path / "inputs"
    folder.mkdir(exist_ok=True)
    module = folder / "scheduled.mlir"
    module.write_text(combined)
    out = _xdsl_opt(plugin_path, str(module), "-p", "transform-interpreter")
    assert "transform." not in out and "scf.for" in out
    assert opt_main([str(module)]) == 0
    assert out.strip() == _xdsl_style(capsys.readouterr().out)
