"""Which memory path gets a row softmax (and a matvec) of 8192^2 f32 closest to the copy
bandwidth on the GPU: hand-written kernels of benchmarks/memory_paths.cu timed beside torch's
copy_ and schedir's softmax schedule with benchmarks/gpu.py's method (L2 flushed before each
run, round robin, medians; gpu.py times the Triton and torch.compile peers).

    python3 benchmarks/memory_paths.py [--ptx DIR] [--repeat R]

The kernels are compiled with nvcc to PTX (sm_90a) into DIR where nvcc is found (or read from
DIR, built elsewhere: the device machine has no CUDA toolkit) and loaded by cupy through the
driver's JIT. Rows: time (ms), TB/s (bytes moved once), copy_'s time over the row's, the
relative error against a float64 reference, the range of the round medians.

Measured on the H200 (2026-11-29 03:53, one run of the same kernels and timer before they
were tidied into this script; copy_ 0.1293 ms = 4.15 TB/s): copy4 (flat, 256 threads) 0.1292;
a copy in softmax's layout (a row per block) 0.1340 with 512 threads, 0.1317 with 1024, persistent
(4 blocks of 512 per SM) 0.1387. Softmax: registers, a row per block, 512 threads 0.1335, 1024
0.1346; schedir's region 10 0.1328, its default (region 6) 0.1349, Triton 0.1327; persistent
software-pipelined (the next row's loads issued before this row's reductions) 0.1415-0.1560
(512 x 2 and x 4 per SM, 256 x 4 and x 8, 1024 x 1 and x 2); TMA rows (cp.async.bulk of a row
into shared memory, mbarrier): a row per block 0.1342, persistent with 2 or 3 stages
0.1434-0.1446, 4 bulk copies per row 0.1446, results bulk-stored from shared memory 0.1430.
matvec (copy_ 4.15 TB/s): a row per block of 1024 threads 0.0702 ms (3.83 TB/s, 0.92x copy),
512 0.0716, persistent 256 x 8 0.0720, 512 x 4 0.0747; schedir 512 threads 0.0744, 1024 0.0708.
No path moves a row faster than copy_ moves the matrix: at 8192^2 f32 softmax needs 4.29
TB/s for 0.125 ms, and the best copy of this GPU is 4.15. The persistent grids also pay
for 8192 rows not dividing into 132 SMs x k blocks (some blocks run one row more: ~3%).
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SOURCE = Path(__file__).with_suffix(".cu")
ROWS = COLS = 8192
ROW_BYTES = 4 * COLS

BUILDS: dict[str, tuple[str, ...]] = {
    "t256": ("-DNT=256",),
    "t512": ("-DNT=512",),
    "t1024": ("-DNT=1024",),
    "t512s1": ("-DNT=512", "-DSTAGES=1"),
    "t512s3": ("-DNT=512", "-DSTAGES=3"),
    "t256s3": ("-DNT=256", "-DSTAGES=3"),
    "t512ch4": ("-DNT=512", "-DCH=4"),
    "t512bulk": ("-DNT=512", "-DBULKST=1"),
}
"""PTX module name -> nvcc defines (memory_paths.cu's knobs; N is 8192)."""

PTX_VERSION = "8.0"
"""The PTX ISA version written into the modules: schedir's (sm_90 PTX 8.0), which the
device's driver JIT loads; nvcc 13 writes 9.0, and these kernels use nothing newer than 8.0."""


def build(out: Path, nvcc: str) -> list[Path]:
    """Compile memory_paths.cu to one PTX module per entry of BUILDS in `out`."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, defines in BUILDS.items():
        path = out / f"{name}.ptx"
        cmd = [nvcc, "-arch=sm_90a", "-ptx", "-O3", *defines, str(SOURCE), "-o", str(path)]
        subprocess.run(cmd, check=True)
        text = re.sub(
            r"^\.version \d+\.\d+", f".version {PTX_VERSION}", path.read_text(), flags=re.M
        )
        path.write_text(text)
        paths.append(path)
    return paths


def rel_err(got: Any, want: Any) -> float:
    """Relative L2 error of `got` against the float64 `want` (torch tensors)."""
    return float((got.double() - want).norm() / want.norm())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--ptx", type=Path, help="PTX directory (built here where nvcc is found)")
    parser.add_argument("--repeat", type=int, default=8, help="rounds of the round robin")
    args = parser.parse_args()
    ptx_dir = args.ptx or Path(tempfile.mkdtemp(prefix="memory_paths_"))
    nvcc = shutil.which("nvcc")
    if nvcc is not None:
        build(ptx_dir, nvcc)
    elif not all((ptx_dir / f"{name}.ptx").exists() for name in BUILDS):
        sys.exit(f"no nvcc and no PTX in {ptx_dir}: build it elsewhere with --ptx DIR")

    import cupy
    import numpy as np
    import torch

    import schedir

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import gpu as bench  # benchmarks/gpu.py: its softmax case (payload, sizes)

    sms = torch.cuda.get_device_properties(0).multi_processor_count
    modules: dict[str, Any] = {}

    def kernel(
        module: str, name: str, grid: int, block: int, smem: int, kargs: tuple[Any, ...]
    ) -> Callable[[], Any]:
        if module not in modules:
            modules[module] = cupy.RawModule(path=str(ptx_dir / f"{module}.ptx"))
        fn = modules[module].get_function(name)
        if smem > 48 * 1024:
            fn.max_dynamic_shared_size_bytes = smem
        return lambda: fn((grid,), (block,), kargs, shared_mem=smem)

    case = next(c for c in bench.cases(torch) if c.name == "softmax")
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as payload:
        payload.write(bench.resized(case.example, case.dims))
    softmax = schedir.compile(
        payload.name, schedule=ROOT / "schedules" / "softmax_cuda.mlir", target="cuda"
    )

    gen = torch.Generator(device="cuda").manual_seed(0)
    x = torch.rand((ROWS, COLS), device="cuda", generator=gen) * 4 - 1
    y, y_copy = torch.empty_like(x), torch.empty_like(x)
    cx, cy = cupy.asarray(x), cupy.asarray(y)
    rows = (cx, cy, np.int32(ROWS))
    flat = (cx, cy, np.int64(ROWS * COLS // 4))
    stage = ROW_BYTES
    copy_ = lambda: y_copy.copy_(x)  # noqa: E731
    paths: dict[str, Callable[[], Any]] = {
        "copy_": copy_,
        "copy4 flat": kernel("t256", "copy4", ROWS * COLS // 1024, 256, 0, flat),
        "copy rows 512": kernel("t512", "copy_rows", ROWS, 512, 0, rows),
        "copy rows 1024": kernel("t1024", "copy_rows", ROWS, 1024, 0, rows),
        "copy rows 512 p4": kernel("t512", "copy_rows", sms * 4, 512, 0, rows),
        "reg 512": kernel("t512", "smx_reg", ROWS, 512, 0, rows),
        "reg 1024": kernel("t1024", "smx_reg", ROWS, 1024, 0, rows),
        "pipe 512 p2": kernel("t512", "smx_pipe", sms * 2, 512, 0, rows),
        "pipe 256 p8": kernel("t256", "smx_pipe", sms * 8, 256, 0, rows),
        "pipe 1024 p2": kernel("t1024", "smx_pipe", sms * 2, 1024, 0, rows),
        "tma 512 s1 rows": kernel("t512s1", "smx_tma", ROWS, 512, stage, rows),
        "tma 512 s2 p3": kernel("t512", "smx_tma", sms * 3, 512, 2 * stage, rows),
        "tma 512 s3 p2": kernel("t512s3", "smx_tma", sms * 2, 512, 3 * stage, rows),
        "tma 256 s3 p2": kernel("t256s3", "smx_tma", sms * 2, 256, 3 * stage, rows),
        "tma 512 ch4 p3": kernel("t512ch4", "smx_tma", sms * 3, 512, 2 * stage, rows),
        "tma 512 bulkst p3": kernel("t512bulk", "smx_tma", sms * 3, 512, 2 * stage, rows),
    }
    want = torch.softmax(x.double(), dim=1)
    errors: dict[str, float] = {}
    for name, fn in paths.items():
        if not name.startswith("copy"):
            y.zero_()
            fn()
            errors[name] = rel_err(y, want)
    errors["schedir"] = rel_err(torch.as_tensor(softmax.run_device(x)[0], device="cuda"), want)
    del want
    start = time.perf_counter()  # from idle the clocks take a moment to ramp
    while time.perf_counter() - start < 1.5:
        copy_()
        torch.cuda.synchronize()
    launch = softmax.bind(x)
    try:
        report("softmax", {**paths, "schedir": launch}, errors, 2 * ROWS * COLS * 4, args.repeat)
    finally:
        launch.close()

    vec = torch.rand(COLS, device="cuda", generator=gen) + 0.5
    out = cupy.empty(ROWS, dtype=cupy.float32)
    mv = (cx, cupy.asarray(vec), out, np.int32(ROWS))
    matvec: dict[str, Callable[[], Any]] = {
        "copy_": copy_,
        "mv 512": kernel("t512", "mv_reg", ROWS, 512, 0, mv),
        "mv 1024": kernel("t1024", "mv_reg", ROWS, 1024, 0, mv),
        "mv 256 p8": kernel("t256", "mv_reg", sms * 8, 256, 0, mv),
        "mv 512 p4": kernel("t512", "mv_reg", sms * 4, 512, 0, mv),
    }
    want = x.double() @ vec.double()
    for name, fn in matvec.items():
        if name != "copy_":
            out.fill(0)
            fn()
            errors[name] = rel_err(torch.as_tensor(out, device="cuda"), want)
    report("matvec", matvec, errors, 4 * ROWS * COLS + 8 * ROWS, args.repeat)


def report(
    case: str,
    calls: dict[str, Callable[[], Any]],
    errors: dict[str, float],
    nbytes: int,
    rounds: int,
) -> None:
    """Time `calls` as benchmarks/gpu.py times a case's implementations (rounds of 5 runs
    each, L2 flushed before each run, the order rotated by one per round; a row's time is the
    median of its round medians) and print a row each."""
    from schedir.gpu import time_function

    names = list(calls)
    medians: dict[str, list[float]] = {name: [] for name in names}
    for round_ in range(rounds):
        shift = round_ % len(names)
        for name in names[shift:] + names[:shift]:
            timing = time_function(calls[name], warmup=3 if round_ == 0 else 1, repeat=5)
            medians[name].append(timing.median_ms)
    copy_ms = statistics.median(medians["copy_"])
    for name, times in medians.items():
        ms = statistics.median(times)
        print(
            f"{case:8s} {name:18s} {ms:.4f} ms {nbytes / ms / 1e9:5.2f} TB/s "
            f"{copy_ms / ms:.3f}x copy_ time  rel_err {errors.get(name, 0.0):.0e}  "
            f"rounds {min(times):.4f}-{max(times):.4f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
