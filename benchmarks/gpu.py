"""schedir's GPU schedules against PyTorch eager, torch.compile and Triton, in one run.

    python benchmarks/gpu.py [--repeat R] [--cases ew,softmax,matmul,mbr,layernorm,...]
                             [--variant matmul=my_schedule.mlir ...] [--rows none|LABEL,...]

Cases: ew, ew_odd (8191x1000), softmax, softmax_odd (8191x1000), softmax_f16, matmul, mbr,
layernorm, rowsum, rowsum_odd (8191x1000), colsum, colsum_odd (8191x1000), matvec, and the odd
cases' aligned companions ew_1024, softmax_1024, rowsum_1024, colsum_1024 (8192x1024: at the end
each odd case's bandwidth is given as a fraction of its companion's, per implementation, beside
the same fraction for torch's copy_), mm_smem (4096^3 f32 with
matmul_smem_cuda.mlir and rows for its candidate knob points; only when named), and the tensor-core
matmuls mm_f16, mm_bf16 (4096^3) and mm_f16_8k, mm_bf16_8k (8192^3; f16/bf16 in, f32
accumulation, f16/bf16 out: the default warp-specialized schedules, the conversion fused
into the accumulators' store; cuBLAS and Triton's tutorial matmul write the input type
too), mm_f16_odd (4095x4097x4096: edge tiles; B's rows, 8194 bytes, staged for TMA; also
"store 0", "persistent 0", both, and 256x128 blocks on 3 stages: 528 tiles, 4 per block),
mm_f16_f16out (4096^3, the one-warpgroup ring schedule with the f16-out store) and mbr_f16
(4096^3 relu(A * B + bias), f16 bias and out: the epilogue fused into the warp-specialized
kernel's store, beside torch eager, torch.compile, its max-autotune-no-cudagraphs mode
("compile-mat") and Triton's tutorial matmul with the epilogue fused) (all by default). Triton
peers (tutorial style) for all but softmax_f16: the row sums and matvec one program per
row, the column sums chunks of 256 rows x 256 columns added with atomics.

Each case compiles an example payload of examples/ (resized to the benchmark shape) with
its schedule of schedules/ for cuda, checks every implementation against a float64
PyTorch reference on the same random inputs (relative L2 error), and times them all with
the same CUDA-event timer (warm-up, L2 flushed before each run), interleaved: `--repeat`
rounds, each timing every implementation of the case (schedir's kernels and the peers)
5 runs back to back and keeping their median, the order rotated by one each round (round
robin: clock and thermal drift, and the work just before, hit all alike); a row's time is
the median of its rounds, its `rounds` the range of the round medians (the spread: a wide
one says the device was not steady).
TB/s counts the bytes the computation must move (inputs read once, outputs written once);
the device's copy bandwidth (torch's `copy_` of 8192^2 floats, timed the same way, first
line) is the yardstick of the memory-bound cases: their schedir line also gives the
fraction of it they reach;
TFLOP/s is given for the matmuls. The f32 matmuls run with TF32 off everywhere (cuBLAS:
`allow_tf32 = False`; Triton: `tl.dot(..., input_precision="ieee")`). The last column is
the time of the peer over schedir's (above 1: schedir is faster). The row schedules
(softmax, softmax_f16, layernorm) also time the other regions of their "threads" knob
(rows in registers, the chunked schedule, softmax's and layernorm's other unrolled chunks
in registers) as further rows, and
rowsum and matvec their region of vectorized pieces ("pieces"); rowsum (default: a row
per 512-thread block) also its warp regions with 1, 4 and 8 rows per block (rowsum_odd's
main row is the warp region with one row per block);
matvec also its 256-, 512- and 1024-thread regions; softmax's rows are its default, the region
by row length (a row per warp at softmax_odd's and softmax_1024's 1000 and 1024 columns,
chunks of four floats with 512 threads at 8192); colsum (default: one kernel) also times its other strip
shapes and its two-kernel schedule's "blocks", "threads" and "row_step" values; the default tensor-core matmuls time their other knob values (raster
groups of 1 and 16, 3 stages, 256x128 blocks, one consumer, the stores from registers, a
block per tile, a persistent grid of one consumer: "raster 1", ..., "store 0",
"store 128 3 stages", "store 256 3 stages", "persistent 0", "1x128x128 persistent 132";
mbr_f16 "store 0", "store 128 3 stages", "store 256 3 stages", "persistent 0 store 0",
"persistent 66", "persistent 264", "raster 8", "3 stages" and one consumer too; both the
chunks stored out by TMA, "tma 2", "tma 1", "tma 4 3 stages", "tma 2 warp", "tma 1 warp", and
the staging buffers written by stmatrix, "stmatrix", "tma 4 3 stages stmatrix") and the one-warpgroup ring schedule with the same epilogue ("ring 128x128 3st", "ring 64x256 4st").
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import schedir
from schedir.gpu import time_function

ROOT = Path(__file__).resolve().parent.parent


def resized(example: str, dims: dict[int, int]) -> str:
    """The example payload with the dimensions of its tensor types (and the row length of
    layernorm's mean) replaced as `dims` says."""
    text = (ROOT / "examples" / example).read_text()

    def one(match: re.Match[str]) -> str:
        parts = match.group(1).split("x")
        shape = "x".join(str(dims.get(int(d), int(d))) for d in parts)
        return f"tensor<{shape}x{match.group(2)}>"

    text = re.sub(r"tensor<((?:\d+x)*\d+)x(f32|f16|bf16)>", one, text)
    for old, new in dims.items():
        text = text.replace(f"arith.constant {old}.0 : f32", f"arith.constant {new}.0 : f32")
    return text


@dataclass
class Case:
    name: str
    example: str
    dims: dict[int, int]
    shapes: list[tuple[int, ...]]
    torch_fn: Callable[..., Any]
    nbytes: int
    flops: float = 0.0
    triton_fn: Callable[..., Any] | None = None
    half: bool = False
    """f16 inputs (the others are f32)."""
    bfloat16: bool = False
    """bf16 inputs."""
    bandwidth_bound: bool = False
    """Compare schedir's rate with the device's copy bandwidth."""
    knob_variants: dict[str, dict[str, int]] = field(default_factory=dict)
    """Further rows of schedir: the same schedule with these knobs (name -> knobs)."""
    knobs: dict[str, int] | None = None
    """The knobs of the main schedir row (None: the schedule's selected values)."""
    schedule_variants: dict[str, tuple[str, dict[str, int]]] = field(default_factory=dict)
    """Further rows of schedir: another schedule of schedules/ with these knobs (name ->
    (schedule, knobs))."""
    max_autotune: bool = False
    """Also time torch.compile(mode="max-autotune-no-cudagraphs") (a row "compile-mat")."""
    aligned: str = ""
    """For an odd-size case: the case of the same schedule and knobs at the nearest aligned
    shape (8192x1024 for 8191x1000), whose bandwidth each implementation's is compared with
    at the end (the issue's "within 10% of the aligned size's bandwidth": the shapes are
    alike in bytes, so launch and ramp-up weigh the same on both)."""


def _triton_kernels() -> dict[str, Callable[..., Any]]:
    """Small Triton kernels for the cases (tutorial style); {} when Triton is missing."""
    try:
        import torch
        import triton
        import triton.language as tl
    except ImportError:
        return {}

    @triton.jit
    def chain_kernel(a_ptr, b_ptr, c_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        a = tl.load(a_ptr + offs, mask=mask)
        b = tl.load(b_ptr + offs, mask=mask)
        c = tl.load(c_ptr + offs, mask=mask)
        s = a * b + c
        th = 2.0 * tl.sigmoid(2.0 * s) - 1.0
        tl.store(y_ptr + offs, th * tl.exp(-a), mask=mask)

    def chain(a: Any, b: Any, c: Any) -> Any:
        y = torch.empty_like(a)
        n = a.numel()
        chain_kernel[(triton.cdiv(n, 4096),)](a, b, c, y, n, BLOCK=4096, num_warps=8)
        return y

    @triton.jit
    def softmax_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
        row = tl.program_id(0).to(tl.int64)
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf"))
        e = tl.exp(x - tl.max(x, axis=0))
        tl.store(y_ptr + row * n_cols + cols, e / tl.sum(e, axis=0), mask=mask)

    def softmax(x: Any) -> Any:
        y = torch.empty_like(x)
        block = triton.next_power_of_2(x.shape[1])
        softmax_kernel[(x.shape[0],)](x, y, x.shape[1], BLOCK=block, num_warps=16)
        return y

    @triton.jit
    def layernorm_kernel(x_ptr, g_ptr, b_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
        row = tl.program_id(0).to(tl.int64)
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
        mean = tl.sum(x, axis=0) / n_cols
        d = tl.where(mask, x - mean, 0.0)
        rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / n_cols + eps)
        g = tl.load(g_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        tl.store(y_ptr + row * n_cols + cols, d * rstd * g + b, mask=mask)

    def layernorm(x: Any, g: Any, b: Any) -> Any:
        y = torch.empty_like(x)
        block = triton.next_power_of_2(x.shape[1])
        layernorm_kernel[(x.shape[0],)](x, g, b, y, x.shape[1], 1e-5, BLOCK=block, num_warps=16)
        return y

    @triton.jit
    def matmul_kernel(
        a_ptr, b_ptr, bias_ptr, c_ptr, M, N, K,
        BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP: tl.constexpr,
        EPILOGUE: tl.constexpr,
    ):  # fmt: skip
        pid = tl.program_id(0)
        grid_m = tl.cdiv(M, BM)
        grid_n = tl.cdiv(N, BN)
        group = pid // (GROUP * grid_n)
        first_m = group * GROUP
        size_m = min(grid_m - first_m, GROUP)
        pid_m = first_m + (pid % size_m)
        pid_n = (pid % (GROUP * grid_n)) // size_m
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
        b_ptrs = b_ptr + rk[:, None] * N + rn[None, :]
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BK)):
            a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BK), other=0.0)
            b = tl.load(b_ptrs, mask=(rk[:, None] < K - k * BK) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(a, b, acc, input_precision="ieee")
            a_ptrs += BK
            b_ptrs += BK * N
        if EPILOGUE:
            acc = tl.maximum(acc + tl.load(bias_ptr + rn, mask=rn < N)[None, :], 0.0)
        mask = (rm[:, None] < M) & (rn[None, :] < N)
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=mask)

    def matmul(a: Any, b: Any, bias: Any = None) -> Any:
        m, k = a.shape
        n = b.shape[1]
        c = torch.empty((m, n), device=a.device, dtype=a.dtype)
        grid = (triton.cdiv(m, 128) * triton.cdiv(n, 128),)
        matmul_kernel[grid](
            a, b, bias if bias is not None else c, c, m, n, k,
            BM=128, BN=128, BK=32, GROUP=8, EPILOGUE=bias is not None,
            num_warps=8, num_stages=3,
        )  # fmt: skip
        return c

    @triton.jit
    def rowsum_kernel(x_ptr, v_ptr, y_ptr, n_cols, HAS_V: tl.constexpr, BLOCK: tl.constexpr):
        row = tl.program_id(0).to(tl.int64)
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for start in range(0, n_cols, BLOCK):
            cols = start + tl.arange(0, BLOCK)
            mask = cols < n_cols
            a = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
            if HAS_V:
                a = a * tl.load(v_ptr + cols, mask=mask, other=0.0)
            acc += a
        tl.store(y_ptr + row, tl.sum(acc, axis=0))

    def rowsum(x: Any) -> Any:
        y = torch.empty(x.shape[0], device=x.device, dtype=x.dtype)
        rowsum_kernel[(x.shape[0],)](x, x, y, x.shape[1], HAS_V=False, BLOCK=2048, num_warps=8)
        return y

    def matvec(a: Any, v: Any) -> Any:
        y = torch.empty(a.shape[0], device=a.device, dtype=a.dtype)
        rowsum_kernel[(a.shape[0],)](a, v, y, a.shape[1], HAS_V=True, BLOCK=2048, num_warps=8)
        return y

    @triton.jit
    def colsum_kernel(
        x_ptr, y_ptr, n_rows, n_cols,
        ROWS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
    ):  # fmt: skip
        # A chunk of ROWS rows by BLOCK_N columns per program, added into y atomically.
        cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
        first = tl.program_id(1).to(tl.int64) * ROWS
        acc = tl.zeros([BLOCK_N], dtype=tl.float32)
        for r in range(0, ROWS, BLOCK_M):
            rows = first + r + tl.arange(0, BLOCK_M)
            mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
            tile = tl.load(x_ptr + rows[:, None] * n_cols + cols[None, :], mask=mask, other=0.0)
            acc += tl.sum(tile, axis=0)
        tl.atomic_add(y_ptr + cols, acc, mask=cols < n_cols)

    def colsum(x: Any) -> Any:
        n_rows, n_cols = x.shape
        y = torch.zeros(n_cols, device=x.device, dtype=x.dtype)
        grid = (triton.cdiv(n_cols, 256), triton.cdiv(n_rows, 256))
        colsum_kernel[grid](
            x, y, n_rows, n_cols, ROWS=256, BLOCK_M=32, BLOCK_N=256, num_warps=8
        )  # fmt: skip
        return y

    # Triton's tutorial matmul (03-matrix-multiplication: grouped tile order, autotuned
    # over its configurations for f16), f32 accumulators written as f32 as schedir does.
    @triton.autotune(
        configs=[
            triton.Config({"BM": 128, "BN": 256, "BK": 64, "G": 8}, num_stages=3, num_warps=8),
            triton.Config({"BM": 64, "BN": 256, "BK": 32, "G": 8}, num_stages=4, num_warps=4),
            triton.Config({"BM": 128, "BN": 128, "BK": 32, "G": 8}, num_stages=4, num_warps=4),
            triton.Config({"BM": 128, "BN": 64, "BK": 32, "G": 8}, num_stages=4, num_warps=4),
            triton.Config({"BM": 128, "BN": 128, "BK": 64, "G": 8}, num_stages=4, num_warps=8),
        ],
        key=["M", "N", "K", "EPILOGUE"],
    )
    @triton.jit
    def tc_matmul_kernel(
        a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
        BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, G: tl.constexpr,
        EPILOGUE: tl.constexpr,
    ):  # fmt: skip
        pid = tl.program_id(0)
        num_m, num_n = tl.cdiv(M, BM), tl.cdiv(N, BN)
        group = pid // (G * num_n)
        first_m = group * G
        size_m = min(num_m - first_m, G)
        pid_m = first_m + (pid % (G * num_n)) % size_m
        pid_n = (pid % (G * num_n)) // size_m
        offs_m = (pid_m * BM + tl.arange(0, BM)) % M
        offs_n = (pid_n * BN + tl.arange(0, BN)) % N
        offs_k = tl.arange(0, BK)
        a_ptrs = a_ptr + offs_m[:, None] * sam + offs_k[None, :] * sak
        b_ptrs = b_ptr + offs_k[:, None] * sbk + offs_n[None, :] * sbn
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BK)):
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
            acc = tl.dot(a, b, acc)
            a_ptrs += BK * sak
            b_ptrs += BK * sbk
        cm = pid_m * BM + tl.arange(0, BM)
        cn = pid_n * BN + tl.arange(0, BN)
        c_ptrs = c_ptr + cm[:, None] * scm + cn[None, :] * scn
        if EPILOGUE:
            # mbr_f16: bias (by column) and relu on the accumulators, stored as f16
            bias = tl.load(bias_ptr + cn, mask=cn < N, other=0.0).to(tl.float32)
            acc = tl.maximum(acc + bias[None, :], 0.0)
        tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(cm[:, None] < M) & (cn[None, :] < N))

    def tc_matmul(a: Any, b: Any, bias: Any = None, out: Any = None) -> Any:
        m, k = a.shape
        n = b.shape[1]
        out = out or (torch.float32 if bias is None else a.dtype)
        c = torch.empty((m, n), device=a.device, dtype=out)
        grid = lambda meta: (triton.cdiv(m, meta["BM"]) * triton.cdiv(n, meta["BN"]),)  # noqa: E731
        tc_matmul_kernel[grid](
            a, b, c, a if bias is None else bias, m, n, k, a.stride(0), a.stride(1),
            b.stride(0), b.stride(1), c.stride(0), c.stride(1), EPILOGUE=bias is not None,
        )  # fmt: skip
        return c

    return {
        # the default schedules write the input type, as cuBLAS does
        "mm_f16": lambda a, b: tc_matmul(a, b, out=a.dtype),
        "mm_f16_8k": lambda a, b: tc_matmul(a, b, out=a.dtype),
        "mm_bf16": lambda a, b: tc_matmul(a, b, out=a.dtype),
        "mm_bf16_8k": lambda a, b: tc_matmul(a, b, out=a.dtype),
        "mm_f16_odd": lambda a, b: tc_matmul(a, b, out=a.dtype),
        "mbr_f16": tc_matmul,
        "rowsum": rowsum,
        "rowsum_odd": rowsum,
        "rowsum_1024": rowsum,
        "colsum": colsum,
        "colsum_odd": colsum,
        "colsum_1024": colsum,
        "matvec": matvec,
        "ew": chain,
        "ew_odd": chain,
        "ew_1024": chain,
        "softmax": softmax,
        "softmax_odd": softmax,
        "softmax_1024": softmax,
        "layernorm": layernorm,
        "matmul": matmul,
        "mbr": matmul,
    }


