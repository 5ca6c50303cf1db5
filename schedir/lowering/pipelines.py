"""Named lowering pipelines, declared as data: tuples of pass specs (`name{opt=value}`).

A spec string is what `schedir-opt -p` takes, so any pipeline here can be replayed, cut
short or extended from the command line. `PIPELINES` names the ones run on a whole
module; `GPU_DEVICE_TO_CF` and `GPU_DEVICE_TO_LLVM` are the steps convert-gpu-to-nvvm
runs on the body of each gpu.module.
"""

from __future__ import annotations

from types import MappingProxyType

BUFFERIZE: tuple[str, ...] = (
    # softmax and other aggregates become linalg ops, named ops become linalg.generic
    "linalg-decompose-aggregated-ops",
    "linalg-generalize-named-ops",
    # tensors become buffers; function arguments marked read-only stay untouched
    "one-shot-bufferize{bufferize-function-boundaries=true}",
    # statically shaped results are written into caller-provided buffers
    "buffer-results-to-out-params{hoist-static-allocs=true}",
)
"""Tensor-level payload (after its schedule) -> memrefs, loops not yet materialized."""

CPU_TO_LLVM: tuple[str, ...] = (
    "convert-linalg-to-loops",
    "scf-forall-to-for",
    # vector IR a schedule left: contractions, reductions, n-D transfers to 1-D ops (with
    # scf/affine index code, lowered next), then to the LLVM dialect
    "lower-vector",
    "convert-vector-to-llvm",
    "lower-affine",
    "convert-scf-to-cf",
    "convert-math-to-llvm",
    "convert-arith-to-llvm",
    "finalize-memref-to-llvm",
    "convert-func-to-llvm",
    "convert-cf-to-llvm",
    "reconcile-unrealized-casts",
)
"""Bufferized payload -> the LLVM dialect, for the CPU target."""


def cuda_to_llvm(
    arch: str = "sm_90", ptx_feature: str = "ptx80", opt_level: int = 3, binary_format: str = "isa"
) -> tuple[str, ...]:
    """Bufferized payload with `gpu.launch`es -> host LLVM dialect with embedded kernels.

    The kernels are compiled for `arch` with PTX ISA `ptx_feature` at `-O<opt_level>`
    and embedded as PTX (`binary_format="isa"`, the driver compiles it at load) or as a
    cubin from ptxas (`"bin"`).
    """
    return (
        # shared buffers beyond the 48 KiB of static shared memory into dynamic shared
        # memory; then the kernels out of the host function, constants copied in first
        "gpu-workgroup-to-dynamic-shared-memory",
        "gpu-launch-sink-index-computations",
        "gpu-kernel-outlining",
        # what stays on the host only allocates, copies and launches: device memory
        "gpu-host-alloc-to-device",
        "convert-linalg-to-loops",
        # device code: gpu.module -> LLVM/NVVM dialect -> PTX in a gpu.binary (it lowers
        # affine ops itself, after sizing per-thread buffers from affine.min bounds)
        "convert-gpu-to-nvvm",
        f'nvvm-attach-target{{chip={arch} features="+{ptx_feature}" O={opt_level}}}',
        f"gpu-module-to-binary{{format={binary_format}}}",
        # host code: as on the CPU, plus the runtime calls of gpu-to-llvm (and of the
        # TMA descriptors, which need the ranked memrefs finalize-memref-to-llvm lowers)
        "lower-tma-descriptors",
        "lower-affine",
        "scf-forall-to-for",
        "convert-scf-to-cf",
        "convert-math-to-llvm",
        "convert-arith-to-llvm",
        "finalize-memref-to-llvm",
        "gpu-to-llvm",
        "convert-func-to-llvm",
        "convert-cf-to-llvm",
        "reconcile-unrealized-casts",
    )


CUDA_TO_LLVM: tuple[str, ...] = cuda_to_llvm()
"""Bufferized GPU payload -> the host LLVM dialect, kernels for sm_90 (PTX 8.0, -O3)."""

GPU_DEVICE_TO_CF: tuple[str, ...] = (
    "convert-linalg-to-loops",
    "scf-forall-to-for",
    # masked transfers (edge tiles) get an unmasked path where the mask is full
    "split-masked-transfers",
    # vector IR a schedule left (contractions, n-D transfers) to 1-D LLVM vectors, as
    # upstream's convert-gpu-to-nvvm includes the vector-to-LLVM patterns
    "lower-vector",
    "convert-vector-to-llvm",
    "lower-affine",
    "convert-scf-to-cf",
)
"""What convert-gpu-to-nvvm runs first on the body of each gpu.module: structured and
vector code to branches and LLVM vectors. Its own gpu-op and libdevice lowering follows,
then `GPU_DEVICE_TO_LLVM`."""

GPU_DEVICE_TO_LLVM: tuple[str, ...] = (
    "convert-math-to-llvm",
    "convert-arith-to-llvm",
    "finalize-memref-to-llvm",
    "convert-func-to-llvm",
    "convert-cf-to-llvm",
    "reconcile-unrealized-casts",
)
"""What convert-gpu-to-nvvm runs last on the body of each gpu.module, the `*-to-llvm`
passes with NVVM's address spaces (global 1, workgroup 3, private 0)."""

PIPELINES: MappingProxyType[str, tuple[str, ...]] = MappingProxyType(
    {
        "bufferize": BUFFERIZE,
        "cpu-to-llvm": CPU_TO_LLVM,
        "cpu": BUFFERIZE + CPU_TO_LLVM,
        "cuda-to-llvm": CUDA_TO_LLVM,
        "cuda": BUFFERIZE + CUDA_TO_LLVM,
    }
)
"""Every named pipeline; "cpu" / "cuda" are what `schedir-run --target cpu|cuda` runs
after the schedule ("cuda" with the arch, PTX version and -O level of the options, see
`cuda_to_llvm`)."""


def spec(pipeline: tuple[str, ...]) -> str:
    """The `-p` argument that runs `pipeline`."""
    return ",".join(pipeline)


__all__ = [
    "BUFFERIZE",
    "CPU_TO_LLVM",
    "CUDA_TO_LLVM",
    "GPU_DEVICE_TO_CF",
    "GPU_DEVICE_TO_LLVM",
    "PIPELINES",
    "cuda_to_llvm",
    "spec",
]
