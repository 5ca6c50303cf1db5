"""One-Shot Bufferize, the library `one-shot-bufferize` drives.

`model` says what each tensor op does to memory once bufferized (reads, writes, aliases);
`analysis` decides which tensor operands bufferize in place (with `sets`, the alias and
equivalence sets, `subsets`, the slice rules, and `index_equality`); `rewrite` turns tensor
ops into memref ops following those decisions (the rules by family in `tensor_ops` and
`control_flow`, the shared state in `base`); `deallocation` frees what was allocated;
`types` gives the memref types of tensors and views.
"""

from schedir.lowering.bufferization.analysis import AnalysisOptions, Decisions, InPlaceAnalysis
from schedir.lowering.bufferization.base import strip_casts
from schedir.lowering.bufferization.deallocation import insert_deallocs
from schedir.lowering.bufferization.model import (
    FuncSummary,
    OpModel,
    has_tensor_semantics,
    is_tensor,
    kind,
)
from schedir.lowering.bufferization.rewrite import (
    BufferizeState,
    FunctionRewriter,
    RewriteOptions,
    RewritePlan,
)
from schedir.lowering.bufferization.types import LayoutKind, cast_is_safe, memref_for_tensor

__all__ = [
    "AnalysisOptions",
    "BufferizeState",
    "Decisions",
    "FuncSummary",
    "FunctionRewriter",
    "InPlaceAnalysis",
    "LayoutKind",
    "OpModel",
    "RewriteOptions",
    "RewritePlan",
    "cast_is_safe",
    "has_tensor_semantics",
    "insert_deallocs",
    "is_tensor",
    "kind",
    "memref_for_tensor",
    "strip_casts",
]
