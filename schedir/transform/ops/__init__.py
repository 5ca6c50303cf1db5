"""Apply functions of the transform ops, registered on the op classes.

The tree mirrors `schedir.dialects.transform`: `ops/<x>.py` applies exactly the ops that
`dialects/transform/<x>.py` defines (`ops/structured/tile.py` those of
`dialects/transform/structured/tile.py`, ...). An apply function is declared with
`@applies(OpClass)` and is a thin adapter: it reads the op's typed fields and handles,
calls a payload algorithm from `schedir.transform.rewrites`, and sets the result handles.
A pattern descriptor's set is declared with `@populates(DescriptorClass)`.

The interpreter looks the apply function up by the op's class in `APPLY` (and a
descriptor's pattern set in `PATTERNS`); the op classes it does not implement yet are
in `PARSE_ONLY` (derived: the dialect's ops with neither), and applying one is a definite failure that says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType, ModuleType
from typing import Any

from xdsl.ir import Operation

from schedir.dialects.transform import Transform
from schedir.dialects.transform.core.sequence import NamedSequenceOp, YieldOp
from schedir.transform.interface import Apply, Populate
from schedir.transform.ops import (
    affine,
    bufferization,
    core,
    debug,
    func,
    gpu,
    loop,
    match_structured,
    math,
    memref,
    nvgpu,
    nvgpu_mma,
    schedir_gpu,
    smt,
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
    affine,
    bufferization,
    memref,
    func,
    tensor,
    vector,
    gpu,
    math,
    debug,
    tune,
    smt,
    schedir_gpu,
    nvgpu,
    nvgpu_mma,
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

STRUCTURAL: frozenset[type[Operation]] = frozenset({NamedSequenceOp, YieldOp})
"""Op classes that are never applied on their own: the interpreter runs a named sequence
(the entry point, or through `include`) and each region's `yield` is read by the op that
runs the region."""

PARSE_ONLY: frozenset[type[Operation]] = frozenset(
    op
    for op in Transform.operations
    if op not in APPLY and op not in PATTERNS and op not in STRUCTURAL
)
"""Op classes that parse, verify and print but that schedir's interpreter does not
implement yet: applying one (or naming a descriptor in `apply_patterns`) is a definite
failure "'<op>' is not implemented yet in schedir's transform interpreter". Derived: every
op of the transform dialect that has neither an apply function nor a pattern set and is
not structural."""

__all__ = ["APPLY", "MODULES", "PARSE_ONLY", "PATTERNS", "STRUCTURAL"]
