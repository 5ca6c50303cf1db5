"""Function results after One-Shot Bufferize with function boundaries, as upstream returns them.

schedir's `one-shot-bufferize` pass makes every function return buffers it owns (its
callers free call results): a returned argument, view of an argument or constant is
copied into a new allocation first, and results always have the identity layout. Upstream
returns the equivalent buffer itself (`return %arg2`), and with
`function_boundary_type_conversion` `InferLayoutMap` / `FullyDynamicLayoutMap` gives the
result the layout of what is returned / the fully dynamic layout (`memref.cast` of a fresh
allocation).

`upstream_results` undoes the copies where nobody can see the difference: in functions
no `func.call` of the module calls (so no caller frees what they return; schedir's
runtime never frees a result that aliases an argument):

    %alloc = memref.alloc() : memref<12x6xf32>
    memref.copy %C, %alloc : memref<12x6xf32> to memref<12x6xf32>
    return %alloc : memref<12x6xf32>
    // -> (identity layout: only when the types already agree, as upstream copies
    //     strided views into identity results)
    return %C : memref<12x6xf32>

Functions that are called keep the pass's owned results.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, cast

from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    FunctionType,
    MemRefType,
    ModuleOp,
    StridedLayoutAttr,
    SymbolRefAttr,
    TensorType,
)
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from schedir.dialects import linalg
from schedir.dialects.memref import CastOp

ResultLayout = Literal["identity", "infer", "fully-dynamic"]

_VIEWS = (
    memref.SubviewOp,
    memref.CastOp,
    memref.ReinterpretCastOp,
    memref.CollapseShapeOp,
    memref.ExpandShapeOp,
)
_COPIES = (memref.CopyOp, linalg.CopyOp)


@dataclass(frozen=True)
class ResultsRewrite:
    """How many returned copies were dropped and results re-typed."""

    copies_dropped: int
    results_retyped: int


def _called(module: ModuleOp) -> set[str]:
    names: set[str] = set()
    for op in module.walk():
        if isinstance(op, func.CallOp):
            names.add(op.callee.root_reference.data)
        else:
            for attr in (*op.properties.values(), *op.attributes.values()):
                if isinstance(attr, SymbolRefAttr) and not isinstance(op, func.FuncOp):
                    names.add(attr.root_reference.data)
    return names


def _root(value: SSAValue) -> SSAValue:
    while isinstance(value, OpResult) and isinstance(value.op, _VIEWS):
        value = value.op.operands[0]
    return value


def _returned_copy(value: SSAValue, ret: Operation) -> tuple[Operation, SSAValue] | None:
    """(the copy, its source) when `value` is a fresh allocation only filled by one copy of
    an argument, a view of one, or a constant right before `ret`, and then returned."""
    if not isinstance(value, OpResult) or not isinstance(value.op, memref.AllocOp):
        return None
    uses = list(value.uses)
    copies = [u.operation for u in uses if isinstance(u.operation, _COPIES)]
    if len(copies) != 1 or len(uses) != 2 or not any(u.operation is ret for u in uses):
        return None
    copy = copies[0]
    source, target = copy.operands[0], copy.operands[-1]
    if target is not value or copy.parent_block() is not ret.parent_block():
        return None
    # Nothing may run between the copy and the return but other returned copies.
    node = copy.next_op
    while node is not None and node is not ret:
        if not isinstance(node, (memref.AllocOp, *_COPIES, memref.DimOp, arith.ConstantOp)):
            return None
        node = node.next_op
    root = _root(source)
    function_arg = isinstance(root, BlockArgument) and isinstance(
        root.block.parent_op(), func.FuncOp
    )
    constant = isinstance(root, OpResult) and isinstance(root.op, memref.GetGlobalOp)
    if not (function_arg or constant):
        return None
    return copy, source


def _erase_dead_size_computations(values: Sequence[SSAValue]) -> None:
    """Erase the `memref.dim` (and their index constants) that only sized a dropped copy."""
    work = list(values)
    while work:
        value = work.pop()
        if value.uses or not isinstance(value, OpResult):
            continue
        op = value.op
        if not isinstance(op, memref.DimOp | arith.ConstantOp) or op.parent is None:
            continue
        operands = list(op.operands)
        Rewriter.erase_op(op)
        work.extend(operands)


def _fully_dynamic(t: MemRefType[Attribute]) -> MemRefType[Attribute]:
    rank = len(t.get_shape())
    return MemRefType(
        t.get_element_type(), t.get_shape(), StridedLayoutAttr([None] * rank, None), t.memory_space
    )


def _rewrite_function(
    function: func.FuncOp, layout: ResultLayout, tensor_results: Sequence[bool]
) -> tuple[int, int]:
    block = function.body.blocks.first
    if block is None:
        return 0, 0
    ret = block.last_op
    if not isinstance(ret, func.ReturnOp):
        return 0, 0
    outputs = list(function.function_type.outputs.data)
    returned = list(ret.operands)
    dropped = retyped = 0
    for index, value in enumerate(returned):
        if index >= len(tensor_results) or not tensor_results[index]:
            continue
        if not isinstance(value.type, MemRefType):
            continue
        found = _returned_copy(value, ret)
        if found is not None:
            copy, source = found
            if layout == "identity" and source.type != value.type:
                continue  # upstream copies a strided view into the identity result too
            Rewriter.erase_op(copy)
            ret.operands[index] = source
            alloc = cast(OpResult, value).op
            sizes = list(alloc.operands)
            Rewriter.erase_op(alloc)
            _erase_dead_size_computations(sizes)
            returned[index] = source
            dropped += 1
        current = returned[index]
        if layout == "fully-dynamic":
            wanted = _fully_dynamic(cast(MemRefType[Attribute], current.type))
            if current.type != wanted:
                cast_op = CastOp.build(operands=[current], result_types=[wanted])
                Rewriter.insert_op(cast_op, InsertPoint.before(ret))
                cast_op.location = ret.location
                ret.operands[index] = cast_op.results[0]
                current = cast_op.results[0]
        if outputs[index] != current.type:
            outputs[index] = current.type
            retyped += 1
    function.function_type = FunctionType.from_lists(
        list(function.function_type.inputs.data), outputs
    )
    return dropped, retyped


def tensor_result_positions(module: ModuleOp) -> dict[str, tuple[bool, ...]]:
    """Which results of each function of `module` are tensors (read before bufferizing)."""
    return {
        f.sym_name.data: tuple(isinstance(t, TensorType) for t in f.function_type.outputs.data)
        for f in module.ops
        if isinstance(f, func.FuncOp)
    }


def upstream_results(
    module: ModuleOp, layout: ResultLayout, tensor_results: dict[str, tuple[bool, ...]]
) -> ResultsRewrite:
    """Return equivalent buffers instead of copies in uncalled functions (module doc).

    `tensor_results` says which results were tensors before bufferization (only those
    are boundary buffers; a function returning memrefs already is left alone).
    """
    called = _called(module)
    dropped = retyped = 0
    for function in module.ops:
        if not isinstance(function, func.FuncOp) or function.sym_name.data in called:
            continue
        d, r = _rewrite_function(function, layout, tensor_results.get(function.sym_name.data, ()))
        dropped += d
        retyped += r
    return ResultsRewrite(dropped, retyped)


__all__ = ["ResultLayout", "ResultsRewrite", "tensor_result_positions", "upstream_results"]
