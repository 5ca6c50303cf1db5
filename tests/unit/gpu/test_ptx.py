"""LLVM IR -> PTX -> cubin without a GPU: hand-written NVPTX kernels through compile_ptx and
ptxas, the PTX they must contain, and the errors of every step (log + repro)."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest
from nvptx_kernels import (
    ADD_TRANSPOSED_DESC,
    ALL,
    BLOCK_SUM,
    EXP,
    FILL_HALF_DESC,
    ROTATE_DYNAMIC_SHARED,
    SAXPY_DESC,
    WARP_SUM,
)

from schedir.abi import MemRefSpec, ScalarSpec
from schedir.diagnostics import ToolError
from schedir.gpu import GpuTarget, assemble, compile_ptx, kernel_names
from schedir.gpu.function import kernel_param_count
from schedir.gpu.ptx import LLVM_MIN_PTX, find_libdevice, find_ptxas


def _entry_params(ptx: str, name: str) -> list[str]:
    """The `.param` lines of kernel `name`'s `.entry` signature."""
    match = re.search(rf"\.entry\s+{name}\((.*?)\)", ptx, re.DOTALL)
    assert match, f"no .entry {name} in the PTX"
    return [line.strip() for line in match.group(1).split(",") if line.strip()]


def _repro_file(err: ToolError, suffix: str) -> Path:
    paths = [p for p in shlex.split(err.repro) if p.endswith(suffix)]
    assert paths, f"the repro names no {suffix} file: {err.repro}"
    return Path(paths[0])


# -- PTX content ----------------------------------------------------------------------


def test_elementwise_kernel_reads_special_registers_and_global_memory(ptxas: Path) -> None:
    ptx = compile_ptx(SAXPY_DESC)
    assert ".version 8.0" in ptx and ".target sm_90" in ptx and ".address_size 64" in ptx
    assert kernel_names(ptx) == ["saxpy_desc"]
    assert ".visible .entry saxpy_desc(" in ptx
    for register in ("%tid.x", "%ctaid.x", "%ntid.x"):
        assert register in ptx
    assert re.search(r"\bld\.global\.", ptx) and re.search(r"\bst\.global\.", ptx)
    # a * x + y stays a rounded multiply and add: LLVM does not contract without fast-math.
    assert re.search(r"\bmul\.rn\.f32\b", ptx) and re.search(r"\badd\.rn\.f32\b", ptx)
    assert re.search(r"\bmad\.lo\.s32\b", ptx), "blockIdx.x * blockDim.x + threadIdx.x"
    assert ".maxntid 256" in ptx
    cubin = assemble(ptx, "sm_90", ptxas=ptxas)
    assert cubin[:4] == b"\x7fELF"


def test_shared_memory_reduction_uses_shared_loads_and_barriers(ptxas: Path) -> None:
    ptx = compile_ptx(BLOCK_SUM)
    assert re.search(r"\.shared \.align 4 \.b8 smem\[1024\]", ptx)
    assert re.search(r"\bst\.shared\.", ptx) and re.search(r"\bld\.shared\.", ptx)
    assert len(re.findall(r"\bbar\.sync\s+0;", ptx)) >= 2
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


def test_warp_shuffle_becomes_shfl_sync_bfly(ptxas: Path) -> None:
    ptx = compile_ptx(WARP_SUM)
    shuffles = re.findall(r"\bshfl\.sync\.bfly\.b32\b[^;]*;", ptx)
    assert len(shuffles) == 5
    assert all(s.rstrip(";").endswith("-1") for s in shuffles), "the full-warp member mask"
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


def test_libdevice_call_is_linked_and_inlined(ptxas: Path, libdevice: Path) -> None:
    ptx = compile_ptx(EXP, libdevice=libdevice)
    assert "__nv_expf" not in ptx and "__nvvm_reflect" not in ptx
    assert "ex2.approx" in ptx
    # Only the kernel is left: the rest of libdevice was internalized and dropped.
    assert ".func" not in ptx
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


