"""The transform dialect in upstream syntax: schedules are programs over payload handles.

The ops are grouped as upstream groups its transform extensions, one op family per
module: `core/` (TransformOps.td: `sequence`, `control`, `handles`, `match`, `apply`),
`structured/` (LinalgTransformOps.td: `match`, `tile`, `fuse`, `partition`, `rewrite`,
`vectorize`, `memory`, `bufferization`, `gpu`, `patterns`), `match_structured`
(LinalgMatchOps.td), `loop` (SCFTransformOps.td), `bufferization`, `memref`, `tensor`,
`vector`, `gpu`, `math`, `debug`, `tune` and `smt`; `schedir_gpu` is schedir's own extension
(`transform.schedir.gpu.*`). `interfaces` says what the interpreter asks
of every op (consumed operands, repeated handles, match ops); `descriptors` builds the
`apply_patterns.*` descriptor ops. Each module is applied by the module of the same
relative path in `schedir.transform.ops`.

`Transform` is the dialect object of all of them, with xDSL's handle types
(`!transform.any_op`, `!transform.op<"...">`, `!transform.param<T>`,
`!transform.any_param`, `!transform.any_value`).
"""

from __future__ import annotations

from xdsl.ir import Dialect

from schedir.dialects.transform.interfaces import (
    PatternDescriptorOpInterface,
    TransformOpInterface,
)


def _build() -> Dialect:
    from importlib import import_module

    ops: list[type] = []
    attrs: list[type] = []
    for name in _EXTENSIONS:
        module = import_module(f"schedir.dialects.transform.{name}")
        ops.extend(module.OPS)
        attrs.extend(getattr(module, "ATTRS", ()))
    return Dialect("transform", ops, attrs)


_EXTENSIONS: tuple[str, ...] = (
    "core",
    "structured",
    "match_structured",
    "loop",
    "affine",
    "bufferization",
    "memref",
    "func",
    "tensor",
    "math",
    "debug",
    "gpu",
    "vector",
    "tune",
    "smt",
    "schedir_gpu",
    "nvgpu",
    "nvgpu_mma",
)
"""Modules contributing ops: each defines `OPS` (and optionally `ATTRS`)."""


Transform: Dialect
"""The transform dialect (built on first use, by `__getattr__`)."""


def __getattr__(name: str) -> Dialect:
    # Built on first use, so importing the interfaces does not load every extension.
    if name == "Transform":
        dialect = _build()
        globals()["Transform"] = dialect
        return dialect
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["PatternDescriptorOpInterface", "Transform", "TransformOpInterface"]