_THREADS_VARIANTS = {
    "threads=256": {"threads": 0},
    "threads=1024": {"threads": 2},
    "chunks": {"threads": 3},
}
_ROW_VARIANTS = {
    **_THREADS_VARIANTS,
    "threads=512": {"threads": 1},
    "warps": {"threads": 4},
    "regs 1024": {"threads": 7},
    "regs 128": {"threads": 8},
}
_SOFTMAX_VARIANTS = {
    **_ROW_VARIANTS,
    "regs 512": {"threads": 5},
    "regs 256": {"threads": 6},
    "v4 256": {"threads": 9},
}
_LAYERNORM_VARIANTS = {**_ROW_VARIANTS, "regs 512": {"threads": 5}, "regs 256": {"threads": 6}}
"""softmax's and layernorm's other regions of the "threads" knob: contiguous pieces in registers
with 256, 512 or 1024 threads, the chunked schedule, a row per warp, and the chunks in
registers (the chunk loops unrolled, the row read once, coalesced) with 128, 256, 512 or 1024
threads, softmax's chunks of four floats with 256 threads; the default rows are softmax's
region by row length ("threads" = 11: at 8192 columns its chunks of four floats with 512
threads, region 10) and layernorm's chunks of four floats with 512 threads (region 9)."""


_COLSUM_VARIANTS = {
    "blocks=256": {"kernels": 2, "blocks": 1},
    "blocks=512": {"kernels": 2, "blocks": 2},
    "threads=256": {"kernels": 2, "threads": 0},
    "threads=1024": {"kernels": 2, "threads": 2},
    "blocks=256 threads=256": {"kernels": 2, "blocks": 1, "threads": 0},
    "row_step=4": {"kernels": 2, "row_step": 4},
    "row_step=16": {"kernels": 2, "row_step": 16},
    "blocks=256 row_step=16": {"kernels": 2, "blocks": 1, "row_step": 16},
    "2d": {"kernels": 2, "grid": 1},
    "2d threads=256": {"kernels": 2, "grid": 1, "threads": 0},
    "2d blocks=256": {"kernels": 2, "grid": 1, "blocks": 1},
    "2d row_step=16": {"kernels": 2, "grid": 1, "row_step": 16},
    "nxg": {"kernels": 2, "partials": 1},
    "nxg threads=1024": {"kernels": 2, "partials": 1, "threads": 2},
    "two kernels": {"kernels": 2},
    "one 32x64 row_step=16": {"kernels": 1, "row_step": 16},
    "one 32x128": {"kernels": 1, "strip": 1},
    "one 16x128": {"kernels": 1, "strip": 2},
    "one 16x64": {"kernels": 1, "strip": 3},
}
"""colsum's other knob values: row chunks G ("blocks": 128 selected, 256, 512), threads per
block of the row-chunk kernel ("threads": 256, 512 selected, 1024), rows per vector step
("row_step": 8 selected) and, where G divides the rows (G x N partials), the row-chunk
kernel's grid ("grid": 0 selected, G blocks walking the column chunks; 1 ("2d"), a block
per row chunk and column chunk of 4T, where 4T divides the columns); "nxg" ("partials" = 1) is
the N x G schedule at the same size (the one odd row counts get), for the comparison in one
run, all with "kernels" = 2 ("two kernels": the two-kernel default); the default row and "one
W x R" ("strip") are the one-kernel schedule, a block per strip of W columns with R row groups
(R x W partials in shared memory)."""

