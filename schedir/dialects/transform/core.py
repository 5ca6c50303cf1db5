"""Core transform ops: the structure of a schedule.

`named_sequence` (the callable unit and the `@__transform_main` entry), `sequence` and
`yield`, with upstream's syntax (TransformOps.td, LLVM 24) and verifiers, plus helpers
shared by the region-holding ops of `control.py`. The handle types are
xDSL's (`!transform.any_op`, `!transform.op<"...">`, `!transform.param<T>`,
`!transform.any_param`, `!transform.any_value`, `!transform.type`), which print as
upstream's. Control flow is in `control.py`, handle and parameter ops in `handles.py`, `apply_*`
ops in `apply.py`.

The ops and helpers live in `_core_named_sequence` (named_sequence, yield), `_core_sequence`
(sequence) and `_core_helpers` (handle kinds, consume annotations, functional types); this
module lists them and re-exports every public name.
"""

from __future__ import annotations

from xdsl.dialects.transform import (
    AffineMapType,
    AnyOpType,
    AnyParamType,
    AnyValueType,
    OperationType,
    ParamType,
    TypeParamType,
)
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation

from schedir.dialects.transform._core_helpers import (
    ARG_CONSUMED,
    ARG_READONLY,
    WITH_NAMED_SEQUENCE,
    arg_annotations,
    consumed_block_arguments,
    handle_kind,
    parse_functional_type,
    print_functional_type,
)
from schedir.dialects.transform._core_helpers import (
    verify_consume_annotations as verify_consume_annotations,
)
from schedir.dialects.transform._core_named_sequence import (
    NamedSequenceCallable as NamedSequenceCallable,
)
from schedir.dialects.transform._core_named_sequence import (
    NamedSequenceOp,
    YieldOp,
    ensure_yields,
    lookup_named_sequence,
    print_body,
)
from schedir.dialects.transform._core_sequence import SequenceOp
from schedir.dialects.transform._syntax_helpers import FailurePropagationMode

OPS: tuple[type[IRDLOperation], ...] = (NamedSequenceOp, SequenceOp, YieldOp)
ATTRS: tuple[type[Attribute], ...] = (
    AffineMapType,
    AnyOpType,
    AnyParamType,
    AnyValueType,
    OperationType,
    ParamType,
    TypeParamType,
)

__all__ = [
    "ARG_CONSUMED",
    "ARG_READONLY",
    "ATTRS",
    "OPS",
    "WITH_NAMED_SEQUENCE",
    "FailurePropagationMode",
    "NamedSequenceOp",
    "SequenceOp",
    "YieldOp",
    "arg_annotations",
    "consumed_block_arguments",
    "ensure_yields",
    "handle_kind",
    "lookup_named_sequence",
    "parse_functional_type",
    "print_body",
    "print_functional_type",
]
