"""The tensor-core schedules' knob spaces without a GPU: every point the autotuner may pick
is a clean kernel or a clean diagnostic.

Generated cases (hypothesis, derandomized) draw a schedule (matmul_{f16,bf16,
bias_relu_f16,f16_ws,f16_ring,f16_f16out,f16_mma_sync}_cuda.mlir), a knob point and a
problem size. The space and its validity are the tuner's own: `schedir.autotune.prepare`
reads the knobs and the `transform.smt.constrain_params` constraints, `Space.violation`
says which points are valid, and the problem's `render` writes the schedule the tuner
compiles for a point. Then:

- a valid point at an odd size within the schedule's limits (K >= 64 where the TMA boxes
  take 64-wide rows) compiles to PTX that names no intrinsic LLVM does not know (no
  `.extern .func llvm.nvvm.*`), which `ptxas -arch=sm_90a` assembles without a C75xx
  warning (C751x: serialized wgmma); a kernel that spills is one the tuner's own `ptxas
  -v` check (`compile_pool.ptx_limits`, for the study's arch) prunes, so the tuner never
  picks it (spills are a dynamic constraint of the space, `schedir.autotune.space`: they
  depend on the problem's sizes, e.g. a K of exactly `stages` steps);
- a point a constraint rejects, or a K below the TMA schedules' limit, is a located
  TransformError with a message (never another exception, never a crash);
- a point of a reduction schedule (softmax, softmax_f16, layernorm, rowsum, colsum,
  matvec: no constraints, regions with preconditions on the sizes) at odd rows and short
  or long odd columns compiles to PTX as clean (sm_90), or fails with a located error the
  tuner prunes.

tests/gpu/test_knob_space.py runs the same drawing on the device against the reference.
"""

from __future__ import annotations

import functools
import random
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schedir
from schedir.autotune import prepare
from schedir.autotune.compile_pool import (
    CompileJob,
    assemble_checked,
    assembly_arch,
    compile_candidate,
    ptx_limits,
)
from schedir.autotune.runner import Problem
from schedir.autotune.space import Point
from schedir.diagnostics import TransformError
from schedir.gpu.ptx import unknown_intrinsics
from schedir.options import CompileOptions
from tests.gpu.mbr_payloads import bias_relu_payload
from tests.gpu.test_matmul_wgmma import f16_out_payload, payload
from tests.helpers import resized_example
from tests.unit.gpu.ptxas_report import ptxas_log

REPO = Path(__file__).parents[3]
OPTIONS = CompileOptions(target="cuda")
"""A cuda study's options as `schedir-tune --target cuda` makes them (arch sm_90)."""
MAX_SIZE = 600
"""Sizes stay small: each example compiles (and on the device runs) in seconds."""


@dataclass(frozen=True)
class TensorCoreSchedule:
    """A schedule of `schedules/`, its example payload and what its comment states."""

    name: str
    elements: tuple[str, ...]
    """The input element types its payloads take."""
    out: str
    """"f32": fill + matmul; "half": + truncf to the element type; "bias_relu": the
    examples/matmul_bias_relu_f16_cuda.mlir epilogue."""
    min_k: int
    """The smallest K it takes (64: A's TMA box is a 64-wide row of 128 bytes)."""
    wgmma: bool

    @property
    def path(self) -> Path:
        return REPO / "schedules" / f"{self.name}.mlir"


SCHEDULES = (
    TensorCoreSchedule("matmul_f16_cuda", ("f16",), "half", 64, True),
    TensorCoreSchedule("matmul_bf16_cuda", ("bf16",), "half", 64, True),
    TensorCoreSchedule("matmul_bias_relu_f16_cuda", ("f16",), "bias_relu", 64, True),
    TensorCoreSchedule("matmul_f16_ws_cuda", ("f16", "bf16"), "f32", 64, True),
    TensorCoreSchedule("matmul_f16_ring_cuda", ("f16", "bf16"), "f32", 64, True),
    TensorCoreSchedule("matmul_f16_f16out_cuda", ("f16",), "half", 64, True),
    TensorCoreSchedule("matmul_f16_mma_sync_cuda", ("f16", "bf16"), "f32", 1, False),
)


@dataclass(frozen=True)
class ReductionSchedule:
    """A reduction schedule of `schedules/` and its example's rows and columns (the
    tensor dimensions `resized_example` replaces)."""

    name: str
    rows: int
    columns: int

    @property
    def path(self) -> Path:
        return REPO / "schedules" / f"{self.name}.mlir"


