"""schedir: linalg payloads compiled by MLIR Transform-dialect schedules, in Python on xDSL.

import schedir
kernel = schedir.compile("examples/matmul.mlir")
c = kernel(a, b)
expected = schedir.reference.evaluate("examples/matmul.mlir", None, [a, b])
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from schedir.diagnostics import (
    InputError,
    LoweringError,
    ParseError,
    SchedirError,
    ToolError,
    TransformError,
    UnsupportedError,
    VerifyError,
)
from schedir.options import CompileOptions

if TYPE_CHECKING:
    from schedir import reference
    from schedir.api import BenchResult, Kernel, compile
    from schedir.dialects.syntax import parse_module as parse
    from schedir.tuning import TuneResult, tune

__all__ = [
    "BenchResult",
    "CompileOptions",
    "InputError",
    "Kernel",
    "LoweringError",
    "ParseError",
    "SchedirError",
    "ToolError",
    "TransformError",
    "TuneResult",
    "UnsupportedError",
    "VerifyError",
    "compile",
    "parse",
    "reference",
    "tune",
]

_LAZY = {
    "compile": ("schedir.api", "compile"),
    "Kernel": ("schedir.api", "Kernel"),
    "BenchResult": ("schedir.api", "BenchResult"),
    "parse": ("schedir.dialects.syntax", "parse_module"),
    "tune": ("schedir.tuning", "tune"),
    "TuneResult": ("schedir.tuning", "TuneResult"),
}


def __getattr__(name: str) -> Any:
    # Importing xDSL and llvmlite costs ~0.4 s: load them when first used, not on `import schedir`.
    if name == "reference":
        return importlib.import_module("schedir.reference")
    if name in _LAZY:
        module, attr = _LAZY[name]
        return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module 'schedir' has no attribute '{name}'")
