"""Lowering passes: one `ModulePass` per file, the file named after the pass.

`get_all_passes()` is the registry `-p` pipelines and `apply_registered_pass` resolve names
against: every module `schedir/lowering/<snake_name>.py` whose pass is named
`<kebab-name>` (that file/name rule is what makes discovery work, and the STYLE rule),
plus the xDSL passes schedir reuses as they are. Modules are imported only when their
pass is requested, so `schedir-opt` starts quickly.

`pipelines.py` lists the pass sequences as data. The sub-packages are what the passes
share: `llvm/` (the `*-to-llvm` conversions' machinery), `bufferization/` (One-Shot
analysis and rewrite), `gpu/` (kernels, captures, written arguments, index bounds),
`nvvm/` (the steps of convert-gpu-to-nvvm) and `to_llvm_ir/` (LLVM dialect -> LLVM IR).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from functools import cache
from pathlib import Path

from xdsl.passes import ModulePass

_NOT_PASSES = frozenset({"__init__", "pipelines"})
"""Modules of this package that hold no pass."""

_XDSL_PASSES: tuple[str, ...] = (
    "canonicalize",
    "cse",
    "dce",
    "licm",
    "lower-affine",
    "convert-scf-to-cf",
)
"""xDSL passes schedir reuses unchanged (a schedir module of the same name wins)."""


def _own_pass_factory(module_name: str, pass_name: str) -> Callable[[], type[ModulePass]]:
    def factory() -> type[ModulePass]:
        module = importlib.import_module(f"schedir.lowering.{module_name}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if (
                issubclass(cls, ModulePass)
                and cls.__module__ == module.__name__
                and cls.name == pass_name
            ):
                return cls
        raise LookupError(f"schedir/lowering/{module_name}.py defines no pass named '{pass_name}'")

    return factory


@cache
def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Pass name -> factory returning the pass class, for every pass schedir can run."""
    from xdsl.transforms import get_all_passes as xdsl_passes

    available = xdsl_passes()
    passes = {name: available[name] for name in _XDSL_PASSES}
    for path in sorted(Path(__file__).parent.glob("*.py")):
        if path.stem in _NOT_PASSES or path.stem.startswith("_"):
            continue
        passes[path.stem.replace("_", "-")] = _own_pass_factory(
            path.stem, path.stem.replace("_", "-")
        )
    return passes


def get_own_passes() -> tuple[str, ...]:
    """Names of the passes schedir defines itself (not the xDSL passes it reuses)."""
    return tuple(name for name in get_all_passes() if name not in _XDSL_PASSES)


__all__ = ["get_all_passes", "get_own_passes"]
