"""Rewriting a block's matmul on shared-memory tiles into warpgroup MMAs (wgmma, sm_90a)
whose accumulator stays in registers across the k loop (schedir's extension; upstream has
no transform for `nvgpu.warpgroup.mma`).

The target is a memref `linalg.matmul` C += A * B inside a `gpu.launch` of one warpgroup
(128 threads) where A (M x K) and B (K x N) are shared-memory tiles each written by one
`nvgpu.tma.async.load` through a 128B-swizzled descriptor (what
`transform.nvgpu.rewrite_copy_as_tma {swizzle = "swizzle_128b"}` makes), and C is a static
f32 memref that a `linalg.fill` of 0 initializes just before (the matmul's loop, or the
matmul). The fill is erased; the accumulator starts from `mma.init.accumulator`, is
carried through the loop as an iter_arg, and is stored to C after it:

    linalg.fill ins(%zero : f32) outs(%c : memref<128x64xf32, ...>)
    scf.for %k = ... {
      ... tma loads into %sa, %sb; mbarrier wait ...
      linalg.matmul ins(%sa, %sb : memref<128x64xf16, 3>, memref<64x64xf16, 3>) outs(%c)
    }
    // ->
    %acc0 = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x64xf32>>
    %acc = scf.for %k = ... iter_args(%a = %acc0) {
      ... tma loads into %sa, %sb; mbarrier wait ...
      %dA = nvgpu.warpgroup.generate.descriptor %sa, %tmapA
      %dB = nvgpu.warpgroup.generate.descriptor %sb, %tmapB
      %d = nvgpu.warpgroup.mma %dA, %dB, %a {waitGroup = 0}
      scf.yield %d
    }
    nvgpu.warpgroup.mma.store %acc, %c

`waitGroup = 0`: the MMAs finish within their iteration, so the next iteration's loads
may overwrite the tiles (single-stage). The tile shapes are those the wgmma lowering
takes: 16-bit A with 128-byte rows (K = 64) and M a multiple of 64; 16-bit B with rows of
64, 128, 192 or 256 elements, loaded in 128-byte column chunks (64 x 64 boxes one after
another in shared memory: the descriptor's leading byte offset steps between them); the
accumulator at most 128 f32 registers per thread (64x256 or 128x128).

Edge tiles (sizes the tiles do not divide): an operand may be a unit-stride subview at 0
of such a tile, which its TMA load fills whole with zeros past the tensor
(`rewrite_copy_as_tma`); the MMAs run on the whole tiles, which is exact when A's k size
is `min(tile k, K - k)` (checked: the k past it are zeros of A). C may then be smaller
than the accumulator or dynamic: `warpgroup.mma.store` is bounded by its sizes (cast to
dynamic ones where static but smaller).

Epilogue in registers: when C is the whole of a temporary `memref.alloc` (a fused
matmul's output, reached through its whole-buffer subview) that afterwards only an
elementwise `linalg.generic` reads, the store goes to the generic's output instead and the
temporary and the generic are erased. A generic of `arith.truncf` alone (f16/bf16 out)
becomes the store's own rounding; any other elementwise body of side-effect-free ops
(bias add, relu, conversion) becomes the store's epilogue region, applied to each
accumulator in registers, its other inputs loaded through their indexing maps at the
element's row and column (a bias broadcast over rows: `(i, j) -> (j)`).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Literal

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    FloatAttr,
    IndexType,
    MemRefType,
    VectorType,
)
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import is_side_effect_free

from schedir.dialects import gpu, linalg
from schedir.dialects import nvgpu as ng
from schedir.dialects.memref import CastOp
from schedir.dialects.nvgpu.types import element_bit_width, is_shared_memory_space
from schedir.dialects.utils import DYNAMIC_INDEX, constant_index, mixed_values
from schedir.transform.rewrites.gpu.tma import enclosing_launch, reaches_bound
from schedir.transform.rewrites.rewriter import PayloadRewriteError

WARPGROUP_THREADS = 128
"""Threads of a warpgroup: the block of a single-warpgroup kernel."""
WGMMA_M = 64
"""Rows of one wgmma instruction."""
SWIZZLE_ROW_BYTES = 128
"""Row bytes of a 128B-swizzled tile: what the wgmma descriptors are generated for."""
MAX_WGMMA_N = 256
"""Widest N of one wgmma instruction (B tiles of up to four 128-byte column chunks)."""
MAX_ACCUMULATOR_REGISTERS = 128
"""f32 accumulator registers per thread one warpgroup may hold (a 64x256 or 128x128 tile):
with the descriptors, addresses and loop state it stays under the 255-register limit."""


class WgmmaRewriteError(PayloadRewriteError):
    """A matmul that cannot become warpgroup MMAs, with the reason and the op to blame."""


@dataclass(frozen=True)
class WgmmaMatmul:
    """What the rewrite made: the warpgroup MMA, the accumulator's init and its store."""

    mma: ng.WarpgroupMmaOp
    init: ng.WarpgroupMmaInitAccumulatorOp
    store: ng.WarpgroupMmaStoreOp


