"""Data-tiling transform ops (upstream LinalgTransformOps.td): `structured.pack`,
`structured.pack_transpose`, `structured.lower_pack` and `structured.lower_unpack`.

Applied by `schedir.transform.ops.structured.pack`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, IntegerAttr, i1, i64
from xdsl.dialects.transform import OperationType, TransformHandleType, TransformOpHandleType
from xdsl.ir import Attribute
from xdsl.irdl import (
    IRDLOperation,
    operand_def,
    prop_def,
    result_def,
    var_operand_def,
)
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import dense_values, irdl_transform_op
from schedir.dialects.transform._syntax_directives import DynamicIndexList

_FUNCTIONAL = "attr-dict `:` functional-type(operands, results)"
_TRUE = IntegerAttr(1, i1)
_EMPTY = DenseArrayBase.from_list(i64, ())


def _require(kind: str, index: int, type_: Attribute, op_name: str) -> None:
    """Upstream's `Transform_ConcreteOpType<op_name>` constraint on one operand or result."""
    if type_ != OperationType(op_name):
        raise VerifyException(
            f"{kind} #{index} must be Transform IR handle to {op_name} operations, but got "
            f"'{type_}'"
        )


def _require_all(op: IRDLOperation, operand: str, results: tuple[str, ...]) -> None:
    _require("operand", 0, op.operands[0].type, operand)
    for index, (result, name) in enumerate(zip(op.results, results, strict=True)):
        _require("result", index, result.type, name)


@irdl_transform_op
class PackOp(IRDLOperation):
    """Packs a structured op: tiles its iterators by `packed_sizes` (0 = not packed),
    packs its operands with `linalg.pack`, rewrites it as a `linalg.generic` on the packed
    operands and unpacks its results with `linalg.unpack`.

    ```mlir
    %packed = transform.structured.pack %matmul packed_sizes = [8, 16, 32]
        : (!transform.any_op) -> !transform.op<"linalg.generic">
    ```

    For a 13x9 by 9x7 matmul and `packed_sizes = [4, 0, 2]`, A becomes `4x5x4x2` (m and k
    packed), B `5x7x2` (k packed), C `4x7x4` (m packed), and the generic gets two more
    loops (the tiles of m and k) after the original three.

    Return modes: consumes the target; returns the packed generic. Silenceable failure when
    the target is not exactly one structured op ("requires target to map to exactly 1
    LinalgOp (got N)") or when the number of sizes is not the number of loops; definite
    failure ("data tiling failed") when an operand cannot be packed.
    """

    name = "transform.structured.pack"

    target = operand_def(TransformOpHandleType)
    packed_sizes = var_operand_def(TransformHandleType)
    static_packed_sizes = prop_def(DenseArrayBase.constr(i64), default_value=_EMPTY)
    packed_op = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = (
        "$target `packed_sizes` `=` custom<DynamicIndexList>($packed_sizes, "
        "$static_packed_sizes) " + _FUNCTIONAL
    )
    custom_directives = (DynamicIndexList,)


