"""How long the host takes per call of a compiled schedir GPU program, beside the device time
that benchmarks/gpu.py reports for it: the small odd-size cases (8191x1000, 32 MB: ~8 us at
copy rate) are timed between two CUDA events around one call, so when the host needs longer
to queue a call's launches (the JIT host code calling back into Python for the module, each
`cuLaunchKernel` and the partials' buffer) than the device needs to run them, the event
interval is the host's time, not the kernels'.

    python3 benchmarks/launch_overhead.py [--repeat N]

For each case: host microseconds per call (the median over calls queued back to back, no
synchronization in between), the CUDA-event median with the L2 flushed (as benchmarks/gpu.py
times it), and the launches per call.
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import time
from pathlib import Path

import schedir
from schedir.gpu import time_function

ROOT = Path(__file__).resolve().parents[1]

CASES = (
    ("colsum_odd", "colsum_cuda.mlir", {999: 8191, 1000: 1000}, (8191, 1000), 1, None),
    ("colsum_odd 2k", "colsum_cuda.mlir", {999: 8191, 1000: 1000}, (8191, 1000), 2, {"kernels": 2}),
    ("colsum", "colsum_cuda.mlir", {999: 8192, 1000: 8192}, (8192, 8192), 1, None),
    ("colsum 2k", "colsum_cuda.mlir", {999: 8192, 1000: 8192}, (8192, 8192), 2, {"kernels": 2}),
    (
        "colsum nxg",
        "colsum_cuda.mlir",
        {999: 8192, 1000: 8192},
        (8192, 8192),
        2,
        {"kernels": 2, "partials": 1},
    ),
    ("rowsum_odd", "rowsum_cuda.mlir", {1000: 8191, 999: 1000}, (8191, 1000), 1, {"threads": 4}),
)
"""(name, example and schedule file, example dims -> benchmark dims, input shape,
kernels launched per call, knobs)."""


def resized(text: str, dims: dict[int, int]) -> str:
    """`text` with every tensor dimension d replaced by `dims[d]`."""

    def one(found: re.Match[str]) -> str:
        shape = "x".join(str(dims.get(int(d), int(d))) for d in found.group(1).split("x"))
        return f"tensor<{shape}x{found.group(2)}>"

    return re.sub(r"tensor<((?:\d+x)*\d+)x(\w+)>", one, text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    import torch  # pyright: ignore[reportMissingImports]  # PyTorch is on the device machine only

    for name, example, dims, shape, launches, knobs in CASES:
        with tempfile.NamedTemporaryFile("w", suffix=".mlir") as f:
            f.write(resized((ROOT / "examples" / example).read_text(), dims))
            f.flush()
            kernel = schedir.compile(
                f.name,
                schedule=ROOT / "schedules" / example,
                target="cuda",
                knobs=knobs,
            )
        x = torch.rand(shape, device="cuda") + 0.5
        bound = kernel.bind(x)
        try:
            for _ in range(5):
                bound()
            torch.cuda.synchronize()
            host: list[float] = []
            for _ in range(args.repeat):
                start = time.perf_counter()
                bound()
                host.append((time.perf_counter() - start) * 1e6)
            torch.cuda.synchronize()
            device = time_function(bound, repeat=20).median_ms * 1e3
        finally:
            bound.close()
        print(
            f"{name:11s} host {statistics.median(host):7.1f} us/call  "
            f"events {device:7.1f} us  {launches} launches",
            flush=True,
        )


if __name__ == "__main__":
    main()