_COLSUM_ODD_VARIANTS = {
    **{
        name: knobs
        for name, knobs in _COLSUM_VARIANTS.items()
        if not {"grid", "partials", "strip"} & knobs.keys() and knobs.get("kernels") != 1
    },
    "blocks=512 threads=256": {"kernels": 2, "blocks": 2, "threads": 0},
    "blocks=512 threads=256 row_step=4": {"kernels": 2, "blocks": 2, "threads": 0, "row_step": 4},
    "0b unroll 16": {"steps_unroll": 1},
    "0b 128 rows": {"strip_rows": 0},
}
"""At 8191x1000 the default's one chunk of 2048 columns leaves 250 of its 512 threads busy in
each of G = 128 blocks (under one block per SM); 256 threads (250 busy) in 512 row chunks put
about 4 blocks on every SM, for 2 MB of partials against the 32 MB read (H200: 0.067 ms, no
faster than the default's 0.066; threads=256 alone 0.052), all with "kernels" = 2; the default
row is now the one-kernel schedule of strips of 8 columns (region 0b: any row count, 125
blocks of 512 threads at 8191x1000, 256 rows per step), "0b ..." its knobs (the step loop
unrolled by 16; 128 rows per step in blocks of 256 threads: 0.030 ms against 0.024 in the
01:28 run)."""