def test_libdevice_is_found_and_trimmed_without_optimization(ptxas: Path, libdevice: Path) -> None:
    ptx = compile_ptx(EXP, opt_level=0, search_dirs=[libdevice.parent])
    assert "__nvvm_reflect" not in ptx, "NVVMReflect runs in the back end even at -O0"
    assert len(re.findall(r"^\.(?:visible |weak )?\.?func\b", ptx, re.MULTILINE)) < 10
    assert len(ptx) < 50_000
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


def test_dynamic_shared_memory_is_an_extern_array(ptxas: Path) -> None:
    ptx = compile_ptx(ROTATE_DYNAMIC_SHARED)
    assert ".extern .shared .align 16 .b8 dyn[];" in ptx
    assert assemble(ptx, "sm_90", ptxas=ptxas)[:4] == b"\x7fELF"


@pytest.mark.parametrize("name", sorted(ALL))
def test_every_test_kernel_assembles_at_every_opt_level(
    name: str, ptxas: Path, libdevice: Path
) -> None:
    for opt_level in (0, 3):
        ptx = compile_ptx(ALL[name], opt_level=opt_level, libdevice=libdevice)
        assert kernel_names(ptx) == [name]
        assert assemble(ptx, GpuTarget(), ptxas=ptxas)[:4] == b"\x7fELF"


def test_other_arch_and_ptx_version(ptxas: Path) -> None:
    target = GpuTarget(arch="sm_90a", ptx_feature="ptx85")
    ptx = compile_ptx(SAXPY_DESC, target)
    assert ".version 8.5" in ptx and ".target sm_90a" in ptx
    assert assemble(ptx, target, ptxas=ptxas)[:4] == b"\x7fELF"


# -- the kernel ABI, as the PTX sees it -------------------------------------------------


def test_descriptor_abi_parameter_counts_match_the_ptx() -> None:
    f32 = "float32"
    cases = [
        (SAXPY_DESC, "saxpy_desc", [ScalarSpec(f32)] + [MemRefSpec(f32, (None,))] * 3),
        (ADD_TRANSPOSED_DESC, "add_transposed_desc", [MemRefSpec(f32, (None, None))] * 3),
        (
            FILL_HALF_DESC,
            "fill_half_desc",
            [MemRefSpec("float16", (None,)), ScalarSpec("float16"), ScalarSpec("bool")],
        ),
    ]
    for ir, name, specs in cases:
        params = _entry_params(compile_ptx(ir), name)
        assert len(params) == kernel_param_count(specs), name
    assert kernel_param_count([MemRefSpec(f32, (4, 4))], bare_pointers=True) == 1
    assert kernel_param_count([MemRefSpec(f32, ())]) == 3


def test_scalar_parameter_widths_in_ptx() -> None:
    params = _entry_params(compile_ptx(FILL_HALF_DESC), "fill_half_desc")
    # memref: ptr, ptr, i64 offset, i64 size, i64 stride; then half (2 bytes) and i1 (u8).
    assert all(".u64" in p or ".b64" in p for p in params[:5])
    assert "[2]" in params[5] or ".b16" in params[5]
    assert ".u8" in params[6] or ".b8" in params[6]


# -- errors -----------------------------------------------------------------------------


def test_invalid_llvm_ir_is_a_tool_error_with_a_repro() -> None:
    with pytest.raises(ToolError) as info:
        compile_ptx("define ptx_kernel void @k() { ret i32 0 }")
    err = info.value
    assert "LLVM rejected the NVPTX IR" in err.message
    assert "ret" in err.log
    assert err.repro.startswith("llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80 -O3 ")
    assert "ret i32 0" in _repro_file(err, ".ll").read_text()
    assert "repro: llc" in err.render()


