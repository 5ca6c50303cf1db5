"""Structured (linalg) vectorization ops (upstream LinalgTransformOps.td): `vectorize`,
`vectorize_children_and_apply_patterns`, `hoist_redundant_vector_transfers` and
`hoist_redundant_vector_broadcasts`.

Applied by `schedir.transform.ops.structured.vectorize`.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    UnitAttr,
    i1,
    i64,
)
from xdsl.dialects.transform import (
    TransformHandleType,
    TransformOpHandleType,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
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


@irdl_transform_op
class VectorizeOp(IRDLOperation):
    """Vectorizes structured (and some tensor) ops; with `vector_sizes` (static,
    params/handles, or scalable `[4]`) by masked vectorization.

    ```mlir
    transform.structured.vectorize %op vector_sizes [8, [4]] vectorize_nd_extract
        : !transform.any_op
    ```

    Return modes: consumes the target and produces nothing. Silenceable failure, at the
    payload op, "Unsupported Op, cannot vectorize" for an op without a vector form and
    "Attempted to vectorize, but failed" when its preconditions do not hold (targets before
    it are already vectorized, as upstream); silenceable failures of the vector sizes'
    params or handles as upstream's `reifyMixedParamAndHandleResults`.
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

    Return modes: consumes the target (handles to nested ops are invalidated) and returns
    it. Definite failure "op requires isolated-from-above targets" (with a note at the
    target) and when the patterns do not converge.
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
class HoistRedundantVectorTransfersOp(IRDLOperation):
    """Hoists matching `vector.transfer_read`/`transfer_write` pairs on memrefs out of
    `scf.for` loops (`verify_non_zero_trip` only where loops provably run).

    ```mlir
    %f2 = transform.structured.hoist_redundant_vector_transfers %f
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target and returns it; silenceable failure "transform applied
    to the wrong op kind" on targets that are not `func.func` (upstream's FuncOp-typed
    applyToOne); otherwise never fails. Like upstream it does not model parallel loops:
    hoisting from a distributed loop may be wrong.
    """

    name = "transform.structured.hoist_redundant_vector_transfers"

    target = operand_def(TransformOpHandleType)
    verify_non_zero_trip = opt_prop_def(UnitAttr)
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target (`verify_non_zero_trip` $verify_non_zero_trip^)? " + _FUNCTIONAL


@irdl_transform_op
class HoistRedundantVectorBroadcastsOp(IRDLOperation):
    """Hoists loop-invariant `vector.broadcast` (and its uses in loop-carried values)
    out of `scf.for` loops in the target.

    ```mlir
    %f2 = transform.structured.hoist_redundant_vector_broadcasts %f
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target and returns it; never fails.
    """

    name = "transform.structured.hoist_redundant_vector_broadcasts"

    target = operand_def(TransformOpHandleType)
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target " + _FUNCTIONAL


OPS: tuple[type[IRDLOperation], ...] = (
    HoistRedundantVectorBroadcastsOp,
    HoistRedundantVectorTransfersOp,
    VectorizeChildrenAndApplyPatternsOp,
    VectorizeOp,
)

__all__ = [
    "OPS",
    "HoistRedundantVectorBroadcastsOp",
    "HoistRedundantVectorTransfersOp",
    "VectorizeChildrenAndApplyPatternsOp",
    "VectorizeOp",
]
