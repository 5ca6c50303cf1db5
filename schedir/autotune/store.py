"""The results store: an Optuna storage holding one study per tuning problem.

Storage. `open_storage(url)`: None keeps results in memory (nothing persists); a
`postgresql://` (or other SQLAlchemy) URL is Optuna's RDB storage with heartbeats, for
several hosts; anything else is the path of a journal file (Optuna's `JournalStorage`:
an append-only log that several processes of one host share safely), by default
`<cache>/schedir/tune.journal` (`default_journal`; the CLI passes `$XDG_CACHE_HOME`).

Study key. A study is named after the sha256 of everything a measured time depends on
(`key_parts`): the canonical payload IR, the schedule with its selections removed, the
target, the entry, the device (name and compute capability) or host CPU, the versions of
schedir, xDSL and llvmlite, of the CUDA driver and ptxas, the compile options and the
measurement protocol version. A change of any of them names another study, so a stale
time is never reused. `--study NAME` prefixes the name (it never replaces the key).

Records. Every candidate is one trial whose user attributes hold its point (canonical key),
`status`, times, error class and message, and compile seconds (`record`). A trial counts as
finished once it carries a status; trials left running by a killed process are failed
with status `interrupted` when the study is next opened (journal: their owner process is
gone; RDB: their heartbeat stopped) and their points are tried again.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import time
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schedir.diagnostics import InputError

if TYPE_CHECKING:
    import optuna
    from optuna.storages import BaseStorage
    from optuna.trial import FrozenTrial

FINAL = (
    "verified",
    "wrong-result",
    "pruned",
    "compile-error",
    "compile-timeout",
    "compile-crashed",
    "crashed",
    "timed-out",
    "error",
)
"""Statuses of a measured (budget-counted) candidate."""
NOT_COUNTED = ("invalid", "duplicate", "interrupted")
"""Statuses that cost no compile: a statically invalid point, a repeat, an interrupted run."""
MESSAGE_LIMIT = 4000
HEARTBEAT_S = 10
"""Seconds between the heartbeats of running trials in an RDB storage."""


def default_journal(cache_home: Path) -> Path:
    """The default journal file under a cache folder (`$XDG_CACHE_HOME` or `~/.cache`)."""
    return cache_home / "schedir" / "tune.journal"


def open_storage(url: str | os.PathLike[str] | None) -> BaseStorage:
    """An Optuna storage for `url` (see the module doc)."""
    import optuna

    if url is None:
        return optuna.storages.InMemoryStorage()
    text = str(url)
    if "://" in text:
        import sqlalchemy.exc

        for attempt in range(5):
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
                    return optuna.storages.RDBStorage(
                        text,
                        heartbeat_interval=HEARTBEAT_S,
                        grace_period=3 * HEARTBEAT_S,
                        engine_kwargs={"pool_pre_ping": True},
                    )
            except sqlalchemy.exc.IntegrityError:
                # Another process is creating the tables at this moment: use them.
                time.sleep(0.2 * (attempt + 1))
        raise InputError(f"could not set up the tables of storage '{text}'")
    path = Path(text)
    path.parent.mkdir(parents=True, exist_ok=True)
    return optuna.storages.JournalStorage(_journal_backend(path))


def _journal_backend(path: Path) -> Any:
    """Optuna's journal file backend whose appends (taking and releasing the file's lock)
    an interrupt never splits (`interrupts.deferred`): a lock left behind would stall every
    process of the journal for its grace period."""
    from optuna.storages.journal import JournalFileBackend

    from schedir.autotune.interrupts import deferred

    class _Backend(JournalFileBackend):
        def append_logs(self, logs: list[dict[str, Any]]) -> None:
            with deferred():
                super().append_logs(logs)

    return _Backend(str(path))


def key_parts(
    *,
    payload: str,
    schedule: str,
    target: str,
    entry: str,
    device: str,
    options: str,
    tools: Mapping[str, str],
    protocol: int,
) -> dict[str, str]:
    """Everything a study key covers, by name."""
    import llvmlite
    import xdsl

    versions = {
        "schedir": _version("schedir"),
        "xdsl": str(getattr(xdsl, "__version__", _version("xdsl"))),
        "llvmlite": llvmlite.__version__,
    }
    return {
        "payload": payload,
        "schedule": schedule,
        "target": target,
        "entry": entry,
        "device": device,
        "options": options,
        "versions": json.dumps(versions, sort_keys=True),
        "tools": json.dumps(dict(tools), sort_keys=True),
        "protocol": str(protocol),
    }


def _version(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return "unknown"


def study_key(parts: Mapping[str, str]) -> str:
    """The sha256 of the key parts (hex)."""
    text = json.dumps(dict(parts), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def study_name(parts: Mapping[str, str], prefix: str | None) -> str:
    key = study_key(parts)[:24]
    return f"{prefix}-{key}" if prefix else f"schedir-{key}"


def open_study(storage: BaseStorage, name: str, sampler: Any) -> optuna.Study:
    """The study `name` (created when missing), minimizing milliseconds."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    with warnings.catch_warnings():
        # Optuna's own heartbeat thread runs only in Study.optimize; the tuning loop beats
        # for its running trials itself (`heartbeat`).
        warnings.filterwarnings("ignore", "Heartbeat of storage", UserWarning)
        return optuna.create_study(
            storage=storage,
            study_name=name,
            sampler=sampler,
            direction="minimize",
            load_if_exists=True,
        )