_WARPS = {"threads": 4}
"""rowsum's region of a row per warp (short rows: rowsum_odd's main row)."""

_DEFAULT_VARIANTS = {
    "raster 1": {"raster_group": 1},
    "raster 16": {"raster_group": 16},
    "3 stages": {"stages": 3},
    "2x128x128 4st": {"block_m": 256, "block_n": 128},
    "1x128x128 4st": {"consumers": 1, "block_n": 128},
    "store 0": {"store_columns": 0},
    "store 128 3 stages": {"store_columns": 128, "stages": 3},
    "store 256 3 stages": {"store_columns": 256, "stages": 3},
    "persistent 0": {"persistent": 0},
    "persistent 0 store 0": {"persistent": 0, "store_columns": 0},
    # A persistent grid of one consumer warpgroup (the default two: --variant schedules).
    "1x128x128 persistent 132": {"persistent": 132, "consumers": 1, "block_n": 128},
    "1x128x128 persistent 132 raster 16": {
        "persistent": 132,
        "consumers": 1,
        "block_n": 128,
        "raster_group": 16,
    },
    # The chunks stored out by TMA through 2 (1) swizzled buffers per consumer, in boxes
    # of the consumer's 64 rows or of each warp's 16 (no warpgroup barrier).
    "tma 2": {"tma_buffers": 2},
    "tma 1": {"tma_buffers": 1},
    "tma 4 3 stages": {"tma_buffers": 4, "stages": 3},
    "tma 2 warp": {"tma_buffers": 2, "tma_box_rows": 16},
    "tma 1 warp": {"tma_buffers": 1, "tma_box_rows": 16},
    # The staging buffer written by stmatrix (four 8x8 matrices an instruction).
    "stmatrix": {"stmatrix": 1},
    "tma 4 3 stages stmatrix": {"tma_buffers": 4, "stages": 3, "stmatrix": 1},
    # Ping-pong: each consumer a whole 128x128 tile, taking turns (one's store under the
    # other's MMAs).
    "pingpong 128x128": {"pingpong": 1, "block_n": 128},
    "pingpong 128x128 5 stages": {"pingpong": 1, "block_n": 128, "stages": 5},
    "pingpong 128x128 raster 16": {"pingpong": 1, "block_n": 128, "raster_group": 16},
    "pingpong 64x256": {"pingpong": 1, "block_m": 64},
    "pingpong 64x256 5 stages": {"pingpong": 1, "block_m": 64, "stages": 5},
    # 256x128 blocks (two consumers of 128x128; 3 stages fit beside the staging).
    "256x128 3 stages": {"block_m": 256, "block_n": 128, "stages": 3},
    # Staggered consumers: consumer 1 starts 1-3 k steps behind consumer 0.
    "stagger 1": {"stagger": 1},
    "stagger 2": {"stagger": 2},
    "stagger 3": {"stagger": 3},
}
"""The default tensor-core schedules' (matmul_f16_cuda.mlir, matmul_bf16_cuda.mlir:
warp-specialized, two consumer warpgroups of 64x256 rows, 4 stages, raster groups of 8
rows of tiles, a persistent grid of 132 blocks, the accumulators stored through shared memory
in chunks of 64 columns, f16/bf16 out) other knob values: raster groups of 1 (the launch's
order) and 16, 3 stages, 256x128 blocks, one consumer on 128x128, the stores from registers
(store 0), in chunks of 128 and 256 columns (their buffers fit beside 3 stages, not 4),
a block per tile (persistent 0), both (the selection before 2026-11-29), and one consumer
on a persistent grid in raster groups of 8 and 16; the TMA-stored and stmatrix staging;
ping-pong consumers on 128x128 tiles (4 and 5 stages, raster groups of 8 and 16) and on
64x256 tiles (4 and 5 stages); consumer 1 starting 1, 2 or 3 k steps behind consumer 0
(stagger)."""

_MBR_ONLY = {
    "persistent 66": {"persistent": 66},
    "persistent 264": {"persistent": 264},
    "raster 8": {"raster_group": 8},
}
"""mbr_f16's rows beside the wgmma matmuls' (the persistent grid's size, raster groups of 8)."""

