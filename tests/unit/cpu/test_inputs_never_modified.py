"""A kernel never writes its caller's inputs (DESIGN.md, "Arguments").

A payload whose linalg op accumulates into a function argument (`outs(%C)`, no fill), under
a schedule that bufferizes with `bufferize_function_boundaries = true`, writes that
argument's buffer in place: the CPU executable must hand the function a private copy on
every entry point (`__call__`, `run`, `bind`, `benchmark`), so a second call gives the same
result and the caller's arrays stay byte-identical.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import schedir
from schedir import reference
from schedir.dialects.syntax import parse_module
from schedir.dialects.types import find_entry
from schedir.lowering.gpu import written_arguments
from tests.helpers import ANY, check_results, match, schedule_module

REPO = Path(__file__).parents[3]

ACCUMULATE = """
func.func @matmul_acc(%A: tensor<64x192xf32>, %B: tensor<192x128xf32>, %C: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %r = linalg.matmul ins(%A, %B : tensor<64x192xf32>, tensor<192x128xf32>)
                     outs(%C : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %r : tensor<64x128xf32>
}
"""


def _accumulating_schedule() -> str:
    """schedules/matmul_cpu.mlir without the fill (there is none: C + A * B)."""
    text = (REPO / "schedules" / "matmul_cpu.mlir").read_text()
    lines = text.splitlines()
    out = []
    skip = 0
    for line in lines:
        if skip:
            skip -= 1
            continue
        if "%fill" in line:  # the ops on the fill's handle
            skip = 1  # and its type line
            continue
        out.append(line)
    schedule = "\n".join(out)
    assert "%fill" not in schedule and "bufferize_function_boundaries = true" in schedule
    return schedule


def _inputs(seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [
        rng.uniform(-1, 1, shape).astype(np.float32) for shape in ((64, 192), (192, 128), (64, 128))
    ]


@pytest.fixture(scope="module")
def kernel() -> schedir.Kernel:
    return schedir.compile(ACCUMULATE, schedule=_accumulating_schedule())


def test_the_schedule_writes_the_accumulator_argument(kernel: schedir.Kernel) -> None:
    # The bufferized function writes %C in place: the analysis the executable relies on
    # must say so (and only that one).
    scheduled = parse_module(kernel.stages["scheduled"])
    assert written_arguments(find_entry(scheduled, "matmul_acc")) == [2]


def test_every_entry_point_leaves_inputs_unchanged(kernel: schedir.Kernel) -> None:
    inputs = _inputs(1)
    before = [a.tobytes() for a in inputs]
    expected = reference.evaluate_with_bounds(ACCUMULATE, None, inputs)
    first = kernel(*inputs)
    second = kernel(*inputs)
    np.testing.assert_array_equal(first, second)
    check_results([first], expected, [np.dtype(np.float32)])
    (third,) = kernel.run(*inputs, prefill_nan=True)
    np.testing.assert_array_equal(first, third)
    call = kernel.bind(*inputs)
    call()
    call()
    kernel.benchmark(*inputs, min_time=0.01, max_runs=5)
    assert [a.tobytes() for a in inputs] == before
    np.testing.assert_array_equal(kernel(*inputs), first)


def test_unknown_written_arguments_are_all_copied() -> None:
    # Built without the analysis (written=None), the executable copies every memref
    # argument: still correct, and still leaves the inputs alone.
    from schedir.cpu import CpuExecutable
    from schedir.options import CompileOptions

    kernel = schedir.compile(ACCUMULATE, schedule=_accumulating_schedule())
    executable = CpuExecutable.build(
        kernel.stages["llvm-ir"], kernel.signature, CompileOptions(), written=None
    )
    inputs = _inputs(2)
    before = [a.copy() for a in inputs]
    (once,) = executable.run(inputs)
    (twice,) = executable.run(inputs)
    np.testing.assert_array_equal(once, twice)
    for a, b in zip(inputs, before, strict=True):
        np.testing.assert_array_equal(a, b)


def test_without_the_copy_the_kernel_would_write_the_caller_array() -> None:
    # What the copies prevent (defect 1 of issue 14): told that nothing is written, the
    # executable passes %C in place and the caller's array changes.
    from schedir.cpu import CpuExecutable
    from schedir.options import CompileOptions

    kernel = schedir.compile(ACCUMULATE, schedule=_accumulating_schedule())
    executable = CpuExecutable.build(
        kernel.stages["llvm-ir"], kernel.signature, CompileOptions(), written=()
    )
    inputs = _inputs(3)
    before = inputs[2].copy()
    executable.run(inputs)
    assert not np.array_equal(inputs[2], before)


_ELEMENTWISE_BODIES = {
    "acc+x*y": ("%p = arith.mulf %x, %y : f32\n    %v = arith.addf %o, %p : f32", True),
    "acc*x-y": ("%p = arith.mulf %o, %x : f32\n    %v = arith.subf %p, %y : f32", True),
    "max(x,y)": ("%v = arith.maximumf %x, %y : f32", False),
    "exp(x)+y": ("%e = math.exp %x : f32\n    %v = arith.addf %e, %y : f32", False),
}


def _elementwise(shape: tuple[int, ...], body: str, into_argument: bool) -> str:
    """A generic over `shape` reading %a and %b, writing into %c (an argument) or an empty."""
    rank = len(shape)
    t = "tensor<" + "x".join(str(d) for d in shape) + "xf32>"
    dims = ", ".join(f"d{i}" for i in range(rank))
    identity = f"affine_map<({dims}) -> ({dims})>"
    iterators = ", ".join(['"parallel"'] * rank)
    init = "%c" if into_argument else "%init"
    empty = "" if into_argument else f"  %init = tensor.empty() : {t}\n"
    return f"""
func.func @ew(%a: {t}, %b: {t}, %c: {t}) -> {t} {{
{empty}  %r = linalg.generic {{indexing_maps = [{identity}, {identity}, {identity}], iterator_types = [{iterators}]}}
      ins(%a, %b : {t}, {t}) outs({init} : {t}) {{
  ^bb0(%x: f32, %y: f32, %o: f32):
    {body}
    linalg.yield %v : f32
  }} -> {t}
  return %r : {t}
}}
"""


def _bufferize_schedule(tile: list[int] | None) -> str:
    lines = ""
    if tile is not None:
        lines += match("%g", "linalg.generic")
        sizes = ", ".join(str(t) for t in tile)
        lines += (
            f"    %t, %loop = transform.structured.tile_using_forall %g tile_sizes [{sizes}]"
            f" : ({ANY}) -> ({ANY}, {ANY})\n"
        )
    lines += (
        "    %b = transform.bufferization.one_shot_bufferize %root"
        f" <{{bufferize_function_boundaries = true}}> : ({ANY}) -> {ANY}\n"
    )
    return lines


@settings(
    max_examples=12,  # Each case compiles a kernel: report a failure as found rather than shrink for minutes.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(
    shape=st.lists(st.integers(1, 9), min_size=1, max_size=3).map(tuple),
    body=st.sampled_from(sorted(_ELEMENTWISE_BODIES)),
    into_argument=st.booleans(),
    tiled=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_inputs_unchanged_for_random_payloads(
    shape: tuple[int, ...], body: str, into_argument: bool, tiled: bool, seed: int
) -> None:
    text, accumulates = _ELEMENTWISE_BODIES[body]
    into_argument = into_argument or accumulates
    payload = _elementwise(shape, text, into_argument)
    tile = [max(1, d // 2) for d in shape] if tiled else None
    module = schedule_module(payload, _bufferize_schedule(tile), consumed=True)
    kernel = schedir.compile(module)
    inputs = reference.random_inputs(kernel.signature, seed)
    before = [a.tobytes() for a in inputs]
    expected = reference.evaluate_with_bounds(payload, None, inputs)
    for _ in range(2):
        results = kernel.run(*inputs, prefill_nan=True)
        check_results(results, expected, [np.dtype(np.float32)], where=f"\n{module}")
    assert [a.tobytes() for a in inputs] == before


def test_verify_each_passes_every_step_of_the_accumulating_schedule(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Defect 1 made --verify-each-transform blame the op after the bufferization: the
    # step's kernel wrote the shared inputs, and every later step read clobbered data.
    schedir.compile(ACCUMULATE, schedule=_accumulating_schedule(), verify_each=True)
    err = capsys.readouterr().err
    steps = [line for line in err.splitlines() if line.startswith("verify-each: step")]
    assert any("one_shot_bufferize" in line and "results match" in line for line in steps)
    assert not any("results differ" in line for line in steps)
    assert err.strip().splitlines()[-1].startswith(f"verify-each: {len(steps)} steps, ")