def _tma_descriptor(tile: SSAValue, launch: gpu.LaunchOp, op: Operation, what: str) -> SSAValue:
    """The 128B-swizzled descriptor of the TMA loads that write `tile`: one load, or one
    per 128-byte column chunk of a wider tile (each into a view of the tile,
    `transform.nvgpu.rewrite_copy_as_tma`), all through the same descriptor."""
    loads = [
        o
        for o in launch.walk()
        if isinstance(o, ng.TmaAsyncLoadOp)
        and (
            o.dst is tile
            or (isinstance(o.dst.owner, memref.ReinterpretCastOp) and o.dst.owner.source is tile)
        )
    ]
    if not loads:
        raise WgmmaRewriteError(
            f"{what} is written by no TMA load (transform.nvgpu.rewrite_copy_as_tma first)", op
        )
    descriptors = {load.tensor_map_descriptor for load in loads}
    if len(descriptors) != 1:
        raise WgmmaRewriteError(f"{what} is written through {len(descriptors)} descriptors", op)
    desc = ng.tma.descriptor_of(loads[0])
    if desc.swizzle.data != "swizzle_128b":
        raise WgmmaRewriteError(
            f"{what} is loaded with swizzle {desc.swizzle.data} (wgmma descriptors need "
            "swizzle_128b)",
            op,
        )
    tile_t = tile.type
    assert isinstance(tile_t, MemRefType)
    chunks = tile_t.get_shape()[-1] // desc.tensor.get_shape()[-1]
    if len(loads) != chunks:
        raise WgmmaRewriteError(
            f"{what} is written by {len(loads)} TMA loads (expected {chunks}: one per "
            "128-byte column chunk)",
            op,
        )
    return loads[0].tensor_map_descriptor


def _check_tile(t: MemRefType, op: Operation, what: str, max_row_bytes: int) -> None:
    if not is_shared_memory_space(t.memory_space) or not t.has_static_shape():
        raise WgmmaRewriteError(f"{what} {t} is not a static shared-memory tile", op)
    width = element_bit_width(t.element_type)
    row_bytes = t.get_shape()[-1] * (width or 0) // 8
    if width != 16 or row_bytes % SWIZZLE_ROW_BYTES or row_bytes > max_row_bytes:
        rows = (
            "128-byte rows"
            if max_row_bytes == SWIZZLE_ROW_BYTES
            else f"rows of a multiple of 128 bytes up to {max_row_bytes}"
        )
        raise WgmmaRewriteError(f"{what} {t} does not have {rows} of a 16-bit type (f16/bf16)", op)


_VIEWS = (memref.SubviewOp, memref.CastOp, memref.ViewOp, memref.ReinterpretCastOp)
"""Ops that only make a view of a memref (they read or write none of it)."""


