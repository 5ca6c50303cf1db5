"""Apply functions of the transform ops, registered on the op classes.

The tree mirrors `schedir.dialects.transform`: `ops/<x>.py` applies exactly the ops that
`dialects/transform/<x>.py` defines (`ops/structured/tile.py` those of
`dialects/transform/structured/tile.py`, ...). An apply function is declared with
`@applies(OpClass)` and is a thin adapter: it reads the op's typed fields and handles,
calls a payload algorithm from `schedir.transform.rewrites`, and sets the result handles.
A pattern descriptor's set is declared with `@populates(DescriptorClass)`.

The interpreter looks the apply function up by the op's class in `APPLY` (and a
descriptor's pattern set in `PATTERNS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType, ModuleType
from typing import Any

from xdsl.ir import Operation

from schedir.transform.interface import Apply, Populate
from schedir.transform.ops import (
    bufferization,
    core,
    debug,
    gpu,
    loop,
    match_structured,
    math,
    memref,
    structured,
    tensor,
    tune,
    vector,
)

MODULES: tuple[ModuleType, ...] = (
    *core.MODULES,
    *structured.MODULES,
    match_structured,
    loop,
    bufferization,
    memref,
    tensor,
    vector,
    gpu,
    math,
    debug,
    tune,
)
"""The modules of this package that apply ops or give descriptors their pattern sets."""


def _collect(kind: type[Any]) -> Mapping[type[Operation], Any]:
    table: dict[type[Operation], Any] = {}
    for module in MODULES:
        for value in vars(module).values():
            if isinstance(value, kind) and value.fn.__module__ == module.__name__:
                assert value.op_class not in table, f"{value.op_class.name} registered twice"
                table[value.op_class] = value
    return MappingProxyType(table)


APPLY: Mapping[type[Operation], Apply[Any]] = _collect(Apply)
"""The apply function of each op class that has one."""

PATTERNS: Mapping[type[Operation], Populate[Any]] = _collect(Populate)
"""The pattern set of each descriptor class that has one."""


__all__ = ["APPLY", "MODULES", "PATTERNS"]