def heartbeat(study: optuna.Study, trial_ids: list[int]) -> None:
    """Record that these running trials are alive (RDB storages; others ignore it)."""
    import optuna

    storage = study._storage  # pyright: ignore[reportPrivateUsage]  # the storage's heartbeat API
    if isinstance(storage, optuna.storages.RDBStorage):
        for trial_id in trial_ids:
            storage.record_heartbeat(trial_id)


def owner() -> str:
    """This process, as recorded on the trials it runs."""
    return f"{socket.gethostname()}:{os.getpid()}"


def _alive(owner_id: str) -> bool:
    host, _, pid = owner_id.rpartition(":")
    if host != socket.gethostname():
        return True  # another host's trials are its own business (RDB heartbeats fail them)
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, ValueError):
        return True
    return True


def recover_interrupted(study: optuna.Study) -> int:
    """Fail the running trials whose process died (status `interrupted`); how many.

    RDB storages fail them by their stopped heartbeat; a trial failed without a status
    reads as interrupted (`record_of`).
    """
    import optuna
    from optuna.trial import TrialState

    if isinstance(study._storage, optuna.storages.RDBStorage):  # pyright: ignore[reportPrivateUsage]  # which kind of storage the study has
        optuna.storages.fail_stale_trials(study)
    storage = study._storage  # pyright: ignore[reportPrivateUsage]  # the public API sets attributes only on live Trial objects
    count = 0
    for trial in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        if _alive(str(trial.user_attrs.get("owner", ""))):
            continue
        storage.set_trial_user_attr(trial._trial_id, "status", "interrupted")  # pyright: ignore[reportPrivateUsage]  # see above
        study.tell(trial.number, state=TrialState.FAIL, skip_if_finished=True)
        count += 1
    return count


@dataclass(frozen=True)
class Record:
    """A finished candidate as the store holds it."""

    number: int
    point: str
    status: str
    median_ms: float | None
    times_ms: tuple[float, ...]
    spread: float
    compile_s: float
    error_class: str
    message: str
    default: bool
    duplicate_of: int | None
    code: str = ""
    """The code identity of the compiled candidate (`compile_pool.code_identity`; "": not
    compiled). A `duplicate` with a code is a knob point that compiled to the code of the
    record `duplicate_of`, answered from it without a measurement."""

    @property
    def counted(self) -> bool:
        return self.status in FINAL

    def as_json(self) -> dict[str, Any]:
        from schedir.autotune.space import from_key

        return {
            "number": self.number,
            "knobs": from_key(self.point),
            "status": self.status,
            "median_ms": self.median_ms,
            "times_ms": list(self.times_ms),
            "spread": self.spread,
            "compile_s": self.compile_s,
            "error_class": self.error_class,
            "message": self.message,
            "default": self.default,
            "duplicate_of": self.duplicate_of,
            "code": self.code,
        }


def record_of(trial: FrozenTrial) -> Record | None:
    """The record of a trial (None while it runs)."""
    from optuna.trial import TrialState

    attrs = trial.user_attrs
    status = attrs.get("status")
    if not status:
        if trial.state != TrialState.FAIL:
            return None
        status = "interrupted"  # failed by a stopped heartbeat, before it could say why
    median = attrs.get("median_ms")
    dup = attrs.get("duplicate_of")
    return Record(
        trial.number,
        str(attrs.get("point", "")),
        str(status),
        float(median) if median is not None else None,
        tuple(float(t) for t in attrs.get("times_ms", ())),
        float(attrs.get("spread", 0.0)),
        float(attrs.get("compile_s", 0.0)),
        str(attrs.get("error_class", "")),
        str(attrs.get("message", "")),
        bool(attrs.get("default", False)),
        int(dup) if dup is not None else None,
        str(attrs.get("code", "")),
    )


def records(study: optuna.Study) -> list[Record]:
    """Every finished trial's record, in trial order."""
    found = (record_of(t) for t in study.get_trials(deepcopy=False))
    return [r for r in found if r is not None]


__all__ = [
    "FINAL",
    "NOT_COUNTED",
    "Record",
    "default_journal",
    "heartbeat",
    "key_parts",
    "open_storage",
    "open_study",
    "owner",
    "record_of",
    "records",
    "recover_interrupted",
    "study_key",
    "study_name",
]