def _zero_fill_before(anchor: Operation, c: SSAValue) -> linalg.FillOp | None:
    """The `linalg.fill` of 0 into `c` that precedes `anchor` in its block, with no op in
    between (nested ops included) that takes `c` as an operand."""
    prev = anchor.prev_op
    while prev is not None:
        if isinstance(prev, linalg.FillOp) and prev.outputs[0] is c:
            value = prev.inputs[0].owner
            if isinstance(value, arith.ConstantOp) and isinstance(value.value, FloatAttr):
                return prev if value.value.value.data == 0.0 else None
            return None
        # (the TMA loads' scf.if and the barrier wait may sit in between, and views of
        # `c`, which do not write it: a K of one step has no loop, its C a view)
        if not isinstance(prev, _VIEWS) and any(c in nested.operands for nested in prev.walk()):
            return None
        prev = prev.prev_op
    return None


def rewrite_matmul_as_wgmma(
    rewriter: PatternRewriter, op: Operation, warpgroups: int = 1
) -> WgmmaMatmul:
    """Rewrite `op` (see the module docstring) into warpgroup MMAs with a register
    accumulator; raises `WgmmaRewriteError` before changing anything when it does not
    qualify. `warpgroups`: how many warpgroups will share the accumulator by rows
    (`warp_specialize_tma_ring`'s consumers), which bounds its registers per thread."""
    if not isinstance(op, linalg.MatmulOp):
        raise WgmmaRewriteError("target is not a linalg.matmul", op)
    launch = enclosing_launch(op)
    if launch is None:
        raise WgmmaRewriteError("matmul is not inside a gpu.launch", op)
    sizes = [constant_index(v) for v in (launch.blockSizeX, launch.blockSizeY, launch.blockSizeZ)]
    if any(s is None for s in sizes) or prod(s or 0 for s in sizes) != WARPGROUP_THREADS:
        raise WgmmaRewriteError(
            f"the gpu.launch must have one warpgroup ({WARPGROUP_THREADS} threads, static)",
            op,
        )
    a_in, b_in = op.inputs
    c_in = op.outputs[0]
    c = _whole_buffer(c_in)
    if not all(isinstance(v.type, MemRefType) for v in (a_in, b_in, c)):
        raise WgmmaRewriteError("matmul is not on memrefs (bufferize first)", op)
    a, b = _operand_tile(a_in, op, "A"), _operand_tile(b_in, op, "B")
    a_t, b_t, c_t = a.type, b.type, c.type
    assert isinstance(a_t, MemRefType) and isinstance(b_t, MemRefType)
    assert isinstance(c_t, MemRefType)
    _check_tile(a_t, op, "A", SWIZZLE_ROW_BYTES)
    _check_tile(b_t, op, "B", MAX_WGMMA_N * 2)
    if a_t.element_type != b_t.element_type:
        raise WgmmaRewriteError("A and B have different element types", op)
    (m, _), (_, n) = a_t.get_shape(), b_t.get_shape()
    if m % (WGMMA_M * warpgroups):
        raise WgmmaRewriteError(
            f"M = {m} is not a multiple of {WGMMA_M * warpgroups} ({WGMMA_M} rows for each "
            f"of {warpgroups} warpgroups)",
            op,
        )
    if c_t.get_num_dims() != 2 or not isinstance(c_t.element_type, Float32Type):
        raise WgmmaRewriteError(f"C {c_t} is not an f32 matrix", op)
    if any(
        d != DYNAMIC_INDEX and d > full for d, full in zip(c_t.get_shape(), (m, n), strict=True)
    ):
        raise WgmmaRewriteError(f"C {c_t} is larger than the {m}x{n} tiles", op)
    registers = m * n // (WARPGROUP_THREADS * warpgroups)
    if registers > MAX_ACCUMULATOR_REGISTERS:
        raise WgmmaRewriteError(
            f"the {m}x{n} f32 accumulator needs {registers} registers per thread of "
            f"{'one warpgroup' if warpgroups == 1 else f'{warpgroups} warpgroups'} (at most "
            f"{MAX_ACCUMULATOR_REGISTERS}: more spill or serialize wgmma)",
            op,
        )
    desc_a = _tma_descriptor(a, launch, op, "A")
    desc_b = _tma_descriptor(b, launch, op, "B")
    _check_k_tail(a_in, a, launch, op)
    loop = op.parent_op()
    in_loop = isinstance(loop, scf.ForOp) and loop is not launch
    anchor = loop if in_loop and loop is not None else op
    if in_loop and isinstance(loop, scf.ForOp):
        if _defined_in(c, loop):
            raise WgmmaRewriteError("C is not invariant in the matmul's loop", op)
        if any(
            isinstance(user.operation, linalg.MatmulOp) and user.operation is not op
            for user in c.uses
        ):
            raise WgmmaRewriteError("C is accumulated by another matmul too", op)
    fill = _zero_fill_before(anchor, c)
    if fill is None:
        raise WgmmaRewriteError(
            "C must be initialized to 0 by a linalg.fill right before the matmul's loop "
            "(the accumulator starts at zero in registers)",
            op,
        )

    acc_t = ng.WarpgroupAccumulatorType(VectorType(Float32Type(), [m, n]))
    init = ng.WarpgroupMmaInitAccumulatorOp(acc_t)
    rewriter.insert(init, InsertPoint.before(anchor))
    rewriter.erase(fill)
    gen_a = ng.WarpgroupGenerateDescriptorOp(a, desc_a, ng.WarpgroupMatrixDescriptorType(a_t))
    gen_b = ng.WarpgroupGenerateDescriptorOp(b, desc_b, ng.WarpgroupMatrixDescriptorType(b_t))
    rewriter.insert([gen_a, gen_b], InsertPoint.before(op))
    if not in_loop or not isinstance(loop, scf.ForOp):
        mma = ng.WarpgroupMmaOp(gen_a.descriptor, gen_b.descriptor, init.matrix_c, wait_group=0)
        rewriter.insert(mma, InsertPoint.before(op))
        store = _store(rewriter, mma.matrix_d, c, InsertPoint.before(op))
        rewriter.erase(op)
        _erase_edge_views(rewriter, (a_in, b_in, c_in), (a, b, c))
        return WgmmaMatmul(mma, init, _fuse_conversion(rewriter, store))

    # Carry the accumulator through the loop: a new scf.for with one more iter_arg.
    old_body = loop.body.block
    new_body = Block(arg_types=[*old_body.arg_types, acc_t])
    carried = new_body.args[-1]
    mma = ng.WarpgroupMmaOp(gen_a.descriptor, gen_b.descriptor, carried, wait_group=0)
    rewriter.insert(mma, InsertPoint.before(op))
    rewriter.erase(op)
    _erase_edge_views(rewriter, (a_in, b_in, c_in), (a, b, c))
    yield_op = old_body.last_op
    assert isinstance(yield_op, scf.YieldOp)
    rewriter.replace(yield_op, scf.YieldOp(*yield_op.operands, mma.matrix_d))
    for old_arg, new_arg in zip(old_body.args, new_body.args, strict=False):
        old_arg.replace_all_uses_with(new_arg)
    for body_op in list(old_body.ops):
        body_op.detach()
        new_body.add_op(body_op)
    new_loop = scf.ForOp(loop.lb, loop.ub, loop.step, [*loop.iter_args, init.matrix_c], new_body)
    rewriter.insert(new_loop, InsertPoint.before(loop))
    rewriter.replace(loop, [], new_loop.results[: len(loop.results)])
    store = _store(rewriter, new_loop.results[-1], c, InsertPoint.after(new_loop))
    return WgmmaMatmul(mma, init, _fuse_conversion(rewriter, store))


