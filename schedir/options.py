"""`CompileOptions`: every knob of a compilation in one frozen, hashable record."""

from __future__ import annotations

import hashlib
from dataclasses import astuple, dataclass, fields
from pathlib import Path
from typing import Literal

Target = Literal["cpu", "cuda"]
TARGETS: tuple[Target, ...] = ("cpu", "cuda")


@dataclass(frozen=True)
class CompileOptions:
    """How a payload is compiled; `hash()` is part of every cache key.

    Attributes:
        target: "cpu" (llvmlite MCJIT on this host) or "cuda" (NVPTX, run through cuda-python).
        opt_level: LLVM optimization level, 0 to 3.
        arch: CUDA compute capability for the NVPTX target, e.g. "sm_90".
        ptx_version: PTX ISA version as an LLVM feature (e.g. "ptx80"); None picks the default.
        cpu_name: LLVM CPU name for the CPU target; None means the host CPU.
        cpu_features: LLVM feature string for the CPU target; None means the host's features.
        verify_each: after each top-level transform op, run the payload and compare with the
            reference (slow; for debugging schedules).
        dump_dir: if set, every compile stage's text is written there.
        runtime_verification: (cpu) insert upstream's runtime checks before lowering
            (`generate-runtime-verification`: index bounds, division by zero, ...); a failed
            check ends the call with a `RuntimeVerificationError` at the payload op.
        isolate_llvm: run LLVM's optimizer and code generators in the LLVM worker process,
            where an LLVM crash is an internal compiler error; False runs them in this
            process (only for debugging LLVM: a crash then ends the process).
    """

    target: Target = "cpu"
    opt_level: int = 3
    arch: str = "sm_90"
    ptx_version: str | None = None
    cpu_name: str | None = None
    cpu_features: str | None = None
    verify_each: bool = False
    dump_dir: Path | None = None
    runtime_verification: bool = False
    isolate_llvm: bool = True

    def __post_init__(self) -> None:
        if self.target not in TARGETS:
            raise ValueError(
                f"unknown target '{self.target}' (expected one of {', '.join(TARGETS)})"
            )
        if not 0 <= self.opt_level <= 3:
            raise ValueError(f"opt_level must be between 0 and 3, got {self.opt_level}")
        if self.runtime_verification and self.target != "cpu":
            raise ValueError("runtime verification is only available for the cpu target")
        if not self.arch.startswith("sm_") or not self.arch[3:].rstrip("a").isdigit():
            raise ValueError(f"arch must look like 'sm_90', got '{self.arch}'")

    def hash(self) -> str:
        """A stable digest of every field that changes the generated code."""
        relevant = tuple(
            value
            for f, value in zip(fields(self), astuple(self), strict=True)
            if f.name not in ("dump_dir", "verify_each", "isolate_llvm")
        )
        return hashlib.sha256(repr(relevant).encode()).hexdigest()[:16]
