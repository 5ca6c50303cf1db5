"""`nvvm-attach-target`: give every `gpu.module` the NVPTX target it is compiled for.

Upstream's pass (Dialect/GPU/Transforms/NVVMAttachTarget.cpp): appends
`#nvvm.target<O = .., chip = .., features = ..>` to the `targets` of each `gpu.module`
(whose name matches `module`, a regular expression; all by default). `gpu-module-to-binary`
compiles each module for its targets. Options as upstream's: `chip` (default `sm_50`),
`features` (`+ptx60`), `O` (2), `triple` (`nvptx64-nvidia-cuda`), `module`.

    gpu.module @k { ... }
    // nvvm-attach-target{chip=sm_90 features=+ptx80 O=3} ->
    gpu.module @k [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">] { ... }
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.passes import ModulePass

from schedir.dialects.nvvm import TargetAttr
from schedir.lowering.gpu import gpu_modules


def attach_target(module: ModuleOp, target: TargetAttr, pattern: str = "") -> None:
    """Append `target` to the targets of every gpu.module whose name matches `pattern`."""
    regex = re.compile(pattern) if pattern else None
    for device in gpu_modules(module):
        if regex is not None and not regex.fullmatch(device.sym_name.data):
            continue
        existing = list(device.targets.data) if device.targets is not None else []
        if target not in existing:
            device.targets = ArrayAttr([*existing, target])


@dataclass(frozen=True)
class NVVMAttachTarget(ModulePass):
    """Attach an `#nvvm.target` to the gpu.modules (see the module docstring)."""

    name = "nvvm-attach-target"

    chip: str = "sm_50"
    features: str = "+ptx60"
    O: int = 2  # noqa: E741 - upstream's option name
    triple: str = "nvptx64-nvidia-cuda"
    module: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        attach_target(op, TargetAttr(self.chip, self.features, self.O, self.triple), self.module)


__all__ = ["NVVMAttachTarget", "attach_target"]