def _store(
    rewriter: PatternRewriter,
    acc: SSAValue,
    dst: SSAValue,
    at: InsertPoint,
    epilogue: Region | None = None,
) -> ng.WarpgroupMmaStoreOp:
    """`warpgroup.mma.store` of `acc` into `dst` (through `epilogue`); a `dst` with static
    sizes smaller than the accumulator (an edge tile of a dimension smaller than the tile)
    is cast to dynamic sizes first, which bound the store."""
    dst_t = dst.type
    acc_t = acc.type
    assert isinstance(dst_t, MemRefType) and isinstance(acc_t, ng.WarpgroupAccumulatorType)
    if tuple(dst_t.get_shape()) != tuple(acc_t.fragmented.get_shape()):
        dynamic_t = MemRefType(
            dst_t.element_type,
            [DYNAMIC_INDEX] * dst_t.get_num_dims(),
            dst_t.layout,
            dst_t.memory_space,
        )
        if dynamic_t != dst_t:
            cast = CastOp.build(operands=[dst], result_types=[dynamic_t])
            rewriter.insert(cast, at)
            dst = cast.results[0]
    store = ng.WarpgroupMmaStoreOp(acc, dst, epilogue)
    rewriter.insert(store, at)
    return store


def _whole_buffer(c: SSAValue) -> SSAValue:
    """C itself, or the buffer C is the whole of (a unit-stride subview at 0 with the
    buffer's sizes: what bufferization makes of a fused matmul's temporary)."""
    view = c.owner
    if not isinstance(view, memref.SubviewOp):
        return c
    source = view.source
    source_t = source.type
    if not isinstance(source_t, MemRefType):
        return c
    alloc = source.owner
    dynamic = iter(alloc.dynamic_sizes if isinstance(alloc, memref.AllocOp) else ())
    dims = [d if d != DYNAMIC_INDEX else next(dynamic, None) for d in source_t.get_shape()]
    sizes = mixed_values(view.static_sizes, view.sizes)
    whole = all(
        d is not None and (d is s or constant_index(s) == d)
        for d, s in zip(dims, sizes, strict=True)
    )
    at_zero = all(
        constant_index(v) == 0 for v in mixed_values(view.static_offsets, view.offsets)
    ) and all(constant_index(v) == 1 for v in mixed_values(view.static_strides, view.strides))
    return source if whole and at_zero else c


