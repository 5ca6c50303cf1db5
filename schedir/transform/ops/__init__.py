"""Apply functions of the transform ops, by op name.

Each module of this package holds the apply functions of one family of ops (as upstream
groups them in transform extensions) and exports them as `APPLY: {op name: fn}`. An apply
function is a thin adapter: it reads handles from the interpreter's state, calls a payload
algorithm from `schedir.transform.rewrites`, and sets the result handles.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from types import MappingProxyType

from schedir.transform.interpreter import CONTROL_FLOW, ApplyFn

_FAMILIES: tuple[str, ...] = (
    "core",
    "match",
    "match_structured",
    "passes",
    "structured",
    "tile",
    "fuse",
    "patterns",
    "loop",
    "tune",
    "gpu",
    "bufferization",
    "memory",
    "vectorize",
    "debug",
)
"""Modules of this package contributing apply functions."""


def _collect() -> Mapping[str, ApplyFn]:
    table: dict[str, ApplyFn] = dict(CONTROL_FLOW)
    for family in _FAMILIES:
        module = import_module(f"schedir.transform.ops.{family}")
        overlap = table.keys() & module.APPLY.keys()
        assert not overlap, f"apply functions defined twice: {sorted(overlap)}"
        table.update(module.APPLY)
    return MappingProxyType(table)


APPLY: Mapping[str, ApplyFn] = _collect()

__all__ = ["APPLY"]
