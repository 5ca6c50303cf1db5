"""Output files as a Unix tool writes them (`schedir.output`), and every CLI that writes one.

Regular files are replaced atomically with the umask's mode; symlinks are followed and
special files (a FIFO, /dev/null) written through, never replaced; every path a user can
get wrong is a plain diagnostic (exit 1, no "internal compiler error").
"""

from __future__ import annotations

import contextlib
import os
import stat
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedir.cli import opt_main, run_main, tune_main
from schedir.output import OutputError, check_output, prepare_directory, write_output

ROOT = Path(__file__).parents[2]

PAYLOAD = """\
func.func @neg(%a: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %e = tensor.empty() : tensor<3x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
"""


@contextlib.contextmanager
def _umask(mask: int) -> Iterator[None]:
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def _unwritable_dir(tmp_path: Path) -> Path:
    """A directory this process cannot create files in (root ignores mode bits: /proc)."""
    if os.geteuid() == 0:
        return Path("/proc")
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    return folder


@contextlib.contextmanager
def _dev_null_guard() -> Iterator[None]:
    """Fail if /dev/null stops being a character device, and repair it (as root) if it did."""
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    try:
        yield
    finally:
        if not stat.S_ISCHR(os.lstat("/dev/null").st_mode):
            if os.geteuid() == 0:  # a regression must not leave the machine broken
                os.unlink("/dev/null")
                os.mknod("/dev/null", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
            pytest.fail("/dev/null was replaced")


# --- write_output --------------------------------------------------------------------


@settings(max_examples=25)
@given(
    mask=st.sampled_from([0o000, 0o002, 0o022, 0o027, 0o077, 0o277]),
    data=st.one_of(st.text(max_size=200), st.binary(max_size=200)),
    existed=st.booleans(),
)
def test_regular_file_is_replaced_atomically_with_the_umask_mode(
    tmp_path_factory: pytest.TempPathFactory, mask: int, data: str | bytes, existed: bool
) -> None:
    folder = tmp_path_factory.mktemp("out")
    target = folder / "out.txt"
    if existed:
        target.write_text("old")
        target.chmod(0o640)
    with _umask(mask):
        write_output(target, data)
    expected = data.encode() if isinstance(data, str) else data
    assert target.read_bytes() == expected
    mode = stat.S_IMODE(target.stat().st_mode)
    assert mode == (0o640 if existed else 0o666 & ~mask)
    assert [p.name for p in folder.iterdir()] == ["out.txt"]  # no temporary file left


def test_symlink_is_followed_and_kept(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real.name)
    write_output(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    dangling = tmp_path / "dangling"
    dangling.symlink_to("created.txt")
    write_output(dangling, "x")
    assert dangling.is_symlink() and (tmp_path / "created.txt").read_text() == "x"


def test_fifo_is_written_through(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    write_output(fifo, "through the pipe")
    reader.join(timeout=10)
    assert received == [b"through the pipe"]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_dev_null_stays_a_character_device() -> None:
    with _dev_null_guard():
        write_output("/dev/null", "discarded")
        link_free = os.path.realpath("/dev/null")
        assert stat.S_ISCHR(os.stat(link_free).st_mode)


def _cases(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    file = tmp_path / "file"
    file.write_text("")
    return {
        "missing directory": (tmp_path / "missing" / "out", "no such directory"),
        "a directory": (tmp_path, "is a directory"),
        "a file as parent": (file / "out", "file' is not a directory"),
        "read-only directory": (_unwritable_dir(tmp_path) / "out", "cannot write"),
    }


@pytest.mark.parametrize(
    "case", ["missing directory", "a directory", "a file as parent", "read-only directory"]
)
def test_unwritable_outputs_are_output_errors(tmp_path: Path, case: str) -> None:
    path, words = _cases(tmp_path)[case]
    with pytest.raises(OutputError, match=words):
        check_output(path)
    with pytest.raises(OutputError, match=words):
        write_output(path, "x")


def test_prepare_directory(tmp_path: Path) -> None:
    made = prepare_directory(tmp_path / "a" / "b", "--dump-dir")
    assert made.is_dir()
    (tmp_path / "f").write_text("")
    with pytest.raises(OutputError, match=r"'.*f' is not a directory"):
        prepare_directory(tmp_path / "f", "--dump-dir")
    with pytest.raises(OutputError, match="parent is not a directory"):
        prepare_directory(tmp_path / "f" / "sub", "--dump-dir")
    with pytest.raises(OutputError, match="--dump-dir"):
        prepare_directory(_unwritable_dir(tmp_path) / "sub", "--dump-dir")


# --- every CLI ---------------------------------------------------------------------


def _payload(tmp_path: Path) -> Path:
    path = tmp_path / "neg.mlir"
    path.write_text(PAYLOAD)
    return path


def _opt(tmp_path: Path, out: str) -> int:
    return opt_main([str(_payload(tmp_path)), "-o", out])


def _run_output(tmp_path: Path, out: str) -> int:
    return run_main([str(_payload(tmp_path)), "--output", out])


def _run_dump(tmp_path: Path, out: str) -> int:
    return run_main([str(_payload(tmp_path)), "--dump-dir", out])


def _tune_output(tmp_path: Path, out: str) -> int:
    schedules = ROOT / "schedules"
    payload = ROOT / "examples" / "matmul_cpu.mlir"
    return tune_main([str(payload), "--schedule", str(schedules / "matmul_cpu.mlir"), "-o", out])


def _tune_report(tmp_path: Path, out: str) -> int:
    schedules = ROOT / "schedules"
    payload = ROOT / "examples" / "matmul_cpu.mlir"
    return tune_main(
        [str(payload), "--schedule", str(schedules / "matmul_cpu.mlir"), "--report", out]
    )


TOOLS: dict[str, Callable[[Path, str], int]] = {
    "schedir-opt -o": _opt,
    "schedir-run --output": _run_output,
    "schedir-run --dump-dir": _run_dump,
    "schedir-tune -o": _tune_output,
    "schedir-tune --report": _tune_report,
}
FILE_TOOLS = ("schedir-opt -o", "schedir-run --output", "schedir-tune -o")


# A directory option makes missing parents (as mkdir -p); a file needs its folder.
DESTINATION_CASES = [
    (tool, case)
    for tool in sorted(TOOLS)
    for case in ("missing parent", "a file as parent", "read-only parent")
    if case != "missing parent" or tool in FILE_TOOLS
]


@pytest.mark.parametrize(("tool", "case"), DESTINATION_CASES)
def test_cli_unwritable_destination_is_a_plain_diagnostic(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], tool: str, case: str
) -> None:
    file = tmp_path / "file"
    file.write_text("")
    parent = {
        "missing parent": tmp_path / "missing",
        "a file as parent": file,
        "read-only parent": _unwritable_dir(tmp_path),
    }[case]
    assert TOOLS[tool](tmp_path, str(parent / "out")) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "internal compiler error" not in err, err


@pytest.mark.parametrize("tool", ["schedir-run --dump-dir", "schedir-tune --report"])
def test_cli_directory_option_naming_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], tool: str
) -> None:
    file = tmp_path / "file"
    file.write_text("keep")
    assert TOOLS[tool](tmp_path, str(file)) == 1
    err = capsys.readouterr().err
    assert "is not a directory" in err and "internal compiler error" not in err, err
    assert file.read_text() == "keep"


@pytest.mark.parametrize("tool", ["schedir-opt -o", "schedir-run --output"])
def test_cli_writes_through_dev_null_and_symlinks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], tool: str
) -> None:
    with _dev_null_guard():
        assert TOOLS[tool](tmp_path, "/dev/null") == 0
    real = tmp_path / "real"
    real.write_text("old")
    link = tmp_path / "link"
    link.symlink_to(real)
    assert TOOLS[tool](tmp_path, str(link)) == 0
    assert link.is_symlink() and real.read_bytes() != b"old"
    if tool == "schedir-run --output":
        np.testing.assert_array_equal(np.load(real).shape, (3, 5))


def test_console_script_o_dev_null_in_a_subprocess(tmp_path: Path) -> None:
    with _dev_null_guard():
        result = subprocess.run(
            [sys.executable, "-m", "schedir.cli", str(_payload(tmp_path)), "-o", "/dev/null"],
            capture_output=True,
            text=True,
            timeout=300,
        )
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""


def test_cli_dump_dir_files_follow_the_umask(tmp_path: Path) -> None:
    dump = tmp_path / "dump"
    with _umask(0o027):
        assert run_main([str(_payload(tmp_path)), "--dump-dir", str(dump)]) == 0
    files = sorted(dump.iterdir())
    assert files and all(stat.S_IMODE(f.stat().st_mode) == 0o640 for f in files)
    assert not [f for f in files if f.name.startswith(".")]  # no temporary file left