_MBR_VARIANTS = {
    name: {**_DEFAULT_VARIANTS, **_MBR_ONLY}[name]
    for name in (
        "store 0",
        "store 128 3 stages",
        "store 256 3 stages",
        "persistent 0 store 0",
        "persistent 66",
        "persistent 264",
        "raster 8",
        "3 stages",
        "1x128x128 persistent 132",
        "tma 2",
        "tma 1",
        "tma 4 3 stages",
        "tma 2 warp",
        "tma 1 warp",
        "stmatrix",
        "tma 4 3 stages stmatrix",
        "pingpong 128x128",
        "pingpong 128x128 5 stages",
        "pingpong 128x128 raster 16",
        "pingpong 64x256",
        "pingpong 64x256 5 stages",
        "stagger 1",
        "stagger 2",
        "stagger 3",
        "256x128 3 stages",
    )
}
"""mbr_f16's rows: those of the wgmma matmuls (`_DEFAULT_VARIANTS`) that apply to its
schedule (raster groups of 16 and a persistent grid are its selection) and `_MBR_ONLY`."""


_RING_VARIANTS = {
    "ring 128x128 3st": ("matmul_f16_f16out_cuda.mlir", {}),
    "ring 64x256 4st": (
        "matmul_f16_f16out_cuda.mlir",
        {"block_m": 64, "block_n": 256, "stages": 4},
    ),
}
"""The one-warpgroup TMA-ring schedule with the same f16/bf16-out epilogue (the earlier
rungs; schedules/matmul_f16_ring_cuda.mlir writes f32)."""

_MATVEC_VARIANTS = {
    "threads=256": {"threads": 0},
    "threads=512": {"threads": 1},
    "threads=1024": {"threads": 2},
    "pieces": {"threads": 3},
    "warps": {"threads": 4},
}
"""matvec's other regions: a row per block of 256 or 1024 threads, contiguous vectorized
pieces per thread (512 threads), a row per warp (one-warp blocks, 16-byte loads of the row
and of x); the default row is a row per 512-thread block, each thread owning 4 adjacent
floats of each chunk of 2048 (region 5)."""

_ROWSUM_VARIANTS = {
    "warps": {"threads": 4},
    "pieces": {"threads": 3},
    "warps x4": {"threads": 5},
    "warps x8": {"threads": 6},
}
"""rowsum's other regions: a row per warp with 1, 4 or 8 rows per block, vectorized pieces
per thread; the default row is a row per 512-thread block (chunks)."""

_ROWSUM_ODD_VARIANTS = {"threads=512": {"threads": 1}, "pieces": {"threads": 3}}
"""At 8191 rows only one row per block divides the rows (the warp regions' R must); the
main row of rowsum_odd is the region of a row per warp (`_WARPS`), the short rows' one."""


_SMEM_WIDE = {"block_m": 64, "block_n": 256, "block_k": 32, "thread_n": 32, "copy_a_k": 8}
_SMEM_VARIANTS = {
    "k16 one piece": {"block_k": 16, "copy_a_k": 4, "split_n": 1},
    "k16": {"block_k": 16, "copy_a_k": 4},
    "one piece": {"split_n": 1},
    "raster=8": {"raster_group": 8},
    "64x256x32": {**_SMEM_WIDE, "copy_b_n": 64},
    "128x256x16 tn32 mb1": {
        "block_n": 256,
        "block_k": 16,
        "copy_a_k": 4,
        "thread_n": 32,
        "min_blocks": 1,
    },
}
"""matmul_smem_cuda.mlir's other candidates: the earlier selection (16-wide k steps, each
thread's columns one 8-wide piece), either change alone, a raster group, the recorded
sweep's best block shape in two pieces, one block per SM with 16x8 register tiles (H200,
4096^3, 17:45: the selection 3.155 ms, cuBLAS 2.675; these 3.682, 3.440, -, 3.604,
3.208, 3.716 ms)."""


ODD_SHAPE = (8191, 1000)
"""The odd cases' rows x columns: partial tiles in both dimensions."""
ALIGNED_SHAPE = (8192, 1024)
"""Their aligned companions' shape, about the same bytes."""


def _odd_and_aligned(
    name: str,
    example: str,
    dims: tuple[int, int],
    shapes: Callable[[int, int], list[tuple[int, ...]]],
    torch_fn: Callable[..., Any],
    nbytes: Callable[[int, int], int],
    *,
    knob_variants: dict[str, dict[str, int]] | None = None,
    knobs: dict[str, int] | None = None,
) -> list[Case]:
    """The bandwidth-bound case `<name>_odd` at ODD_SHAPE and its companion `<name>_1024`
    at ALIGNED_SHAPE: the same schedule and knobs, the example's row and column sizes
    `dims` resized; the odd case's further rows `knob_variants`."""
    pair = []
    for suffix, (rows, cols), aligned in (
        ("_odd", ODD_SHAPE, f"{name}_1024"),
        ("_1024", ALIGNED_SHAPE, ""),
    ):
        pair.append(
            Case(
                name + suffix,
                example,
                {dims[0]: rows, dims[1]: cols},
                shapes(rows, cols),
                torch_fn,
                nbytes(rows, cols),
                bandwidth_bound=True,
                knob_variants=(knob_variants or {}) if aligned else {},
                knobs=knobs,
                aligned=aligned,
            )
        )
    return pair


