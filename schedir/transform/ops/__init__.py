"""Apply functions of the transform ops, registered on the op classes.

The tree mirrors `schedir.dialects.transform`: `ops/<x>.py` applies exactly the ops that
`dialects/transform/<x>.py` defines (`ops/structured/tile.py` those of
`dialects/transform/structured/tile.py`, ...). An apply function is declared with
`@applies(OpClass)` and is a thin adapter: it reads the op's typed fields and handles,
calls a payload algorithm from `schedir.transform.rewrites`, and sets the result handles.
A pattern descriptor's set is declared with `@populates(DescriptorClass)`.

The interpreter looks the apply function up by the op's class in `APPLY` (and a
descriptor's pattern set in `PATTERNS`); the op classes it does not implement yet are
listed in `PARSE_ONLY`, and applying one is a definite failure that says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType, ModuleType
from typing import Any

from xdsl.ir import Operation

from schedir.dialects.transform.core.sequence import NamedSequenceOp, YieldOp
from schedir.dialects.transform.loop import (
    LoopCoalesceOp,
    LoopForallToParallelOp,
    LoopFuseSiblingOp,
    LoopOutlineOp,
    LoopPipelineOp,
    LoopPromoteIfOneIterationOp,
    LoopUnrollAndJamOp,
    LoopUnrollFullOp,
    TakeAssumedBranchOp,
)
from schedir.dialects.transform.memref import (
    ApplyMemrefExtractAddressComputationsOp,
    ApplyMemrefResolveRankedShapedTypeResultDimsOp,
    MemRefAllocaToGlobalOp,
    MemRefEraseDeadAllocAndStoresOp,
    MemRefMakeLoopIndependentOp,
)
from schedir.dialects.transform.structured.partition import (
    MultiTileSizesOp,
    SplitOp,
)
from schedir.dialects.transform.structured.patterns import (
    ApplyLinalgDataLayoutPropagationOp,
    ApplyLinalgDecomposePackUnpackOp,
    ApplyLinalgDecomposePadOp,
    ApplyLinalgEraseUnnecessaryInputsOp,
    ApplyLinalgEraseUnusedOperandsAndResultsOp,
    ApplyLinalgExtractSliceSinkingOp,
    ApplyLinalgFoldAddIntoDestOp,
    ApplyLinalgFoldPackUnpackIntoEmptyOp,
    ApplyLinalgFoldUnitExtentDimsViaReshapesOp,
    ApplyLinalgFoldUnitExtentDimsViaSlicesOp,
    ApplyLinalgPadVectorizationOp,
    ApplyLinalgSwapExtractSliceWithFillOp,
)
from schedir.dialects.transform.structured.rewrite import (
    ConvertToLoopsOp,
    RewriteInDestinationPassingStyleOp,
)
from schedir.dialects.transform.tensor import (
    ApplyTensorBubbleUpExtractSliceOp,
    ApplyTensorDropRedundantInsertSliceRankExpansionOp,
    ApplyTensorFoldIntoPackAndUnpackOp,
    ApplyTensorMergeConsecutiveInsertExtractSliceOp,
    ApplyTensorReassociativeReshapeFoldingOp,
    TensorMakeLoopIndependentOp,
)
from schedir.dialects.transform.vector import (
    ApplyVectorDropInnerMostUnitDimsFromXferOpsOp,
    ApplyVectorDropUnitDimsWithShapeCastOp,
    ApplyVectorElementwiseToVectorOp,
    ApplyVectorFlattenVectorTransferOpsOp,
    ApplyVectorLowerGatherOp,
    ApplyVectorLowerScanOp,
    ApplyVectorLowerStepOp,
    ApplyVectorMaterializeMasksOp,
    ApplyVectorReductionToContractOp,
    ApplyVectorRewriteNarrowTypesOp,
    ApplyVectorSinkMemOpsOp,
    ApplyVectorSplitTransferFullPartialOp,
    ApplyVectorUnrollFromElementsOp,
    ApplyVectorUnrollToElementsOp,
)
from schedir.transform.interface import Apply, Populate
from schedir.transform.ops import (
    bufferization,
    core,
    debug,
    gpu,
    loop,
    match_structured,
    math,
    memref,
    schedir_gpu,
    smt,
    structured,
    tensor,
    tune,
    vector,
)

MODULES: tuple[ModuleType, ...] = (
    *core.MODULES,
    *structured.MODULES,
    match_structured,
    loop,
    bufferization,
    memref,
    tensor,
    vector,
    gpu,
    math,
    debug,
    tune,
    smt,
    schedir_gpu,
)
"""The modules of this package that apply ops or give descriptors their pattern sets."""


def _collect(kind: type[Any]) -> Mapping[type[Operation], Any]:
    table: dict[type[Operation], Any] = {}
    for module in MODULES:
        for value in vars(module).values():
            if isinstance(value, kind) and value.fn.__module__ == module.__name__:
                assert value.op_class not in table, f"{value.op_class.name} registered twice"
                table[value.op_class] = value
    return MappingProxyType(table)


APPLY: Mapping[type[Operation], Apply[Any]] = _collect(Apply)
"""The apply function of each op class that has one."""

PATTERNS: Mapping[type[Operation], Populate[Any]] = _collect(Populate)
"""The pattern set of each descriptor class that has one."""

PARSE_ONLY: frozenset[type[Operation]] = frozenset(
    {
        # loop
        LoopCoalesceOp,
        LoopForallToParallelOp,
        LoopFuseSiblingOp,
        LoopOutlineOp,
        LoopPipelineOp,
        LoopPromoteIfOneIterationOp,
        LoopUnrollAndJamOp,
        LoopUnrollFullOp,
        TakeAssumedBranchOp,
        # memref
        ApplyMemrefExtractAddressComputationsOp,
        ApplyMemrefResolveRankedShapedTypeResultDimsOp,
        MemRefAllocaToGlobalOp,
        MemRefEraseDeadAllocAndStoresOp,
        MemRefMakeLoopIndependentOp,
        # structured.partition
        MultiTileSizesOp,
        SplitOp,
        # structured.patterns
        ApplyLinalgDataLayoutPropagationOp,
        ApplyLinalgDecomposePackUnpackOp,
        ApplyLinalgDecomposePadOp,
        ApplyLinalgEraseUnnecessaryInputsOp,
        ApplyLinalgEraseUnusedOperandsAndResultsOp,
        ApplyLinalgExtractSliceSinkingOp,
        ApplyLinalgFoldAddIntoDestOp,
        ApplyLinalgFoldPackUnpackIntoEmptyOp,
        ApplyLinalgFoldUnitExtentDimsViaReshapesOp,
        ApplyLinalgFoldUnitExtentDimsViaSlicesOp,
        ApplyLinalgPadVectorizationOp,
        ApplyLinalgSwapExtractSliceWithFillOp,
        # structured.rewrite
        ConvertToLoopsOp,
        RewriteInDestinationPassingStyleOp,
        # tensor
        ApplyTensorBubbleUpExtractSliceOp,
        ApplyTensorDropRedundantInsertSliceRankExpansionOp,
        ApplyTensorFoldIntoPackAndUnpackOp,
        ApplyTensorMergeConsecutiveInsertExtractSliceOp,
        ApplyTensorReassociativeReshapeFoldingOp,
        TensorMakeLoopIndependentOp,
        # vector
        ApplyVectorDropInnerMostUnitDimsFromXferOpsOp,
        ApplyVectorDropUnitDimsWithShapeCastOp,
        ApplyVectorElementwiseToVectorOp,
        ApplyVectorFlattenVectorTransferOpsOp,
        ApplyVectorLowerGatherOp,
        ApplyVectorLowerScanOp,
        ApplyVectorLowerStepOp,
        ApplyVectorMaterializeMasksOp,
        ApplyVectorReductionToContractOp,
        ApplyVectorRewriteNarrowTypesOp,
        ApplyVectorSinkMemOpsOp,
        ApplyVectorSplitTransferFullPartialOp,
        ApplyVectorUnrollFromElementsOp,
        ApplyVectorUnrollToElementsOp,
    }
)
"""Op classes that parse, verify and print but that schedir's interpreter does not
implement yet: applying one (or naming a descriptor in `apply_patterns`) is a definite
failure "'<op>' is not implemented yet in schedir's transform interpreter"."""

STRUCTURAL: frozenset[type[Operation]] = frozenset({NamedSequenceOp, YieldOp})
"""Op classes that are never applied on their own: the interpreter runs a named sequence
(the entry point, or through `include`) and each region's `yield` is read by the op that
runs the region."""

__all__ = ["APPLY", "MODULES", "PARSE_ONLY", "PATTERNS", "STRUCTURAL"]
