"""`GpuTarget`: what the NVPTX back end compiles for and the limits a launch must respect.

A target is a frozen record: the architecture (`sm_90`), the PTX ISA version as an LLVM
feature (`ptx80`), and the device limits that schedules and launches are checked against
(threads per block, shared memory per block with and without opt-in, warp size, SM
count, L2 size). The defaults are an H200 (sm_90, 132 SMs, 60 MiB L2), so PTX can be made
and launch configurations checked on a machine without a GPU; `GpuContext.target`
(schedir.gpu.runtime) queries the real values from the driver once per context.

This module imports neither cuda-python nor xDSL.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

TRIPLE = "nvptx64-nvidia-cuda"
"""LLVM's target triple for 64-bit CUDA devices."""

ARGUMENT_ALIGNMENT = 16
"""Bytes to which the runtime aligns every memref argument it passes to a compiled
program (device allocations are 256-byte aligned; a misaligned device array is copied
first). Kernels may assume it for buffers that come from those arguments (16: one
`ld.global.v4.f32`)."""

DEFAULT_PTX_FEATURE = "ptx80"
"""PTX ISA 8.0: the first version with sm_90 and sm_90a, read by every CUDA 12+ driver."""

_ARCH = re.compile(r"sm_(?P<major>\d+?)(?P<minor>\d)(?P<suffix>[af]?)")
_PTX = re.compile(r"ptx(?P<major>\d)(?P<minor>\d+)")


def parse_arch(arch: str) -> tuple[int, int]:
    """The compute capability of `arch` ('sm_90' -> (9, 0)); ValueError if malformed."""
    match = _ARCH.fullmatch(arch)
    if match is None:
        raise ValueError(f"arch must look like 'sm_90' or 'sm_90a', got '{arch}'")
    return int(match["major"]), int(match["minor"])


def ptx_isa_version(feature: str) -> str:
    """The `.version` PTX prints for an LLVM PTX feature ('ptx80' -> '8.0', 'ptx87' -> '8.7')."""
    match = _PTX.fullmatch(feature.removeprefix("+"))
    if match is None:
        raise ValueError(f"PTX feature must look like 'ptx80', got '{feature}'")
    return f"{match['major']}.{match['minor']}"