def cases(torch: Any) -> list[Case]:
    f = torch.nn.functional
    ew_n, sm, ln, mm, red = 16384, 8192, 8192, 4096, 8192
    tensor_core = [
        Case(
            f"mm_{element}{suffix}",
            f"matmul_{element}_cuda.mlir",
            {1000: n, 1016: n, 1032: n},
            [(n, n), (n, n)],
            # cuBLAS through torch: f32 accumulation, output in the input type
            lambda a, b: a @ b,
            3 * 2 * n * n,
            2.0 * n**3,
            half=element == "f16",
            bfloat16=element == "bf16",
            knob_variants=_DEFAULT_VARIANTS,
            schedule_variants=_RING_VARIANTS,
        )
        for element in ("f16", "bf16")
        for n, suffix in ((4096, ""), (8192, "_8k"))
    ]
    odd_m, odd_n, odd_k = 4095, 4097, 4096
    tensor_core += [
        # Edge tiles in M and N (TMA's zero fill, bounded stores); N odd: B's rows are no
        # multiple of 16 bytes, so the host stages B into padded rows for TMA.
        Case(
            "mm_f16_odd",
            "matmul_f16_cuda.mlir",
            {1000: odd_m, 1016: odd_k, 1032: odd_n},
            [(odd_m, odd_k), (odd_k, odd_n)],
            lambda a, b: a @ b,
            2 * (odd_m * odd_k + odd_k * odd_n + odd_m * odd_n),
            2.0 * odd_m * odd_n * odd_k,
            half=True,
            knob_variants={
                "store 0": {"store_columns": 0},
                "persistent 0": {"persistent": 0},
                "persistent 0 store 0": {"persistent": 0, "store_columns": 0},
                # 16 x 33 = 528 tiles: 4 per block of 132 (128x256: 32 x 17 = 544, 5 for 16)
                "256x128 3 stages": {"block_m": 256, "block_n": 128, "stages": 3},
                # 32 x 33 = 1056 tiles of 128x128: 8 per block, 4 per ping-pong consumer
                "pingpong 128x128": {"pingpong": 1, "block_n": 128},
                "stagger 2": {"stagger": 2},
            },
        ),
        # f16 out: the conversion fused into the store of the accumulators (cuBLAS and
        # torch.compile write f16 too).
        Case(
            "mm_f16_f16out",
            "matmul_f16_f16out_cuda.mlir",
            {1000: mm, 1016: mm, 1032: mm},
            [(mm, mm), (mm, mm)],
            lambda a, b: a @ b,
            3 * 2 * mm * mm,
            2.0 * mm**3,
            half=True,
            knob_variants={"1 stage": {"stages": 1}, "4 stages": {"stages": 4}},
        ),
        # relu(A * B + bias), f16 in and out, the f16 bias by column: the epilogue fused
        # into the warp-specialized kernel's accumulator store; Triton's tutorial matmul
        # with the same epilogue in its registers.
        Case(
            "mbr_f16",
            "matmul_bias_relu_f16_cuda.mlir",
            {1000: mm, 1016: mm, 1032: mm},
            [(mm, mm), (mm, mm), (mm,)],
            lambda a, b, bias: torch.relu(a @ b + bias),
            3 * 2 * mm * mm + 2 * mm,
            2.0 * mm**3,
            half=True,
            max_autotune=True,
            knob_variants=_MBR_VARIANTS,
        ),
        # The mma.sync fallback (sm_80+ warp-level tensor cores, f32 out) beside cuBLAS:
        # the selected 3 stages of padded 128x64 / 64x256 tiles (8 warps of 64x64, dynamic
        # shared memory, fragments pipelined across the k steps and double-buffered across
        # the k sub-steps), the fragments only pipelined across the k steps ("fragments 1"),
        # neither ("fragments 0": the kernel before), the ring offsets carried by the k loop,
        # in raster groups of 4, 8, 16 rows of tiles, 32-wide k steps, 4 stages, 256x128
        # blocks, the previous 128x128 blocks (8 warps of 64x32) and 128x128 blocks of 4
        # warps (64x64) in raster groups of 8.
        Case(
            "mm_f16_mma_sync",
            "matmul_f16_mma_sync_cuda.mlir",
            {1000: mm, 1016: mm, 1032: mm},
            [(mm, mm), (mm, mm)],
            lambda a, b: a @ b,
            2 * 2 * mm * mm + 4 * mm * mm,
            2.0 * mm**3,
            half=True,
            knob_variants={
                "fragments 1": {"fragments": 1},
                "fragments 0": {"fragments": 0},
                "ring_offsets 1": {"ring_offsets": 1},
                "raster 4": {"raster_group": 4},
                "raster 8": {"raster_group": 8},
                "raster 16": {"raster_group": 16},
                "bk32": {"block_k": 32},
                "4 stages": {"stages": 4},
                "256x128": {"block_m": 256, "block_n": 128, "warps_n": 2},
                "128x128": {"block_n": 128},
                "128x128 4 warps raster 8": {
                    "block_n": 128,
                    "warps": 4,
                    "warps_n": 2,
                    "raster_group": 8,
                },
            },
        ),
    ]
    return [
        *tensor_core,
        Case(
            "ew",
            "elementwise_cuda.mlir",
            {1001: ew_n, 777: ew_n},
            [(ew_n, ew_n)] * 3,
            lambda a, b, c: torch.tanh(a * b + c) * torch.exp(-a),
            4 * 4 * ew_n * ew_n,
        ),
        # The chain at the odd size (partial block tiles in both dimensions) and at the
        # aligned one of about the same bytes.
        *_odd_and_aligned(
            "ew",
            "elementwise_cuda.mlir",
            (1001, 777),
            lambda rows, cols: [(rows, cols)] * 3,
            lambda a, b, c: torch.tanh(a * b + c) * torch.exp(-a),
            lambda rows, cols: 4 * 4 * rows * cols,
        ),
        Case(
            "softmax",
            "softmax_cuda.mlir",
            {1000: sm, 999: sm},
            [(sm, sm)],
            lambda x: torch.softmax(x, dim=1),
            2 * 4 * sm * sm,
            bandwidth_bound=True,
            knob_variants=_SOFTMAX_VARIANTS,
        ),
        Case(
            "matmul",
            "matmul_cuda.mlir",
            {999: mm, 1001: mm, 1003: mm},
            [(mm, mm), (mm, mm)],
            lambda a, b: a @ b,
            3 * 4 * mm * mm,
            2.0 * mm**3,
        ),
        Case(
            "mm_smem",
            "matmul_smem_cuda.mlir",
            {999: mm, 1001: mm, 1003: mm},
            [(mm, mm), (mm, mm)],
            lambda a, b: a @ b,
            3 * 4 * mm * mm,
            2.0 * mm**3,
            knob_variants=_SMEM_VARIANTS,
        ),
        Case(
            "mbr",
            "matmul_bias_relu_cuda.mlir",
            {1001: mm, 513: mm, 257: mm},
            [(mm, mm), (mm, mm), (mm,)],
            lambda a, b, bias: torch.relu(a @ b + bias),
            3 * 4 * mm * mm + 4 * mm,
            2.0 * mm**3,
        ),
        Case(
            "layernorm",
            "layernorm_cuda.mlir",
            {1000: ln, 999: ln},
            [(ln, ln), (ln,), (ln,)],
            lambda x, g, b: f.layer_norm(x, (x.shape[1],), g, b, eps=1e-5),
            2 * 4 * ln * ln + 2 * 4 * ln,
            bandwidth_bound=True,
            knob_variants=_LAYERNORM_VARIANTS,
        ),
        *_odd_and_aligned(
            "softmax",
            "softmax_cuda.mlir",
            (1000, 999),
            lambda rows, cols: [(rows, cols)],
            lambda x: torch.softmax(x, dim=1),
            lambda rows, cols: 2 * 4 * rows * cols,
            knob_variants={
                **_THREADS_VARIANTS,
                "threads=512": {"threads": 1},
                "regs 512": {"threads": 5},
                "regs 256": {"threads": 6},
                "v4 512": {"threads": 10},
            },
        ),
        Case(
            "softmax_f16",
            "softmax_f16_cuda.mlir",
            {1000: sm, 999: sm},
            [(sm, sm)],
            lambda x: torch.softmax(x.float(), dim=1).to(x.dtype),
            2 * 2 * sm * sm,
            half=True,
            bandwidth_bound=True,
            knob_variants=_THREADS_VARIANTS,
        ),
        Case(
            "rowsum",
            "rowsum_cuda.mlir",
            {1000: red, 999: red},
            [(red, red)],
            lambda x: x.sum(dim=1),
            4 * red * red + 4 * red,
            bandwidth_bound=True,
            knob_variants=_ROWSUM_VARIANTS,
        ),
        *_odd_and_aligned(
            "rowsum",
            "rowsum_cuda.mlir",
            (1000, 999),
            lambda rows, cols: [(rows, cols)],
            lambda x: x.sum(dim=1),
            lambda rows, cols: 4 * rows * cols + 4 * rows,
            knob_variants=_ROWSUM_ODD_VARIANTS,
            knobs=_WARPS,
        ),
        Case(
            "colsum",
            "colsum_cuda.mlir",
            {999: red, 1000: red},
            [(red, red)],
            lambda x: x.sum(dim=0),
            4 * red * red + 4 * red,
            bandwidth_bound=True,
            knob_variants=_COLSUM_VARIANTS,
        ),
        *_odd_and_aligned(
            "colsum",
            "colsum_cuda.mlir",
            (999, 1000),
            lambda rows, cols: [(rows, cols)],
            lambda x: x.sum(dim=0),
            lambda rows, cols: 4 * rows * cols + 4 * cols,
            knob_variants=_COLSUM_ODD_VARIANTS,
        ),
        Case(
            "matvec",
            "matvec_cuda.mlir",
            {1000: red, 999: red},
            [(red, red), (red,)],
            lambda a, x: a @ x,
            4 * red * red + 8 * red,
            bandwidth_bound=True,
            knob_variants=_MATVEC_VARIANTS,
        ),
    ]