def _fuse_conversion(
    rewriter: PatternRewriter, store: ng.WarpgroupMmaStoreOp
) -> ng.WarpgroupMmaStoreOp:
    """The epilogue in registers: when C is a temporary (a `memref.alloc`) that only an
    elementwise `linalg.generic` reads after the store, into an output of C's sizes, the
    accumulators are stored into that output through the generic's body (an `arith.truncf`
    alone: the store's own rounding; otherwise an epilogue region) and the generic and
    the temporary go; otherwise `store` as it is."""
    c = store.dst_memref
    cast = c.owner if isinstance(c.owner, CastOp) else None
    if cast is not None:
        c = cast.operands[0]
    alloc = c.owner
    if not isinstance(alloc, memref.AllocOp):
        return store
    users = [u.operation for u in c.uses if u.operation not in (store, cast)]
    generics = [u for u in users if isinstance(u, linalg.GenericOp)]
    deallocs = [u for u in users if isinstance(u, memref.DeallocOp)]
    if len(generics) != 1 or len(users) != 1 + len(deallocs):
        return store
    generic = generics[0]
    if generic.parent_block() is not store.parent_block():
        return store
    epilogue = None if _is_conversion(generic, c) else _epilogue(generic, c)
    if epilogue is False:
        return store
    out = generic.outputs[0]
    out_t, c_t = out.type, c.type
    assert isinstance(c_t, MemRefType)
    if not isinstance(out_t, MemRefType) or not _same_sizes(out, out_t, alloc, c_t):
        return store
    fused = _store(rewriter, store.matrix_d, out, InsertPoint.before(generic), epilogue)
    for dead in (store, cast, generic, *deallocs, alloc):
        if dead is not None:
            rewriter.erase(dead)
    return fused


