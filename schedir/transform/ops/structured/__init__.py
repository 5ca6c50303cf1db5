"""Apply functions of the structured (linalg) transform ops (upstream's
LinalgTransformOps.cpp), one module per module of `schedir.dialects.transform.structured`.
`_sizes` unpacks the size lists several of them take."""

from __future__ import annotations

from types import ModuleType

from schedir.transform.ops.structured import (
    bufferization,
    fuse,
    gpu,
    match,
    memory,
    pack,
    padding,
    partition,
    patterns,
    rewrite,
    tile,
    vectorize,
)

MODULES: tuple[ModuleType, ...] = (
    match,
    tile,
    fuse,
    partition,
    pack,
    rewrite,
    vectorize,
    padding,
    memory,
    bufferization,
    gpu,
    patterns,
)
"""The apply modules of this package."""

__all__ = ["MODULES"]
