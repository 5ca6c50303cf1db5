"""Core transform ops (upstream TransformOps.td): the structure of a schedule and the ops
on handles.

- `sequence`: `named_sequence` (the callable unit; `@__transform_main` is the entry),
  `sequence` and `yield`;
- `control`: `include`, `foreach`, `alternatives`, `foreach_match`, `collect_matching`;
- `handles`: splitting, merging, navigating, casting and annotating handles, and params;
- `match`: the core matcher predicates (`match.operation_name`, ...);
- `apply`: `apply_patterns`, `apply_cse`, `apply_dce`, `apply_licm`,
  `apply_registered_pass` and the `apply_patterns.canonicalization` descriptor;
- `conversion`: `apply_conversion_patterns` and `apply_conversion_patterns.dialect_to_llvm`.

Each module is applied by the module of the same name in `schedir.transform.ops.core`.
The handle types are xDSL's (`!transform.any_op`, `!transform.op<"...">`,
`!transform.param<T>`, `!transform.any_param`, `!transform.any_value`,
`!transform.type`), which print as upstream's.
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

from schedir.dialects.transform._syntax_helpers import FailurePropagationMode
from schedir.dialects.transform.core import apply, control, conversion, handles, match, sequence
from schedir.dialects.transform.core.sequence import (
    NamedSequenceOp,
    SequenceOp,
    YieldOp,
    ensure_yields,
    lookup_named_sequence,
    print_body,
)

OPS: tuple[type[IRDLOperation], ...] = (
    *sequence.OPS,
    *control.OPS,
    *handles.OPS,
    *match.OPS,
    *apply.OPS,
    *conversion.OPS,
)
ATTRS: tuple[type[Attribute], ...] = (
    AffineMapType,
    AnyOpType,
    AnyParamType,
    AnyValueType,
    OperationType,
    ParamType,
    TypeParamType,
    *apply.ATTRS,
)

__all__ = [
    "ATTRS",
    "OPS",
    "FailurePropagationMode",
    "NamedSequenceOp",
    "SequenceOp",
    "YieldOp",
    "ensure_yields",
    "lookup_named_sequence",
    "print_body",
]
