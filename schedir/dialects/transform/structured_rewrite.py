"""Structured (linalg) transform ops that rewrite without tiling (LinalgTransformOps.td).

Generalization and decomposition (`generalize`, `specialize`, `interchange`,
`decompose`, `decompose_interface`, `convert_to_loops`,
`rewrite_in_destination_passing_style`, `insert_slice_to_copy`), vectorization
(`vectorize`, `vectorize_children_and_apply_patterns`, `hoist_redundant_vector_*`),
memory (`promote`, `bufferize_to_allocation`, `eliminate_empty_tensors`) and GPU copy
distribution (`gpu.map_copy_to_threads`).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    StringAttr,
    UnitAttr,
    i1,
    i64,
)
from xdsl.dialects.transform import (
    AnyOpType,
    AnyValueType,
    TransformHandleType,
    TransformOpHandleType,
    TransformValueHandleType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import (
    dense_values,
    irdl_transform_op,
    parse_dynamic_index_list,
    print_dynamic_index_list,
)
from schedir.dialects.transform._syntax_helpers import (
    parse_prop_and_attr_dict,
    parse_type_list,
    print_prop_and_attr_dict,
    print_types,
)

_FUNCTIONAL = "attr-dict `:` functional-type(operands, results)"


def _simple(op_name: str, class_name: str, doc: str, *, result: str = "transformed"):
    """`$target : (!t) -> !r` ops that consume the target and return one handle."""
    cls = type(
        class_name,
        (IRDLOperation,),
        {
            "__doc__": doc,
            "__module__": __name__,
            "name": op_name,
            "target": operand_def(TransformOpHandleType),
            result: result_def(TransformOpHandleType),
            "consumed_operands": ("target",),
            "assembly_format": "$target " + _FUNCTIONAL,
        },
    )
    return irdl_transform_op(cls)


GeneralizeOp = _simple(
    "transform.structured.generalize",
    "GeneralizeOp",
    """Rewrites named structured ops (`linalg.matmul`, ...) to `linalg.generic`.

    ```mlir
    %g = transform.structured.generalize %op : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the generic ops (ops already generic are
    returned as they are). Definite failure if an op cannot be generalized.
    """,
)
DecomposeOp = _simple(
    "transform.structured.decompose",
    "DecomposeOp",
    """Decomposes n-D convolutions and poolings into lower-dimensional ones.

    ```mlir
    %d = transform.structured.decompose %conv : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the decomposed ops. Silenceable failure
    if an op has no such decomposition.
    """,
)
DecomposeInterfaceOp = _simple(
    "transform.structured.decompose_interface",
    "DecomposeInterfaceOp",
    """Decomposes ops through their `AggregatedOpInterface` (e.g. `linalg.softmax`
    into fill/max/exp/fill/sum/div).

    ```mlir
    %d = transform.structured.decompose_interface %sm
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the ops of the decomposition. Definite
    failure if an op does not implement the interface or the decomposition fails.
    """,
)
InsertSliceToCopyOp = _simple(
    "transform.structured.insert_slice_to_copy",
    "InsertSliceToCopyOp",
    """Rewrites `tensor.insert_slice` into a `linalg.copy` into the slice (an explicit
    copy before bufferization).

    ```mlir
    %c = transform.structured.insert_slice_to_copy %ins
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the copies (existing `linalg.copy`
    targets are returned as they are). Definite failure otherwise.
    """,
)
ConvertToLoopsOp = _simple(
    "transform.structured.convert_to_loops",
    "ConvertToLoopsOp",
    """Lowers TilingInterface ops to `scf.for` loops of scalar code.

    ```mlir
    %loops = transform.structured.convert_to_loops %op
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the generated loops. Definite failure if
    an op cannot be lowered.
    """,
    result="result",
)
RewriteInDestinationPassingStyleOp = _simple(
    "transform.structured.rewrite_in_destination_passing_style",
    "RewriteInDestinationPassingStyleOp",
    """Rewrites tensor ops without destinations (`tensor.pad`, `tensor.generate`,
    `tensor.from_elements`) into destination-passing style.

    ```mlir
    %r = transform.structured.rewrite_in_destination_passing_style %pad
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the rewritten ops. Definite failure if
    an op is not supported.
    """,
)
HoistRedundantVectorBroadcastsOp = _simple(
    "transform.structured.hoist_redundant_vector_broadcasts",
    "HoistRedundantVectorBroadcastsOp",
    """Hoists loop-invariant `vector.broadcast` (and its uses in loop-carried values)
    out of `scf.for` loops in the target.

    ```mlir
    %f2 = transform.structured.hoist_redundant_vector_broadcasts %f
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target and returns a handle to it; never fails.
    """,
)


@irdl_transform_op
class HoistRedundantVectorTransfersOp(IRDLOperation):
    """Hoists matching `vector.transfer_read`/`transfer_write` pairs on memrefs out of
    `scf.for` loops (`verify_non_zero_trip` only where loops provably run).

    ```mlir
    %f2 = transform.structured.hoist_redundant_vector_transfers %f
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target and returns a handle to it; never fails.
    """

    name = "transform.structured.hoist_redundant_vector_transfers"

    target = operand_def(TransformOpHandleType)
    verify_non_zero_trip = opt_prop_def(UnitAttr)
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target (`verify_non_zero_trip` $verify_non_zero_trip^)? " + _FUNCTIONAL


@irdl_transform_op
class SpecializeOp(IRDLOperation):
    """Rewrites `linalg.generic` ops that match a named op (or, with `emit_category`, a
    category op such as `linalg.elementwise`) into it.

    ```mlir
    %s = transform.structured.specialize %g : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the specialized ops (unchanged when no
    named form exists). Silenceable failure if a target is not a `linalg.generic`.
    """

    name = "transform.structured.specialize"

    target = operand_def(TransformOpHandleType)
    emit_category = prop_def(BoolAttr, default_value=IntegerAttr(0, i1))
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target (`emit_category` `=` $emit_category^)? " + _FUNCTIONAL


@irdl_transform_op
class InterchangeOp(IRDLOperation):
    """Permutes the iterators of `linalg.generic` ops.

    ```mlir
    %g2 = transform.structured.interchange %g iterator_interchange = [1, 0, 2]
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the interchanged ops. Definite failure if
    the permutation does not fit the op.
    """

    name = "transform.structured.interchange"

    target = operand_def(TransformOpHandleType)
    iterator_interchange = prop_def(
        DenseArrayBase.constr(i64), default_value=DenseArrayBase.from_list(i64, ())
    )
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target (`iterator_interchange` `=` $iterator_interchange^)? " + _FUNCTIONAL

    def verify_(self) -> None:
        values = dense_values(self.iterator_interchange)
        if sorted(values) != list(range(len(values))):
            raise VerifyException(
                f"expects iterator_interchange to be a permutation, found {list(values)}"
            )


@irdl_transform_op
class VectorizeOp(IRDLOperation):
    """Vectorizes structured (and some tensor) ops; with `vector_sizes` (static,
    params/handles, or scalable `[4]`) by masked vectorization.

    ```mlir
    transform.structured.vectorize %op vector_sizes [8, [4]] vectorize_nd_extract
        : !transform.any_op
    ```

    Return modes: consumes the target and returns nothing. Silenceable failure if an op
    cannot be vectorized.
    """

    name = "transform.structured.vectorize"

    target = operand_def(TransformOpHandleType)
    vector_sizes = var_operand_def(TransformHandleType)
    static_vector_sizes = prop_def(
        DenseArrayBase.constr(i64), default_value=DenseArrayBase.from_list(i64, ())
    )
    vectorize_nd_extract = opt_prop_def(UnitAttr)
    assume_dynamic_dims_match_vec_sizes = opt_prop_def(UnitAttr)
    create_named_contraction = opt_prop_def(UnitAttr)
    scalable_sizes = prop_def(
        DenseArrayBase.constr(i1), default_value=DenseArrayBase.from_list(i1, ())
    )

    consumed_operands = ("target",)
    FLAGS: ClassVar[tuple[str, ...]] = (
        "vectorize_nd_extract",
        "assume_dynamic_dims_match_vec_sizes",
        "create_named_contraction",
    )

    @classmethod
    def parse(cls, parser: Parser) -> VectorizeOp:
        target = parser.parse_unresolved_operand()
        props: dict[str, Attribute] = {}
        dynamic = []
        while True:
            if parser.parse_optional_keyword("vector_sizes") is not None:
                dynamic, static, scalable = parse_dynamic_index_list(parser, allow_scalable=True)
                props["static_vector_sizes"] = DenseArrayBase.from_list(i64, static)
                props["scalable_sizes"] = DenseArrayBase.from_list(i1, [int(s) for s in scalable])
                continue
            for flag in cls.FLAGS:
                if parser.parse_optional_keyword(flag) is not None:
                    props[flag] = UnitAttr()
                    break
            else:
                break
        extra, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        types = parse_type_list(parser)
        operands = [target, *dynamic]
        if len(types) != len(operands):
            parser.raise_error(f"{len(operands)} operands present, but expected {len(types)}")
        values = [parser.resolve_operand(o, t) for o, t in zip(operands, types, strict=True)]
        return cls.create(operands=values, properties=props | extra, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.target)
        static = dense_values(self.static_vector_sizes)
        if static:
            printer.print_string(" vector_sizes ")
            scalable = tuple(bool(v) for v in dense_values(self.scalable_sizes))
            print_dynamic_index_list(printer, self.vector_sizes, static, scalable)
        for flag in self.FLAGS:
            if flag in self.properties:
                printer.print_string(f" {flag}")
        print_prop_and_attr_dict(
            printer, self, elided=("static_vector_sizes", "scalable_sizes", *self.FLAGS)
        )
        printer.print_string(" : ")
        print_types(printer, self.operand_types)

    def verify_(self) -> None:
        static = dense_values(self.static_vector_sizes)
        if static.count(DYNAMIC_INDEX) != len(self.vector_sizes):
            raise VerifyException(
                "expected number of dynamic vector sizes to match the number of kDynamic entries"
            )
        scalable = dense_values(self.scalable_sizes)
        if scalable and len(scalable) != len(static):
            raise VerifyException(
                f"expected same number of vector sizes ({len(static)}) and scalable sizes "
                f"({len(scalable)})"
            )


@irdl_transform_op
class VectorizeChildrenAndApplyPatternsOp(IRDLOperation):
    """Vectorizes every structured op nested in an isolated-from-above target, then runs
    vector canonicalization, transfer and contraction patterns.

    ```mlir
    %f2 = transform.structured.vectorize_children_and_apply_patterns %f
        <vectorize_padding> : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target (invalidating handles to nested ops) and returns
    a handle to it. Definite failure if the target is not isolated from above or the
    patterns fail.
    """

    name = "transform.structured.vectorize_children_and_apply_patterns"

    target = operand_def(TransformOpHandleType)
    fold_type_extensions_into_contract = opt_prop_def(UnitAttr)
    vectorize_padding = opt_prop_def(UnitAttr)
    vectorize_nd_extract = opt_prop_def(UnitAttr)
    flatten_1d_depthwise_conv = opt_prop_def(UnitAttr)
    disable_multi_reduction_to_contract_patterns = opt_prop_def(UnitAttr)
    disable_transfer_permutation_map_lowering_patterns = opt_prop_def(UnitAttr)
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target " + _FUNCTIONAL


@irdl_transform_op
class PromoteOp(IRDLOperation):
    """Copies the listed operands of structured ops on memrefs into new (optionally
    workgroup/private) buffers, e.g. to stage tiles in shared memory.

    ```mlir
    %p = transform.structured.promote %op
        <operands_to_promote = [0, 1], memory_space = #gpu.address_space<workgroup>>
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the promoted ops. Definite failure if
    promotion fails.
    """

    name = "transform.structured.promote"

    target = operand_def(TransformOpHandleType)
    operands_to_promote = prop_def(ArrayAttr[IntegerAttr[I64]], default_value=ArrayAttr([]))
    use_full_tile_buffers = prop_def(ArrayAttr[BoolAttr], default_value=ArrayAttr([]))
    use_full_tiles_by_default = opt_prop_def(UnitAttr)
    use_original_subview_size = opt_prop_def(UnitAttr)
    use_alloca = opt_prop_def(UnitAttr)
    memory_space = opt_prop_def(AnyAttr())
    mapping = opt_prop_def(ArrayAttr)
    alignment = opt_prop_def(IntegerAttr[I64])
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target " + _FUNCTIONAL


@irdl_transform_op
class BufferizeToAllocationOp(IRDLOperation):
    """Materializes a tensor value (or the destination of an op) in a new allocation,
    optionally in another memory space (e.g. shared-memory staging).

    ```mlir
    %buffer, %new = transform.structured.bufferize_to_allocation %v
        <memory_space = 3 : i64> : !transform.any_op
    ```

    Return modes: consumes the target; returns a value handle to the new buffer and a
    handle to the ops created. Definite failure if the target cannot be bufferized so.
    """

    name = "transform.structured.bufferize_to_allocation"

    target = operand_def(TransformHandleType)
    memory_space = opt_prop_def(AnyAttr())
    memcpy_op = prop_def(
        StringAttr, default_value=StringAttr("bufferization.materialize_in_destination")
    )
    alloc_op = prop_def(StringAttr, default_value=StringAttr("memref.alloc"))
    bufferize_destination_only = opt_prop_def(UnitAttr)
    emit_dealloc = opt_prop_def(UnitAttr)
    allocated_buffer = result_def(TransformValueHandleType)
    new_ops = result_def(TransformOpHandleType)

    consumed_operands = ("target",)

    def consumed_values(self) -> tuple[SSAValue, ...]:
        # Upstream's getEffects: with bufferize_destination_only the op stays in place,
        # so the target is only read.
        if self.bufferize_destination_only is not None:
            return ()
        return (self.target,)

    @classmethod
    def parse(cls, parser: Parser) -> BufferizeToAllocationOp:
        target = parser.parse_unresolved_operand()
        props, attrs = parse_prop_and_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        target_type = parser.parse_type()
        return cls.create(
            operands=[parser.resolve_operand(target, target_type)],
            result_types=[AnyValueType(), AnyOpType()],
            properties=props,
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.target)
        print_prop_and_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_attribute(self.target.type)

    def verify_(self) -> None:
        if self.memcpy_op.data not in (
            "bufferization.materialize_in_destination",
            "memref.copy",
            "linalg.copy",
        ):
            raise VerifyException(f"unsupported memcpy op: {self.memcpy_op.data}")
        if self.alloc_op.data not in ("memref.alloc", "memref.alloca"):
            raise VerifyException(f"unsupported alloc op: {self.alloc_op.data}")


@irdl_transform_op
class StructuredEliminateEmptyTensorsOp(IRDLOperation):
    """Linalg-aware `tensor.empty` elimination in the target (uses of an empty tensor
    as a DPS init become slices of the final destination).

    ```mlir
    transform.structured.eliminate_empty_tensors %f : !transform.any_op
    ```

    Return modes: only reads the target. Definite failure if the analysis fails.
    """

    name = "transform.structured.eliminate_empty_tensors"

    target = operand_def(TransformOpHandleType)

    assembly_format = "$target attr-dict `:` type($target)"


@irdl_transform_op
class MapCopyToThreadsOp(IRDLOperation):
    """Distributes a `linalg.copy`/`tensor.pad` over `total_num_threads` threads with
    `desired_bit_alignment`-bit accesses (an `scf.forall` with thread mapping).

    ```mlir
    %forall, %tiled = transform.structured.gpu.map_copy_to_threads %copy
        total_num_threads = 128 desired_bit_alignment = 128
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```

    Return modes: consumes the target; returns the forall and the tiled copy.
    Silenceable failure if no distribution fits.
    """

    name = "transform.structured.gpu.map_copy_to_threads"

    target = operand_def(TransformOpHandleType)
    total_num_threads = prop_def(IntegerAttr[I64])
    desired_bit_alignment = prop_def(IntegerAttr[I64])
    forall_op = result_def(TransformOpHandleType)
    tiled_op = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = (
        "$target `total_num_threads` `=` $total_num_threads "
        "`desired_bit_alignment` `=` $desired_bit_alignment " + _FUNCTIONAL
    )


OPS: tuple[type[IRDLOperation], ...] = (
    BufferizeToAllocationOp,
    ConvertToLoopsOp,
    DecomposeInterfaceOp,
    DecomposeOp,
    GeneralizeOp,
    HoistRedundantVectorBroadcastsOp,
    HoistRedundantVectorTransfersOp,
    InsertSliceToCopyOp,
    InterchangeOp,
    MapCopyToThreadsOp,
    PromoteOp,
    RewriteInDestinationPassingStyleOp,
    SpecializeOp,
    StructuredEliminateEmptyTensorsOp,
    VectorizeChildrenAndApplyPatternsOp,
    VectorizeOp,
)

__all__ = [
    "OPS",
    "BufferizeToAllocationOp",
    "ConvertToLoopsOp",
    "DecomposeInterfaceOp",
    "DecomposeOp",
    "GeneralizeOp",
    "HoistRedundantVectorBroadcastsOp",
    "HoistRedundantVectorTransfersOp",
    "InsertSliceToCopyOp",
    "InterchangeOp",
    "MapCopyToThreadsOp",
    "PromoteOp",
    "RewriteInDestinationPassingStyleOp",
    "SpecializeOp",
    "StructuredEliminateEmptyTensorsOp",
    "VectorizeChildrenAndApplyPatternsOp",
    "VectorizeOp",
]
