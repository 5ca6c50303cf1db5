"""Schedule (d): the vectorized matmul + bias + relu for the GPU, and its bufferization.

Reference schedule (d) (transform-inventory.md §2) tiles to blocks and threads, tiles k,
vectorizes, hoists the accumulator into a loop-carried vector, bufferizes the module with
`one_shot_bufferize` and maps to the GPU. As upstream, its bufferization allocates nothing
and copies nothing: every tensor becomes a view of an argument and the result is `%C`
itself. After the schedule (GPU mapping, CSE, canonicalization and
`fold_memref_alias_ops`) the kernel reads and writes the arguments directly, as in
upstream's output. Applied up to its bufferization step the payload computes what the
untransformed payload computes (on the CPU, where the foralls run as loops).
"""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation

import schedir
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module, print_op
from schedir.lowering import get_all_passes
from schedir.pipeline import strip_schedule
from schedir.transform.interpreter import InterpreterHooks, TransformInterpreter
from tests.helpers import check_kernel

SCHEDULES = Path(__file__).parents[2] / "data" / "reference_schedules"
NAME = "d_matmul_bias_relu_gpu_vectorized.mlir"
COUNTED = (
    "gpu.launch",
    "gpu.barrier",
    "scf.for",
    "vector.transfer_read",
    "vector.transfer_write",
    "vector.contract",
    "vector.broadcast",
    "memref.alloc",
    "memref.alloca",
    "memref.copy",
    "memref.subview",
)


def _schedule_file() -> Path:
    return SCHEDULES / NAME


class _Stop(Exception):
    """Ends the run right after the bufferization step."""


def _apply(text: str, *, stop_after_bufferization: bool) -> tuple[ModuleOp, str]:
    """Apply schedule (d); return the payload and its IR right after one_shot_bufferize."""
    ctx = get_context()
    module = parse_module(text, NAME, ctx=ctx)
    after: list[str] = []

    def hook(op: Operation, root: Operation) -> None:
        if op.name == "transform.bufferization.one_shot_bufferize":
            after.append(print_op(root))
            if stop_after_bufferization:
                raise _Stop

    interp = TransformInterpreter(
        ctx,
        module,
        module,
        passes=get_all_passes(),
        hooks=InterpreterHooks(after_top_level_op=hook),
    )
    with contextlib.suppress(_Stop):
        interp.run()
    assert after, "the schedule has no one_shot_bufferize step"
    strip_schedule(module)
    return module, after[0]


def _payload_functions(ir: str) -> str:
    """The payload part of a printed module (the schedule is printed after it)."""
    start = ir.index("func.func")
    end = ir.find("transform.named_sequence")
    return ir[start:] if end < 0 else ir[start:end]


def _counts(ir: str) -> Counter[str]:
    return Counter({name: len(re.findall(rf"\b{re.escape(name)}\b", ir)) for name in COUNTED})


def test_bufferization_allocates_and_copies_nothing() -> None:
    """Right after one_shot_bufferize: no tensors, no allocation, no copy; the function
    returns its output argument, as upstream."""
    _, bufferized = _apply(_schedule_file().read_text(), stop_after_bufferization=True)
    body = _payload_functions(bufferized)
    assert "tensor<" not in body, body
    assert "memref.alloc" not in body, body
    assert "memref.copy" not in body, body
    assert re.search(r"func\.return %C : memref<256x128xf32>", body), body
    # The accumulator is a loop-carried vector, the bias/relu epilogue a vector op chain.
    assert re.search(r"scf\.for .* iter_args\(.*\) -> \(vector<4x1xf32>\)", body), body


def test_full_schedule_matches_upstream_structure() -> None:
    """The whole schedule: one kernel over 4x4 blocks of 32x16 threads reading the
    arguments directly; the same op counts as upstream's output (iree-opt)."""
    module, _ = _apply(_schedule_file().read_text(), stop_after_bufferization=False)
    ir = print_op(module)
    assert "memref.alloc" not in ir and "memref.copy" not in ir, ir
    assert re.search(r"blocks\(.*\) in \(.* = %c4, .* = %c4, .* = %c1\)", ir), ir
    assert re.search(r"threads\(.*\) in \(.* = %c32, .* = %c16, .* = %c1\)", ir), ir
    assert re.search(r"vector\.transfer_read %A\[", ir), ir
    assert re.search(r"vector\.transfer_write %\w+, %C\[", ir), ir
    iree = shutil.which("iree-opt")
    assert iree is not None, "iree-opt (the upstream oracle, dev extra) is not installed"
    upstream = subprocess.run(
        [iree, "--transform-interpreter", str(_schedule_file())],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert upstream.returncode == 0, upstream.stderr
    assert _counts(_payload_functions(ir)) == _counts(_payload_functions(upstream.stdout))


def test_bufferized_schedule_d_computes_the_reference() -> None:
    """Schedule (d) up to and including bufferization, then compiled for the CPU (foralls
    as loops, vectors lowered for the host): the results are the reference's."""
    text = _schedule_file().read_text()
    module, _ = _apply(text, stop_after_bufferization=True)
    assert not any(isinstance(v.type, TensorType) for op in module.walk() for v in op.results)
    kernel = schedir.compile(module)
    check_kernel(kernel, text, seed=11, reduction=512)
