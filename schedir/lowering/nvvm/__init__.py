"""The steps of `convert-gpu-to-nvvm`: kernels to functions with their shared and private
memory (`kernels`), gpu ops to NVVM special registers, barriers, shuffles and `vprintf`
(`gpu_ops`), collective reductions to shuffle butterflies (`reductions`), math to libdevice calls (`libdevice`), and the nvgpu tensor-core and async-copy ops to
NVPTX intrinsics and inline PTX (`nvgpu_ops`)."""

from schedir.lowering.nvvm.gpu_ops import GPU_OP_LOWERINGS, lower_printf
from schedir.lowering.nvvm.kernels import PASS, Globals, prepare_memory, to_func
from schedir.lowering.nvvm.libdevice import LIBDEVICE_LOWERINGS
from schedir.lowering.nvvm.nvgpu_ops import NVGPU_LOWERINGS
from schedir.lowering.nvvm.reductions import lower_reductions

__all__ = [
    "GPU_OP_LOWERINGS",
    "LIBDEVICE_LOWERINGS",
    "NVGPU_LOWERINGS",
    "PASS",
    "Globals",
    "lower_printf",
    "lower_reductions",
    "prepare_memory",
    "to_func",
]
