"""An interrupt (Ctrl-C, SIGTERM) never splits a write to the results store, and an error
that a library's clean-up raises while an interruption unwinds is reported as the
interruption (`schedir.autotune.interrupts`)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from schedir.autotune.interrupts import deferred, interrupt_safe, interrupted_by, interruptible

ROOT = Path(__file__).resolve().parents[3]
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


def _raised_while_interrupted() -> BaseException:
    try:
        try:
            raise KeyboardInterrupt
        finally:
            Path("/nonexistent/lock.rename").unlink()
    except FileNotFoundError as err:
        return err
    raise AssertionError("unreachable")


def test_interrupted_by_follows_the_context_and_cause_chain() -> None:
    assert interrupted_by(KeyboardInterrupt())
    assert interrupted_by(_raised_while_interrupted())
    try:
        raise RuntimeError("wrapped") from _raised_while_interrupted()
    except RuntimeError as err:
        assert interrupted_by(err)
    try:
        try:
            raise ValueError("first")
        except ValueError:
            raise OSError("second") from None
    except OSError as err:
        assert not interrupted_by(err)
    assert not interrupted_by(FileNotFoundError("no interruption here"))


def test_a_signal_within_a_section_waits_for_its_end() -> None:
    order: list[str] = []
    with pytest.raises(KeyboardInterrupt), interruptible((signal.SIGUSR1,)):
        with deferred():
            os.kill(os.getpid(), signal.SIGUSR1)
            time.sleep(0.05)  # the handler runs here: it must not raise yet
            with deferred():  # nested: only the outermost end raises
                time.sleep(0.01)
            order.append("section finished")
        order.append("after the section")  # pragma: no cover (must not run)
    assert order == ["section finished"]


def test_a_signal_outside_sections_interrupts_at_once_and_handlers_come_back() -> None:
    before = signal.getsignal(signal.SIGUSR1)
    reached = False
    with pytest.raises(KeyboardInterrupt), interruptible((signal.SIGUSR1,)):
        os.kill(os.getpid(), signal.SIGUSR1)
        time.sleep(1.0)
        reached = True
    assert not reached
    assert signal.getsignal(signal.SIGUSR1) is before


def test_interrupt_safe_reraises_a_cleanup_error_as_the_interruption() -> None:
    @interrupt_safe
    def failing_cleanup() -> None:
        raise _raised_while_interrupted()

    @interrupt_safe
    def plain_bug() -> None:
        raise ValueError("a bug, not an interruption")

    before = signal.getsignal(signal.SIGINT)  # SIG_IGN in an xdist worker
    with pytest.raises(KeyboardInterrupt):
        failing_cleanup()
    with pytest.raises(ValueError, match="a bug"):
        plain_bug()
    assert signal.getsignal(signal.SIGINT) is before


# A process appending to a journal as fast as it can (each append takes and releases the
# journal's lock file and fsyncs), stopped by SIGTERM at a random moment.
_WRITER = """
import signal, sys
import optuna
from schedir.autotune.interrupts import interruptible
from schedir.autotune.store import open_storage

optuna.logging.set_verbosity(optuna.logging.ERROR)
storage = open_storage(sys.argv[1])
try:
    with interruptible((signal.SIGTERM,)):
        study = optuna.create_study(storage=storage, study_name="s", load_if_exists=True)
        print("ready", flush=True)
        n = 0
        while True:
            trial = study.ask()
            trial.set_user_attr("n", n)
            study.tell(trial, float(n))
            n += 1
except KeyboardInterrupt:
    sys.exit(3)
"""


def test_sigterm_at_random_moments_never_breaks_the_journal(tmp_path: Path) -> None:
    journal = tmp_path / "j.journal"
    rng = random.Random(20261128)
    for delay in [rng.uniform(0.0, 0.25) for _ in range(10)]:
        writer = subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(journal)],
            cwd=ROOT,
            env=ENV,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert writer.stdout is not None
            assert writer.stdout.readline().strip() == "ready"
            time.sleep(delay)
            writer.send_signal(signal.SIGTERM)
            _, err = writer.communicate(timeout=60)
        finally:
            if writer.poll() is None:
                writer.kill()
                writer.wait()
        assert writer.returncode == 3, err[-2000:]
        leftovers = sorted(p.name for p in tmp_path.iterdir() if p.name != journal.name)
        assert not leftovers, f"lock files left behind after a SIGTERM at {delay:.3f} s"
    # Every finished trial reads back from the journal in a fresh process.
    check = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, optuna; from schedir.autotune.store import open_storage;"
            "optuna.logging.set_verbosity(optuna.logging.ERROR);"
            "s = optuna.load_study(storage=open_storage(sys.argv[1]), study_name='s');"
            "done = [t for t in s.trials if t.state.name == 'COMPLETE'];"
            "assert all(t.value == t.user_attrs['n'] for t in done); print(len(done))",
            str(journal),
        ],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 0, check.stderr[-2000:]
    assert int(check.stdout) > 0
