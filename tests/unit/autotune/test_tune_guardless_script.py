"""A user script without an `if __name__ == "__main__"` guard may call `schedir.tune`: its
worker processes never run the script again."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.unit.autotune.conftest import PAYLOAD, SCHEDULE

ROOT = Path(__file__).resolve().parents[3]


def test_script_without_main_guard_tunes_once(tmp_path: Path) -> None:
    marker = tmp_path / "runs.txt"
    script = tmp_path / "user_script.py"
    script.write_text(
        f"""import schedir
with open({str(marker)!r}, "a") as f:
    f.write("run\\n")
result = schedir.tune({str(PAYLOAD)!r}, schedule={str(SCHEDULE)!r}, budget=3, seed=2,
                      compile_workers=2, peer=False, storage={str(tmp_path / "s.journal")!r})
print("best knobs", sorted(result.knobs.items()))
"""
    )
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    out = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.count("best knobs") == 1, out.stdout
    # The script's top level ran once: no worker imported it as its main module.
    assert marker.read_text() == "run\n"
