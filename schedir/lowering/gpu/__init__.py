"""What the GPU lowering passes share: where launches, kernels and captured values are
(`kernels`), which arguments a host function writes (`arguments`), and static bounds of
index values (`bounds`)."""

from schedir.lowering.gpu.arguments import written_arguments
from schedir.lowering.gpu.bounds import upper_bound
from schedir.lowering.gpu.kernels import (
    GPU_OPS,
    enclosing_function,
    gpu_modules,
    is_nested_in,
    launches,
    symbol_names,
    unique_name,
    used_values_defined_above,
)

__all__ = [
    "GPU_OPS",
    "enclosing_function",
    "gpu_modules",
    "is_nested_in",
    "launches",
    "symbol_names",
    "unique_name",
    "upper_bound",
    "used_values_defined_above",
    "written_arguments",
]