def _rel_err(got: Any, want: Any) -> float:
    got = got.double()
    if not bool(got.isfinite().all()):
        return float("inf")
    return float((got - want).norm() / want.norm())


def _as_torch(torch: Any, array: Any) -> Any:
    """A torch tensor on schedir's device array (no copy); bf16 through its 16-bit integer
    view (torch reads no bfloat16 typestr from __cuda_array_interface__)."""
    if array.dtype.name != "bfloat16":
        return torch.as_tensor(array, device="cuda")
    # schedir's DeviceArray refuses to describe bfloat16 (no typestr for it): describe
    # the same memory as 16-bit integers here.
    interface = {
        "shape": tuple(array.shape),
        "typestr": "<i2",
        "data": (array.ptr, False),
        "strides": None if array.is_c_contiguous else tuple(array.strides),
        "version": 3,
        "stream": None,
    }
    view = SimpleNamespace(
        __cuda_array_interface__=interface,
        array=array,  # keeps the device memory alive with the tensor
    )
    return torch.as_tensor(view, device="cuda").view(torch.bfloat16)


def _implementations(
    torch: Any,
    case: Case,
    kernels: dict[str, Any],
    triton: dict[str, Callable[..., Any]],
) -> dict[str, Callable[..., Any]]:
    """schedir's kernels (results as device tensors), then the peers: torch eager,
    torch.compile and, where the case has one, Triton."""
    impls: dict[str, Callable[..., Any]] = {
        name: lambda *xs, k=k: _as_torch(torch, k.run_device(*xs)[0]) for name, k in kernels.items()
    }
    impls["eager"] = case.torch_fn
    impls["compile"] = torch.compile(case.torch_fn)
    if case.max_autotune:
        impls["compile-mat"] = torch.compile(case.torch_fn, mode="max-autotune-no-cudagraphs")
    if case.name in triton:
        impls["triton"] = triton[case.name]
    return impls


ROUND_RUNS = 5
"""Timed runs of one implementation per round (each L2-flushed; the round's median)."""


def _time_round_robin(
    impls: dict[str, Any], inputs: list[Any], rounds: int
) -> dict[str, list[float]]:
    """Each implementation's round medians in ms: a schedir kernel is bound to the device
    inputs once (no copies), a peer's callable called on them. Every round times each
    implementation `ROUND_RUNS` times back to back (CUDA events, L2 flushed before each
    run, the first round after 3 untimed warm-up calls, later rounds after 1) and keeps
    the median; the order rotates by one each round, so clock and thermal drift and
    whatever ran just before fall on every implementation alike."""
    calls: dict[str, Callable[[], Any]] = {}
    bound: list[Any] = []
    try:
        for name, impl in impls.items():
            if isinstance(impl, schedir.Kernel):
                launch = impl.bind(*inputs)
                bound.append(launch)
                calls[name] = launch
            else:
                calls[name] = lambda impl=impl: impl(*inputs)
        names = list(calls)
        medians: dict[str, list[float]] = {name: [] for name in names}
        for round_ in range(rounds):
            shift = round_ % len(names)
            for name in names[shift:] + names[:shift]:
                timing = time_function(
                    calls[name], warmup=3 if round_ == 0 else 1, repeat=ROUND_RUNS
                )
                medians[name].append(timing.median_ms)
        return medians
    finally:
        for launch in bound:
            launch.close()


def _row(case: Case, name: str, times: dict[str, float], err: float, copy_rate: float) -> str:
    """One line of the table: time, rate, error, and the peer/schedir time ratio (or, for
    schedir's rows of a bandwidth-bound case, the fraction of the copy bandwidth)."""
    ms = times[name]
    rate = f"{case.nbytes / ms / 1e9:6.2f} TB/s"
    if case.flops:
        rate += f" {case.flops / ms / 1e9:6.1f} TFLOP/s"
    ratio = "" if name == "schedir" else f"  peer/schedir time {ms / times['schedir']:.2f}"
    if name not in ("eager", "compile", "compile-mat", "triton") and case.bandwidth_bound:
        ratio = f"  {case.nbytes / ms / 1e9 / copy_rate:.2f}x copy"
    return f"{case.name:11s} {name:14s} {ms:9.3f} ms  {rate}  rel_err {err:.1e}{ratio}"


