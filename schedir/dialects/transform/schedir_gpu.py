"""schedir's GPU transform extension: what upstream's GPU and vector distribution ops do
not give a schedule, under the `transform.schedir.gpu.` namespace.

Upstream turns a reduction over threads into warp shuffles by vector distribution
(`vector.warp_execute_on_lane_0` and its patterns, which upstream exposes to test passes
only). `reduce_to_all_reduce` is the schedule-level step that does it: the merge of the
per-thread partials that `tile_reduction_using_for` / `_forall` leave becomes one
`gpu.all_reduce` per thread, lowered to shuffle butterflies by convert-gpu-to-nvvm.

`reduce_to_subgroup_reduce` is its warp-level form for short rows: one warp (or cluster
of lanes) per row, several rows per block, the lanes' partials combined by one
`gpu.subgroup_reduce` (shuffles only, no shared memory, no barrier).

`forward_reads` keeps rows in registers across the passes of a kernel (softmax's max, sum
and normalization): once the passes are mapped onto the same threads, a later pass's read
of memory nothing writes is the first pass's read, and takes its value; a read of a
reduction's result that every thread published in its own slot is the value each thread
holds.

Applied by `schedir.transform.ops.schedir_gpu`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, UnitAttr
from xdsl.dialects.transform import TransformOpHandleType
from xdsl.irdl import IRDLOperation, operand_def, opt_prop_def, prop_def, result_def
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

    With the unit attribute `merge_in_threads`, every iteration also combines its reduced
    value with the (one-element) init, as the body combines them, and writes that into its
    slot; the target is replaced by slot 0 (a rank-reducing `tensor.extract_slice`, the
    second result): no thread merges alone, so the merge and its publication need no
    barrier of their own. Every slot holds the same value, and where the init folds to a
    uniform scalar (a `linalg.fill`'s) `forward_reads` turns the readers' loads of slot 0
    into that value, computed in each thread.

    Return modes: consumes the target; returns the new `scf.forall` (one per target) and
    the merge (the target merging slot 0, or with `merge_in_threads` the slice replacing
    it). Silenceable failure (with the reason at the payload op) when a target is not such
    a reduction. The verifier rejects a mapping that is not one `#gpu.thread` or
    `#gpu.warp` attribute.
    """

    name = "transform.schedir.gpu.reduce_to_all_reduce"

    target = operand_def(TransformOpHandleType)
    mapping = prop_def(ArrayAttr)
    merge_in_threads = opt_prop_def(UnitAttr)
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
class ReduceToSubgroupReduceOp(IRDLOperation):
    """Rewrites a reduction of per-lane partials (the merge that `tile_reduction_using_for`
    leaves, P rows x N partials) into an `scf.forall` over (P, `lanes`) with `mapping`
    in which iteration (p, l) combines its k = N / `lanes` contiguous partials
    l*k .. l*k+k-1 in order, reduces the result over its cluster of `lanes` lanes with
    `gpu.subgroup_reduce` (a `shfl.sync` butterfly: no shared memory, no barrier) and
    writes it into partial l*k; the target then merges partial 0 of each row into its
    init. Rows map to warps (`#gpu.thread<y>` with `lanes` = 32 threads in x), each row
    reduced by its own warp, several rows per block.

    ```mlir
    %pfill, %part, %merge, %loop = transform.structured.tile_reduction_using_for %red
        by tile_sizes = [0, 128] : (!transform.any_op) -> (...)
    %forall, %m = transform.schedir.gpu.reduce_to_subgroup_reduce %merge lanes = 32
        mapping = [#gpu.thread<y>, #gpu.thread<x>]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // linalg.reduce ins(%p : tensor<8x128xf32>) outs(%i : tensor<8xf32>) dimensions = [1]
    // -> scf.forall (%r, %l) in (8, 32) shared_outs(%o = %p) {
    //      %c = arith.muli %l, %c4        // the lane's 4 partials, combined in order
    //      ... %v = arith.addf ...
    //      %a = gpu.subgroup_reduce add %v uniform : (f32) -> f32
    //      ... fill %o[%r, %c] with %a
    //    } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
    //    linalg.reduce ins(%o[0, 0] [8, 1] : tensor<8x1xf32>) outs(%i) dimensions = [1]
    ```

    The target is a linalg op on static tensors with one input and one init, exactly one
    reduction dim whose extent is a multiple of `lanes`, and a body that combines the
    input with the init in one op (as `reduce_to_all_reduce`). `lanes` is a power of two
    of at most 32; `mapping` has one attribute per parallel dim, then one for the lanes.
    Map the lanes onto the x threads of the block with `lanes` threads in x (with fewer
    than 32, each cluster of `lanes` consecutive lanes of a warp is one row's). Every lane
    of a row's cluster writes the same (bit-identical) value.

    Return modes: consumes the target; returns the new `scf.forall` and the target (now
    the merge of the first partial of each row), one each per target. Silenceable failure
    (with the reason at the payload op) when a target is not such a reduction. The
    verifier rejects `lanes` that is not a power of two of at most 32 and a mapping of
    other than `#gpu.thread`/`#gpu.warp` attributes.
    """

    name = "transform.schedir.gpu.reduce_to_subgroup_reduce"

    target = operand_def(TransformOpHandleType)
    lanes = prop_def(IntegerAttr)
    mapping = prop_def(ArrayAttr)
    forall = result_def(TransformOpHandleType)
    merge = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = (
        "$target `lanes` `=` $lanes `mapping` `=` $mapping attr-dict `:` "
        "functional-type(operands, results)"
    )

    def verify_(self) -> None:
        lanes = self.lanes.value.data
        if lanes <= 0 or lanes & (lanes - 1) or lanes > 32:
            raise VerifyException(f"expects lanes to be a power of two <= 32, got {lanes}")
        entries = self.mapping.data
        if not entries or not all(
            isinstance(e, ThreadMappingAttr | WarpMappingAttr) for e in entries
        ):
            raise VerifyException(
                f"expects mapping to be #gpu.thread or #gpu.warp attributes, got {self.mapping}"
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
    arguments, globals); if some op's effects are unknown, nothing is forwarded. Memory
    written only before the first read, each write in an op of the kernel body followed
    by a `gpu.barrier` of the body that precedes the first read (a reduction's result one
    thread publishes in shared memory), is read-only from the first read on: its reads
    are forwarded too (frees are no writes: a read after one is undefined). Reads in
    different kernels (`gpu.launch`, `gpu.func`) are never merged. Apply it after the
    foralls are mapped to threads (before, the passes' reads sit in distinct forall
    bodies, which do not dominate one another) and after CSE (the indices must be the
    same SSA values).

    First, a read of one element of a buffer that every thread of the block last filled,
    each its own slot, with one block-uniform value (a `gpu.all_reduce` result, or pure
    arith / math / vector ops of such values and constants), becomes that value, broadcast
    to the read's type: the write is an unconditional op of the kernel body, followed by
    a `gpu.barrier` of the body before the read, with no write to the buffer between;
    its indices are constants equal to the read's or thread ids whose block size exceeds
    the read's constant (`forward_uniform_slots`). A reduction that every thread merges
    (`reduce_to_all_reduce ... {merge_in_threads}`) and whose readers load slot 0 then
    reads nothing back; barrier elimination can remove the barrier after.

    Return modes: only reads the target; handles to erased reads are invalidated. Never
    fails (a target without such reads is left unchanged). Definite failure if the target
    contains this transform op.
    """

    name = "transform.schedir.gpu.forward_reads"

    target = operand_def(TransformOpHandleType)

    assembly_format = "`in` $target attr-dict `:` type($target)"


@irdl_transform_op
class DivideByReciprocalOp(IRDLOperation):
    """Rewrites, in the body of each target structured op, every `arith.divf %x, %d` on
    floats into `arith.mulf %x, (arith.divf 1.0, %d)`: once vectorized and unrolled, the
    reciprocals of one divisor are one op (CSE), computed once per thread, and each
    element costs a multiplication instead of an IEEE division (`div.rn.f32`, a dozen
    instructions on NVIDIA GPUs).

    ```mlir
    %div = ... : !transform.any_op   // softmax's normalization: exp(x - max) / sum
    transform.schedir.gpu.divide_by_reciprocal %div : !transform.any_op
    // %q = arith.divf %e, %s : f32
    // -> %c1 = arith.constant 1.0 : f32  %r = arith.divf %c1, %s : f32  %q = arith.mulf %e, %r : f32
    ```

    Not exact: x * rn(1/d) is within about 1.5 ulp of x / d (relative error below
    2^-23 + 2^-24) while 1/d is a normal float, and a subnormal divisor makes 1/d
    infinite. A schedule applies it where the divisor is known to be in range and the
    error is within the reference's tolerance (softmax's sum is at least 1: one of its
    terms is exp(0)). The fastmath flags of the division stay on both new ops.

    Return modes: modifies the targets in place (the handle stays valid). Silenceable
    failure when a target is not a structured op with a body.
    """

    name = "transform.schedir.gpu.divide_by_reciprocal"

    target = operand_def(TransformOpHandleType)

    assembly_format = "$target attr-dict `:` type($target)"


OPS: tuple[type[IRDLOperation], ...] = (
    ReduceToAllReduceOp,
    ReduceToSubgroupReduceOp,
    ForwardReadsOp,
    DivideByReciprocalOp,
)

__all__ = [
    "OPS",
    "DivideByReciprocalOp",
    "ForwardReadsOp",
    "ReduceToAllReduceOp",
    "ReduceToSubgroupReduceOp",
]