@dataclass(frozen=True)
class GpuTarget:
    """An NVIDIA GPU as the compiler and the launcher see it.

    Attributes:
        arch: LLVM CPU name and ptxas `-arch`, e.g. "sm_90" (or "sm_90a" for wgmma/setmaxnreg).
        ptx_feature: the PTX ISA version as an LLVM feature ("ptx80" -> `.version 8.0`).
        max_threads_per_block: threads in one block, all dimensions together.
        max_block_dims: the largest block size in x, y and z.
        max_grid_dims: the largest grid size in x, y and z.
        max_shared_memory_per_block: static + dynamic shared memory without opt-in (bytes).
        max_shared_memory_per_block_optin: dynamic shared memory a kernel may opt in to
            (`CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`), in bytes.
        max_registers_per_block: 32-bit registers available to one block.
        warp_size: threads in a warp.
        multiprocessor_count: streaming multiprocessors (SMs).
        l2_cache_bytes: L2 size; timing flushes it with a larger buffer between runs.
        name: the device's name when queried from a driver, None for the built-in defaults.
    """

    arch: str = "sm_90"
    ptx_feature: str = DEFAULT_PTX_FEATURE
    max_threads_per_block: int = 1024
    max_block_dims: tuple[int, int, int] = (1024, 1024, 64)
    max_grid_dims: tuple[int, int, int] = (2**31 - 1, 65535, 65535)
    max_shared_memory_per_block: int = 48 * 1024
    max_shared_memory_per_block_optin: int = 227 * 1024
    max_registers_per_block: int = 65536
    warp_size: int = 32
    multiprocessor_count: int = 132
    l2_cache_bytes: int = 60 * 1024 * 1024
    name: str | None = None

    def __post_init__(self) -> None:
        parse_arch(self.arch)
        object.__setattr__(self, "ptx_feature", self.ptx_feature.removeprefix("+"))
        ptx_isa_version(self.ptx_feature)
        object.__setattr__(self, "max_block_dims", tuple(self.max_block_dims))
        object.__setattr__(self, "max_grid_dims", tuple(self.max_grid_dims))
        if len(self.max_block_dims) != 3 or len(self.max_grid_dims) != 3:
            raise ValueError("max_block_dims and max_grid_dims need three entries (x, y, z)")

    @property
    def compute_capability(self) -> tuple[int, int]:
        """(major, minor), e.g. (9, 0) for sm_90 and sm_90a."""
        return parse_arch(self.arch)

    @property
    def triple(self) -> str:
        return TRIPLE

    @property
    def llvm_features(self) -> str:
        """The feature string of the LLVM target machine, e.g. '+ptx80'."""
        return f"+{self.ptx_feature}"

    @property
    def ptx_version(self) -> str:
        """The `.version` line the PTX must carry, e.g. '8.0'."""
        return ptx_isa_version(self.ptx_feature)

    def with_options(self, arch: str | None = None, ptx_feature: str | None = None) -> GpuTarget:
        """This target with another arch and/or PTX feature (None keeps the current one)."""
        return replace(
            self,
            arch=arch if arch is not None else self.arch,
            ptx_feature=ptx_feature if ptx_feature is not None else self.ptx_feature,
        )

    @staticmethod
    def from_options(options: object) -> GpuTarget:
        """The default target with `arch` and `ptx_version` taken from a `CompileOptions`.

        Takes any object with those attributes, so this module does not depend on the
        options module's other fields.
        """
        arch = getattr(options, "arch", None)
        ptx = getattr(options, "ptx_version", None)
        return GpuTarget().with_options(arch, ptx)

    @staticmethod
    def from_attributes(
        attributes: Mapping[str, int], *, name: str | None = None, ptx_feature: str | None = None
    ) -> GpuTarget:
        """A target from driver attribute values (keys as in `DEVICE_ATTRIBUTES`)."""
        major = attributes["compute_capability_major"]
        minor = attributes["compute_capability_minor"]
        return GpuTarget(
            arch=f"sm_{major}{minor}",
            ptx_feature=ptx_feature or DEFAULT_PTX_FEATURE,
            max_threads_per_block=attributes["max_threads_per_block"],
            max_block_dims=(
                attributes["max_block_dim_x"],
                attributes["max_block_dim_y"],
                attributes["max_block_dim_z"],
            ),
            max_grid_dims=(
                attributes["max_grid_dim_x"],
                attributes["max_grid_dim_y"],
                attributes["max_grid_dim_z"],
            ),
            max_shared_memory_per_block=attributes["max_shared_memory_per_block"],
            max_shared_memory_per_block_optin=attributes["max_shared_memory_per_block_optin"],
            max_registers_per_block=attributes["max_registers_per_block"],
            warp_size=attributes["warp_size"],
            multiprocessor_count=attributes["multiprocessor_count"],
            l2_cache_bytes=attributes["l2_cache_size"],
            name=name,
        )

    def check_launch(
        self, grid: tuple[int, int, int], block: tuple[int, int, int], shared_bytes: int
    ) -> str | None:
        """Why this launch configuration cannot run on the target, or None if it can."""
        for what, dims, limits in (
            ("grid", grid, self.max_grid_dims),
            ("block", block, self.max_block_dims),
        ):
            for axis, size, limit in zip("xyz", dims, limits, strict=True):
                if size < 1:
                    return f"{what} size in {axis} is {size}; every dimension must be at least 1"
                if size > limit:
                    return f"{what} size in {axis} is {size}, more than the limit {limit}"
        threads = block[0] * block[1] * block[2]
        if threads > self.max_threads_per_block:
            return (
                f"block {block} has {threads} threads, more than the limit "
                f"{self.max_threads_per_block}"
            )
        if shared_bytes < 0:
            return f"dynamic shared memory is negative ({shared_bytes} bytes)"
        if shared_bytes > self.max_shared_memory_per_block_optin:
            return (
                f"dynamic shared memory of {shared_bytes} bytes is more than the opt-in limit "
                f"{self.max_shared_memory_per_block_optin}"
            )
        return None


DEVICE_ATTRIBUTES: tuple[str, ...] = (
    "compute_capability_major",
    "compute_capability_minor",
    "max_threads_per_block",
    "max_block_dim_x",
    "max_block_dim_y",
    "max_block_dim_z",
    "max_grid_dim_x",
    "max_grid_dim_y",
    "max_grid_dim_z",
    "max_shared_memory_per_block",
    "max_shared_memory_per_block_optin",
    "max_registers_per_block",
    "warp_size",
    "multiprocessor_count",
    "l2_cache_size",
)
"""The driver attributes a target is made of: `CU_DEVICE_ATTRIBUTE_<NAME upper-cased>`."""


__all__ = [
    "DEFAULT_PTX_FEATURE",
    "DEVICE_ATTRIBUTES",
    "TRIPLE",
    "GpuTarget",
    "parse_arch",
    "ptx_isa_version",
]