def _warm_up(torch: Any, seconds: float = 1.5) -> None:
    """Keep the device busy for `seconds` before the first timing: from idle its clocks take
    a moment to ramp, and the first case measured (mm_f16 by default) ran ~25% slow in every
    one of its rows, the ring schedule and the peers' too, while the same kernels ran at
    full speed later in the same process."""
    a = torch.rand((8192, 8192), device="cuda", dtype=torch.float16)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(8):
            torch.mm(a, a)
        torch.cuda.synchronize()


def _copy_rate(torch: Any, repeat: int, shape: tuple[int, int] = (8192, 8192)) -> float:
    """The device's copy bandwidth in TB/s (read + write) on f32 arrays of `shape`, timed as
    the cases are."""
    src = torch.rand(shape, device="cuda") + 0.5
    dst = torch.empty_like(src)
    ms = time_function(lambda: dst.copy_(src), repeat=repeat).median_ms
    return 2 * 4 * shape[0] * shape[1] / ms / 1e9


def _aligned_lines(
    measured: dict[str, tuple[Case, dict[str, float]]], torch: Any, repeat: int
) -> list[str]:
    """Each odd-size case's bandwidth over its aligned companion's, per implementation
    measured in both (the target: schedir within 10%, >= 0.90), and the same ratio for
    torch's copy_ at the two shapes (what launch and ramp-up alone cost at this size)."""
    lines: list[str] = []
    for case, times in measured.values():
        if case.aligned not in measured:
            continue
        other, other_times = measured[case.aligned]
        for name, ms in times.items():
            if name not in other_times:
                continue
            rate, aligned_rate = case.nbytes / ms / 1e9, other.nbytes / other_times[name] / 1e9
            lines.append(
                f"{case.name:11s} {name:14s} {rate:6.2f} TB/s = {rate / aligned_rate:.2f}x "
                f"{other.name}'s {aligned_rate:6.2f} TB/s"
            )
    if lines:
        odd, aligned = (
            _copy_rate(torch, repeat, (8191, 1000)),
            _copy_rate(torch, repeat, (8192, 1024)),
        )
        lines.append(
            f"{'copy 8191x1000':26s} {odd:6.2f} TB/s = {odd / aligned:.2f}x copy 8192x1024's "
            f"{aligned:6.2f} TB/s"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--repeat", type=int, default=20, help="rounds of the interleaved timing (default 20)"
    )
    parser.add_argument(
        "--cases",
        default="ew,ew_odd,ew_1024,softmax,softmax_odd,softmax_1024,softmax_f16,matmul,mbr,"
        "layernorm,rowsum,rowsum_odd,rowsum_1024,colsum,colsum_odd,colsum_1024,matvec,mm_f16,"
        "mm_f16_8k,mm_bf16,mm_bf16_8k,mm_f16_odd,mm_f16_f16out,mbr_f16",
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="CASE=SCHEDULE",
        help="also time CASE with another schedule (a row named after its file); repeatable",
    )
    parser.add_argument(
        "--rows",
        default="all",
        metavar="LABEL,...",
        help="which of the cases' own variant rows to time: all (default), none, or their labels",
    )
    args = parser.parse_args()
    rows = (
        None if args.rows == "all" else set() if args.rows == "none" else set(args.rows.split(","))
    )
    variants: dict[str, list[Path]] = {}
    for spec in args.variant:
        name, _, path = spec.partition("=")
        variants.setdefault(name, []).append(Path(path))
    try:
        import torch
    except ImportError:
        # The peers need PyTorch (with CUDA); say what to install instead of a traceback.
        print(
            "benchmarks/gpu.py compares schedir with PyTorch, which is not installed here:\n"
            "  python -m pip install torch       # a CUDA build; Triton comes with it on Linux\n"
            'and schedir\'s CUDA extra: python -m pip install -e ".[cuda]"',
            file=sys.stderr,
        )
        raise SystemExit(1) from None

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    triton = _triton_kernels()
    wanted = args.cases.split(",")
    gen = torch.Generator(device="cuda").manual_seed(0)
    table: list[str] = []
    measured: dict[str, tuple[Case, dict[str, float]]] = {}
    _warm_up(torch)
    copy_rate = _copy_rate(torch, args.repeat)
    line = f"{'copy':11s} {'torch':14s} {'':9s}     {copy_rate:6.2f} TB/s  (8192^2 f32 copy_)"
    print(line, flush=True)
    table.append(line)
    for case in cases(torch):
        if case.name not in wanted:
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
            f.write(resized(case.example, case.dims))
        schedule = ROOT / "schedules" / case.example
        kernel = schedir.compile(f.name, schedule=schedule, target="cuda", knobs=case.knobs)
        # non-zero inputs in [0.5, 1.5) with random signs for the matmuls' operands
        inputs = [torch.rand(s, device="cuda", generator=gen) + 0.5 for s in case.shapes]
        if "matmul" in case.example:
            inputs[0] = inputs[0] - 1.0
        if case.half:
            inputs = [t.half() for t in inputs]
        if case.bfloat16:
            inputs = [t.bfloat16() for t in inputs]
        want = case.torch_fn(*[t.double() for t in inputs]).double()
        kernels = {"schedir": kernel}
        for label, knobs in case.knob_variants.items():
            if rows is None or label in rows:
                kernels[label] = schedir.compile(
                    f.name, schedule=schedule, target="cuda", knobs=knobs
                )
        for label, (other, knobs) in case.schedule_variants.items():
            if rows is not None and label not in rows:
                continue
            kernels[label] = schedir.compile(
                f.name, schedule=ROOT / "schedules" / other, target="cuda", knobs=knobs
            )
        for path in variants.get(case.name, []):
            kernels[path.stem] = schedir.compile(f.name, schedule=path, target="cuda")
        impls = _implementations(torch, case, kernels, triton)
        errors = {name: _rel_err(fn(*inputs), want) for name, fn in impls.items()}
        timed = {name: kernels.get(name, fn) for name, fn in impls.items()}
        rounds = _time_round_robin(timed, inputs, args.repeat)
        times = {name: statistics.median(ms) for name, ms in rounds.items()}
        measured[case.name] = (case, times)
        for name in impls:
            spread = f"  rounds {min(rounds[name]):.3f}-{max(rounds[name]):.3f}"
            line = _row(case, name, times, errors[name], copy_rate) + spread
            print(line, flush=True)
            table.append(line)
    print(
        f"\nsummary (median of {args.repeat} interleaved rounds of {ROUND_RUNS} L2-flushed "
        "runs; ratio > 1: schedir faster):"
    )
    print("\n".join(table))
    aligned = _aligned_lines(measured, torch, args.repeat)
    if aligned:
        print(
            "\nodd sizes: bandwidth over the aligned shape's (same implementation; target >= 0.90)"
        )
        print("\n".join(aligned))


if __name__ == "__main__":
    main()
