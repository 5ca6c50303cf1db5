"""The GPU schedules of schedules/ against PyTorch on the same device, in the same run.

    python benchmarks/cuda_schedules.py [--scale N] [--repeat R]

Each example payload of a `*_cuda.mlir` schedule is compiled for cuda (its shapes
multiplied by `--scale`, default 4, so the data is several times the L2), checked against
the reference on random inputs, and timed with CUDA events (L2 flushed before each run,
median of the repeats) next to the eager PyTorch version of the same computation. The
table gives milliseconds, the bytes the computation must move (inputs read once, outputs
written once) over the time, and GFLOP/s for the matmuls.
"""

from __future__ import annotations

import argparse
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

import schedir
from schedir import reference
from schedir.dialects import get_context
from schedir.dialects.syntax import parse_module
from schedir.dialects.types import entry_signature, find_entry
from schedir.gpu import time_function

ROOT = Path(__file__).resolve().parent.parent


def scaled_payload(path: Path, scale: int) -> str:
    """The payload text with every static dimension of its tensor types multiplied."""
    text = path.read_text()
    if scale == 1:
        return text

    def scale_type(match: re.Match[str]) -> str:
        dims = match.group(1).split("x")
        return "tensor<" + "x".join(str(int(d) * scale) for d in dims[:-1]) + "x" + dims[-1] + ">"

    text = re.sub(r"tensor<((?:\d+x)+f32)>", scale_type, text)
    # layernorm divides by the row length: keep the constant consistent with the shape.
    return re.sub(r"arith\.constant 999\.0 : f32", f"arith.constant {999 * scale}.0 : f32", text)


def torch_version(name: str, torch: object) -> Callable[..., object]:
    """The eager PyTorch computation of each example."""
    t = torch  # type: ignore[assignment]
    if name == "elementwise_cuda":
        return lambda a, b, c: t.tanh(a * b + c) * t.exp(-a)
    if name == "matmul_cuda":
        return lambda a, b: a @ b
    if name == "matmul_bias_relu_cuda":
        return lambda a, b, bias: t.relu(a @ b + bias)
    if name == "softmax_cuda":
        return lambda x: t.softmax(x, dim=1)
    if name == "layernorm_cuda":
        return lambda x, g, b: t.nn.functional.layer_norm(x, (x.shape[1],), g, b, eps=1e-5)
    raise KeyError(name)


def _rate(ms: float, nbytes: int, flops: float) -> str:
    """Milliseconds, GB/s of the minimal traffic and GFLOP/s (when `flops` is given)."""
    gbs = nbytes / ms / 1e6
    extra = f" {flops / ms / 1e6:8.1f} GFLOP/s" if flops else ""
    return f"{ms:8.3f} ms {gbs:7.1f} GB/s{extra}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    import torch

    torch.backends.cuda.matmul.allow_tf32 = False
    rows: list[str] = []
    for schedule in sorted((ROOT / "schedules").glob("*_cuda.mlir")):
        name = schedule.stem
        text = scaled_payload(ROOT / "examples" / schedule.name, args.scale)
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
            f.write(text)
        kernel = schedir.compile(f.name, schedule=schedule, target="cuda")
        module = parse_module(text, f.name, ctx=get_context())
        signature = entry_signature(find_entry(module, None))
        inputs = reference.random_inputs(signature, 1)
        expected = reference.evaluate(module, signature.name, inputs)
        (got,) = kernel.run(*inputs, prefill_nan=True)
        check = reference.compare(
            got, expected[0], np.dtype(np.float32), reference.reduction_length(module)
        )
        device = [torch.as_tensor(a, device="cuda") for a in inputs]
        bound = kernel.bind(*device)  # device inputs: no copies
        try:
            ours = time_function(bound, repeat=args.repeat)
        finally:
            bound.close()
        peer = torch_version(name, torch)
        theirs = time_function(lambda fn=peer, d=device: fn(*d), repeat=args.repeat)
        nbytes = sum(a.nbytes for a in inputs) + got.nbytes
        flops = 0.0
        if "matmul" in name:
            m, k = inputs[0].shape
            n = inputs[1].shape[1]
            flops = 2.0 * m * n * k
        shapes = "x".join(str(d) for d in inputs[0].shape)
        rows.append(
            f"{name:24s} {shapes:>11s}  check={'OK' if check.ok else 'MISMATCH'} "
            f"max_rel={check.max_rel_err:.1e}  schedir {_rate(ours.median_ms, nbytes, flops)} | "
            f"torch {_rate(theirs.median_ms, nbytes, flops)}"
        )
        print(rows[-1], flush=True)
    print("\n".join(["", "summary:", *rows]))


if __name__ == "__main__":
    main()