def test_invalid_ptx_is_a_ptxas_error_with_its_log_and_command(ptxas: Path) -> None:
    bad = compile_ptx(SAXPY_DESC).replace("add.rn.f32", "add.rn.f99")
    with pytest.raises(ToolError) as info:
        assemble(bad, "sm_90", ptxas=ptxas)
    err = info.value
    assert "ptxas failed to assemble the PTX for sm_90" in err.message
    assert "error" in err.log.lower() and ".ptx" in err.log
    assert f"{ptxas} -arch=sm_90 -O3 " in err.repro
    kept = _repro_file(err, ".ptx")
    assert kept.read_text() == bad
    # The repro command repeats the failure.
    done = subprocess.run(shlex.split(err.repro), capture_output=True, text=True, check=False)
    assert done.returncode != 0
    assert "tool output:" in err.render() and "repro: " in err.render()


def test_ptx_for_an_arch_ptxas_does_not_know(ptxas: Path) -> None:
    ptx = compile_ptx(SAXPY_DESC)
    with pytest.raises(ToolError) as info:
        assemble(ptx, "sm_9999", ptxas=ptxas)
    assert "-arch=sm_9999" in info.value.repro
    assert info.value.log


def test_missing_ptxas_is_a_tool_error() -> None:
    with pytest.raises(ToolError, match="cannot run ptxas"):
        assemble(compile_ptx(SAXPY_DESC), "sm_90", ptxas="/nonexistent/cuda/bin/ptxas")


def test_unknown_ptx_version_is_refused() -> None:
    with pytest.raises(ToolError, match=r"LLVM emitted PTX ISA 7\.8, not the 9\.9"):
        compile_ptx(SAXPY_DESC, GpuTarget(ptx_feature="ptx99"))


def test_arch_llvm_does_not_know_or_too_old_ptx_is_refused_before_llvm() -> None:
    # Both would otherwise reach LLVM: an unknown CPU is only a warning, and a too-old PTX
    # version for the arch a fatal error that ends the process.
    with pytest.raises(ToolError, match="does not know the architecture 'sm_999'"):
        compile_ptx(SAXPY_DESC, GpuTarget(arch="sm_999"))
    with pytest.raises(ToolError, match=r"sm_100 needs PTX ISA 8\.6 or later"):
        compile_ptx(SAXPY_DESC, GpuTarget(arch="sm_100", ptx_feature="ptx80"))
    assert LLVM_MIN_PTX["sm_90"] == "7.8"


def test_sm_100_with_its_ptx_version_compiles() -> None:
    ptx = compile_ptx(SAXPY_DESC, GpuTarget(arch="sm_100", ptx_feature="ptx86"))
    assert ".target sm_100" in ptx and ".version 8.6" in ptx


def test_missing_libdevice_file_is_a_tool_error() -> None:
    with pytest.raises(
        ToolError, match=r"libdevice file /nonexistent/libdevice\.10\.bc does not exist"
    ):
        compile_ptx(EXP, libdevice="/nonexistent/libdevice.10.bc")


def test_ir_without_libdevice_calls_does_not_need_libdevice() -> None:
    # A bogus path is never opened when nothing calls __nv_*.
    assert ".entry saxpy_desc" in compile_ptx(SAXPY_DESC, libdevice="/nonexistent")


def test_tool_search_takes_given_folders_first(
    ptxas: Path, libdevice: Path, tmp_path: Path
) -> None:
    assert find_ptxas([ptxas.parent]) == ptxas
    assert find_ptxas([ptxas]) == ptxas
    assert find_libdevice([libdevice]) == libdevice
    assert find_libdevice([libdevice.parent.parent.parent]) == libdevice
    fake_home = tmp_path / "cuda"
    (fake_home / "nvvm" / "libdevice").mkdir(parents=True)
    fake = fake_home / "nvvm" / "libdevice" / "libdevice.10.bc"
    fake.write_bytes(b"BC")
    assert find_libdevice([fake_home]) == fake
    with pytest.raises(ToolError, match="cannot read libdevice"):
        compile_ptx(EXP, search_dirs=[fake_home])


def test_opt_level_is_checked() -> None:
    with pytest.raises(ValueError, match="opt_level"):
        compile_ptx(SAXPY_DESC, opt_level=4)
    with pytest.raises(ValueError, match="opt_level"):
        assemble("", "sm_90", opt_level=5)
