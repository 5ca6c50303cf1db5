"""Per-step checking of a schedule (`schedir-opt --verify-each-transform`,
`CompileOptions.verify_each`): run the payload after each top-level transform op and compare
it with the reference.

The untransformed payload is evaluated once by the reference (with its error bounds) on
seeded random inputs. After every top-level transform op, the payload (schedule stripped)
is compared with the payload the last check ran: a step that left it unchanged (a match, a
`get_*`, `split_handle`, `print`, a param op, a transform that found nothing to do: every
op without an effect on the payload, whatever its name) is skipped, since it cannot change
the results. Otherwise a copy is lowered, JIT-compiled and run on the same inputs (the
caller's arrays are never written: the executable copies the arguments it may write, and
every output starts as NaN, so an element nobody writes cannot pass). The first op after
which the results differ gets a definite error at its line with the size of the difference.
Steps whose IR the CPU pipeline cannot run (yet), and steps whose kernel crashes or runs
past `STEP_TIMEOUT` (each step runs in a child process), are skipped and said so, never
silently passed; when such steps precede a failing one, the error names them as candidates too.

Each step reports a line as it goes (`progress`), and `summary()` says how many steps
were checked and which were skipped, and why.

It sits on top of the pipeline (it lowers and JIT-compiles every step with the cpu stages of
`schedir.pipeline`), beside the drivers that use it (`schedir.api`); the numerics it checks
with are `schedir.reference`'s (`random_inputs`, `evaluate_with_bounds`, `compare`,
`nan_filled`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from schedir import reference
from schedir.abi import EntrySignature
from schedir.cpu import CpuExecutable
from schedir.cpu.isolated import run_isolated, shared_array
from schedir.diagnostics import KernelFault, LoweringError, Note, TransformError, UnsupportedError
from schedir.dialects.syntax import op_location, print_op
from schedir.dialects.types import entry_signature, find_entry
from schedir.options import CompileOptions
from schedir.pipeline import LLVM_IR, Compilation, Entry, emit, strip_schedule

CHECK_OPT_LEVEL = 1
"""The LLVM optimization level of the per-step builds: enough to run loop nests at a
reasonable speed, far cheaper to compile than -O3 (the steps check the schedule, not
LLVM)."""

STEP_STACK_BYTES = 1 << 30
"""The stack a step's kernel runs on: an intermediate payload may allocate on the stack in
every iteration of a loop nest what the finished schedule allocates once (matmul_cpu's
packing buffer before `buffer_loop_hoisting`: 32 KiB a panel, 32 MiB in all at 1024^3,
past the 8 MiB of a process's main thread)."""

STEP_TIMEOUT = 300.0
"""Seconds a step's kernel may run before it is killed and the step counted as one that
cannot run (an intermediate payload may be far slower than the scheduled one)."""


@dataclass(frozen=True)
class Step:
    """What the checker did after one top-level transform op."""

    index: int
    op: Operation
    status: str
    """"checked", "mismatch", "unchanged" (no effect on the payload) or "cannot run"."""
    detail: str
    seconds: float

    def line(self) -> str:
        """The progress line of this step."""
        where = op_location(self.op)
        at = f" ({where})" if where is not None else ""
        text = {
            "checked": "results match",
            "mismatch": "results differ",
            "unchanged": "skipped: the payload did not change",
        }
        what = text.get(self.status, f"skipped: cannot run this step ({self.detail})")
        return f"verify-each: step {self.index} '{self.op.name}'{at}: {what} [{self.seconds:.2f} s]"


@dataclass
class StepChecker:
    """Per-step checking of a schedule: run the payload after each top-level transform op
    that changed it (see the module docstring)."""

    ctx: Context
    signature: EntrySignature
    inputs: list[np.ndarray]
    expected: list[reference.Expected]
    options: CompileOptions
    baseline: str
    """The printed payload the last check ran (at first the untransformed one)."""
    progress: Callable[[str], None] | None = None
    steps: list[Step] = field(default_factory=list)

    @staticmethod
    def for_module(
        ctx: Context,
        module: ModuleOp,
        entry: str | None,
        options: CompileOptions,
        seed: int = 0,
        progress: Callable[[str], None] | None = None,
    ) -> StepChecker:
        payload = module.clone()
        strip_schedule(payload)
        signature = entry_signature(find_entry(payload, entry))
        inputs = reference.random_inputs(signature, seed)
        expected = reference.evaluate_with_bounds(payload, signature.name, inputs)
        check_options = replace(options, opt_level=min(options.opt_level, CHECK_OPT_LEVEL))
        return StepChecker(
            ctx, signature, inputs, expected, check_options, print_op(payload), progress
        )

    @property
    def skipped(self) -> list[Step]:
        """The steps that were not run, in order."""
        return [s for s in self.steps if s.status in ("unchanged", "cannot run")]

    def summary(self) -> str:
        """One line: how many steps were checked, and which were skipped and why."""
        checked = sum(1 for s in self.steps if s.status in ("checked", "mismatch"))
        unchanged = [s for s in self.steps if s.status == "unchanged"]
        cannot = [s for s in self.steps if s.status == "cannot run"]
        text = f"verify-each: {len(self.steps)} steps, {checked} checked"
        if unchanged:
            text += f"; skipped (payload unchanged): {_list(unchanged)}"
        if cannot:
            text += f"; skipped (cannot run): {_list(cannot)}"
        return text

    def _record(self, op: Operation, status: str, detail: str, start: float) -> Step:
        step = Step(len(self.steps) + 1, op, status, detail, time.perf_counter() - start)
        self.steps.append(step)
        if self.progress is not None:
            self.progress(step.line())
        return step

    def __call__(self, transform_op: Operation, root: Operation) -> None:
        assert isinstance(root, ModuleOp)
        start = time.perf_counter()
        payload = root.clone()
        strip_schedule(payload)
        text = print_op(payload)
        if text == self.baseline:
            self._record(transform_op, "unchanged", "", start)
            return
        try:
            step = Compilation(
                self.ctx, self.options, module=payload, entry=Entry(self.signature.name)
            )
            llvm_ir = emit(step, LLVM_IR.name, "cpu")
            assert isinstance(llvm_ir, str)
            # written=None: every argument the step's function gets is a private copy.
            executable = CpuExecutable.build(llvm_ir, self.signature, self.options)
        except (UnsupportedError, LoweringError) as err:
            self._record(transform_op, "cannot run", err.message, start)
            return
        outputs = [reference.nan_filled(spec) for spec in self.signature.out_params]
        try:
            # In a child process, on a large stack (see `STEP_STACK_BYTES`): an
            # intermediate payload may fault where the scheduled one does not.
            results = run_step(executable, self.inputs, outputs)
        except KernelFault as err:
            self._record(transform_op, "cannot run", err.message, start)
            return
        for index, (spec, got, want) in enumerate(
            zip(self.signature.results, results, self.expected, strict=True)
        ):
            check = reference.compare(got, want, spec.dtype)
            if check.ok:
                continue
            self._record(transform_op, "mismatch", check.message, start)
            raise self._mismatch(transform_op, index, len(results), got.size, check)
        self.baseline = text
        self._record(transform_op, "checked", "", start)

    def _mismatch(
        self,
        op: Operation,
        index: int,
        count: int,
        size: int,
        check: reference.CheckResult,
    ) -> TransformError:
        """The error at the first op after which the results differ."""
        which = f"result #{index}" if count > 1 else "the result"
        notes = [Note(check.message)] if check.message else []
        # Steps since the last good check that could not be run are suspects too.
        suspects: list[Step] = []
        for step in reversed(self.steps[:-1]):
            if step.status in ("checked", "mismatch"):
                break
            if step.status == "cannot run":
                suspects.append(step)
        for step in reversed(suspects):
            notes.append(
                Note(
                    f"step {step.index} '{step.op.name}' before it could not be run "
                    f"({step.detail}): it may be the one that changed the results",
                    op_location(step.op),
                )
            )
        return TransformError(
            f"this transform op changes {which} of @{self.signature.name}: "
            f"max_abs_err={check.max_abs_err:.3g} max_rel_err={check.max_rel_err:.3g} "
            f"tol={check.max_tolerance:.3g} ({check.num_mismatches} of {size} elements differ)",
            op_location(op),
            tuple(notes),
        )


def run_step(
    executable: CpuExecutable, inputs: Sequence[np.ndarray], outputs: Sequence[np.ndarray]
) -> list[np.ndarray]:
    """`executable.run(inputs, outputs=outputs)` in a forked child, on a thread with a
    `STEP_STACK_BYTES` stack, killed after `STEP_TIMEOUT` s (a crash or the timeout raise
    `KernelFault`)."""
    specs = executable.signature.out_params
    shared = [shared_array(spec.shape, spec.dtype) for spec in specs]
    for target, source in zip(shared, outputs, strict=True):
        target[...] = source

    def child() -> list[np.ndarray | None]:
        box: list[list[np.ndarray] | BaseException] = []

        def call() -> None:
            try:
                box.append(executable.run(inputs, outputs=shared))
            except BaseException as err:  # re-raised in the child's main thread
                box.append(err)

        threading.stack_size(STEP_STACK_BYTES)
        thread = threading.Thread(target=call)
        thread.start()
        thread.join()
        outcome = box[0]
        if isinstance(outcome, BaseException):
            raise outcome
        return [None if any(r is s for s in shared) else r for r in outcome]

    name = executable.signature.name
    returned = run_isolated(child, timeout=STEP_TIMEOUT, what=f"@{name}")
    outs = iter(shared)
    return [next(outs) if value is None else value for value in returned]


def _list(steps: list[Step]) -> str:
    """`3 'transform.structured.match' (line 12), ...` for a summary."""
    parts = []
    for s in steps:
        where = op_location(s.op)
        parts.append(f"{s.index} '{s.op.name}'" + (f" (line {where.line})" if where else ""))
    return ", ".join(parts)


__all__ = ["CHECK_OPT_LEVEL", "STEP_STACK_BYTES", "STEP_TIMEOUT", "Step", "StepChecker", "run_step"]
