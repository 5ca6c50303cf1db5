"""The transform ops and their apply functions stay linked by class, in mirrored trees.

Every op class of the Transform dialect has exactly one of: an apply function
(`schedir.transform.ops.APPLY`), a pattern set (`PATTERNS`, for descriptors), a place in
`PARSE_ONLY` (parsed but not implemented yet) or in `STRUCTURAL` (never applied on its
own). `schedir/transform/ops/<x>.py` applies only ops of `schedir/dialects/transform/<x>.py`.
Applying a parse-only op fails definitely, naming the op.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, cast

import pytest
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, i32
from xdsl.dialects.transform import AnyOpType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.irdl import AttrSizedOperandSegments, IRDLOperation, OptionalDef, VariadicDef

from schedir.diagnostics import TransformError
from schedir.dialects import get_context
from schedir.dialects.transform import Transform
from schedir.dialects.transform.core.apply import ApplyPatternsOp
from schedir.dialects.transform.interfaces import PatternDescriptorOpInterface
from schedir.transform import ops as transform_ops
from schedir.transform.interface import Apply, Populate
from schedir.transform.interpreter import TransformInterpreter

DIALECT_PREFIX = "schedir.dialects.transform."
OPS_PREFIX = "schedir.transform.ops."

OP_CLASSES: list[type[IRDLOperation]] = sorted(
    (cast(type[IRDLOperation], cls) for cls in Transform.operations), key=lambda cls: cls.name
)


def _name(cls: type[Operation]) -> str:
    return cls.name


def test_every_op_class_is_applied_populated_parse_only_or_structural() -> None:
    kinds = {
        "APPLY": set(transform_ops.APPLY),
        "PATTERNS": set(transform_ops.PATTERNS),
        "PARSE_ONLY": set(transform_ops.PARSE_ONLY),
        "STRUCTURAL": set(transform_ops.STRUCTURAL),
    }
    for cls in OP_CLASSES:
        where = [kind for kind, classes in kinds.items() if cls in classes]
        assert len(where) == 1, (
            f"{cls.name} ({cls.__name__}) is in {where or 'none of'} {list(kinds)}"
        )
    registered = set(OP_CLASSES)
    for kind, classes in kinds.items():
        assert classes <= registered, f"{kind} lists classes the dialect does not register"


def test_parse_only_ops_have_no_apply_function() -> None:
    for cls in transform_ops.PARSE_ONLY:
        assert cls not in transform_ops.APPLY, f"{cls.name} is applied: drop it from PARSE_ONLY"
        assert cls not in transform_ops.PATTERNS, f"{cls.name} has a pattern set: drop it"


def test_only_descriptors_have_pattern_sets() -> None:
    for cls in transform_ops.PATTERNS:
        assert issubclass(cls, PatternDescriptorOpInterface), cls.name
    for cls in transform_ops.APPLY:
        assert not issubclass(cls, PatternDescriptorOpInterface), cls.name


def _relative(module: str, prefix: str) -> str:
    assert module.startswith(prefix), module
    return module.removeprefix(prefix)


@pytest.mark.parametrize(
    "registered",
    [*transform_ops.APPLY.values(), *transform_ops.PATTERNS.values()],
    ids=lambda registered: registered.op_class.name,
)
def test_apply_module_mirrors_the_dialect_module(registered: Apply[Any] | Populate[Any]) -> None:
    op_class = registered.op_class
    dialect = _relative(op_class.__module__, DIALECT_PREFIX)
    applied = _relative(registered.fn.__module__, OPS_PREFIX)
    assert applied == dialect, (
        f"{op_class.name} is defined in dialects/transform/{dialect.replace('.', '/')}.py "
        f"but applied in transform/ops/{applied.replace('.', '/')}.py"
    )


def test_apply_modules_are_listed() -> None:
    listed: set[ModuleType] = set(transform_ops.MODULES)
    for registered in [*transform_ops.APPLY.values(), *transform_ops.PATTERNS.values()]:
        assert any(module.__name__ == registered.fn.__module__ for module in listed)


# --- applying a parse-only op -------------------------------------------------------------


def _handles_and_interpreter(count: int) -> tuple[list[SSAValue], TransformInterpreter]:
    """`count` handles, each to its own payload op, and an interpreter holding them."""
    children = [ModuleOp([]) for _ in range(count)]
    payload = ModuleOp(list(children))
    interp = TransformInterpreter(get_context(), payload, payload)
    handles = list(Block(arg_types=[AnyOpType()] * count).args)
    for handle, child in zip(handles, children, strict=True):
        interp.state.set_payload_ops(handle, [child])
    return handles, interp


def _instance(cls: type[IRDLOperation]) -> tuple[IRDLOperation, TransformInterpreter]:
    """An op of `cls` with each single operand bound to its own handle (no variadic ones),
    and the interpreter that maps those handles."""
    op_def = cls.get_irdl_definition()
    sizes = [0 if isinstance(d, VariadicDef | OptionalDef) else 1 for _, d in op_def.operands]
    handles, interp = _handles_and_interpreter(sum(sizes))
    properties: dict[str, Attribute] = {}
    if any(isinstance(o, AttrSizedOperandSegments) for o in op_def.options):
        properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, sizes)
    results = [
        AnyOpType() for _, d in op_def.results if not isinstance(d, VariadicDef | OptionalDef)
    ]
    op = cls.create(operands=handles, result_types=results, properties=properties)
    return op, interp


PARSE_ONLY: list[type[IRDLOperation]] = sorted(
    (cast(type[IRDLOperation], cls) for cls in transform_ops.PARSE_ONLY), key=_name
)


@pytest.mark.parametrize("cls", PARSE_ONLY, ids=_name)
def test_applying_a_parse_only_op_says_it_is_not_implemented(cls: type[IRDLOperation]) -> None:
    op: Operation
    if issubclass(cls, PatternDescriptorOpInterface):
        # A descriptor is "applied" by the apply_patterns that names it.
        (handle,), interp = _handles_and_interpreter(1)
        op = ApplyPatternsOp(handle, [cls.create()])
    else:
        op, interp = _instance(cls)
    with pytest.raises(TransformError) as info:
        interp.apply(op)
    assert not info.value.silenceable
    assert info.value.message == (
        f"'{cls.name}' is not implemented yet in schedir's transform interpreter"
    )
