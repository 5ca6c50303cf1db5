"""Apply functions of the core transform ops (upstream's TransformOps.cpp), one module
per module of `schedir.dialects.transform.core`: `sequence`, `control`, `handles`,
`match`, `apply` and `conversion`."""

from __future__ import annotations

from types import ModuleType

from schedir.transform.ops.core import apply, control, conversion, handles, match, sequence

MODULES: tuple[ModuleType, ...] = (sequence, control, handles, match, apply, conversion)
"""The apply modules of this package."""

__all__ = ["MODULES"]