def _epilogue(generic: linalg.GenericOp, c: SSAValue) -> Region | Literal[False]:
    """The epilogue region of `generic` as `mma.store` takes it (the generic's body applied
    to the accumulator, the other inputs loaded at the element's row and column through
    their indexing maps), or False when it is not an elementwise consumer of C: C read
    through the identity map, every other input through a projection of (i, j), the output
    f32, f16 or bf16 through the identity map and not read, parallel loops, a body of
    region-free side-effect-free ops."""
    inputs, outputs = tuple(generic.inputs), tuple(generic.outputs)
    if len(outputs) != 1 or inputs.count(c) != 1:
        return False
    if any(it.data != IteratorType.PARALLEL for it in generic.iterator_types.data):
        return False
    maps = [m.data for m in generic.indexing_maps.data]
    identity = AffineMap.identity(2)
    if maps[inputs.index(c)] != identity or maps[-1] != identity:
        return False
    out_t = outputs[0].type
    if not isinstance(out_t, MemRefType) or not isinstance(
        out_t.element_type, Float32Type | Float16Type | BFloat16Type
    ):
        return False
    body = generic.body.block
    if body.args[-1].uses:
        return False
    *ops, done = body.ops
    if not isinstance(done, linalg.YieldOp) or any(
        op.regions or not is_side_effect_free(op) for op in ops
    ):
        return False
    dims: list[list[int]] = []
    for value, m in zip(inputs, maps, strict=False):
        t = value.type
        results = [r for r in m.results if isinstance(r, AffineDimExpr)]
        if value is c:
            dims.append([])
        elif not isinstance(t, MemRefType) or len(results) != len(m.results):
            return False
        else:
            dims.append([r.position for r in results])
    block = Block(arg_types=[Float32Type(), IndexType(), IndexType()])
    x, i, j = block.args
    mapping: dict[SSAValue, SSAValue] = {}
    for value, arg, positions in zip(inputs, body.args, dims, strict=False):
        if value is c:
            mapping[arg] = x
            continue
        load = memref.LoadOp.get(value, [(i, j)[p] for p in positions])
        block.add_op(load)
        mapping[arg] = load.res
    for op in ops:
        clone = op.clone(value_mapper=mapping)
        block.add_op(clone)
        mapping.update(zip(op.results, clone.results, strict=True))
    block.add_op(linalg.YieldOp(*(mapping.get(v, v) for v in done.operands)))
    return Region(block)


def _is_conversion(generic: linalg.GenericOp, c: SSAValue) -> bool:
    """Whether `generic` is out = truncf(c) elementwise (identity maps, parallel loops)
    into an f16 or bf16 matrix."""
    if tuple(generic.inputs) != (c,) or len(generic.outputs) != 1:
        return False
    maps = [m.data for m in generic.indexing_maps.data]
    if any(m != AffineMap.identity(2) for m in maps):
        return False
    if any(it.data != IteratorType.PARALLEL for it in generic.iterator_types.data):
        return False
    body = generic.body.block
    ops = list(body.ops)
    if len(ops) != 2:
        return False
    trunc, done = ops
    if not isinstance(trunc, arith.TruncFOp):
        return False
    out_t = generic.outputs[0].type
    return (
        trunc.input is body.args[0]
        and isinstance(done, linalg.YieldOp)
        and tuple(done.operands) == (trunc.result,)
        and isinstance(out_t, MemRefType)
        and isinstance(out_t.element_type, Float16Type | BFloat16Type)
        and trunc.result.type == out_t.element_type
    )


