"""Apply functions of the memref transform ops (upstream's MemRefTransformOps.cpp):
`memref.multibuffer`, `memref.erase_dead_alloc_and_stores`, `memref.alloca_to_global`, and the pattern sets of the memref descriptors
(`fold_memref_alias_ops`, `expand_strided_metadata`, `alloc_to_alloca`), from
`schedir.transform.rewrites.multibuffer` and `rewrites.patterns.memref`.
"""

from __future__ import annotations

from xdsl.dialects import memref as xmemref
from xdsl.ir import Operation

from schedir.diagnostics import TransformError
from schedir.dialects.syntax import op_location
from schedir.dialects.transform.descriptors import Descriptor
from schedir.dialects.transform.memref import (
    ApplyMemrefAllocToAllocaOp,
    ApplyMemrefExpandStridedMetadataOp,
    ApplyMemrefFoldMemrefAliasOpsOp,
    MemRefAllocaToGlobalOp,
    MemRefEraseDeadAllocAndStoresOp,
    MemRefMultiBufferOp,
)
from schedir.transform.interface import Interpreter, Mapped, applies, populates
from schedir.transform.rewrites.greedy import PatternSet
from schedir.transform.rewrites.memref_allocs import (
    AllocToGlobalFailure,
    alloc_like_to_global,
    erase_dead_alloc_and_stores,
)
from schedir.transform.rewrites.multibuffer import MultiBufferFailure, multi_buffer, used_in_loops
from schedir.transform.rewrites.patterns.memref import (
    alloc_to_alloca_patterns,
    expand_strided_metadata_patterns,
    fold_memref_alias_ops_patterns,
)
from schedir.transform.state import definite, payload_location


@applies(MemRefMultiBufferOp)
def apply_multibuffer(op: MemRefMultiBufferOp, interp: Interpreter) -> None:
    """Multi-buffer each `memref.alloc` used in a loop."""
    factor = op.factor.value.data or 1
    skip = op.skip_analysis is not None
    results: list[Mapped] = []
    for payload in interp.state.payload_ops(op.target):
        if not used_in_loops(payload):
            continue
        try:
            result = multi_buffer(interp.state.rewriter(payload), payload, factor, skip)
        except MultiBufferFailure:
            interp.set_results(op, [results])
            raise TransformError(
                "op failed to multibuffer", op_location(payload), silenceable=True
            ) from None
        results.append(result.alloc)
    interp.set_results(op, [results])


@populates(ApplyMemrefFoldMemrefAliasOpsOp)
def fold_memref_alias_ops(op: Descriptor) -> PatternSet:
    """Fold subview/expand/collapse_shape into loads and stores."""
    return fold_memref_alias_ops_patterns()


@populates(ApplyMemrefExpandStridedMetadataOp)
def expand_strided_metadata(op: Descriptor) -> PatternSet:
    """Expand memref ops into metadata extraction and reinterpret_cast."""
    return expand_strided_metadata_patterns()


@populates(ApplyMemrefAllocToAllocaOp)
def alloc_to_alloca(op: Descriptor) -> PatternSet:
    """Small `memref.alloc`s freed in the same block become `memref.alloca`s."""
    return alloc_to_alloca_patterns(op.option("size_limit"))


@applies(MemRefEraseDeadAllocAndStoresOp)
def apply_erase_dead_alloc_and_stores(
    op: MemRefEraseDeadAllocAndStoresOp, interp: Interpreter
) -> None:
    """Erase the allocations of each target that are only written to."""

    def one(payload: Operation) -> list[Mapped | None]:
        erase_dead_alloc_and_stores(interp.state.rewriter(payload), payload)
        return []

    interp.apply_to_each(op, op.target, one)


@applies(MemRefAllocaToGlobalOp)
def apply_alloca_to_global(op: MemRefAllocaToGlobalOp, interp: Interpreter) -> None:
    """Replace each `memref.alloca` by a `memref.get_global` of a new private global."""
    get_globals: list[Mapped] = []
    globals_: list[Mapped] = []
    for payload in interp.state.payload_ops(op.alloca):
        if not isinstance(payload, xmemref.AllocaOp):
            raise definite(op, "expected a 'memref.alloca'", payload)
        try:
            result = alloc_like_to_global(interp.state.rewriter(payload), payload, "alloca")
        except AllocToGlobalFailure as err:
            raise TransformError(str(err), payload_location(payload), silenceable=True) from None
        get_globals.append(result.get_global)
        globals_.append(result.global_op)
    interp.set_results(op, [get_globals, globals_])
