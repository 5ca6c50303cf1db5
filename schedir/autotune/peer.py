"""The peer a tuned kernel is compared with: numpy on the CPU (single-threaded BLAS),
PyTorch (cuBLAS, TF32 off) on CUDA, for payloads whose entry is one matmul (with its
fill). Timed in a child process with the same protocol as the candidates (median of
repeats after a warm-up); None when the payload has no peer or the library is missing.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

_CPU = r"""
import json, statistics, sys, time
import numpy as np
d = np.load(sys.argv[1]); a, b = d["in_0"], d["in_1"]
a @ b
times = []
start = time.perf_counter()
while time.perf_counter() - start < float(sys.argv[2]) or len(times) < 5:
    t0 = time.perf_counter(); a @ b; times.append((time.perf_counter() - t0) * 1e3)
print(json.dumps(statistics.median(times)))
"""

_CUDA = r"""
import json, statistics, sys
import numpy as np, torch
torch.backends.cuda.matmul.allow_tf32 = False
d = np.load(sys.argv[1])
a = torch.from_numpy(d["in_0"]).cuda(); b = torch.from_numpy(d["in_1"]).cuda()
flush = torch.empty(256 * 1024 * 1024, dtype=torch.uint8, device="cuda")
for _ in range(3): a @ b
torch.cuda.synchronize()
times = []
for _ in range(50):
    flush.zero_()
    s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
    s.record(); a @ b; e.record(); torch.cuda.synchronize(); times.append(s.elapsed_time(e))
print(json.dumps(statistics.median(times)))
"""

_SINGLE_THREAD = {
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "BLIS_NUM_THREADS": "1",
}


@dataclass(frozen=True)
class PeerTime:
    name: str
    ms: float


def is_single_matmul(payload: ModuleOp) -> bool:
    """Whether the payload computes one 2-D matmul of its two arguments (a fill aside)."""
    from xdsl.dialects import func

    from schedir.dialects.linalg import FillOp, MatmulOp

    ops = [
        op
        for fn in payload.ops
        if isinstance(fn, func.FuncOp) and fn.body.blocks
        for op in fn.body.block.ops
        if op.dialect_name() == "linalg"
    ]
    matmuls = [op for op in ops if isinstance(op, MatmulOp)]
    return len(matmuls) == 1 and all(isinstance(op, MatmulOp | FillOp) for op in ops)


def peer_time(
    payload: ModuleOp,
    target: str,
    data: Path,
    env: Mapping[str, str] | None = None,
    device: int | None = None,
    min_time: float = 0.3,
) -> PeerTime | None:
    """The peer's median time on the reference inputs, or None."""
    if not is_single_matmul(payload):
        return None
    script, name = (_CPU, "numpy (1 thread)") if target == "cpu" else (_CUDA, "torch/cuBLAS")
    # `env NAME=VALUE ...` adds to the environment the child inherits (its PATH and
    # library paths): one BLAS thread, and on cuda only the measured device.
    settings = dict(_SINGLE_THREAD)
    if target == "cuda" and device is not None:
        settings["CUDA_VISIBLE_DEVICES"] = str(device)
    command = ["env", *(f"{k}={v}" for k, v in settings.items())]
    try:
        out = subprocess.run(
            [*command, sys.executable, "-c", script, str(data), str(min_time)],
            capture_output=True,
            text=True,
            timeout=300,
            env=dict(env) if env is not None else None,
            check=False,
        )
        if out.returncode != 0:
            return None
        ms = float(json.loads(out.stdout.strip().splitlines()[-1]))
        # No time rather than a non-finite one (the table prints numbers or reasons).
        return PeerTime(name, ms) if math.isfinite(ms) and ms > 0 else None
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return None


__all__ = ["PeerTime", "is_single_matmul", "peer_time"]
