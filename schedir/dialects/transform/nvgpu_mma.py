"""Upstream's `transform.nvgpu.rewrite_matmul_as_mma_sync`, `create_async_groups` and
`pipeline_shared_memory_copies` (NVGPUTransformOps.td): the warp-level tensor-core route
(sm_80+), for what wgmma cannot tile and for pre-Hopper GPUs; with schedir's extensions
for it, `transform.schedir.pad_shared_rows`, `transform.schedir.nvgpu.pipeline_fragments`
and `transform.schedir.nvgpu.carry_ring_offsets`.

Applied by `schedir.transform.ops.nvgpu_mma`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self, cast

from xdsl.dialects.builtin import I32, I64, IntegerAttr, UnitAttr
from xdsl.dialects.transform import TransformOpHandleType, TransformParamHandleType
from xdsl.ir import OpResult
from xdsl.irdl import IRDLOperation, Operand, operand_def, opt_prop_def, prop_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import irdl_transform_op
from schedir.dialects.transform._syntax_helpers import (
    FailurePropagationMode,
    failure_mode,
    failure_mode_attr,
    parse_failures,
    parse_functional_type,
    parse_prop_and_attr_dict,
    print_failures,
    print_functional_type,
    print_prop_and_attr_dict,
)


class _LoopTransform:
    """The syntax and failure mode of the ops on one loop handle `for_op` with a
    `failures(propagate|suppress)` prefix (default `suppress`, as upstream's
    `pipeline_shared_memory_copies`):
    `transform.<op> failures(suppress) %for {props} : (!transform.any_op) -> !transform.any_op`.
    """

    if TYPE_CHECKING:  # the fields of the ops (a mixin may not declare them)
        for_op: Operand
        result: OpResult
        failure_propagation_mode: IntegerAttr[I32] | None

    @property
    def mode(self) -> FailurePropagationMode:
        """The failure propagation mode (`suppress` when not given)."""
        if self.failure_propagation_mode is None:
            return FailurePropagationMode.SUPPRESS
        return failure_mode(self.failure_propagation_mode)

    @property
    def suppresses_failures(self) -> bool:
        """Whether a silenceable failure is dropped (`failures(suppress)`)."""
        return self.mode == FailurePropagationMode.SUPPRESS

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        mode = parse_failures(parser)
        target = parser.parse_unresolved_operand()
        op_type = cast(type[IRDLOperation], cls)
        props, attrs = parse_prop_and_attr_dict(parser, op_type)
        parser.parse_punctuation(":")
        inputs, outputs = parse_functional_type(parser)
        if len(inputs) != 1 or len(outputs) != 1:
            parser.raise_error("expected one operand and one result type")
        op = op_type.create(
            operands=[parser.resolve_operand(target, inputs[0])],
            result_types=outputs,
            properties=props | {"failure_propagation_mode": mode},
            attributes=attrs,
        )
        return cast(Self, op)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_failures(printer, failure_mode_attr(self.mode))
        printer.print_string(" ")
        printer.print_ssa_value(self.for_op)
        print_prop_and_attr_dict(
            printer, cast(IRDLOperation, self), elided=("failure_propagation_mode",)
        )
        printer.print_string(" : ")
        print_functional_type(printer, [self.for_op.type], [self.result.type])


@irdl_transform_op
class RewriteMatmulAsMmaSyncOp(IRDLOperation):
    """Rewrites a `linalg.matmul` on memrefs that one warp computes into `nvgpu.mma.sync`
    on the fragments each lane holds, with the loads and stores of the fragments.

    ```mlir
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    // linalg.matmul ins(%a, %b : memref<16x16xf16>, memref<16x8xf16>) outs(%c : memref<16x8xf32>)
    // -> %lane = gpu.lane_id; 8 memref.load of A, 4 of B, 4 of C at the lane's fragment
    //    positions; %d = nvgpu.mma.sync(%fa, %fb, %fc) mmaShape = [16, 8, 16]
    //    : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>;
    //    4 memref.store of %d into C
    ```

    The fragments follow the PTX ISA's mma.sync layout (groupID g = lane / 4, t = lane %
    4; f16/bf16 m16n8k16: A register i holds row g + 8 (i % 2), columns 2t + {0, 1} +
    8 (i / 2); B register i holds k = 2t + {0, 1} + 8i at column g; C register i holds row
    g + 8i, columns 2t + {0, 1}; f32 operands run as tf32 m16n8k4).

    Upstream rewrites exactly one 16x8x16 f16 (f16 accumulator) or 16x8x4 tf32 matmul and
    takes `thread_id x` as the lane (one warp). schedir's extensions: f32 accumulation of
    f16 and bf16; any M x N x K, rounded up to whole mma tiles (up to 512 mma.sync per
    warp, fully unrolled); the lane is `gpu.lane_id`, so the target may be one warp's tile
    of a block (map it to warps first); dynamic sizes with a constant bound (an edge
    tile); elements past the operands' sizes are not loaded (they read as 0) and not
    stored; operands in shared memory (16-bit elements, bounds of whole tiles) load
    through `nvgpu.ldmatrix` (A: x4 with lane l at row m0 + l % 16, column k0 + 8 (l /
    16); B, k-major: x4 `transpose` over two n tiles, or x2) where a warp-uniform run-time
    check finds each lane's 16-byte row address aligned and the view as large as its
    bound, and through the masked element loads otherwise (an edge tile, a misaligned
    view; LLVM folds the check where the alignment is known); and a matmul directly in an
    `scf.for` whose C (and what C is computed from) does not depend on the loop and is not
    used elsewhere in it gets its C fragments loaded before the loop, carried through it
    in registers and stored after it.

    Return modes: consumes the target; produces no handle. Silenceable failure (the reason
    at the payload op, then "unsupported target op" at this op) when a target is not a
    plain `linalg.matmul` on 2-D memrefs with f16 x f16 -> f16/f32, bf16 x bf16 -> f32 or
    f32 x f32 -> f32 elements and static or bounded sizes, or needs more than 512
    mma.sync; that target is then unchanged.
    """

    name = "transform.nvgpu.rewrite_matmul_as_mma_sync"

    target = operand_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target attr-dict `:` `(` type($target) `)` `->` `(` `)`"


@irdl_transform_op
class CreateAsyncGroupsOp(IRDLOperation):
    """Rewrites the copies from global to shared memory under the target into
    asynchronous copies (`nvgpu.device_async_copy`, `cp.async`), grouped with a wait.

    ```mlir
    %f2 = transform.nvgpu.create_async_groups %f bypass_l1
        : (!transform.any_op) -> (!transform.any_op)
    // %v = vector.transfer_read %A[%i, %j], %pad {in_bounds = [true]} : memref<64x64xf16>, vector<8xf16>
    // vector.transfer_write %v, %s[%k, %l] {in_bounds = [true]} : vector<8xf16>, memref<16x32xf16, 3>
    // -> %t = nvgpu.device_async_copy %A[%i, %j], %s[%k, %l], 8 bypassL1
    //    %g = nvgpu.device_async_create_group %t
    //    nvgpu.device_async_wait %g
    ```

    A copy is a 1-D `vector.transfer_write` or `vector.store` into workgroup memory of a
    1-D `vector.transfer_read` or `vector.load` of global memory (in bounds, minor
    identity maps, 4, 8 or 16 bytes); a read masked by a 1-D `vector.create_mask` copies
    the mask's size (the rest zero-filled). Copies that follow one another in a block
    (only side-effect-free ops or their reads between them) form one group, waited for
    right after it. `bypass_l1` makes the 16-byte copies skip L1 (`cp.async.cg`).
    Multi-dimensional transfers are left alone: unroll them first
    (`apply_patterns.vector.transfer_to_scf max_transfer_rank = 1 full_unroll = true`).

    Return modes: consumes the target; returns it (updated in place). Never fails: the
    copies that do not qualify are left synchronous.
    """

    name = "transform.nvgpu.create_async_groups"

    target = operand_def(TransformOpHandleType)
    bypass_l1 = opt_prop_def(UnitAttr)
    result = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = (
        "$target (`bypass_l1` $bypass_l1^)? attr-dict `:` functional-type(operands, results)"
    )


@irdl_transform_op
class PipelineSharedMemoryCopiesOp(_LoopTransform, IRDLOperation):
    """Software-pipelines an `scf.for` whose body issues asynchronous copies into shared
    memory: the copies of iteration i + depth - 1 are issued in iteration i (predicated
    off past the loop's end), after `depth - 1` iterations' copies issued before the loop.

    ```mlir
    %l2 = transform.nvgpu.pipeline_shared_memory_copies failures(propagate) %for
        <{depth = 3}> : (!transform.any_op) -> !transform.any_op
    // scf.for %k { %t = nvgpu.device_async_copy ...(%k); group; wait; compute }
    // -> copies of k0 and k0 + s, each a group;
    //    scf.for %k { %t = nvgpu.device_async_copy ...(%k + 2 s), n or 0; group;
    //                 nvgpu.device_async_wait %g {numGroups = 2}; compute; gpu.barrier }
    //    nvgpu.device_async_wait %g {numGroups = 0}
    ```

    The copies and the side-effect-free ops they are computed from are cloned for the
    later iteration; each iteration commits one group (empty past the end), and waits
    until `depth - 1` groups are in flight, so its own data has arrived. The shared
    buffers must be multi-buffered by `depth` first (`transform.memref.multibuffer`);
    the body ends in a `gpu.barrier` (added if missing: the next iteration's copies
    overwrite the slot this one read). All copies are waited for after the loop. A body
    that writes no memory but through its copies, with a barrier after its wait and one
    at its end, keeps one barrier per iteration: the later copies are issued after the
    wait (`numGroups = depth - 2`) and its barrier, and the closing barrier goes.

    Upstream pipelines any copies (also synchronous ones, with `peel_epilogue`) through
    its generic loop pipeliner; schedir pipelines the predicated asynchronous form only
    (`peel_epilogue` is accepted and ignored: the predicated copies need no epilogue).

    Return modes: consumes the target; returns the pipelined loop. Failure mode
    `failures(propagate|suppress)` (default `suppress`, as upstream): a loop that is not
    an `scf.for` whose body issues (not nested) asynchronous copies computed from
    side-effect-free ops of the induction variable, or that also writes shared memory
    synchronously ("couldn't predicate"), is a silenceable failure at that loop, which
    `suppress` drops (the loop is returned unchanged). A `depth` below 2 is a verifier error.
    """

    name = "transform.nvgpu.pipeline_shared_memory_copies"

    for_op = operand_def(TransformOpHandleType)
    depth = prop_def(IntegerAttr[I64])
    peel_epilogue = opt_prop_def(UnitAttr)
    failure_propagation_mode = opt_prop_def(IntegerAttr[I32])
    result = result_def(TransformOpHandleType)

    consumed_operands = ("for_op",)

    def verify_(self) -> None:
        if self.depth.value.data < 2:
            raise VerifyException(
                f"'depth' must be at least 2 (a stage in flight), got {self.depth.value.data}"
            )


@irdl_transform_op
class PadSharedRowsOp(IRDLOperation):
    """Pads the rows of the 2-D tiles a shared-memory buffer holds by `pad` elements (a
    param): schedir's bank-conflict remedy for `ldmatrix` (no upstream op; upstream
    swizzles instead, with the `nvgpu-optimize-shared-memory` pass).

    ```mlir
    %padded = transform.schedir.pad_shared_rows %alloc by %pad
        : (!transform.op<"memref.alloc">, !transform.param<i64>) -> !transform.any_op
    // %t = memref.alloc() : memref<8192xi8, 3>
    // %v = memref.view %t[%c0][%c128, %c32] : memref<8192xi8, 3> to memref<?x?xf16, 3>
    // -> %t = memref.alloc() : memref<10240xi8, 3>  (pad = 8)
    //    %p = memref.view %t[%c0][%c128, %c40] : memref<10240xi8, 3> to memref<?x?xf16, 3>
    //    %v = memref.subview %p[0, 0] [128, 32] [1, 1]
    //        : memref<?x?xf16, 3> to memref<128x32xf16, strided<[?, 1]>, 3>
    ```

    The target is a static 1-D `i8` buffer in workgroup memory used only by `memref.view`
    ops (at byte 0, with constant 2-D sizes: the tiles `structured.promote` makes) and
    deallocations. It grows to hold rows of C + pad elements; each view becomes one of
    R x (C + pad) and every user of the old view takes its R x C corner. With 16-bit
    elements, pad = 8 (16 bytes) starts consecutive rows one bank group apart: the 8 row
    addresses of an `ldmatrix` tile then never share a bank when rows are a multiple of
    64 bytes wide. pad = 0 leaves the buffer as it is, and so are allocations outside
    workgroup memory (a target handle may hold all of a function's allocations).

    Return modes: consumes the target; returns the new allocations (the old ones where
    nothing changed). Silenceable failure (the reason at the payload op) when a target is not such
    a buffer; definite failure when `pad` is not one non-negative integer.
    """

    name = "transform.schedir.pad_shared_rows"

    target = operand_def(TransformOpHandleType)
    pad = operand_def(TransformParamHandleType)
    result = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = "$target `by` $pad attr-dict `:` functional-type(operands, results)"


@irdl_transform_op
class PipelineFragmentsOp(_LoopTransform, IRDLOperation):
    """Software-pipelines the register fragments of an mma.sync k loop across its k
    steps (schedir's extension; no upstream op): the wait and the barrier that open each
    iteration of a loop pipelined by `transform.nvgpu.pipeline_shared_memory_copies`,
    and the fragment loads (`ldmatrix`) of its first k sub-step, move into the previous
    iteration, after its last shared-memory read and before its last sub-step's
    mma.sync ops, which then hide their latency; the fragments are carried into the
    next iteration (CUTLASS's multistage main loop).

    ```mlir
    %l2 = transform.schedir.nvgpu.pipeline_fragments failures(suppress) %for
        : (!transform.any_op) -> !transform.any_op
    // scf.for %k iter_args(%acc) { wait; gpu.barrier; <copies of %k + 2 s>;
    //   %f0 = ldmatrix(%k); mma(%f0, %acc); ... %f3 = ldmatrix(%k); mma(%f3) }
    // -> wait; gpu.barrier; %f = ldmatrix(%lb)
    //    scf.for %k iter_args(%acc, %f) { <copies of %k + 2 s>; mma(%f, %acc); ...
    //      %f3 = ldmatrix(%k); wait; gpu.barrier; %n = ldmatrix(%k + s); mma(%f3); yield .., %n }
    ```

    The first sub-step's fragments are the A and B operands of the mma.sync ops that
    accumulate a carried value; they are cloned, with the side-effect-free and
    read-only ops they are computed from, for the first iteration before the loop and
    for the next one in the body. The copies issued at the top of an iteration follow
    the barrier of the previous one, which every read of the slot they overwrite
    precedes; the wait keeps its group count. The last iteration loads fragments from a
    slot of the ring past the loop's end and drops them. With `double_buffer`, each
    later sub-step's fragment loads (the n-th mma.sync ops of the accumulator chains'
    operands) also move before the previous sub-step's first mma.sync: two sub-steps'
    fragments live at once, each ldmatrix under a sub-step's mma.sync ops.

    ```mlir
    %l3 = transform.schedir.nvgpu.pipeline_fragments failures(suppress) %for
        <{double_buffer}> : (!transform.any_op) -> !transform.any_op
    // ... mma(%f); %f1 = ldmatrix; mma(%f1); ... -> %f1 = ldmatrix; mma(%f); ...; mma(%f1)
    ```

    Return modes: consumes the target; returns the new loop (it carries the fragments
    after the old loop's values, whose results replace the old loop's). Failure mode
    `failures(propagate|suppress)` (default `suppress`): a loop that is not an `scf.for`
    whose body opens with a `nvgpu.device_async_wait` and a `gpu.barrier` (a loop not
    pipelined, as at partial tiles where the copies stay synchronous), has no mma.sync
    on a carried accumulator, or whose first fragments depend on other carried values
    or on ops that write memory is a silenceable failure at that loop, which `suppress`
    drops (the loop is returned unchanged).
    """

    name = "transform.schedir.nvgpu.pipeline_fragments"

    for_op = operand_def(TransformOpHandleType)
    double_buffer = opt_prop_def(UnitAttr)
    failure_propagation_mode = opt_prop_def(IntegerAttr[I32])
    result = result_def(TransformOpHandleType)

    consumed_operands = ("for_op",)


@irdl_transform_op
class CarryRingOffsetsOp(_LoopTransform, IRDLOperation):
    """Carries the ring offsets of a multi-buffered loop instead of recomputing them
    (schedir's extension; no upstream op): each `affine.apply` of the body on the
    induction variable (plus a constant) whose values repeat with a period of 2 to 16
    iterations, each a constant above the one before except where they wrap (a ring
    slot's byte offset, `((i floordiv step) mod d) * bytes`, after canonicalization),
    becomes a value the loop carries and advances with an add, a compare and a select:
    no division by the ring's depth in the loop.

    ```mlir
    %l2 = transform.schedir.nvgpu.carry_ring_offsets failures(suppress) %for
        : (!transform.any_op) -> !transform.any_op
    // scf.for %i = %c0 to %c4096 step %c64 {
    //   %o = affine.apply affine_map<(d0) -> ((d0 floordiv 64) mod 3 * 18432)>(%i) ... }
    // -> scf.for %i = %c0 to %c4096 step %c64 iter_args(%o = %c0) { ...
    //      %n = arith.addi %o, %c18432; %w = arith.cmpi eq, %n, %c55296
    //      %s = arith.select %w, %c0, %n; scf.yield %s }
    ```

    The loop must be software-pipelined (its body waits for asynchronous copies) and
    its bounds and step constants; the sequence is checked on every iteration. Applies with equal sequences share one carried value; other applies
    stay.

    Return modes: consumes the target; returns the new loop (it carries the offsets
    after the old loop's values, whose results replace the old loop's). Failure mode
    `failures(propagate|suppress)` (default `suppress`): a target that is not an
    `scf.for` with constant bounds and step whose body waits for asynchronous copies
    (a loop not pipelined, as at partial tiles), or none of whose applies qualifies, is a
    silenceable failure at that loop, which `suppress` drops (the loop is returned
    unchanged).
    """

    name = "transform.schedir.nvgpu.carry_ring_offsets"

    for_op = operand_def(TransformOpHandleType)
    failure_propagation_mode = opt_prop_def(IntegerAttr[I32])
    result = result_def(TransformOpHandleType)

    consumed_operands = ("for_op",)


OPS: tuple[type[IRDLOperation], ...] = (
    RewriteMatmulAsMmaSyncOp,
    CreateAsyncGroupsOp,
    PipelineSharedMemoryCopiesOp,
    PadSharedRowsOp,
    PipelineFragmentsOp,
    CarryRingOffsetsOp,
)

__all__ = [
    "OPS",
    "CreateAsyncGroupsOp",
    "PadSharedRowsOp",
    "PipelineSharedMemoryCopiesOp",
    "RewriteMatmulAsMmaSyncOp",
]
