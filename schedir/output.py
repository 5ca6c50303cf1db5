"""Output files written as a Unix tool writes them: every file a schedir tool produces.

`write_output(path, data)` is how `schedir-opt -o`, `schedir-run --output`/`--dump-dir`
and `schedir-tune -o`/`--report` write:

- a regular file (or a new one) is written atomically: a temporary file in the same
  directory, then `os.replace`, so a reader never sees half a file and a failed write
  leaves the old one. A new file gets the mode the umask gives (`0o666 & ~umask`), an
  existing one keeps its mode;
- a symlink is followed, never replaced: its target is written (atomically when the
  target is a regular file or missing);
- anything else that exists (`/dev/null`, `/dev/stdout`, a FIFO, a terminal) is written
  through with an ordinary `open`, never replaced;
- `-` is standard output.

`check_output(path)` checks the destination before long work starts.
`prepare_directory(path, option)` makes the folder of `--dump-dir`/`--report`. Every
failure a user can cause (a missing or read-only directory, a path naming a file where a
folder is wanted, a full disk) raises `OutputError`, a plain diagnostic with exit status 1.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile
from pathlib import Path

from schedir.diagnostics import InputError


class OutputError(InputError):
    """An output file or folder could not be written (the user's path, not a schedir bug)."""


def _reason(err: OSError) -> str:
    """The lowercase strerror of `err` (`permission denied`), as diagnostics word it."""
    text = err.strerror or (os.strerror(err.errno) if err.errno else str(err))
    return text[:1].lower() + text[1:]


def _umask() -> int:
    """The process umask, read without changing it where /proc allows."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    # Elsewhere the only way to read the umask is to set it; set it straight back.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_output(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write `data` to `path`: atomically for a regular file, through for anything else."""
    name = os.fspath(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if name == "-":
        sys.stdout.flush()
        sys.stdout.buffer.write(payload)
        sys.stdout.buffer.flush()
        return
    # A symlink is followed (as `>` does): the file it names is written, the link stays.
    target = Path(os.path.realpath(name))
    try:
        info = target.stat()
    except (FileNotFoundError, NotADirectoryError):
        _check_folder(name, target.parent)
        info = None
    except OSError as err:
        raise OutputError(f"cannot write '{name}': {_reason(err)}") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise OutputError(f"cannot write '{name}': is a directory")
    if info is not None and not stat.S_ISREG(info.st_mode):
        _write_through(name, target, payload)
        return
    _write_atomically(name, target, payload, None if info is None else stat.S_IMODE(info.st_mode))


def check_output(path: str | os.PathLike[str]) -> None:
    """Raise `OutputError` now if `write_output(path, ...)` cannot succeed later.

    Tools call it before long work (compiling, tuning), so a mistyped `-o` costs nothing.
    """
    name = os.fspath(path)
    if name == "-":
        return
    target = Path(os.path.realpath(name))
    if target.is_dir():
        raise OutputError(f"cannot write '{name}': is a directory")
    if target.exists():
        if not os.access(target, os.W_OK):
            raise OutputError(f"cannot write '{name}': permission denied")
        if not target.is_file():
            return  # written through: the folder does not matter
    _check_folder(name, target.parent)
    # Permission bits do not tell (root, read-only mounts, ACLs): try what the write will do.
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as err:
        raise OutputError(f"cannot write '{name}': {_reason(err)}") from None
    os.close(fd)
    os.unlink(probe)


def _check_folder(name: str, folder: Path) -> None:
    """`OutputError` unless the folder a new file of `name` goes into is a directory."""
    if folder.is_dir():
        return
    if folder.exists():
        raise OutputError(f"cannot write '{name}': '{folder}' is not a directory")
    raise OutputError(f"cannot write '{name}': no such directory '{folder}'")


def _write_through(name: str, target: Path, payload: bytes) -> None:
    """Write a device, FIFO or other special file in place (it is never replaced)."""
    try:
        with open(target, "wb") as handle:
            handle.write(payload)
    except OSError as err:
        raise OutputError(f"cannot write '{name}': {_reason(err)}") from None


def _write_atomically(name: str, target: Path, payload: bytes, mode: int | None) -> None:
    """A temporary file next to `target`, then a rename over it."""
    folder = target.parent
    _check_folder(name, folder)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as err:
        raise OutputError(f"cannot write '{name}': {_reason(err)}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            # mkstemp creates 0o600; the file gets the mode `open` would have given it.
            os.fchmod(handle.fileno(), (0o666 & ~_umask()) if mode is None else mode)
        os.replace(tmp, target)
    except OSError as err:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise OutputError(f"cannot write '{name}': {_reason(err)}") from None


def prepare_directory(path: str | os.PathLike[str], option: str) -> Path:
    """Make the folder an option names (and its parents); `OutputError` if it cannot be one."""
    name = os.fspath(path)
    folder = Path(name)
    if folder.exists() and not folder.is_dir():
        raise OutputError(f"{option} '{name}' is not a directory")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OutputError(f"{option} '{name}' is not a directory") from None
    except OSError as err:
        if err.errno == errno.ENOTDIR:
            raise OutputError(
                f"cannot create {option} '{name}': a parent is not a directory"
            ) from None
        raise OutputError(f"cannot create {option} '{name}': {_reason(err)}") from None
    try:
        fd, probe = tempfile.mkstemp(prefix=".probe.", dir=folder)
    except OSError as err:
        raise OutputError(f"cannot write into {option} '{name}': {_reason(err)}") from None
    os.close(fd)
    os.unlink(probe)
    return folder


__all__ = ["OutputError", "check_output", "prepare_directory", "write_output"]