@irdl_transform_op
class PackTransposeOp(IRDLOperation):
    """Transposes one `linalg.pack` (or `linalg.unpack`) and the packed generic that
    consumes (or produces) it: `outer_perm` permutes the pack's outer dimensions,
    `inner_perm` its tiles.

    ```mlir
    %g2, %p2, %u2 = transform.structured.pack_transpose %pack with_compute_op(%generic)
        outer_perm = [1, 0] inner_perm = [1, 0]
        : (!transform.any_op, !transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    ```

    Return modes: consumes both targets; returns the transposed generic, pack and unpack
    (the last empty when the target is a pack). Silenceable failure when either handle does
    not map to exactly one op of the expected kind, when the generic does not consume the
    pack (or produce the unpack), or when a permutation has the wrong length.
    """

    name = "transform.structured.pack_transpose"

    target_pack_or_un_pack_op = operand_def(TransformOpHandleType)
    target_linalg_op = operand_def(TransformOpHandleType)
    outer_perm = prop_def(DenseArrayBase.constr(i64), default_value=_EMPTY)
    inner_perm = prop_def(DenseArrayBase.constr(i64), default_value=_EMPTY)
    packed_op = result_def(TransformOpHandleType)
    pack_op = result_def(TransformOpHandleType)
    un_pack_op = result_def(TransformOpHandleType)

    consumed_operands = ("target_pack_or_un_pack_op", "target_linalg_op")
    assembly_format = (
        "$target_pack_or_un_pack_op `with_compute_op` `(` $target_linalg_op `)` "
        "(`outer_perm` `=` $outer_perm^)? (`inner_perm` `=` $inner_perm^)? " + _FUNCTIONAL
    )

    def verify_(self) -> None:
        for name in ("inner_perm", "outer_perm"):
            values = dense_values(self.properties.get(name))
            if sorted(values) != list(range(len(values))):
                raise VerifyException(f'"{name}" is not a valid permutation')
        if not dense_values(self.outer_perm) and not dense_values(self.inner_perm):
            raise VerifyException('at least one of "inner_perm" or "outer_perm" must be specified')


@irdl_transform_op
class LowerPackOp(IRDLOperation):
    """Rewrites a `linalg.pack` into `tensor.pad` + `tensor.expand_shape` +
    `linalg.transpose` (or, for a pack that only pads and `lowerPadLikeWithInsertSlice`,
    `tensor.pad` + `tensor.insert_slice`).

    ```mlir
    %pad, %expand, %transpose = transform.structured.lower_pack %pack
        : (!transform.op<"linalg.pack">)
        -> (!transform.op<"tensor.pad">, !transform.op<"tensor.expand_shape">,
            !transform.op<"linalg.transpose">)
    ```

    Return modes: consumes the target; returns the new pad, expand_shape and transpose
    ops (the last two empty for a pad-like pack). Silenceable failure ("cannot lower to
    pad + expand + transpose") for dynamic tiles.
    """

    name = "transform.structured.lower_pack"

    target = operand_def(TransformOpHandleType)
    lowerPadLikeWithInsertSlice = prop_def(BoolAttr, default_value=_TRUE)
    pad_op = result_def(TransformOpHandleType)
    expand_shape_op = result_def(TransformOpHandleType)
    transpose_op = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target " + _FUNCTIONAL

    def verify_(self) -> None:
        _require_all(self, "linalg.pack", ("tensor.pad", "tensor.expand_shape", "linalg.transpose"))


@irdl_transform_op
class LowerUnPackOp(IRDLOperation):
    """Rewrites a `linalg.unpack` into `tensor.empty` + `linalg.transpose` +
    `tensor.collapse_shape` + `tensor.extract_slice` + `linalg.copy` into the destination
    (or, for an unpack that only cuts and `lowerUnpadLikeWithExtractSlice`, one
    `tensor.extract_slice`).

    ```mlir
    %e, %t, %c, %s, %copy = transform.structured.lower_unpack %unpack
        : (!transform.op<"linalg.unpack">)
        -> (!transform.op<"tensor.empty">, !transform.op<"linalg.transpose">,
            !transform.op<"tensor.collapse_shape">, !transform.op<"tensor.extract_slice">,
            !transform.op<"linalg.copy">)
    ```

    Return modes: consumes the target; returns the five new ops (all but the slice empty
    for an unpad-like unpack). Silenceable failure ("cannot lower to transpose + collapse +
    extract") for dynamic tiles.
    """

    name = "transform.structured.lower_unpack"

    target = operand_def(TransformOpHandleType)
    lowerUnpadLikeWithExtractSlice = prop_def(BoolAttr, default_value=_TRUE)
    empty_op = result_def(TransformOpHandleType)
    transpose_op = result_def(TransformOpHandleType)
    collapse_shape_op = result_def(TransformOpHandleType)
    extract_slice_op = result_def(TransformOpHandleType)
    copy_op = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target " + _FUNCTIONAL

    def verify_(self) -> None:
        _require_all(
            self,
            "linalg.unpack",
            (
                "tensor.empty",
                "linalg.transpose",
                "tensor.collapse_shape",
                "tensor.extract_slice",
                "linalg.copy",
            ),
        )


