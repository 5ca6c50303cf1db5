"""The sm_90a tensor-core route without a GPU: the hand-written TMA + mbarrier + wgmma
kernel (tests/data/nvgpu/wgmma_tma_matmul_f16.ll, the LLVM IR the nvgpu lowering is to
produce) compiles to PTX in the LLVM worker and assembles with ptxas without serialized
wgmma; a serialized variant, misspelled intrinsics and a TMA descriptor without
`nvvm.grid_constant` are caught."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from schedir.diagnostics import InternalCompilerError, ToolError
from schedir.gpu import GpuTarget, assemble, compile_ptx
from schedir.gpu.ptx import serialization_warnings, unknown_intrinsics

KERNEL = Path(__file__).parents[2] / "data" / "nvgpu" / "wgmma_tma_matmul_f16.ll"
SM90A = GpuTarget("sm_90a")


@pytest.fixture(scope="module")
def kernel_ptx() -> str:
    return compile_ptx(KERNEL.read_text(), SM90A)


def test_kernel_ptx_has_the_tensor_core_route(kernel_ptx: str) -> None:
    assert ".target sm_90a" in kernel_ptx
    assert (
        len(re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n64k16\.f32\.f16\.f16", kernel_ptx))
        == 4
    )
    assert "cp.async.bulk.tensor.2d.shared::cluster.global" in kernel_ptx
    assert "mbarrier.try_wait.parity.shared.b64" in kernel_ptx
    assert "mbarrier.arrive.expect_tx.shared.b64" in kernel_ptx
    assert "wgmma.wait_group.sync.aligned 0" in kernel_ptx
    # The descriptors stay kernel parameters (128 bytes, 64-aligned), read in place.
    assert kernel_ptx.count(".param .align 64 .b8 wgmma_tma_matmul_param_") == 2
    assert ".local" not in kernel_ptx
    assert not unknown_intrinsics(kernel_ptx)


def test_kernel_assembles_for_sm_90a_without_serialization(kernel_ptx: str, ptxas: Path) -> None:
    cubin = assemble(kernel_ptx, "sm_90a", ptxas=ptxas)
    assert cubin[:4] == b"\x7fELF"


def test_serialized_wgmma_is_a_failure(ptxas: Path) -> None:
    # A non-wgmma instruction redefining an accumulator between two wgmma instructions
    # makes ptxas wait around them (C7517/C7519): correct results at a fraction of the speed.
    ir = KERNEL.read_text()
    ir = ir.replace("  %in1.0 = extractvalue", "  %in1.0.x = extractvalue", 1)
    ir = ir.replace("%mma0, 0\n", "%mma0, 0\n  %in1.0 = fmul float %in1.0.x, 2.0\n", 1)
    ptx = compile_ptx(ir, SM90A)
    with pytest.raises(ToolError, match=r"serialized the wgmma instructions .*C751\d") as err:
        assemble(ptx, "sm_90a", ptxas=ptxas)
    assert "ptxas" in err.value.repro


@pytest.mark.parametrize(
    ("name", "typo"),
    [
        ("llvm.nvvm.wgmma.fence.sync.aligned", "llvm.nvvm.wgmma.fence.aligned"),
        ("llvm.nvvm.wgmma.commit_group.sync.aligned", "llvm.nvvm.wgmma.commit.group.sync.aligned"),
        ("llvm.nvvm.mbarrier.init.shared", "llvm.nvvm.mbarrier.init.shared.b64"),
        ("llvm.nvvm.fence.proxy.async.shared_cta", "llvm.nvvm.fence.proxy.async.shared.cta"),
        ("llvm.nvvm.prefetch.tensormap", "llvm.nvvm.prefetch.tensor.map"),
    ],
)
def test_misspelled_intrinsic_is_an_internal_error(name: str, typo: str) -> None:
    ir = KERNEL.read_text().replace(f"@{name}(", f"@{typo}(")
    with pytest.raises(InternalCompilerError, match=re.escape(typo)):
        compile_ptx(ir, SM90A)


def test_tma_descriptor_needs_grid_constant() -> None:
    # Without the attribute LLVM copies the byval descriptor to local memory, and a TMA
    # copy through a local copy of the descriptor is invalid.
    ptx = compile_ptx(KERNEL.read_text().replace(' "nvvm.grid_constant"', ""), SM90A)
    assert ".local" in ptx


def test_unknown_intrinsics_reads_extern_declarations() -> None:
    ptx = (
        ".extern .func llvm.nvvm.wgmma.fence.aligned\n()\n;\n"
        ".extern .func  (.param .b64 func_retval0) llvm.nvvm.foo.bar(\n.param .b32 p\n);\n"
        ".extern .func __nv_expf\n"
        "// .extern .func llvm.nvvm.in.a.comment is not a declaration\n"
        "\tcall.uni llvm.nvvm.wgmma.fence.aligned, ();\n"
    )
    assert unknown_intrinsics(ptx) == ["llvm.nvvm.foo.bar", "llvm.nvvm.wgmma.fence.aligned"]
    assert unknown_intrinsics(".extern .func __nv_expf\n") == []


@pytest.mark.parametrize("code", ["C7510", "C7511", "C7515", "C7517", "C7519"])
def test_serialization_warnings_are_the_c751x_family(code: str) -> None:
    line = f"ptxas info    : ({code}) Potential Performance Loss: wgmma.mma_async instructions are serialized"
    log = f"ptxas info    : 0 bytes gmem\n{line}\nptxas info    : Used 90 registers\n"
    assert serialization_warnings(log) == [line]
    assert serialization_warnings("ptxas info    : (C7520) something else\n") == []
