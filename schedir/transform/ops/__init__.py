"""Apply functions of the transform ops, registered on the op classes.

Each module of this package holds the apply functions of one family of ops (as upstream
groups them in transform extensions), each declared with `@applies(OpClass)`. An apply
function is a thin adapter: it reads handles from the interpreter's state, calls a payload
algorithm from `schedir.transform.rewrites`, and sets the result handles.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType, ModuleType
from typing import Any

from xdsl.ir import Operation

from schedir.transform.interface import Apply
from schedir.transform.ops import (
    bufferization,
    control,
    core,
    debug,
    fuse,
    gpu,
    loop,
    match,
    match_structured,
    memory,
    passes,
    patterns,
    structured,
    tile,
    tune,
    vectorize,
)

FAMILIES: tuple[ModuleType, ...] = (
    control,
    core,
    match,
    match_structured,
    passes,
    structured,
    tile,
    fuse,
    patterns,
    loop,
    tune,
    gpu,
    bufferization,
    memory,
    vectorize,
    debug,
)
"""The modules of this package that hold apply functions."""


def _collect() -> Mapping[type[Operation], Apply[Any]]:
    table: dict[type[Operation], Apply[Any]] = {}
    for family in FAMILIES:
        for value in vars(family).values():
            if isinstance(value, Apply) and value.fn.__module__ == family.__name__:
                assert value.op_class not in table, f"{value.op_class.name} applied twice"
                table[value.op_class] = value
    return MappingProxyType(table)


APPLY: Mapping[type[Operation], Apply[Any]] = _collect()
"""The apply function of each op class that has one."""

__all__ = ["APPLY", "FAMILIES"]