def _require_count(name: str, values: tuple[int, ...], counts: tuple[int, ...]) -> None:
    """Upstream's `DenseArrayCount` constraint on a property."""
    if len(values) not in counts:
        expected = " or ".join(str(c) for c in counts)
        exactly = "exactly " if len(counts) == 1 else ""
        raise VerifyException(
            f"attribute '{name}' failed to satisfy constraint: i64 dense array attribute "
            f"with {exactly}{expected} elements"
        )


@irdl_transform_op
class PackGreedilyOp(IRDLOperation):
    """Packs each structured op that contains a matmul (m, n, k loops found by
    `inferContractionDims`, the most minor of each kind) as upstream's
    `linalg::packMatmulGreedily`: the op becomes a `linalg.generic` whose m, n and k loops
    are interchanged to be the last three in `matmul_inner_dims_order` (a permutation
    giving the position of m, n, k among them), then packed by `matmul_packed_sizes` (m, n,
    k; 0 = not packed) or, where `matmul_padded_sizes_next_multiple_of` is not 0, by the
    loop's size rounded up to that multiple (a single padded tile).

    ```mlir
    %packed = transform.structured.pack_greedily %matmul
        matmul_packed_sizes = [8, 16, 32] matmul_inner_dims_order = [1, 2, 0]
        : (!transform.any_op) -> !transform.op<"linalg.generic">
    ```

    Return modes: consumes the target; returns the packed generic of each op, or the op
    itself when it is not packed (not structured, fewer than three loops, no m, n or k
    loop): failing to pack is not an error, as upstream. Verifier: three packed sizes,
    a permutation of three for the order, zero or three multiples, and at most one of a
    size and its multiple non-zero.
    """

    name = "transform.structured.pack_greedily"

    target = operand_def(TransformOpHandleType)
    matmul_packed_sizes = var_operand_def(TransformHandleType)
    static_matmul_packed_sizes = prop_def(DenseArrayBase.constr(i64), default_value=_EMPTY)
    matmul_padded_sizes_next_multiple_of = prop_def(
        DenseArrayBase.constr(i64), default_value=_EMPTY
    )
    matmul_inner_dims_order = prop_def(DenseArrayBase.constr(i64), default_value=_EMPTY)
    packed_op = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = (
        "$target `matmul_packed_sizes` `=` custom<DynamicIndexList>($matmul_packed_sizes, "
        "$static_matmul_packed_sizes) "
        "(`matmul_padded_sizes_next_multiple_of` `=` $matmul_padded_sizes_next_multiple_of^)? "
        "`matmul_inner_dims_order` `=` $matmul_inner_dims_order " + _FUNCTIONAL
    )
    custom_directives = (DynamicIndexList,)

    def verify_(self) -> None:
        sizes = dense_values(self.static_matmul_packed_sizes)
        multiples = dense_values(self.matmul_padded_sizes_next_multiple_of)
        order = dense_values(self.matmul_inner_dims_order)
        _require_count("static_matmul_packed_sizes", sizes, (3,))
        _require_count("matmul_padded_sizes_next_multiple_of", multiples, (0, 3))
        _require_count("matmul_inner_dims_order", order, (3,))
        if sorted(order) != [0, 1, 2]:
            raise VerifyException('"matmul_inner_dims_order" is not a valid permutation')
        for size, multiple in zip(sizes, multiples, strict=False):
            # A dynamic size (a handle) counts as non-zero.
            if multiple != 0 and size != 0:
                raise VerifyException(
                    "at most one of the packed_size and the padded_sizes_next_multiple_of "
                    "can be nonzero for the matmul strategy"
                )


OPS: tuple[type[IRDLOperation], ...] = (
    LowerPackOp,
    LowerUnPackOp,
    PackGreedilyOp,
    PackOp,
    PackTransposeOp,
)

__all__ = ["OPS", "LowerPackOp", "LowerUnPackOp", "PackGreedilyOp", "PackOp", "PackTransposeOp"]
