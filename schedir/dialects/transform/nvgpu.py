"""The nvgpu transform ops (upstream's NVGPUTransformOps.td) and schedir's nvgpu extension
(`transform.schedir.nvgpu.*`, what upstream has no op for: the wgmma rewrite, the TMA
ring, its warp specialization, the blocks' raster order and the persistent tile loop).

Applied by `schedir.transform.ops.nvgpu`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr
from xdsl.dialects.transform import TransformOpHandleType, TransformParamHandleType
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.transform._syntax import irdl_transform_op

SWIZZLES = ("none", "swizzle_32b", "swizzle_64b", "swizzle_128b")
"""The TMA swizzle modes (`!nvgpu.tensormap.descriptor`'s `swizzle`)."""


@irdl_transform_op
class RewriteCopyAsTmaOp(IRDLOperation):
    """Rewrites global-to-shared `linalg.copy`s on memrefs inside one `gpu.launch` into
    TMA loads that complete on one mbarrier, waited on by every thread.

    ```mlir
    transform.nvgpu.rewrite_copy_as_tma %copies : (!transform.any_op) -> ()
    // linalg.copy ins(%a : memref<64x8xf32>) outs(%s : memref<64x8xf32, #gpu.address_space<workgroup>>)
    // -> (host) %d = nvgpu.tma.create.descriptor %unranked box[%c64, %c8]
    //    (device) mbarrier.create/init; scf.if tid.x == 0 { tma.async.load %d[..], %b[%c0]
    //    to %s; mbarrier.arrive.expect_tx %b[%c0], %c2048 } else { ...expect_tx 0 };
    //    mbarrier.try_wait.parity %b[%c0], %parity, %c10000000
    ```

    Matches `linalg.copy`s whose destination is a static, contiguous workgroup-memory
    memref and whose source has the same static shape (each size 1..256, rows a multiple of
    16 bytes) and is a memref defined above the launch or a unit-stride, rank-preserving
    `memref.subview` of one (its offsets become the load's coordinates; upstream only takes
    the former, at coordinates 0). Copies inside one `scf.for` of the launch get a barrier
    initialized once, a block barrier before each iteration's loads, and the iteration's
    phase parity (upstream re-initializes the barrier in every iteration). The optional
    `swizzle` property (a schedir extension, default `"none"` as upstream) sets the
    descriptors' swizzle mode: `"swizzle_128b"` is the layout wgmma reads.
    Edge tiles (schedir's extension, for sizes the tiles do not divide): a copy of sizes
    `min(box, dim - offset)` (proven on their affine forms, or constants) into a
    unit-stride subview at 0 of a buffer of static sizes loads the whole buffer as the
    box: TMA zero-fills what lies past the tensor, and the copy's destination becomes a
    subview of the whole-buffer subview the load writes. A global tensor whose row strides
    are not multiples of 16 bytes (TMA's rule) is rewritten too: the host stages it into
    16-byte-pitched rows when it builds the descriptor (schedir/gpu/tma.py).

    Return modes: consumes the target; produces no handle. Silenceable failure (the reason
    at the payload op) when a target is not such a copy, the targets are not under one
    `gpu.launch` or in one block, or they sit in more than one loop; nothing is rewritten
    then. The verifier rejects an unknown swizzle mode.
    """

    name = "transform.nvgpu.rewrite_copy_as_tma"

    target = operand_def(TransformOpHandleType)
    swizzle = opt_prop_def(StringAttr)

    consumed_operands = ("target",)
    assembly_format = "$target attr-dict `:` `(` type($target) `)` `->` `(` `)`"

    def verify_(self) -> None:
        if self.swizzle is not None and self.swizzle.data not in SWIZZLES:
            raise VerifyException(
                f'swizzle must be one of {", ".join(SWIZZLES)}, got "{self.swizzle.data}"'
            )


@irdl_transform_op
class RewriteMatmulAsWgmmaOp(IRDLOperation):
    """Rewrites a block's `linalg.matmul` on TMA-loaded shared-memory tiles into warpgroup
    MMAs (wgmma, sm_90a) whose f32 accumulator stays in registers across the matmul's
    `scf.for` and is stored to C after it (schedir's extension: upstream has no wgmma
    transform op).

    ```mlir
    %mma = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm
        : (!transform.any_op) -> !transform.any_op
    // linalg.fill 0 into %c; scf.for { tma loads into %sa, %sb; wait;
    //   linalg.matmul ins(%sa, %sb : memref<128x64xf16, 3>, memref<64x64xf16, 3>) outs(%c) }
    // -> %acc0 = nvgpu.warpgroup.mma.init.accumulator
    //    %acc = scf.for iter_args(%a = %acc0) { ...; %dA/%dB = generate.descriptor;
    //      %d = nvgpu.warpgroup.mma %dA, %dB, %a {waitGroup = 0}; scf.yield %d }
    //    nvgpu.warpgroup.mma.store %acc, %c
    ```

    Matches a memref `linalg.matmul` inside a `gpu.launch` of one warpgroup (a static
    block of 128 threads) whose A (M x K) and B (K x N) are static shared-memory tiles of a
    16-bit type with 128-byte rows (K = N = 64 for f16/bf16, the shapes the wgmma lowering
    takes), each written by exactly one `nvgpu.tma.async.load` through a `swizzle_128b`
    descriptor (`transform.nvgpu.rewrite_copy_as_tma {swizzle = "swizzle_128b"}`), with M
    a multiple of 64, and whose C is an f32 memref, invariant in the matmul's
    `scf.for` (if any) and set to 0 by a `linalg.fill` right before that loop (or the
    matmul); the fill is erased. The MMAs wait for themselves (`waitGroup = 0`) so that the
    next iteration's loads may overwrite the tiles.
    Edge tiles: A and B may be unit-stride subviews at 0 of such tiles (what
    `rewrite_copy_as_tma` makes of edge copies), the MMAs then run on the whole tiles (A's
    k size must be `min(tile k, K - k)` of its TMA load: zeros past K), and C may be
    smaller or dynamic: the store is bounded by C's sizes. A C that is the whole of a
    temporary `memref.alloc` read afterwards only by an elementwise `linalg.generic` of
    `arith.truncf` into f16/bf16 is replaced by that output: the accumulators are stored
    rounded, and the temporary and the generic are erased (an f16-out epilogue in
    registers).

    The optional `warpgroups` param (one integer >= 1, default 1; a `transform.tune.knob`)
    says how many warpgroups will split the accumulator by rows
    (`transform.schedir.nvgpu.warp_specialize_tma_ring`'s consumers): M must be a multiple
    of 64 per warpgroup and each thread's share of the f32 accumulator at most 128
    registers (M x N / (128 x warpgroups)). With the optional `pingpong` param 1 (0 or
    1, default 0; `warp_specialize_tma_ring`'s) the consumers take whole tiles in turn
    instead: the accumulator is one warpgroup's, whatever `warpgroups` says.

    Return modes: consumes the target; returns the `nvgpu.warpgroup.mma` op (one per
    target). Silenceable failure (the reason at the payload op) when a target does not
    match; nothing is rewritten then. Definite failure when `warpgroups` is not one
    positive integer or `pingpong` not 0 or 1.
    """

    name = "transform.schedir.nvgpu.rewrite_matmul_as_wgmma"

    target = operand_def(TransformOpHandleType)
    warpgroups = opt_operand_def(TransformParamHandleType)
    pingpong = opt_operand_def(TransformParamHandleType)
    mma = result_def(TransformOpHandleType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    consumed_operands = ("target",)
    assembly_format = (
        "$target (`warpgroups` `=` $warpgroups^)? (`pingpong` `=` $pingpong^)? attr-dict `:` "
        "`(` type($target) (`,` type($warpgroups)^)? (`,` type($pingpong)^)? `)` `->` type($mma)"
    )


@irdl_transform_op
class PipelineTmaRingOp(IRDLOperation):
    """Pipelines the k loop of a warpgroup MMA fed by TMA into a ring of `stages`
    shared-memory buffers with a `full` and an `empty` mbarrier per stage, so that the
    loads of step k + stages - 1 run while the warpgroup multiplies step k (schedir's
    extension: upstream's `pipeline_shared_memory_copies` pipelines cp.async copies, and
    upstream has no op for a TMA ring).

    ```mlir
    %loop = transform.schedir.nvgpu.pipeline_tma_ring %mma stages = %s
        : (!transform.any_op, !transform.param<i64>) -> !transform.any_op
    // scf.for %k { gpu.barrier; scf.if %tid0 { tma loads; expect_tx %bar[0] };
    //   try_wait.parity %bar[0]; %d = nvgpu.warpgroup.mma ... {waitGroup = 0} }
    // -> (stages = 3) init full[0..2], empty[0..2]; thread 0 loads steps 0, 1;
    //    scf.for %k { try_wait.parity full[i % 3], (i / 3) % 2;
    //      %d = nvgpu.warpgroup.mma (stage i % 3) {waitGroup = 1};
    //      i > 0: mbarrier.arrive empty[(i - 1) % 3];
    //      thread 0, if step i + 2 exists: wait empty (i > 0); expect_tx; loads into stage (i + 2) % 3 }
    ```

    The target is an `nvgpu.warpgroup.mma` of `transform.schedir.nvgpu.rewrite_matmul_as_wgmma`
    (`waitGroup = 0`) directly in an `scf.for` that carries only its accumulator, whose A
    and B tiles the loop loads with `transform.nvgpu.rewrite_copy_as_tma` (one `scf.if` of
    TMA loads armed by one `arrive.expect_tx`, one `try_wait.parity`, on a barrier group
    used by nothing else). Each tile becomes a workgroup buffer of `stages` tiles; the MMA
    keeps one wgmma group in flight (`waitGroup = 1`) and each thread releases a stage on
    its `empty` barrier once the MMAs that read it have retired; thread 0 waits on it
    before the TMA overwrites the stage. Loops of fewer than `stages` steps are correct
    (the loads of missing steps are skipped). `stages` is a param (a `transform.tune.knob`)
    holding one value in 1..8; 1 leaves the loop unchanged. The shared memory is `stages`
    times the tiles'.

    An MMA in no loop (K of one step: canonicalization folded its loop away) is left as it
    is: there is nothing to overlap.

    Return modes: consumes the target; returns the pipelined `scf.for` (one per target; for
    an MMA in no loop, the op whose body holds it).
    Silenceable failure (the reason at the payload op) when a target is not such an MMA
    or `stages` is out of range; nothing is rewritten then. Definite failure when `stages`
    is not one integer.
    """

    name = "transform.schedir.nvgpu.pipeline_tma_ring"

    target = operand_def(TransformOpHandleType)
    stages = operand_def(TransformParamHandleType)
    loop = result_def(TransformOpHandleType)

    consumed_operands = ("target",)
    assembly_format = (
        "$target `stages` `=` $stages attr-dict `:` functional-type(operands, results)"
    )


@irdl_transform_op
class WarpSpecializeTmaRingOp(IRDLOperation):
    """Pipelines a wgmma k loop fed by TMA into a ring of `stages` shared-memory buffers
    run by specialized warpgroups: one producer warpgroup whose thread 0 issues every TMA
    load, and `consumers` warpgroups that each multiply their rows of the block (schedir's
    extension: upstream has no warp-specialization transform op).

    ```mlir
    %loop = transform.schedir.nvgpu.warp_specialize_tma_ring %mma stages = %s
        consumers = %c producer_registers = %p consumer_registers = %q
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    // scf.for %k { scf.if %tid0 { tma loads; expect_tx }; try_wait; %d = mma {waitGroup = 0} }
    // mma.store %acc, %c
    // -> (stages = 3, consumers = 2: 384 threads) init full[0..2] (1), empty[0..2] (256);
    //    scf.if %tid / 128 == 0 { nvvm.setmaxregister decrease %p;
    //      thread 0: scf.for %k { i >= 3: wait empty[i % 3]; expect_tx full[i % 3]; loads } }
    //    else { nvvm.setmaxregister increase %q; c = %tid / 128 - 1;
    //      %acc = scf.for %k { try_wait full[i % 3];
    //        %d = mma (A rows [64c, 64c + 64) of stage i % 3, B) {waitGroup = 1};
    //        i > 0: mbarrier.arrive empty[(i - 1) % 3] }
    //      mma.store %acc, (rows [64c, 64c + 64) of %c) }
    ```

    The target is what `transform.schedir.nvgpu.pipeline_tma_ring` takes (an
    `nvgpu.warpgroup.mma` of `rewrite_matmul_as_wgmma` with `waitGroup = 0` in the
    `scf.for` that loads its tiles with TMA, or with no loop for a K of one step), in a
    `gpu.launch` of one warpgroup (128 x 1 x 1 threads) with no dynamic shared memory,
    whose accumulator one `nvgpu.warpgroup.mma.store` writes after the loop, and where no
    other code depends on the thread id or synchronizes the block. The launch grows to
    128 x (1 + `consumers`) threads and gets `nvvm.minctasm = 1` (a fixed register budget,
    which `setmaxnreg` needs); the A tile's M rows split evenly among the consumers (M /
    consumers a multiple of 64, its f32 accumulator at most 128 registers per thread;
    `rewrite_matmul_as_wgmma warpgroups = consumers` admits such tiles). Each tile becomes a
    workgroup ring of `stages` tiles (as `pipeline_tma_ring`); the producer waits on a
    stage's `empty` barrier (one arrival per consumer thread) before loading it, the
    consumers on its `full` barrier before multiplying.

    With `pingpong` = 1 (CUTLASS's KernelTmaWarpSpecializedPingpong) the consumers do not
    share a tile: each multiplies the whole block tile into its own accumulator (M x N at
    most 128 registers per thread), one consumer per stage (`empty` counts 128 arrivals),
    and they take turns through 2 x `consumers` more mbarriers of the ring's group (128
    arrivals each): consumer c waits for its mainloop turn in its first k step, hands it on
    to consumer c + 1 (mod `consumers`) after issuing its last MMA, then waits for its
    MMAs (`nvvm.wgmma.wait.group.sync.aligned 0`), releases its last stage (a consumer
    never holds a stage past its tile: the next consumer's k blocks need it), waits for
    its epilogue turn, stores and hands that on, so that one consumer's store runs under
    the next one's MMAs. The per-tile work is consumer 0's (`scf.if consumer == 0
    {schedir.pingpong = consumers}`): a block of one tile has work for one consumer;
    `persistent_tiles` deals a persistent block's tiles to all of them in turn.

    ```mlir
    // pingpong = 1, consumers = 2, stages = 3: init full[0..2] (1), empty[0..2] (128),
    //   turn[6..7], epilogue turn[8..9] (128); consumer c = %tid / 128 - 1:
    //   scf.if c == 0 { %acc = scf.for %k { first: wait turn[6 + c];
    //     try_wait full[i % 3]; %d = mma (stage i % 3 of A, of B) {waitGroup = 1};
    //     not first: arrive empty[(i - 1) % 3];
    //     last: arrive turn[6 + (c + 1) % 2]; nvvm.wgmma.wait.group.sync.aligned 0;
    //       arrive empty[i % 3]; wait turn[8 + c] }
    //   mma.store %acc, %c; arrive turn[8 + (c + 1) % 2] }
    ```

    With `stagger` = D > 0 (cooperating consumers, two or more) the consumers after the
    first start the block's first k step once consumer 0 has issued step min(D, steps - 1)
    of it (one more mbarrier of the group, 128 arrivals, after the ring's and before any
    turn): they stay up to `stages` - 1 steps behind it, the ring bounding the distance, so
    that at each tile's end consumer 0 stores while the others still multiply, and they
    store while consumer 0 multiplies the next tile's first stages. (The optional params'
    types follow in their order: `stagger` goes with `pingpong` written before it.)

    Params (each one integer; `transform.tune.knob`s): `stages` in 2..8 (one stage is
    being multiplied while the producer fills another), `consumers` in 1..4,
    `producer_registers` and `consumer_registers` multiples of 8 in 24..256 with the
    producer's at most the consumers' and 128 x (producer + consumers x consumer) at most
    the SM's 65536 registers; `pingpong` 0 or 1 (optional, 0: cooperating consumers; 1
    needs 2 consumers or more); `stagger` in 0..stages - 1 (optional, 0: the consumers in
    step; more needs 2 cooperating consumers or more).

    Return modes: consumes the target; returns the consumers' `scf.for` (one per target).
    Silenceable failure (the reason at the payload op) when a target does not match or a
    param is out of range; nothing is rewritten then (a straight-line K step may be left
    in a loop of one step). Definite failure when a param is not one integer.
    """

    name = "transform.schedir.nvgpu.warp_specialize_tma_ring"

    target = operand_def(TransformOpHandleType)
    stages = operand_def(TransformParamHandleType)
    consumers = operand_def(TransformParamHandleType)
    producer_registers = operand_def(TransformParamHandleType)
    consumer_registers = operand_def(TransformParamHandleType)
    pingpong = opt_operand_def(TransformParamHandleType)
    stagger = opt_operand_def(TransformParamHandleType)
    loop = result_def(TransformOpHandleType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    consumed_operands = ("target",)
    assembly_format = (
        "$target `stages` `=` $stages `consumers` `=` $consumers `producer_registers` `=` "
        "$producer_registers `consumer_registers` `=` $consumer_registers "
        "(`pingpong` `=` $pingpong^)? (`stagger` `=` $stagger^)? attr-dict `:` `(` "
        "type($target) `,` type($stages) `,` type($consumers) `,` type($producer_registers) "
        "`,` type($consumer_registers) (`,` type($pingpong)^)? (`,` type($stagger)^)? `)` "
        "`->` type($loop)"
    )


@irdl_transform_op
class RasterBlocksOp(IRDLOperation):
    """Reorders the blocks of a `gpu.launch` in groups of `group` rows (an L2-aware raster:
    the blocks that run together share tiles of A and B; Triton's `GROUP_SIZE_M`; schedir's
    extension, upstream has no such op).

    ```mlir
    transform.schedir.nvgpu.raster_blocks %launch group = %g
        : (!transform.any_op, !transform.param<i64>) -> ()
    // gpu.launch blocks(%bx, %by, %bz) ... { ... uses of %bx, %by, gpu.block_id x/y ... }
    // -> p = by * gx + bx; width = g * gx; first = (p / width) * g;
    //    rows = min(gy - first, g); y' = first + (p mod width) mod rows;
    //    x' = (p mod width) / rows; every use of the block's x and y ids reads x', y'
    ```

    The target is a `gpu.launch` without clusters; its blocks keep their work, in another
    order ((x', y') is a permutation of the grid; `group` = 1 is the launch's own order).
    `group` is a param (a `transform.tune.knob`) holding one integer in 1..65536.

    Return modes: only reads the target (the launch is modified in place); returns nothing.
    Silenceable failure (the reason at the payload op) when a target is not such a launch
    or `group` is out of range; nothing is rewritten then. Definite failure when `group` is
    not one integer.
    """

    name = "transform.schedir.nvgpu.raster_blocks"

    target = operand_def(TransformOpHandleType)
    group = operand_def(TransformParamHandleType)

    assembly_format = (
        "$target `group` `=` $group attr-dict `:` `(` type($target) `,` type($group) `)` `->` "
        "`(` `)`"
    )


@irdl_transform_op
class PersistentTilesOp(IRDLOperation):
    """Makes a `gpu.launch` of one block per tile persistent: a grid of at most `ctas`
    blocks, each looping over the tiles in groups of `group` rows (the L2-aware order of
    `raster_blocks`), the TMA ring's mbarrier phases continuing across tiles so that the
    producer loads the next tile while the consumers store this one (CUTLASS's persistent
    Hopper kernels; schedir's extension, upstream has no such op).

    ```mlir
    transform.schedir.nvgpu.persistent_tiles %launch ctas = %n group = %g
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    // gpu.launch blocks(%bx, %by, %bz) in (%gx, %gy, 1) { barrier init; gpu.barrier;
    //   offsets(%bx, %by); roles { k loops (step i); store } }
    // -> gpu.launch blocks(%b, ...) in (min(%gx * %gy, %n), 1, 1) { barrier init; gpu.barrier;
    //   roles { scf.for %t = %b to %gx * %gy step grid { x', y' = grouped(%t);
    //     offsets(x', y'); k loops (step n * steps + i); store } } }
    ```

    The target is a `gpu.launch` without clusters, one block along z, whose top level is:
    pure index arithmetic of the block ids (cloned into each tile loop), at most one block
    barrier (the one publishing the ring's barriers), then the per-tile work, which may not
    read the block ids otherwise. The tile loop goes inside the warp roles that
    `warp_specialize_tma_ring` makes (after each branch's `nvvm.setmaxregister`, inside the
    producer's thread-0 branch); in a k loop that waits or arrives on mbarriers the step
    index `(iv - lb) / step` counts on from the steps of the tiles before. `ctas` is the
    grid's size (the SMs times blocks per SM: 132 on an H100 SXM or H200 at one block per
    SM), 0 keeps one block per tile (then the op is `raster_blocks`); `group` as in
    `raster_blocks`. Both are params (`transform.tune.knob`s) holding one integer: `ctas`
    in 0..65536, `group` in 1..65536.

    Return modes: only reads the target (the launch is modified in place); returns nothing.
    Silenceable failure (the reason at the payload op) when a target is not such a launch
    or a param is out of range; nothing is rewritten then. Definite failure when a param is
    not one integer.
    """

    name = "transform.schedir.nvgpu.persistent_tiles"

    target = operand_def(TransformOpHandleType)
    ctas = operand_def(TransformParamHandleType)
    group = operand_def(TransformParamHandleType)

    assembly_format = (
        "$target `ctas` `=` $ctas `group` `=` $group attr-dict `:` `(` type($target) `,` "
        "type($ctas) `,` type($group) `)` `->` `(` `)`"
    )


@irdl_transform_op
class StageAccumulatorStoreOp(IRDLOperation):
    """Makes each target `nvgpu.warpgroup.mma.store` go through shared memory: each storing
    warpgroup gets a staging buffer of its rows by `columns` columns (rows padded by 16
    bytes) after the TMA ring in the launch's dynamic shared memory, and the store becomes
    `mma.store ... through` it: chunk by chunk, the values (the store's epilogue applied in
    registers) go into the buffer, the warpgroup meets at its named barrier (`bar.sync
    1 + warpgroup, 128`), and the chunk is copied out in coalesced 16-byte pieces (CUTLASS's
    and Triton's epilogue through shared memory, without TMA; schedir's extension,
    upstream has no such op).

    ```mlir
    transform.schedir.nvgpu.stage_accumulator_store %store columns = %c
        : (!transform.any_op, !transform.param<i64>) -> ()
    // nvgpu.warpgroup.mma.store %acc, %out : !acc to memref<64x256xf16, ...>
    // -> (columns = 64) %buf = memref.view %dynamic[%ring_end][] (top of the launch);
    //    %mine = memref.reinterpret_cast %buf to offset: [(%tid / 128 - first) * 64 * 72],
    //      sizes: [64, 64], strides: [72, 1]
    //    nvgpu.warpgroup.mma.store %acc, %out through %mine : ... through memref<64x64xf16, ...>
    ```

    The storing warpgroups are the launch's (x size / 128), less the producer (warpgroup
    0) for a consumer's store of `warp_specialize_tma_ring`; the launch must have static
    dynamic shared memory at its top level (the TMA ring's), which grows by their buffers
    (128-byte aligned, the total at most 227 KiB less 2 KiB). The destination's column
    offsets must be provably multiples of 16 bytes (static, or products with such a
    multiple: tiles of 64 columns or more) from a 16-byte aligned `memref.alloc` or a
    function argument. `columns` is a param (a `transform.tune.knob`) holding one integer:
    0 leaves the stores as they are; otherwise it divides the accumulator's columns, its
    rows are multiples of 16 bytes and the chunk is a multiple of 128 16-byte pieces (64 or
    128 f16 columns of 64 or more rows).

    The optional `tma_buffers` param (one integer, default 0) B > 0 stores the chunks out
    by TMA (CUTLASS's TMA epilogue) where the destination allows it: a TMA descriptor of
    the output (a rank-2 memref defined above the launch, rows of a multiple of 16 bytes)
    with a box of the warpgroup's rows by one chunk, made before the launch; B unpadded,
    128B-swizzled buffers per warpgroup (1024-byte aligned) that the chunks take in turn;
    one thread per warpgroup issues each chunk's `cp.async.bulk.tensor` store and the
    warpgroup goes on (to its next tile's wgmma) while the stores drain; it waits for its
    last ones (`nvvm.cp.async.bulk.wait_group 0 read`) once its role is done. It needs
    chunks of 128 bytes per row (64 f16 columns) and B of them dividing the accumulator's
    columns; a destination a descriptor cannot describe keeps the padded buffer and the
    16-byte stores. The optional `tma_box_rows` param (16, or 0 for the warpgroup's rows, the
    default) sets the rows of the TMA boxes: with 16, each warp writes its own rows of
    the chunk (16 of each 64, wgmma's fragment layout), meets at a warp barrier only and
    its lane 0 stores them; no barrier of the warpgroup. The optional `stmatrix` param
    (0 or 1, default 0) writes the buffers with `stmatrix` (f16/bf16: four 8x8 matrices of
    the warp's pairs per instruction) instead of one 4-byte store per pair.

    ```mlir
    transform.schedir.nvgpu.stage_accumulator_store %store columns = %c tma_buffers = %b
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    // (columns = 64, tma_buffers = 2) nvgpu.warpgroup.mma.store %acc, %out through %mine
    //    to %desc[%i, %j] : ... through memref<2x64x64xf16, ...> to !nvgpu.tensormap...
    ```

    Return modes: consumes the targets (each store is replaced); returns nothing.
    Silenceable failure (the reason at the payload op) when a target does not qualify;
    that store is left as it was. Definite failure when a param is not one integer.
    """

    name = "transform.schedir.nvgpu.stage_accumulator_store"

    target = operand_def(TransformOpHandleType)
    columns = operand_def(TransformParamHandleType)
    tma_buffers = opt_operand_def(TransformParamHandleType)
    tma_box_rows = opt_operand_def(TransformParamHandleType)
    stmatrix = opt_operand_def(TransformParamHandleType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    consumed_operands = ("target",)
    assembly_format = (
        "$target `columns` `=` $columns (`tma_buffers` `=` $tma_buffers^)? "
        "(`tma_box_rows` `=` $tma_box_rows^)? (`stmatrix` `=` $stmatrix^)? attr-dict `:` `(` "
        "type($target) `,` type($columns) (`,` type($tma_buffers)^)? (`,` type($tma_box_rows)^)? "
        "(`,` type($stmatrix)^)? `)` `->` `(` `)`"
    )


OPS: tuple[type[IRDLOperation], ...] = (
    RewriteCopyAsTmaOp,
    RewriteMatmulAsWgmmaOp,
    PipelineTmaRingOp,
    WarpSpecializeTmaRingOp,
    RasterBlocksOp,
    PersistentTilesOp,
    StageAccumulatorStoreOp,
)

__all__ = [
    "OPS",
    "SWIZZLES",
    "PersistentTilesOp",
    "PipelineTmaRingOp",
    "RasterBlocksOp",
    "RewriteCopyAsTmaOp",
    "RewriteMatmulAsWgmmaOp",
    "StageAccumulatorStoreOp",
    "WarpSpecializeTmaRingOp",
]
