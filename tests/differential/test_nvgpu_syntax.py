"""The nvgpu dialect against upstream's (iree-opt): upstream reads what schedir prints, and
schedir reads what upstream prints and prints it the same; on generated ops (random
shapes, element types, memory spaces, flags) both accept and reject the same chunks."""

from __future__ import annotations

import random
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from harness import iree_opt

REPO = Path(__file__).parents[2]
NVGPU_TESTS = sorted((REPO / "tests" / "filecheck" / "nvgpu").glob("*.mlir"))
ROUNDTRIP = [p for p in NVGPU_TESTS if "invalid" not in p.name]
_T = TypeVar("_T")
ERROR_AT = re.compile(r"^[^:\n]*:(\d+):\d+: error:", re.MULTILINE)


def _schedir(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    from shutil import which

    tool = which("schedir-opt")
    assert tool is not None
    return subprocess.run([tool, str(path), *args], capture_output=True, text=True, timeout=300)


def _upstream(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [iree_opt(), str(path), *args], capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize("test", ROUNDTRIP, ids=lambda p: p.name)
def test_upstream_reads_what_schedir_prints(test: Path, tmp_path: Path) -> None:
    ours = _schedir(test)
    assert ours.returncode == 0, ours.stderr
    printed = tmp_path / "schedir.mlir"
    printed.write_text(ours.stdout)
    theirs = _upstream(printed)
    assert theirs.returncode == 0, theirs.stderr
    # And back: upstream's print of schedir's output, read by schedir, prints as before.
    upstream_printed = tmp_path / "upstream.mlir"
    upstream_printed.write_text(theirs.stdout)
    again = _schedir(upstream_printed)
    assert again.returncode == 0, again.stderr
    assert _canonical(again.stdout) == _canonical(ours.stdout)


def _canonical(text: str) -> str:
    """Value names aside (upstream renames block arguments to %argN), numbered afresh in
    each function."""
    parts = re.split(r"(\b(?:func|gpu)\.func\b)", text)
    out: list[str] = []
    for part in parts:
        names: dict[str, str] = {}

        def rename(m: re.Match[str], names: dict[str, str] = names) -> str:
            return names.setdefault(m.group(0), f"%v{len(names)}")

        out.append(re.sub(r"%[\w.$-]+", rename, part))
    return "".join(out)


# ---------------------------------------------------------------------------------------
# generated verifier cases: one chunk per case, the same error lines from both tools

_FLOATS = ("f16", "bf16", "f32", "f64")
_SPACES = ("3", "#gpu.address_space<workgroup>", "#gpu.address_space<global>", "")


def _memref(shape: tuple[int, ...], element: str, space: str) -> str:
    dims = "x".join(str(d) for d in shape)
    return f"memref<{dims}x{element}{', ' + space if space else ''}>"


def _wgmma(rng: random.Random) -> str:
    m = rng.choice((64, 128, 32, 96))
    n = rng.choice((8, 64, 128, 256, 12, 264))
    k = rng.choice((16, 32, 64))
    kb = rng.choice((k, k, 2 * k))
    nc = rng.choice((n, n, n + 8))
    ab = rng.choice(("f16", "bf16", "f16", "f32"))
    acc = rng.choice(("f32", "f32", "f16"))
    flags = rng.choice(("", "transposeB", "transposeA transposeB", "transposeA", "waitGroup = 0"))
    da = f"!nvgpu.warpgroup.descriptor<tensor = {_memref((m, k), ab, '3')}>"
    db = f"!nvgpu.warpgroup.descriptor<tensor = {_memref((kb, n), ab, '3')}>"
    c = f"!nvgpu.warpgroup.accumulator<fragmented = vector<{m}x{nc}x{acc}>>"
    return (
        f"func.func @f(%a: {da}, %b: {db}, %c: {c}) {{\n"
        f"  %d = nvgpu.warpgroup.mma %a, %b, %c {flags} : {da}, {db}, {c} -> {c}\n"
        "  return\n}\n"
    )


def _accumulator(rng: random.Random) -> str:
    m = rng.choice((64, 128, 192, 32, 100))
    n = rng.choice((8, 16, 24, 40, 12, 248, 256, 264))
    t = rng.choice(("f32", "f16", "i32"))
    return (
        "func.func @f() {\n"
        f"  %a = nvgpu.warpgroup.mma.init.accumulator -> "
        f"!nvgpu.warpgroup.accumulator<fragmented = vector<{m}x{n}x{t}>>\n"
        "  return\n}\n"
    )


def _tma_load(rng: random.Random) -> str:
    def mostly(valid: _T, *others: _T) -> _T:
        return valid if rng.random() < 0.85 else rng.choice(others)

    element = rng.choice(("f16", "bf16", "f32", "i8"))
    width = {"f16": 2, "bf16": 2, "f32": 4, "i8": 1}[element]
    swizzle = rng.choice(("none", "swizzle_32b", "swizzle_64b", "swizzle_128b"))
    span = {"none": 64, "swizzle_32b": 32, "swizzle_64b": 64, "swizzle_128b": 128}[swizzle]
    inner = mostly(span // width, 2 * span // width, 300)
    box = (mostly(rng.choice((1, 8, 64, 256)), 0, 300), inner)
    dst: tuple[int, ...] = mostly(box, (box[0], max(1, box[1] // 2)))
    dst_space = mostly(rng.choice(("3", "#gpu.address_space<workgroup>")), "")
    dst_element = mostly(element, "f64")
    box_space = mostly("3", "")
    coords = mostly(2, 1, 3)
    tmap = (
        f"!nvgpu.tensormap.descriptor<tensor = {_memref(box, element, box_space)}, "
        f"swizzle = {swizzle}, l2promo = none, oob = zero, interleave = none>"
    )
    bar = "!nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>"
    dst_type = _memref(dst, dst_element, dst_space)
    indices = ", ".join(["%i"] * coords)
    return (
        f"func.func @f(%d: {tmap}, %b: {bar}, %s: {dst_type}, %i: index) {{\n"
        f"  nvgpu.tma.async.load %d[{indices}], %b[%i] to %s : {tmap}, {bar} -> {dst_type}\n"
        "  return\n}\n"
    )


def _mma_sync(rng: random.Random) -> str:
    element, shape, a, b, c = rng.choice(
        (
            ("f16", (16, 8, 16), (4, 2), (2, 2), (2, 2)),
            ("f32", (16, 8, 8), (4, 1), (2, 1), (2, 2)),
            ("f64", (8, 8, 4), (1, 1), (1, 1), (1, 2)),
            ("i8", (16, 8, 32), (4, 4), (2, 4), (2, 2)),
        )
    )
    a = rng.choice((a, a, (a[0], a[1] * 2), (a[0] * 2, a[1] // 2 or 1)))
    b = rng.choice((b, b, (b[1], b[0])))
    c = rng.choice((c, c, (c[0] * 2, c[1])))
    acc = {"i8": "i32", "f64": "f64"}.get(element, "f32")
    tf32 = rng.choice(("", "", " tf32Enabled"))
    bt = rng.choice((element, element, "bf16"))
    types = (
        f"vector<{a[0]}x{a[1]}x{element}>, vector<{b[0]}x{b[1]}x{bt}>, vector<{c[0]}x{c[1]}x{acc}>"
    )
    return (
        f"func.func @f(%a: vector<{a[0]}x{a[1]}x{element}>, %b: vector<{b[0]}x{b[1]}x{bt}>, %c: vector<{c[0]}x{c[1]}x{acc}>) {{\n"
        f"  %d = nvgpu.mma.sync(%a, %b, %c) mmaShape = [{shape[0]}, {shape[1]}, {shape[2]}]{tf32} : ({types}) -> vector<{c[0]}x{c[1]}x{acc}>\n"
        "  return\n}\n"
    )


def _ldmatrix(rng: random.Random) -> str:
    element = rng.choice(("f16", "i8", "f32", "f64"))
    width = {"f16": 16, "i8": 8, "f32": 32, "f64": 64}[element]
    tiles = rng.choice((1, 2, 4))
    rows = rng.choice((tiles, tiles, tiles * 2))
    lanes = rng.choice((32 // width or 1, 32 // width or 1, 2 * (32 // width or 1)))
    space = rng.choice(("3", "3", "#gpu.address_space<workgroup>", ""))
    transpose = rng.choice(("false", "true"))
    src = _memref((64, 64), element, space)
    return (
        f"func.func @f(%m: {src}, %i: index) {{\n"
        f"  %r = nvgpu.ldmatrix %m[%i, %i] numTiles = {tiles} transpose = {transpose} : {src} -> vector<{rows}x{lanes}x{element}>\n"
        "  return\n}\n"
    )


def _async_copy(rng: random.Random) -> str:
    element = rng.choice(("f16", "f32", "i8", "f64"))
    count = rng.choice((1, 2, 3, 4, 8, 16))
    dst_element = rng.choice((element, element, "f32"))
    space = rng.choice(("3", "3", "#gpu.address_space<workgroup>", ""))
    layout = rng.choice(("", "", ", strided<[64, 2]>"))
    bypass = rng.choice(("", " bypassL1"))
    src = f"memref<64x64x{element}{layout}>"
    dst = _memref((64, 64), dst_element, space)
    return (
        f"func.func @f(%g: {src}, %s: {dst}, %i: index) {{\n"
        f"  %t = nvgpu.device_async_copy %g[%i, %i], %s[%i, %i], {count}{bypass} : {src} to {dst}\n"
        "  return\n}\n"
    )


GENERATORS: dict[str, Callable[[random.Random], str]] = {
    "warpgroup.mma": _wgmma,
    "warpgroup.mma.init.accumulator": _accumulator,
    "tma.async.load": _tma_load,
    "mma.sync": _mma_sync,
    "ldmatrix": _ldmatrix,
    "device_async_copy": _async_copy,
}


def _error_lines(stderr: str) -> set[int]:
    return {int(m.group(1)) for m in ERROR_AT.finditer(stderr)}


@pytest.mark.parametrize("family", list(GENERATORS))
def test_verifiers_agree_with_upstream(family: str, tmp_path: Path) -> None:
    rng = random.Random(f"nvgpu-{family}")
    chunks = [GENERATORS[family](rng) for _ in range(40)]
    path = tmp_path / "cases.mlir"
    path.write_text("// -----\n".join(chunks))
    ours = _schedir(path, "--split-input-file")
    theirs = _upstream(path, "--split-input-file")
    assert "internal compiler error" not in ours.stderr, ours.stderr
    assert "Traceback" not in ours.stderr, ours.stderr
    ours_lines, theirs_lines = _error_lines(ours.stderr), _error_lines(theirs.stderr)
    # Some chunks must fail and some pass, or the comparison says nothing.
    assert ours_lines and len(ours_lines) < len(chunks), ours.stderr
    assert ours_lines == theirs_lines, (
        f"schedir only: {sorted(ours_lines - theirs_lines)}, "
        f"upstream only: {sorted(theirs_lines - ours_lines)}\n{ours.stderr}\n---\n{theirs.stderr}"
    )
