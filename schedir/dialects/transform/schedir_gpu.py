"""schedir's GPU transform extension: what upstream's GPU and vector distribution ops do
not give a schedule, under the `transform.schedir.gpu.` namespace.

Upstream turns a reduction over threads into warp shuffles by vector distribution
(`vector.warp_execute_on_lane_0` and its patterns, which upstream exposes to test passes
only). `reduce_to_all_reduce` is the schedule-level step that does it: the merge of the
per-thread partials that `tile_reduction_using_for` / `_forall` leave becomes one
`gpu.all_reduce` per thread, lowered to shuffle butterflies by convert-gpu-to-nvvm.

`forward_reads` keeps rows in registers across the passes of a kernel (softmax's max, sum
and normalization): once the passes are mapped onto the same threads, a later pass's read
of memory nothing writes is the first pass's read, and takes its value.

Applied by `schedir.transform.ops.schedir_gpu`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr
from xdsl.dialects.transform import TransformOpHandleType
from xdsl.irdl import IRDLOperation, operand_def, prop_def, result_def
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.gpu.attributes import ThreadMappingAttr, WarpMappingAttr
from schedir.dialects.transform._syntax import irdl_transform_op


@irdl_transform_op
class ReduceToAllReduceOp(IRDLOperation):
    """Rewrites a reduction whose reduced extent N is a number of threads (the merge of
    per-thread partials) into an `scf.forall` of N iterations, with `mapping`, in which
    iteration `t` reduces partial `t` over the block with `gpu.all_reduce` and combines the
    result with the init.

    ```mlir
    %pfill, %part, %merge, %loop = transform.structured.tile_reduction_using_for %red
        by tile_sizes = [0, 256] : (!transform.any_op) -> (...)
    %forall = transform.schedir.gpu.reduce_to_all_reduce %merge mapping = [#gpu.thread<x>]
        : (!transform.any_op) -> !transform.any_op
    // linalg.reduce ins(%p : tensor<1x256xf32>) outs(%i : tensor<1xf32>) dimensions = [1]
    // -> scf.forall (%t) in (256) shared_outs(%o = %i) {
    //      %v = tensor.extract %p[%c0, %t]
    //      %a = gpu.all_reduce add %v uniform {} : (f32) -> f32
    //      ... arith.addf %a, %o[0]; parallel_insert_slice into %o[0]
    //    } {mapping = [#gpu.thread<x>]}
    ```

    The target is a linalg op on static tensors with one input and one init, exactly one
    reduction dim, every parallel dim of extent 1, and a body that combines the input with
    the init in one op (`addf`, `addi`, `mulf`, `muli`, `maxnumf`, `minnumf`, `maximumf`,
    `minimumf`, `max/minsi`, `max/minui`, `andi`, `ori`, `xori`). Every iteration inserts
    the same (bit-identical) value. Map the forall onto exactly N threads of the block
    (`map_nested_forall_to_threads` with N threads in all): a smaller forall would be
    predicated, and convert-gpu-to-nvvm rejects a `gpu.all_reduce` that not every thread
    reaches.

    Return modes: consumes the target; returns the new `scf.forall` (one per target).
    Silenceable failure (with the reason at the payload op) when a target is not such a
    reduction. The verifier rejects a mapping that is not one `#gpu.thread` or `#gpu.warp`
    attribute.
    """

    name = "transform.schedir.gpu.reduce_to_all_reduce"

    target = operand_def(TransformOpHandleType)
    mapping = prop_def(ArrayAttr)
    forall = result_def(TransformOpHandleType)
    merge = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = (
        "$target `mapping` `=` $mapping attr-dict `:` functional-type(operands, results)"
    )

    def verify_(self) -> None:
        entries = self.mapping.data
        if len(entries) != 1 or not isinstance(entries[0], ThreadMappingAttr | WarpMappingAttr):
            raise VerifyException(
                f"expects mapping to be one #gpu.thread or #gpu.warp attribute, got {self.mapping}"
            )


@irdl_transform_op
class ForwardReadsOp(IRDLOperation):
    """Replaces, in the body of each target op, every read of read-only memory by an
    equivalent read that properly dominates it in the same kernel, so that a value read
    by one pass of a kernel stays in registers for the next passes instead of being read
    again.

    ```mlir
    %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [512, 1, 1]
      : (!transform.any_op) -> !transform.any_op
    transform.apply_cse to %func : !transform.any_op
    transform.schedir.gpu.forward_reads in %func : !transform.any_op
    // %a = vector.transfer_read %x[%r, %t], %pad : memref<64x8192xf32>, vector<1x16xf32>
    // gpu.barrier ... gpu.all_reduce ... (nothing writes %x)
    // %b = vector.transfer_read %x[%r, %t], %pad : memref<64x8192xf32>, vector<1x16xf32>
    // -> the uses of %b use %a; %b is erased
    ```

    A read is an op without regions whose memory effects are all reads of one memref
    (`memref.load`, `vector.transfer_read`, `vector.load`, ...); two reads are equivalent
    when their class, operands, attributes and result types are (upstream's
    `OperationEquivalence`, as CSE). The memory is read-only when no op in the target
    writes or frees memory that may alias it (the alias query of
    `apply_patterns.gpu.eliminate_barriers`: distinct allocations, `llvm.noalias`
    arguments, globals); if some op's effects are unknown, nothing is forwarded. Reads in
    different kernels (`gpu.launch`, `gpu.func`) are never merged. Apply it after the
    foralls are mapped to threads (before, the passes' reads sit in distinct forall
    bodies, which do not dominate one another) and after CSE (the indices must be the
    same SSA values).

    Return modes: only reads the target; handles to erased reads are invalidated. Never
    fails (a target without such reads is left unchanged). Definite failure if the target
    contains this transform op.
    """

    name = "transform.schedir.gpu.forward_reads"

    target = operand_def(TransformOpHandleType)

    assembly_format = "`in` $target attr-dict `:` type($target)"


OPS: tuple[type[IRDLOperation], ...] = (ReduceToAllReduceOp, ForwardReadsOp)

__all__ = ["OPS", "ForwardReadsOp", "ReduceToAllReduceOp"]