def _same_sizes(out: SSAValue, out_t: MemRefType, alloc: memref.AllocOp, c_t: MemRefType) -> bool:
    """Whether `out` (a buffer or a subview of one) has the sizes `alloc` was made with."""
    dynamic = iter(alloc.dynamic_sizes)
    want = [d if d != DYNAMIC_INDEX else next(dynamic) for d in c_t.get_shape()]
    view = out.owner
    if isinstance(view, memref.SubviewOp):
        have: list[int | SSAValue] = list(mixed_values(view.static_sizes, view.sizes))
    elif out_t.has_static_shape():
        have = list(out_t.get_shape())
    else:
        return False
    return all(
        w is h or (constant_index(w) is not None and constant_index(w) == constant_index(h))
        for w, h in zip(want, have, strict=True)
    )


def _operand_tile(value: SSAValue, op: Operation, what: str) -> SSAValue:
    """The static tile an operand reads: the operand, or, for an edge tile (dynamic
    sizes), the static buffer it is a unit-stride subview at 0 of (which its TMA load
    fills whole, zeros past the tensor's bounds: `rewrite_copy_as_tma`)."""
    t = value.type
    assert isinstance(t, MemRefType)
    if t.has_static_shape():
        return value
    view = value.owner
    if (
        isinstance(view, memref.SubviewOp)
        and all(constant_index(v) == 0 for v in mixed_values(view.static_offsets, view.offsets))
        and all(constant_index(v) == 1 for v in mixed_values(view.static_strides, view.strides))
        and isinstance(view.source.type, MemRefType)
        and view.source.type.has_static_shape()
    ):
        return view.source
    raise WgmmaRewriteError(
        f"{what} {t} is neither a static tile nor a unit-stride subview at 0 of one", op
    )


def _check_k_tail(a_in: SSAValue, a: SSAValue, launch: gpu.LaunchOp, op: Operation) -> None:
    """The MMAs run over the whole k of the tile: an edge tile's k beyond the matmul's
    must be zeros, i.e. A's k size is min(tile k, K - k offset) of its TMA load, whose
    box past K is zero-filled (the zeros of A make B's rows there contribute nothing)."""
    if a_in is a:
        return
    view = a_in.owner
    a_t = a.type
    assert isinstance(view, memref.SubviewOp) and isinstance(a_t, MemRefType)
    k_size = mixed_values(view.static_sizes, view.sizes)[1]
    tile_k = a_t.get_shape()[1]
    if constant_index(k_size) == tile_k:
        return
    load = next(o for o in launch.walk() if isinstance(o, ng.TmaAsyncLoadOp) and o.dst is a)
    create = load.tensor_map_descriptor.owner
    source = create.operands[0].owner if isinstance(create, ng.TmaCreateDescriptorOp) else None
    global_t = source.operands[0].type if isinstance(source, Operation) else None
    if (
        not isinstance(global_t, MemRefType)
        or not global_t.has_static_shape()
        or not reaches_bound(k_size, load.coordinates[-1], tile_k, global_t.get_shape()[-1])
    ):
        raise WgmmaRewriteError(
            f"A's k size is not min({tile_k}, K - k offset) of its TMA load: the MMAs over "
            f"the whole {tile_k}-wide k of the tile would add elements past the matmul's",
            op,
        )


def _erase_edge_views(
    rewriter: PatternRewriter, operands: tuple[SSAValue, ...], tiles: tuple[SSAValue, ...]
) -> None:
    """Erase the edge subviews the matmul read, now unused."""
    for value, tile in zip(operands, tiles, strict=True):
        owner = value.owner
        if value is not tile and isinstance(owner, Operation) and not value.uses:
            rewriter.erase(owner)


def _defined_in(value: SSAValue, op: Operation) -> bool:
    owner = value.owner
    current = owner if isinstance(owner, Operation) else owner.parent_op()
    while current is not None:
        if current is op:
            return True
        current = current.parent_op()
    return False


__all__ = ["WgmmaMatmul", "WgmmaRewriteError", "rewrite_matmul_as_wgmma"]