REDUCTIONS = (
    ReductionSchedule("softmax_cuda", 1000, 999),
    ReductionSchedule("softmax_f16_cuda", 1000, 999),
    ReductionSchedule("layernorm_cuda", 1000, 999),
    ReductionSchedule("rowsum_cuda", 1000, 999),
    ReductionSchedule("colsum_cuda", 999, 1000),
    ReductionSchedule("matvec_cuda", 1000, 999),
)


@functools.cache
def problem(schedule: TensorCoreSchedule | ReductionSchedule) -> Problem:
    """The tuning problem of the schedule on its example payload (nothing compiled)."""
    example = REPO / "examples" / schedule.path.name
    return prepare(str(example), str(schedule.path), None, OPTIONS).loaded.problem


def draw_point(
    rnd: random.Random, schedule: TensorCoreSchedule | ReductionSchedule, valid: bool
) -> Point:
    """A point of the schedule's space drawn by `rnd`, uniform over its valid (or invalid)
    points: each knob's option drawn alike, redrawn until `Space.violation` agrees (no
    listing of the space: the tensor-core spaces have 176,512 valid points)."""
    space = problem(schedule).space
    while True:
        point = {knob.name: rnd.choice(knob.options) for knob in space.knobs}
        if (space.violation(point) is None) == valid:
            return point


@dataclass(frozen=True)
class Case:
    """A schedule, a knob point and a problem (M x N x K of `element`; the bias of the
    bias + relu epilogue, by column or by row)."""

    schedule: TensorCoreSchedule
    point: Point
    size: tuple[int, int, int]
    element: str
    bias: tuple[str, str] = ("f16", "column")

    def payload(self) -> str:
        m, n, k = self.size
        if self.schedule.out == "bias_relu":
            return bias_relu_payload(m, n, k, *self.bias)
        if self.schedule.out == "half":
            return f16_out_payload(m, n, k).replace("f16", self.element)
        return payload(m, n, k, self.element)

    def compile(self) -> schedir.Kernel:
        """Compile the payload with the schedule the tuner renders for the point."""
        schedule = problem(self.schedule).render(self.point)
        return schedir.compile(self.payload(), schedule=schedule, target="cuda")

    def __str__(self) -> str:
        m, n, k = self.size
        bias = f" bias {self.bias[0]} by {self.bias[1]}" if self.schedule.out == "bias_relu" else ""
        return f"{self.schedule.name} {self.element} {m}x{n}x{k}{bias} {self.point}"


@dataclass(frozen=True)
class ReductionCase:
    """A reduction schedule, a knob point and its example at `size` (rows x columns)."""

    schedule: ReductionSchedule
    point: Point
    size: tuple[int, int]

    def payload(self) -> str:
        rows, columns = self.size
        dims = {self.schedule.rows: rows, self.schedule.columns: columns}
        return resized_example(self.schedule.path.name, dims)

    def compile(self) -> schedir.Kernel:
        """Compile the payload with the schedule the tuner renders for the point."""
        schedule = problem(self.schedule).render(self.point)
        return schedir.compile(self.payload(), schedule=schedule, target="cuda")

    def __str__(self) -> str:
        return f"{self.schedule.name} {self.size[0]}x{self.size[1]} {self.point}"


