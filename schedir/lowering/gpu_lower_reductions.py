"""`gpu-lower-reductions`: `gpu.all_reduce` and `gpu.subgroup_reduce` in every `gpu.func` to
xor-shuffle butterflies (`gpu.shuffle`), with the cross-warp step of an all-reduce through a
workgroup buffer.

convert-gpu-to-nvvm runs the same rewrite first (as upstream's pass applies its all-reduce
patterns first); this pass shows it alone, in gpu-dialect terms (upstream's test passes
`test-all-reduce-lowering` and `test-gpu-subgroup-reduce-lowering`). The algorithm and its
limits are in schedir/lowering/nvvm/reductions.py.

Before:

    gpu.func @k(%a: memref<32xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %t = gpu.thread_id x
      %v = memref.load %a[%t] : memref<32xf32>
      %s = gpu.subgroup_reduce add %v cluster(size = 4) : (f32) -> f32
      memref.store %s, %a[%t] : memref<32xf32>
      gpu.return
    }

After:

    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %0, %1 = gpu.shuffle xor %v, %c1, %c32 : f32
    %2 = arith.addf %v, %0 : f32
    %c2 = arith.constant 2 : i32
    %3, %4 = gpu.shuffle xor %2, %c2, %c32 : f32
    %s = arith.addf %2, %3 : f32
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from schedir.dialects import gpu
from schedir.lowering.nvvm import lower_reductions


@dataclass(frozen=True)
class GpuLowerReductions(ModulePass):
    """Lower the collective reductions of every `gpu.func` (see the module docstring)."""

    name = "gpu-lower-reductions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for kernel in [k for k in op.walk() if isinstance(k, gpu.FuncOp)]:
            lower_reductions(kernel, self.name)


__all__ = ["GpuLowerReductions"]
