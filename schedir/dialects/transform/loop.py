"""Loop transform ops (upstream SCFTransformOps.td): unrolling, peeling, pipelining,
outlining, coalescing, forall conversions and subset hoisting, and the
`apply_patterns.scf.for_loop_canonicalization` descriptor.

`peel` and `pipeline` take `!transform.op<"scf.for">` handles, as upstream's operand
constraints require.

Applied by `schedir.transform.ops.loop`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import I64, BoolAttr, IntegerAttr, StringAttr, UnitAttr, i1, i64
from xdsl.dialects.transform import OperationType, TransformOpHandleType
from xdsl.ir import Attribute
from xdsl.irdl import (
    IRDLOperation,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_result_def,
)
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import irdl_transform_op
from schedir.dialects.transform.descriptors import descriptor

_FUNCTIONAL = "attr-dict `:` functional-type(operands, results)"
_FALSE = IntegerAttr(0, i1)


def _positive(op: IRDLOperation, name: str) -> None:
    value = op.properties.get(name)
    if isinstance(value, IntegerAttr) and value.value.data <= 0:
        raise VerifyException(
            f"attribute '{name}' failed to satisfy constraint: 64-bit signless integer "
            "attribute whose value is positive"
        )


def _require_op_handle(op: IRDLOperation, type_: Attribute, op_name: str) -> None:
    if type_ != OperationType(op_name):
        raise VerifyException(
            f"operand #0 must be Transform IR handle to {op_name} operations, but got '{type_}'"
        )


@irdl_transform_op
class LoopUnrollOp(IRDLOperation):
    """Unrolls each loop (`scf.for`, `affine.for`) by `factor`.

    ```mlir
    transform.loop.unroll %loop factor = 4 : !transform.any_op
    ```

    Return modes: consumes the target, produces nothing. Silenceable failure ("failed to
    unroll, incorrect type of payload") for a payload that is not a loop schedir unrolls
    (`scf.for`; upstream also takes `affine.for`).
    """

    name = "transform.loop.unroll"

    target = operand_def(TransformOpHandleType)
    factor = prop_def(IntegerAttr[I64])

    consumed_operands = ("target",)
    assembly_format = "$target `factor` `=` $factor attr-dict `:` type($target)"

    def verify_(self) -> None:
        _positive(self, "factor")


@irdl_transform_op
class LoopUnrollAndJamOp(IRDLOperation):
    """Unrolls each `scf.for` by `factor` and jams the copies into its inner loops: the step
    is multiplied by `factor` and each run of non-loop ops, in the loop and in the `scf.for`
    nests inside it, is repeated in place (copy `i` at `iv + i * step`); inner loops carrying
    values get one set of iter_args per copy.

    ```mlir
    scf.for %i = 0 to 8 step 1 {             // factor = 2 ->
      "a"(%i)                                scf.for %i = 0 to 8 step 2 {
      scf.for %j ... { "b"(%i, %j) }           "a"(%i)  "a"(%i + 1)
    }                                          scf.for %j ... { "b"(%i, %j)  "b"(%i + 1, %j) }
                                             }
    transform.loop.unroll_and_jam %loop factor = 2 : !transform.any_op
    ```

    Return modes: consumes the target, produces nothing. Silenceable failure "failed to
    unroll and jam, incorrect type of payload" for a payload that is not an `scf.for`
    (upstream also takes `affine.for`), and "failed to unroll and jam" (nothing changed)
    when the trip count is not constant or not a multiple of the factor (a factor above
    the trip count is clamped to it), when the loop has results, or when an inner loop's
    bounds are defined inside it.
    """

    name = "transform.loop.unroll_and_jam"

    target = operand_def(TransformOpHandleType)
    factor = prop_def(IntegerAttr[I64])

    consumed_operands = ("target",)
    assembly_format = "$target `factor` `=` $factor attr-dict `:` type($target)"

    def verify_(self) -> None:
        _positive(self, "factor")


@irdl_transform_op
class LoopUnrollFullOp(IRDLOperation):
    """Fully unrolls each `scf.for` with a constant trip count (one copy of the body per
    iteration, chained through the iter_args; the loop disappears).

    ```mlir
    transform.loop.unroll_full %loop : !transform.any_op
    ```

    Return modes: consumes the target, produces nothing. Silenceable failure "failed to
    fully unroll, incorrect type of payload" for a payload that is not an `scf.for`, and
    "failed to fully unroll" when its trip count is not a constant.
    """

    name = "transform.loop.unroll_full"

    target = operand_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target attr-dict `:` type($target)"


@irdl_transform_op
class LoopPeelOp(IRDLOperation):
    """Peels the partial last (or, with `peel_front`, first) iteration of an `scf.for`.

    ```mlir
    %main, %rem = transform.loop.peel %for peel_front = true
        : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    ```

    Return modes: consumes the target; returns the main loop and the peeled loop (per
    target). Silenceable failure on a payload that is not an `scf.for` ("transform applied
    to the wrong op kind"), "failed to peel the last iteration" when the step already
    divides the iteration space or is at most 1 (whatever `fail_if_already_divisible` says,
    as upstream today), "failed to peel the first iteration" when the loop is known to run
    at most once.
    """

    name = "transform.loop.peel"

    target = operand_def(TransformOpHandleType)
    peel_front = prop_def(BoolAttr, default_value=_FALSE)
    fail_if_already_divisible = prop_def(BoolAttr, default_value=_FALSE)
    peeled_loop = result_def(TransformOpHandleType)
    remainder_loop = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = (
        "$target (`peel_front` `=` $peel_front^)? "
        "(`fail_if_already_divisible` `=` $fail_if_already_divisible^)? " + _FUNCTIONAL
    )

    def verify_(self) -> None:
        _require_op_handle(self, self.target.type, "scf.for")


@irdl_transform_op
class LoopPipelineOp(IRDLOperation):
    """Software-pipelines an `scf.for` (`iteration_interval`, `read_latency`).

    ```mlir
    %p = transform.loop.pipeline %for : (!transform.op<"scf.for">) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the pipelined loop. Silenceable failure
    if the loop cannot be pipelined.
    """

    name = "transform.loop.pipeline"

    target = operand_def(TransformOpHandleType)
    iteration_interval = prop_def(IntegerAttr[I64], default_value=IntegerAttr(1, i64))
    read_latency = prop_def(IntegerAttr[I64], default_value=IntegerAttr(10, i64))
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = (
        "$target (`iteration_interval` `=` $iteration_interval^)? "
        "(`read_latency` `=` $read_latency^)? " + _FUNCTIONAL
    )

    def verify_(self) -> None:
        _require_op_handle(self, self.target.type, "scf.for")


@irdl_transform_op
class LoopForallToForOp(IRDLOperation):
    """Sequentializes an `scf.forall` into an `scf.for` nest (one result per dim).

    ```mlir
    %for = transform.loop.forall_to_for %forall : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns one handle per loop, outermost first.
    Silenceable failure if the handle does not hold exactly one op ("expected a single
    payload op"), if it is not an `scf.forall`, if the forall has shared outputs
    ("unsupported shared outputs (didn't bufferize?)"), or if the number of results differs
    from its rank.
    """

    name = "transform.loop.forall_to_for"

    target = operand_def(TransformOpHandleType)
    transformed = var_result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target " + _FUNCTIONAL


@irdl_transform_op
class LoopForallToParallelOp(IRDLOperation):
    """Converts an `scf.forall` into an `scf.parallel`.

    ```mlir
    %par = transform.loop.forall_to_parallel %forall
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the parallel loop. Silenceable failure if
    the target is not one `scf.forall`.
    """

    name = "transform.loop.forall_to_parallel"

    target = operand_def(TransformOpHandleType)
    transformed = var_result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target " + _FUNCTIONAL


@irdl_transform_op
class LoopParallelForToNestedForsOp(IRDLOperation):
    """Converts an `scf.parallel` into a nest of `scf.for` loops, one per dimension.

    ```mlir
    %outer = transform.loop.parallel_for_to_nested_fors %par
        : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the outermost `scf.for`. Silenceable
    failure if the target is not one `scf.parallel`, if the op does not have exactly one
    result, or if the loop has reductions.
    """

    name = "transform.loop.parallel_for_to_nested_fors"

    target = operand_def(TransformOpHandleType)
    transformed = var_result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target " + _FUNCTIONAL


@irdl_transform_op
class LoopHoistLoopInvariantSubsetsOp(IRDLOperation):
    """Hoists matching extract/insert (and transfer_read/write) pairs on loop-carried
    tensors out of the loop, so accumulators stay in registers.

    ```mlir
    transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op
    ```

    Return modes: only reads the target; handles to a loop that gains iter_args follow the
    new loop. Never fails (loops other than `scf.for` are left alone).
    """

    name = "transform.loop.hoist_loop_invariant_subsets"

    target = operand_def(TransformOpHandleType)

    assembly_format = "$target attr-dict `:` type($target)"


@irdl_transform_op
class LoopCoalesceOp(IRDLOperation):
    """Coalesces a perfect loop nest rooted at each target into one loop.

    ```mlir
    %c = transform.loop.coalesce %outer : (!transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes the target; returns the coalesced loop. Silenceable failure
    if the nest cannot be coalesced.
    """

    name = "transform.loop.coalesce"

    target = operand_def(TransformOpHandleType)
    transformed = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target " + _FUNCTIONAL


@irdl_transform_op
class LoopPromoteIfOneIterationOp(IRDLOperation):
    """Replaces loops that run exactly once by their body.

    ```mlir
    transform.loop.promote_if_one_iteration %loop : !transform.any_op
    ```

    Return modes: consumes the target; never fails.
    """

    name = "transform.loop.promote_if_one_iteration"

    target = operand_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target attr-dict `:` type($target)"


@irdl_transform_op
class LoopOutlineOp(IRDLOperation):
    """Outlines each loop into a new function `func_name` and calls it.

    ```mlir
    %func, %call = transform.loop.outline %loop func_name = "body"
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    ```

    Return modes: consumes the target; returns the functions and the calls. Definite
    failure if a loop cannot be outlined.
    """

    name = "transform.loop.outline"

    target = operand_def(TransformOpHandleType)
    func_name = prop_def(StringAttr)
    function = result_def(TransformOpHandleType)
    call = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target `func_name` `=` $func_name " + _FUNCTIONAL


@irdl_transform_op
class LoopFuseSiblingOp(IRDLOperation):
    """Fuses two independent sibling loops with the same bounds into one.

    ```mlir
    %fused = transform.loop.fuse_sibling %a into %b
        : (!transform.any_op, !transform.any_op) -> !transform.any_op
    ```

    Return modes: consumes both handles; returns the fused loop. Silenceable failure if
    the loops cannot be fused.
    """

    name = "transform.loop.fuse_sibling"

    target = operand_def(TransformOpHandleType)
    source = operand_def(TransformOpHandleType)
    fused_loop = result_def(TransformOpHandleType)

    consumed_operands = ("target", "source")
    assembly_format = "$target `into` $source " + _FUNCTIONAL


@irdl_transform_op
class TakeAssumedBranchOp(IRDLOperation):
    """Replaces each `scf.if` by its then (or `take_else_branch`) region.

    ```mlir
    transform.scf.take_assumed_branch %if take_else_branch : (!transform.any_op) -> ()
    ```

    Return modes: only reads the target (handles to ops of the taken branch stay valid);
    silenceable failure if it is not an `scf.if`, definite failure if the branch to take
    is not a single block (an `scf.if` without `else`, with `take_else_branch`).
    """

    name = "transform.scf.take_assumed_branch"

    target = operand_def(TransformOpHandleType)
    take_else_branch = opt_prop_def(UnitAttr)

    assembly_format = (
        "$target (`take_else_branch` $take_else_branch^)? "
        "attr-dict `:` `(` type($target) `)` `->` `(` `)`"
    )


ApplyScfForLoopCanonicalizationOp = descriptor(
    "scf.for_loop_canonicalization",
    "Canonicalize scf.for: affine.min/max of induction variables, dim of iter_args.",
)


OPS: tuple[type[IRDLOperation], ...] = (
    ApplyScfForLoopCanonicalizationOp,
    LoopCoalesceOp,
    LoopForallToForOp,
    LoopForallToParallelOp,
    LoopFuseSiblingOp,
    LoopHoistLoopInvariantSubsetsOp,
    LoopOutlineOp,
    LoopParallelForToNestedForsOp,
    LoopPeelOp,
    LoopPipelineOp,
    LoopPromoteIfOneIterationOp,
    LoopUnrollAndJamOp,
    LoopUnrollFullOp,
    LoopUnrollOp,
    TakeAssumedBranchOp,
)

__all__ = [
    "OPS",
    "ApplyScfForLoopCanonicalizationOp",
    "LoopCoalesceOp",
    "LoopForallToForOp",
    "LoopForallToParallelOp",
    "LoopFuseSiblingOp",
    "LoopHoistLoopInvariantSubsetsOp",
    "LoopOutlineOp",
    "LoopParallelForToNestedForsOp",
    "LoopPeelOp",
    "LoopPipelineOp",
    "LoopPromoteIfOneIterationOp",
    "LoopUnrollAndJamOp",
    "LoopUnrollFullOp",
    "LoopUnrollOp",
    "TakeAssumedBranchOp",
]
