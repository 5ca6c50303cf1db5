"""The reference finds its handlers by op class: the classes the parser builds."""

from __future__ import annotations

from types import ModuleType

import pytest

from schedir.dialects import get_context
from schedir.reference import arith_math, control, linalg, tensor_ops


@pytest.mark.parametrize(
    "module", [arith_math, control, linalg, tensor_ops], ids=lambda m: m.__name__
)
def test_handlers_are_keyed_on_the_classes_the_context_registers(module: ModuleType) -> None:
    # For some names both xDSL and schedir define a class; a handler keyed on the class the
    # context does not register would never run on a parsed payload. A class whose name the
    # context does not register at all (xDSL's named elementwise linalg ops) is reached only
    # by IR built in Python.
    ctx = get_context()
    for cls in module.handlers():
        registered = ctx.get_optional_op(cls.name)
        assert registered is None or registered is cls, (
            f"{cls.__module__}.{cls.__qualname__} is not the class registered for "
            f"'{cls.name}' ({registered.__module__}.{registered.__qualname__})"
        )
