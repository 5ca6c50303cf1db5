"""The context every schedir stage parses and builds IR in: each dialect, registered lazily.

`get_context()` returns a fresh xDSL `Context` holding every dialect a payload, a schedule
or a lowering stage may contain. Where xDSL lacks an op or gets its syntax wrong, the
dialect object registered here mixes xDSL's op classes with schedir's own (defined with
upstream MLIR syntax in the sibling modules and sub-packages), so each name resolves to
exactly one class. A context only imports the dialects a parsed file uses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.context import Context
from xdsl.ir import Dialect, Operation


class SchedirContext(Context):
    """xDSL's context with MLIR's rule for unregistered operations.

    With `allow_unregistered` (`--allow-unregistered-dialect`), an op of a dialect schedir
    does not know (`"foo.bar"(...)`, `"some_op"(...)`) parses as an opaque op; an unknown op
    of a dialect schedir knows (`transform.not_an_op`) stays unknown, as MLIR reports it,
    instead of becoming an opaque op that no custom syntax can parse.
    """

    def get_optional_op(
        self, name: str, *, dialect_stack: Sequence[str] = ()
    ) -> type[Operation] | None:
        dialect = name.split(".", 1)[0] if "." in name else ""
        known_dialect = dialect in self._registered_dialects or dialect in self._loaded_dialects
        if not (self.allow_unregistered and known_dialect):
            return super().get_optional_op(name, dialect_stack=dialect_stack)
        self.allow_unregistered = False
        try:
            return super().get_optional_op(name, dialect_stack=dialect_stack)
        finally:
            self.allow_unregistered = True


def _builtin() -> Dialect:
    from xdsl.dialects.builtin import Builtin

    return Builtin


def _func() -> Dialect:
    from xdsl.dialects.func import Func

    return Func


def _arith() -> Dialect:
    from schedir.dialects.arith import Arith

    return Arith


def _math() -> Dialect:
    from xdsl.dialects.math import Math

    return Math


def _cf() -> Dialect:
    from xdsl.dialects.cf import Cf

    return Cf


def _linalg() -> Dialect:
    from schedir.dialects.linalg import Linalg

    return Linalg


def _tensor() -> Dialect:
    from schedir.dialects.tensor import Tensor

    return Tensor


def _scf() -> Dialect:
    from schedir.dialects.scf import Scf

    return Scf


def _affine() -> Dialect:
    from schedir.dialects.affine import Affine

    return Affine


def _memref() -> Dialect:
    from schedir.dialects.memref import MemRef

    return MemRef


def _bufferization() -> Dialect:
    from schedir.dialects.bufferization import Bufferization

    return Bufferization


def _llvm() -> Dialect:
    from schedir.dialects.llvm import LLVM

    return LLVM


def _vector() -> Dialect:
    from schedir.dialects.vector import Vector

    return Vector


def _ub() -> Dialect:
    # `ub.poison` is what upstream's vector lowerings start unrolled results from.
    from xdsl.dialects.ub import UB

    return UB


def _gpu() -> Dialect:
    from schedir.dialects.gpu import GPU

    return GPU


def _nvvm() -> Dialect:
    from schedir.dialects.nvvm import NVVM

    return NVVM


def _nvgpu() -> Dialect:
    # By name, as the transform dialect is built: the nvgpu verifiers raise
    # dialects.syntax's located exceptions, and dialects.syntax imports this module.
    from importlib import import_module

    dialect = import_module("schedir.dialects.nvgpu").NVGPU
    assert isinstance(dialect, Dialect)
    return dialect


def _smt() -> Dialect:
    from schedir.dialects.smt import Smt

    return Smt


def _transform() -> Dialect:
    from schedir.dialects.transform import Transform

    return Transform


DIALECT_FACTORIES: tuple[tuple[str, Callable[[], Dialect]], ...] = (
    ("builtin", _builtin),
    ("func", _func),
    ("arith", _arith),
    ("math", _math),
    ("cf", _cf),
    ("linalg", _linalg),
    ("tensor", _tensor),
    ("scf", _scf),
    ("affine", _affine),
    ("memref", _memref),
    ("bufferization", _bufferization),
    ("llvm", _llvm),
    ("vector", _vector),
    ("ub", _ub),
    ("gpu", _gpu),
    ("nvvm", _nvvm),
    ("nvgpu", _nvgpu),
    ("smt", _smt),
    ("transform", _transform),
)
"""Every dialect schedir understands, by name; later issues add transform, nvvm, ..."""


def get_context() -> Context:
    """A new context with every schedir dialect registered (loaded on first use)."""
    ctx = SchedirContext(allow_unregistered=False)
    for name, factory in DIALECT_FACTORIES:
        ctx.register_dialect(name, factory)
    ctx.load_registered_dialect("builtin")
    return ctx


__all__ = ["DIALECT_FACTORIES", "SchedirContext", "get_context"]
