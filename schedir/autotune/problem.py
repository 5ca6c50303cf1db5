"""From a payload and a schedule to a tuning problem: the space, the rendering of a point,
the reference data every candidate is checked against, and the study key's parts.

The schedule is a separate library (`schedule=`) or the one embedded in the payload; its
knobs make the space (`schedir.transform.knobs`), its `transform.smt.constrain_params`
ops the static constraints (`schedir.transform.constraints`). The reference data are
seeded random inputs of the payload's sizes (an .npz file every measurement worker loads)
and `schedir.reference`'s float64 results, computed by a worker of their own while the
first candidates compile and run, and kept beside the study's storage
(`reference_cache`) so that a resumed or repeated study loads them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from schedir.autotune.runner import Problem
from schedir.autotune.space import Point, Space
from schedir.diagnostics import InputError, SourceManager
from schedir.options import CompileOptions


@dataclass(frozen=True)
class Loaded:
    """A problem and what else the tuner needs of its inputs."""

    problem: Problem
    payload: ModuleOp
    """The payload without its schedule (the reference's input)."""
    entry: str
    canonical_payload: str
    canonical_schedule: str


def load(
    payload: str,
    payload_name: str,
    schedule: tuple[str, str] | None,
    entry: str | None,
    options: CompileOptions,
    sources: SourceManager,
) -> Loaded:
    """Parse payload and schedule (text, name) and build the problem; InputError without
    knobs to search."""
    from schedir.dialects import get_context
    from schedir.dialects.syntax import parse_module, print_op
    from schedir.dialects.types import find_entry
    from schedir.pipeline import has_schedule, strip_schedule
    from schedir.transform.constraints import constraints_of
    from schedir.transform.knobs import clear, read_knobs, select

    ctx = get_context()
    module = parse_module(payload, payload_name, ctx=ctx, sources=sources)
    if schedule is not None:
        holder = parse_module(schedule[0], schedule[1], ctx=ctx, sources=sources)
        embedded = False
    else:
        if not has_schedule(module):
            raise InputError(
                f"'{payload_name}' has no schedule to tune: embed one or pass --schedule"
            )
        holder = module
        embedded = True
    knobs = read_knobs(holder)
    if not knobs:
        raise InputError(
            "the schedule declares no knobs to search (transform.tune.knob, "
            "transform.tune.alternatives)"
        )
    space = Space(knobs, constraints_of(holder, knobs))
    stripped = module.clone()
    strip_schedule(stripped)
    fn = find_entry(stripped, entry)
    unselected = holder.clone()
    clear(unselected)

    def render(point: Point) -> str:
        chosen = holder.clone()
        select(chosen, point)
        return print_op(chosen)

    problem = Problem(payload, payload_name, space, render, embedded, entry, options)
    return Loaded(
        problem,
        stripped,
        fn.sym_name.data,
        print_op(stripped),
        print_op(unselected) if not embedded else _schedule_part(unselected),
    )


def _schedule_part(module: ModuleOp) -> str:
    """The transform ops of a payload module with an embedded schedule (printed)."""
    from schedir.dialects.syntax import print_op

    return "\n".join(print_op(op) for op in module.ops if op.name.startswith("transform."))


def write_inputs(loaded: Loaded, folder: Path, seed: int) -> tuple[Path, int]:
    """The seeded random inputs (`in_<i>`) in an .npz under `folder`, and the payload's
    reduction length."""
    from schedir import reference
    from schedir.dialects.types import entry_signature, find_entry

    sig = entry_signature(find_entry(loaded.payload, loaded.entry))
    inputs = reference.random_inputs(sig, seed)
    path = folder / "inputs.npz"
    np.savez(path, **{f"in_{i}": np.asarray(a) for i, a in enumerate(inputs)})  # pyright: ignore[reportArgumentType]  # numpy's stub types **kwds loosely
    return path, reference.reduction_length(loaded.payload, loaded.entry)


@dataclass(frozen=True)
class ReferenceJob:
    """Compute the reference results of `payload` (printed, without schedule) on the
    inputs in `inputs` and write them to `out`."""

    payload: str
    entry: str
    inputs: Path
    out: Path


def reference_cache(storage: object, study_name: str, seed: int) -> Path | None:
    """Where the reference results of a study are kept beside its storage (the journal's
    folder), so that a resumed or repeated study loads them; None for an in-memory or a
    database storage (whose hosts share no folder: each computes them once per run)."""
    if storage is None or "://" in str(storage):
        return None
    return Path(str(storage)).expanduser().parent / "references" / f"{study_name}-seed{seed}.npz"


def compute_reference(job: ReferenceJob) -> str | None:
    """Write the reference results (values `out_i` and, for floats, forward error bounds
    `err_i` and the dtype's tiny `floor_i`) atomically to `job.out`; None, or the
    diagnostic when the reference cannot evaluate the payload."""
    import os

    from schedir import reference
    from schedir.diagnostics import SchedirError
    from schedir.dialects import get_context
    from schedir.dialects.syntax import parse_module
    from schedir.reference.bounds import tiny

    sources = SourceManager()
    try:
        module = parse_module(job.payload, "<payload>", ctx=get_context(), sources=sources)
        with np.load(job.inputs, allow_pickle=False) as data:
            count = sum(1 for k in data.files if k.startswith("in_"))
            inputs = [np.array(data[f"in_{i}"]) for i in range(count)]
        expected = reference.evaluate_with_bounds(module, job.entry, inputs)
    except SchedirError as err:
        return err.render(sources)
    except RecursionError:
        return "error: the reference cannot evaluate the payload: IR nests too deeply"
    except Exception as err:  # an internal error of the reference: the run ends with it
        return f"error: internal error of the reference: {type(err).__name__}: {err}"
    arrays: dict[str, np.ndarray] = {}
    for i, e in enumerate(expected):
        arrays[f"out_{i}"] = e.value
        if e.error is not None:
            arrays[f"err_{i}"] = e.error
            if np.dtype(e.dtype).kind == "f":
                arrays[f"floor_{i}"] = np.array(tiny(e.dtype), np.float64)
    job.out.parent.mkdir(parents=True, exist_ok=True)
    partial = job.out.with_name(f"{job.out.stem}.{os.getpid()}.partial.npz")
    np.savez(partial, **arrays)  # pyright: ignore[reportArgumentType]  # numpy's stub types **kwds loosely
    os.replace(partial, job.out)  # readers see the whole file or none
    return None


def reference_handler(_setup: object) -> Callable[[ReferenceJob, Callable[..., None]], str | None]:
    """The reference worker's handler (`schedir.autotune.worker.serve`)."""

    def handle(job: ReferenceJob, _progress: Callable[..., None]) -> str | None:
        return compute_reference(job)

    return handle


def device_description(options: CompileOptions, device: int | None) -> tuple[str, dict[str, str]]:
    """What the study key records of the device, and the versions of the tools used."""
    if options.target == "cpu":
        import llvmlite.binding as llvm

        features = llvm.get_host_cpu_features().flatten()
        return f"cpu {llvm.get_host_cpu_name()} {features}", {}
    tools: dict[str, str] = {}
    gpu = _query(
        [
            "nvidia-smi",
            f"--id={device or 0}",
            "--query-gpu=name,compute_cap,driver_version",
            "--format=csv,noheader",
        ]
    )
    tools["driver"] = gpu.rpartition(",")[2].strip() if gpu else "unknown"
    ptxas = shutil.which("ptxas")
    tools["ptxas"] = _query([ptxas, "--version"]).splitlines()[-1] if ptxas else "none"
    return f"cuda {gpu.rpartition(',')[0] if gpu else 'unknown'} {options.arch}", tools


def _query(command: list[str]) -> str:
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def options_text(options: CompileOptions) -> str:
    """The compile options that change the code, as the key records them."""
    fields: Mapping[str, object] = {
        "target": options.target,
        "opt_level": options.opt_level,
        "arch": options.arch,
        "ptx_version": options.ptx_version,
        "cpu_name": options.cpu_name,
        "cpu_features": options.cpu_features,
    }
    return json.dumps(fields, sort_keys=True)


__all__ = [
    "Loaded",
    "ReferenceJob",
    "compute_reference",
    "device_description",
    "load",
    "options_text",
    "reference_cache",
    "reference_handler",
    "write_inputs",
]