def draw_case(rnd: random.Random, valid: bool = True, within_limits: bool = True) -> Case:
    """A case of a schedule drawn by `rnd`: a valid (or invalid) point at odd sizes within
    (or, K below, beyond) the schedule's limits; uniform over the schedules, their points
    and the sizes."""
    schedule = rnd.choice([s for s in SCHEDULES if within_limits or s.min_k > 1])
    point = draw_point(rnd, schedule, valid)
    m, n = (2 * rnd.randrange(MAX_SIZE // 2) + 1 for _ in range(2))
    low, high = (schedule.min_k, MAX_SIZE) if within_limits else (1, schedule.min_k)
    k = 2 * rnd.randrange(low // 2, high // 2) + 1
    element = rnd.choice(schedule.elements)
    bias = rnd.choice([("f16", "column"), ("f32", "column"), ("f16", "row")])
    return Case(schedule, point, (m, n, k), element, bias)


_SEEDS = st.integers(0, 2**32 - 1)


def knob_cases(valid: bool = True, within_limits: bool = True) -> st.SearchStrategy[Case]:
    """`draw_case` of a `Random` seeded by an integer hypothesis draws (its own choices
    would favour the first options: the 64 x 64 corner of every space; and its `randoms()`
    would repeat the first option forever in `draw_point`'s redraws)."""
    return _SEEDS.map(lambda seed: draw_case(random.Random(seed), valid, within_limits))


def draw_reduction_case(rnd: random.Random) -> ReductionCase:
    """A valid point of a reduction schedule drawn by `rnd` at odd rows (< 600) and odd
    columns, short (< 600) or long (600 to 5000: the regions for long rows)."""
    schedule = rnd.choice(REDUCTIONS)
    point = draw_point(rnd, schedule, valid=True)
    rows = 2 * rnd.randrange(MAX_SIZE // 2) + 1
    columns = 2 * rnd.choice([rnd.randrange(MAX_SIZE // 2), rnd.randrange(300, 2500)]) + 1
    return ReductionCase(schedule, point, (rows, columns))


def reduction_cases() -> st.SearchStrategy[ReductionCase]:
    """`draw_reduction_case` of a `Random` seeded by an integer hypothesis draws."""
    return _SEEDS.map(lambda seed: draw_reduction_case(random.Random(seed)))


_SPILLS = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")


def assert_clean_ptx(ptx: str, ptxas: Path, arch: str, case: object) -> None:
    """Each module of `ptx` (a kernel's PTX stage: one per gpu.binary) names no intrinsic
    LLVM does not know and assembles for `arch` without a C75xx warning; the tuner's
    `ptxas -v` check (for the study's arch) prunes it exactly when its registers spill."""
    modules = [m for m in re.split(r"(?=^//\n// Generated by LLVM NVPTX)", ptx, flags=re.M) if m]
    assert modules, case
    for module in modules:
        assert ".extern .func llvm.nvvm" not in module and not unknown_intrinsics(module), case
        log = ptxas_log(module, ptxas, arch)
        assert "C75" not in log, f"{case}\n{log}"
        spilled = [s for s in _SPILLS.findall(log) if s != ("0", "0")]
        limit = ptx_limits(module, OPTIONS.arch)
        assert ("registers spill" in limit) == bool(spilled), f"{case}\n{limit!r}\n{log}"


@settings(max_examples=12, derandomize=True)
@given(case=knob_cases())
def test_a_valid_point_compiles_to_clean_ptx(ptxas: Path, case: Case) -> None:
    ptx = case.compile().stages["ptx"]
    if case.schedule.wgmma:
        assert re.search(r"^\.target sm_90a\b", ptx, flags=re.M), case
        assert "wgmma.mma_async" in ptx, case
    else:
        assert "mma.sync.aligned.m16n8k16" in ptx, case
    assert_clean_ptx(ptx, ptxas, "sm_90a", case)


@settings(max_examples=8, derandomize=True)
@given(case=reduction_cases())
def test_a_reduction_point_compiles_to_clean_ptx_or_is_pruned(
    ptxas: Path, case: ReductionCase
) -> None:
    """The reduction schedules' regions have preconditions on the sizes (rows of a block
    dividing the rows, static pieces of the columns): a point whose precondition fails is
    a located error the tuner prunes (silenceable, or escalated at the entry point)."""
    try:
        kernel = case.compile()
    except TransformError as err:
        assert err.silenceable or err.escalated, f"{case}: {err.message}"
        assert err.message and err.location is not None, case
        return
    assert_clean_ptx(kernel.stages["ptx"], ptxas, "sm_90", case)


@settings(max_examples=25, derandomize=True)
@given(case=knob_cases(valid=False))
def test_an_invalid_point_is_a_located_diagnostic(case: Case) -> None:
    with pytest.raises(TransformError) as info:
        case.compile()
    assert info.value.message.startswith("constraint violated for params ("), case
    assert info.value.location is not None, case


@settings(max_examples=10, derandomize=True)
@given(case=knob_cases(within_limits=False))
def test_a_k_below_the_limit_is_a_located_diagnostic(case: Case) -> None:
    """K < 64: A's TMA box rows would be narrower than the 128 bytes of the swizzle."""
    with pytest.raises(TransformError) as info:
        case.compile()
    assert "box rows" in info.value.message, case
    assert info.value.location is not None, case


@pytest.mark.parametrize("schedule", SCHEDULES + REDUCTIONS, ids=lambda s: s.name)
def test_the_schedule_as_written_is_a_valid_point(
    schedule: TensorCoreSchedule | ReductionSchedule,
) -> None:
    """The tuner measures the schedule as written first: its selections are a point of the
    space that its constraints accept, in a space of more than one point."""
    space = problem(schedule).space
    default = space.default()
    assert default is not None and space.violation(default) is None, default
    assert space.raw_size > 1


def test_the_tuner_assembles_tensor_core_kernels_for_their_arch(ptxas: Path) -> None:
    """A wgmma kernel's PTX targets sm_90a; the tuner's compile worker assembled it for the
    study's sm_90, which ptxas rejects, so the candidate kept its PTX unchecked: its spills
    never pruned, the driver compiling it at load. Now the worker assembles it for sm_90a
    and embeds the cubin."""
    del ptxas  # the toolkit must be there (a skip elsewhere, a failure under CI)
    schedule = next(s for s in SCHEDULES if s.name == "matmul_f16_ring_cuda")
    case = Case(schedule, {"block_m": 64, "block_n": 128, "stages": 3}, (131, 72, 200), "f16")
    job = CompileJob(
        0, case.payload(), "<payload>", problem(schedule).render(case.point), None, OPTIONS
    )
    result = compile_candidate(job)
    assert result.status == "ok", result.message
    assert result.cubin and "ptxas" in result.stages
    assert assembly_arch(".version 8.0\n.target sm_90a\n", "sm_90") == "sm_90a"
    assert assembly_arch(".version 8.0\n.target sm_90\n", "sm_90") == "sm_90"
    assert assembly_arch("", "sm_80") == "sm_80"


SPILLING = [
    ("matmul_f16_cuda", {"producer_registers": 40, "consumer_registers": 232}, (129, 425, 245)),
    ("matmul_f16_ws_cuda", {"block_n": 256, "block_m": 64, "persistent": 2}, (391, 207, 417)),
]
"""Valid points that spilled when written (one consumer of 128 accumulator registers, a
persistent grid, a K of particular k steps): the first that still spills serves."""


def test_the_tuner_prunes_a_spilling_tensor_core_candidate(ptxas: Path) -> None:
    """The tuner's compile worker classifies a wgmma candidate by its sm_90a ptxas report:
    pruned with the report when its registers spill, so it is never measured, never
    picked (it was `ok`, unchecked, before the worker assembled for sm_90a, and then a
    `compile-error` of the worker itself)."""
    for name, knobs, size in SPILLING:
        schedule = next(s for s in SCHEDULES if s.name == name)
        default = problem(schedule).space.default()
        assert default is not None
        point = {**default, "consumers": 1, "block_m": 128, "block_n": 128, "stages": 4}
        point.update({"persistent": 132, **knobs})
        assert problem(schedule).space.violation(point) is None, point
        case = Case(schedule, point, size, "f16")
        log = ptxas_log(case.compile().stages["ptx"], ptxas, "sm_90a")
        if set(_SPILLS.findall(log)) != {("0", "0")}:
            break
    else:
        pytest.fail("no point of SPILLING spills any more: add one that does")
    rendered = problem(schedule).render(point)
    result = compile_candidate(CompileJob(0, case.payload(), "<payload>", rendered, None, OPTIONS))
    assert result.status == "pruned", (result.message, log)
    assert result.message.startswith("ptxas -v: registers spill ("), result.message


def test_the_tuner_prunes_a_serialized_wgmma_kernel(ptxas: Path) -> None:
    """A kernel whose wgmma ptxas serializes (C751x: correct, at a fraction of the speed)
    breaks a limit of the tuner's, as a spilling one does: pruned, never measured."""
    del ptxas  # the toolkit must be there: assemble_checked returns early without it
    serialized = (
        "ptxas info    : (C7515) Potential Performance Loss: wgmma.mma_async instructions "
        "are serialized due to the presence of Extern calls in the function 'k'.\n"
        "ptxas info    : Used 168 registers, 0 bytes spill stores, 0 bytes spill loads\n"
    )

    def run(command: list[str], **_: object) -> subprocess.CompletedProcess[str]:
        Path(command[command.index("-o") + 1]).write_bytes(b"\x7fELF")
        return subprocess.CompletedProcess(command, 0, "", serialized)

    cubin, limit = assemble_checked(".target sm_90a\n", OPTIONS.arch, run)
    assert cubin == b"\x7fELF"
    assert limit.startswith("ptxas -v: wgmma serialized (ptxas info    : (C7515)"), limit
