"""schedir as an xDSL plugin: its dialects and passes in `xdsl-opt` and every xDSL tool.

xDSL discovers plugins through the `xdsl.universe` entry-point group (pyproject.toml
names `schedir.universe:SCHEDIR_UNIVERSE`); `Universe.get_multiverse()` merges every
plugin's dialects and passes by name and refuses a name two plugins define.

schedir's dialects share their names with xDSL's (`arith`, `linalg`, `transform`, ...):
they are xDSL's op classes mixed with schedir's own where xDSL lacks an op or writes it
in other than upstream syntax, so an op name resolves to exactly one class. For those
names schedir's dialect takes the place of xDSL's: loading this module removes the names
from xDSL's own universe, and each dialect registered here is schedir's, extended with
any op or attribute of xDSL's dialect of the same name that schedir does not define (so
what xDSL parsed before still parses). The same holds for schedir's own passes whose
names xDSL also uses (a schedir module of the same name wins, as in schedir's registry);
the xDSL passes schedir reuses unchanged stay xDSL's. `transform-interpreter` is
schedir's interpreter, as `schedir-opt` applies a schedule (the schedule is then removed
from the module).

    xdsl-opt examples/matmul.mlir -p linalg-generalize-named-ops
    xdsl-opt payload_with_schedule.mlir -p transform-interpreter

Importing this module imports neither the dialects nor the passes: each is loaded when a
tool first asks for its name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import XDSL_UNIVERSE, Universe
from xdsl.utils.exceptions import DiagnosticException

from schedir.dialects.context import DIALECT_FACTORIES
from schedir.lowering import get_all_passes, get_own_passes


def _merged(name: str, own: Callable[[], Dialect], xdsl: Callable[[], Dialect] | None) -> Dialect:
    """schedir's dialect `name`, plus what xDSL's dialect of that name has and it lacks."""
    dialect = own()
    if xdsl is None:
        return dialect
    theirs = xdsl()
    if theirs is dialect:
        return dialect
    ops = {op.name for op in dialect.operations}
    attrs = {attr.name for attr in dialect.attributes}
    extra_ops = [op for op in theirs.operations if op.name not in ops]
    extra_attrs = [attr for attr in theirs.attributes if attr.name not in attrs]
    if not extra_ops and not extra_attrs:
        return dialect
    # `replace` keeps the dialect's interfaces; the fields are the dataclass's init names.
    return replace(
        dialect,
        _operations=[*dialect.operations, *extra_ops],
        _attributes=[*dialect.attributes, *extra_attrs],
    )


def _dialect_factory(
    name: str, own: Callable[[], Dialect], xdsl: Callable[[], Dialect] | None
) -> Callable[[], Dialect]:
    return lambda: _merged(name, own, xdsl)


@dataclass(frozen=True)
class TransformInterpreterPass(ModulePass):
    """Apply the module's schedule (`@__transform_main`, or `entry_point`) with schedir's
    transform interpreter, as `schedir-opt` does, then remove the schedule from the module.

    A failing transform op is a `DiagnosticException` carrying schedir's diagnostic.
    """

    name = "transform-interpreter"

    entry_point: str = "__transform_main"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from schedir.diagnostics import SchedirError
        from schedir.dialects.context import get_context
        from schedir.pipeline import apply_schedule

        try:
            # schedir's context: the interpreter builds IR of every schedir dialect.
            apply_schedule(get_context(), op, entry_point=self.entry_point)
        except SchedirError as err:
            raise DiagnosticException(err.render()) from None


def _universe() -> Universe:
    dialects: dict[str, Callable[[], Dialect]] = {}
    for name, factory in DIALECT_FACTORIES:
        # schedir's dialect of this name replaces xDSL's (see the module docstring).
        theirs = XDSL_UNIVERSE.all_dialects.pop(name, None)
        dialects[name] = _dialect_factory(name, factory, theirs)
    passes: dict[str, Callable[[], type[ModulePass]]] = {}
    available = get_all_passes()
    for name in get_own_passes():
        XDSL_UNIVERSE.all_passes.pop(name, None)
        passes[name] = available[name]
    XDSL_UNIVERSE.all_passes.pop(TransformInterpreterPass.name, None)
    passes[TransformInterpreterPass.name] = lambda: TransformInterpreterPass
    return Universe(all_dialects=dialects, all_passes=passes)


SCHEDIR_UNIVERSE = _universe()
"""schedir's dialects and passes, for `xdsl-opt` and the other xDSL tools."""


__all__ = ["SCHEDIR_UNIVERSE", "TransformInterpreterPass"]
