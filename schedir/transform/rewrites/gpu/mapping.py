"""Mapping bufferized `scf.forall` loops onto GPU blocks and threads.

The algorithms of upstream's GPUTransformOps.cpp and GPU/TransformOps/Utils.cpp
(`mapForallToBlocksImpl`, `mapNestedForallToThreadsImpl`, the GPU id builders):

* `map_forall_to_blocks`: the unique top-level `scf.forall` of the target (with
  `#gpu.block<...>` mapping) is replaced by its body, its induction variables by
  `gpu.block_id`s; with `generate_gpu_launch` a `gpu.launch` is created around it first.
  The grid is the forall's trip counts (sorted by mapping id, missing ones 1), or
  `grid_dims` when given (smaller foralls are then predicated).
* `map_nested_forall_to_threads`: every `scf.forall` nested in a `gpu.launch` (with
  `#gpu.thread`, `#gpu.warp`, `#gpu.warpgroup` or `#gpu.lane` mapping) is replaced by its
  body, under an `scf.if` when it has fewer iterations than `block_dims` provide, followed
  by a `gpu.barrier` (unless `sync_after_distribute` is false).

    scf.forall (%i, %j) in (8, 32) { ... } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
    // block_dims = [32, 8, 1] ->
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    ... (%i -> %ty, %j -> %tx)
    gpu.barrier

Ids: in 3-D mode `x/y/z` take `gpu.thread_id x/y/z` (warps: `thread_id x floordiv
warp_size`); in linear mode the linear thread id `tx + ty*BX + tz*BX*BY` (divided by the
warp or warpgroup size) is delinearized over the forall's sizes. Failures are
`GpuMappingError`s carrying upstream's message and whether it is definite.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, MemRefType, NoneAttr, UnitAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriterListener
from xdsl.rewriter import InsertPoint

from schedir.dialects import gpu
from schedir.dialects.gpu.attributes import (
    BlockMappingAttr,
    DeviceMappingAttr,
    LaneMappingAttr,
    MappingId,
    ThreadMappingAttr,
    WarpgroupMappingAttr,
    WarpMappingAttr,
)
from schedir.dialects.gpu.syntax import DIMS
from schedir.dialects.scf import ForallOp
from schedir.transform.rewrites.rewriter import CanonRewriter
from schedir.transform.rewrites.tiling.affine import Aff, IndexBuilder, constant_of

MAX_BLOCK_DIMS = (1024, 1024, 64)
MAX_THREADS_PER_BLOCK = 1024
MAX_GRID_DIMS = (2147483647, 65535, 65535)
MAX_BLOCKS = 2147483647
WARPS_PER_WARPGROUP = 4
NUM_LINEAR_IDS = 10

OVERPROVISIONING = (
    "Trying to map to fewer GPU threads than loop iterations but overprovisioning is not "
    "yet supported. Try additional tiling before mapping or map to more threads."
)


class GpuMappingError(Exception):
    """A mapping failure: upstream's message, whether it is definite, and the payload op
    to note ("when applied to this payload op") if any."""

    def __init__(
        self,
        message: str,
        *,
        definite: bool,
        payload: Operation | None = None,
        note: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.definite = definite
        self.payload = payload
        self.note = note
        """A note at the transform op itself (e.g. "block_dims is too large")."""


def _definite(message: str) -> GpuMappingError:
    return GpuMappingError(message, definite=True)


@dataclass(frozen=True)
class BlockMappingResult:
    """The `gpu.launch` that now holds the mapped body."""

    launch: gpu.LaunchOp


def check_gpu_limits(
    grid: Sequence[int | None] = (None, None, None),
    block: Sequence[int | None] = (None, None, None),
) -> str | None:
    """Upstream's checkGpuLimits (CUDA's limits): the message when exceeded, else None."""
    g = [v if v is not None else 1 for v in grid]
    b = [v if v is not None else 1 for v in block]
    if (
        prod(b) > MAX_THREADS_PER_BLOCK
        or prod(g) > MAX_BLOCKS
        or any(v > limit for v, limit in zip(b, MAX_BLOCK_DIMS, strict=True))
        or any(v > limit for v, limit in zip(g, MAX_GRID_DIMS, strict=True))
    ):
        return (
            f"Trying to launch a GPU kernel with grid_dims = ({g[0]}, {g[1]}, {g[2]}) "
            f"block_dims = ({b[0]}, {b[1]}, {b[2]}). It is larger than the limits."
        )
    return None


# ---------------------------------------------------------------------------------------
# verification of a forall's mapping


def _mapping(forall: ForallOp) -> list[DeviceMappingAttr]:
    return [m for m in forall.mapping_attrs if isinstance(m, DeviceMappingAttr)]


def verify_gpu_mapping(forall: ForallOp, kind: str) -> None:
    """Upstream's verifyGpuMapping<BlockMappingKind|ThreadMappingKind> (`kind` "block" or
    "thread"): definite failures for a missing, mixed or duplicate mapping, a loop that is
    not normalized, static or bufferized, or one of too high rank."""
    if forall.mapping is None:
        raise _definite("scf.forall op requires a mapping attribute")
    attrs = list(forall.mapping_attrs)
    levels = {type(a) for a in attrs}
    kinds = {
        BlockMappingAttr: "block",
        WarpgroupMappingAttr: "warpgroup",
        WarpMappingAttr: "warp",
        ThreadMappingAttr: "thread",
        LaneMappingAttr: "lane",
    }
    present = {kinds[t] for t in levels if t in kinds}
    if len(present) > 1:
        raise _definite("cannot mix different mapping types, use nesting")
    if kind == "block" and "block" not in present:
        raise _definite("scf.forall op requires a mapping attribute of kind 'block'")
    if kind == "thread" and not present & {"lane", "thread", "warp", "warpgroup"}:
        raise _definite("scf.forall op requires a mapping attribute of kind 'thread' or 'warp'")
    seen: list[object] = []
    for attr in attrs:
        if attr in seen:
            raise _definite(
                "duplicate attribute, cannot map different loops to the same mapping id"
            )
        seen.append(attr)
    mapping = _mapping(forall)
    linear = [m.is_linear for m in mapping]
    if any(linear) and not all(linear):
        raise _definite("cannot mix linear and non-linear mapping modes")
    if not forall.is_normalized():
        raise _definite("unsupported non-normalized loops")
    if forall.res:
        raise _definite("only bufferized scf.forall can be mapped")
    max_mappings = NUM_LINEAR_IDS if mapping and all(linear) else 3
    if forall.rank > max_mappings:
        raise _definite(
            f"scf.forall with rank > {max_mappings} does not lower for the specified mapping attribute type"
        )
    if any(constant_of(ub) is None for ub in forall.upper_bounds):
        raise _definite("requires statically sized, normalized forall op")


def _sizes(forall: ForallOp) -> list[int]:
    sizes = [constant_of(ub) for ub in forall.upper_bounds]
    assert all(s is not None for s in sizes)
    return [s for s in sizes if s is not None]


# ---------------------------------------------------------------------------------------
# id builders (GPU/TransformOps/Utils.cpp)


def _floordiv(aff: Aff, divisor: int) -> Aff:
    if divisor == 1:
        return aff
    if aff.constant is not None:
        return Aff.const(aff.constant // divisor)
    return Aff(aff.expr // divisor, aff.leaves)


def _mod(aff: Aff, modulus: int) -> Aff:
    if aff.constant is not None:
        return Aff.const(aff.constant % modulus)
    return Aff(aff.expr % modulus, aff.leaves)


@dataclass
class _Ids:
    """What an id builder made: one id per mapping position, and the predicates."""

    ids: list[SSAValue]
    predicates: list[SSAValue]


class _IdBuilder:
    """Builds ids and predicates at the rewriter's insertion point."""

    def __init__(
        self, rw: CanonRewriter, loc: Operation, *, level: str, linear: bool, multiplicity: int
    ) -> None:
        self.rw = rw
        self.loc = loc
        self.level = level
        self.linear = linear
        self.multiplicity = multiplicity
        self.index = IndexBuilder(rw, loc.location)

    def _id_op(self, dim: str) -> SSAValue:
        cls = gpu.BlockIdOp if self.level == "block" else gpu.ThreadIdOp
        return self.rw.create(cls(dim), self.loc).results[0]

    def _value(self, aff: Aff) -> SSAValue:
        return self.index.value(self.index.apply(aff))

    def _predicates(
        self, ids: Sequence[SSAValue], active: Sequence[int], available: Sequence[int]
    ) -> list[SSAValue]:
        """Upstream's buildPredicates: `id < size` where fewer are active than available."""
        predicates: list[SSAValue] = []
        for value, used, total in zip(ids, active, available, strict=True):
            if used > total:
                raise _definite(OVERPROVISIONING)
            if used == total:
                continue
            bound = self.rw.constant_index(used, self.loc)
            predicates.append(
                self.rw.create(arith.CmpiOp(value, bound, "ult"), self.loc).results[0]
            )
        return predicates

    def build(self, sizes: Sequence[int], basis: Sequence[int]) -> _Ids:
        if self.level == "lane":
            return self._lane(sizes, basis)
        if self.linear:
            return self._linear(sizes, basis)
        return self._three_d(sizes, basis)

    def _three_d(self, sizes: Sequence[int], basis: Sequence[int]) -> _Ids:
        ids = [self._id_op(d) for d in DIMS]
        scaled = list(ids)
        if self.multiplicity != 1:
            scaled[0] = self._value(_floordiv(Aff.opaque(ids[0]), self.multiplicity))
        in_basis = list(sizes)
        in_basis[0] *= self.multiplicity
        return _Ids(scaled, self._predicates(ids, in_basis, basis))

    def _linear_id(self, basis: Sequence[int]) -> SSAValue:
        tx, ty, tz = (self._id_op(d) for d in DIMS)
        aff = Aff.opaque(tx) + Aff.opaque(ty) * basis[0] + Aff.opaque(tz) * (basis[0] * basis[1])
        return self._value(aff)

    def _delinearize(self, linear: SSAValue, sizes: Sequence[int]) -> list[SSAValue]:
        ids: list[SSAValue] = []
        stride = 1
        for size in sizes:
            expr = _floordiv(Aff.opaque(linear), stride)
            expr = _mod(expr, size) if len(ids) < len(sizes) - 1 else expr
            ids.append(self._value(expr))
            stride *= size
        return ids

    def _linear(self, sizes: Sequence[int], basis: Sequence[int]) -> _Ids:
        physical = self._linear_id(basis)
        scaled = self._value(_floordiv(Aff.opaque(physical), self.multiplicity))
        ids = self._delinearize(scaled, sizes)
        predicates = self._predicates([physical], [prod(sizes) * self.multiplicity], [prod(basis)])
        return _Ids(ids, predicates)

    def _lane(self, sizes: Sequence[int], basis: Sequence[int]) -> _Ids:
        physical = self._linear_id(basis)
        lane = self._value(_mod(Aff.opaque(physical), self.multiplicity))
        ids = self._delinearize(lane, sizes)
        predicates = self._predicates([lane], [prod(sizes)], [prod(basis)])
        return _Ids(ids, predicates)


def _mapping_attr(level: str, mapping_id: MappingId) -> DeviceMappingAttr:
    cls = {
        "block": BlockMappingAttr,
        "thread": ThreadMappingAttr,
        "warp": WarpMappingAttr,
        "warpgroup": WarpgroupMappingAttr,
        "lane": LaneMappingAttr,
    }[level]
    return cls(mapping_id)


def _rewrite_one_forall(
    rw: CanonRewriter,
    forall: ForallOp,
    available: Sequence[int],
    builder: _IdBuilder,
    *,
    insert_after: bool,
) -> list[int]:
    """Upstream's rewriteOneForallCommonImpl: replace `forall` by its (predicated) body.

    `available` is the grid or block size (empty: derived from the forall, no
    predication). Returns the forall's mapping sizes sorted by mapping id.
    """
    sizes = _sizes(forall)
    attrs: list[DeviceMappingAttr] = list(_mapping(forall))
    ids = list(MappingId)
    linear = builder.linear
    candidates = ids[3:] if linear else ids[:3]
    max_id = max(a.mapping_id for a in attrs)
    all_sizes = list(sizes)
    for candidate in candidates:
        attr = _mapping_attr(builder.level, candidate)
        position = ids.index(candidate)
        if linear and position > max_id:
            continue
        if attr in attrs:
            continue
        attrs.append(attr)
        all_sizes.append(1)
    order = sorted(range(len(attrs)), key=lambda i: attrs[i].mapping_id)
    sorted_sizes = [all_sizes[i] for i in order]

    rw.set_insertion_point(
        InsertPoint.after(forall) if insert_after else InsertPoint.before(forall)
    )
    basis = list(available)
    provided = bool(basis)
    if not provided:
        basis = sorted_sizes + [1] * (3 - len(sorted_sizes))
    built = builder.build(sorted_sizes, basis)

    predicate: SSAValue | None = None
    if provided:
        for value in built.predicates:
            predicate = (
                value
                if predicate is None
                else rw.create(arith.AndIOp(predicate, value), forall).results[0]
            )
    body = forall.body.block
    terminator = forall.terminator
    if predicate is not None:
        then_block = Block()
        if_op = scf.IfOp(predicate, [], Region(then_block))
        rw.create(if_op, forall)
        yield_op = scf.YieldOp()
        then_block.add_op(yield_op)
        target = InsertPoint.before(yield_op)
    else:
        target = rw.insertion_point
    for iv, attr in zip(forall.induction_vars, attrs[: forall.rank], strict=True):
        iv.replace_all_uses_with(built.ids[attr.relative_index])
    for op in list(body.ops):
        if op is terminator:
            break
        rw.move_op(op, target)
    rw.erase(forall, safe_erase=False)
    return sorted_sizes


# ---------------------------------------------------------------------------------------
# blocks


def _top_level_forall(target: Operation) -> ForallOp:
    # Upstream's findTopLevelForallOps: a forall with any forall ancestor is nested, the
    # ancestors above `target` included; so a forall target is its own top-level forall
    # (its inner foralls are nested in it), which lets a function with several grids map
    # them one at a time.
    found: list[ForallOp] = []
    for op in target.walk():
        if isinstance(op, ForallOp):
            parent = op.parent_op()
            nested = False
            while parent is not None:
                if isinstance(parent, ForallOp):
                    nested = True
                    break
                parent = parent.parent_op()
            if not nested:
                found.append(op)
    if len(found) != 1:
        raise GpuMappingError(
            "could not find a unique topLevel scf.forall", definite=False, payload=target
        )
    return found[0]


def _create_launch(rw: CanonRewriter, target: Operation, forall: ForallOp) -> gpu.LaunchOp:
    """Upstream's createGpuLaunch: an empty launch of 1x1x1 blocks of 1x1x1 threads
    before `forall`, holding a clone of `forall` (the original is erased)."""
    rw.set_insertion_point(InsertPoint.before(forall))
    one = rw.constant_index(1, target)
    body = Block(arg_types=[IndexType()] * 12)
    launch = gpu.LaunchOp([one] * 3, [one] * 3, Region(body))
    rw.create(launch, target)
    terminator = gpu.TerminatorOp()
    terminator.location = target.location
    body.add_op(terminator)
    clone = forall.clone()
    rw.insert(clone, InsertPoint.at_start(body))
    rw.erase(forall, safe_erase=False)
    assert isinstance(clone, ForallOp)
    return launch


def _alter_launch(
    rw: CanonRewriter,
    launch: gpu.LaunchOp,
    grid: Sequence[int] | None = None,
    block: Sequence[int] | None = None,
) -> None:
    """Upstream's alterGpuLaunch: new constant sizes, created after the block size x."""
    problem = check_gpu_limits(grid or (None, None, None), block or (None, None, None))
    if problem is not None:
        raise GpuMappingError(problem, definite=False)
    anchor = launch.blockSizeX
    owner = anchor.owner
    if isinstance(owner, Operation):
        point = InsertPoint.after(owner)
    else:
        point = InsertPoint.at_start(owner)
    rw.set_insertion_point(point)
    for which, values in (("grid", grid), ("block", block)):
        if values is None:
            continue
        for index, value in enumerate(values):
            launch.set_size_operand(which, index, rw.constant_index(value, launch))


def map_forall_to_blocks(
    target: Operation,
    *,
    grid_dims: Sequence[int] = (),
    generate_gpu_launch: bool = False,
    listener: PatternRewriterListener | None = None,
) -> BlockMappingResult:
    """Map the top-level forall of `target` (a `gpu.launch`, or any op with
    `generate_gpu_launch`) to block ids; see the module docstring."""
    launch = target if isinstance(target, gpu.LaunchOp) else None
    if not generate_gpu_launch and launch is None:
        raise GpuMappingError(
            "Given target is not gpu.launch, set `generate_gpu_launch` attribute",
            definite=False,
            payload=target,
        )
    forall = _top_level_forall(target)
    grid = list(grid_dims)
    if not generate_gpu_launch and len(grid) != 3:
        raise _definite("transform require size-3 mapping")
    rw = CanonRewriter(InsertPoint.before(forall), listener)
    if generate_gpu_launch:
        launch = _create_launch(rw, target, forall)
        first = launch.body.block.first_op
        assert isinstance(first, ForallOp)
        forall = first
    assert launch is not None
    verify_gpu_mapping(forall, "block")
    linear = all(m.is_linear for m in _mapping(forall))
    parent = forall.parent
    assert parent is not None
    rw.set_insertion_point(InsertPoint.at_start(parent))
    rw.constant_index(0, forall)  # upstream's early zero (dead unless a unit id is replaced)
    builder = _IdBuilder(rw, forall, level="block", linear=linear, multiplicity=1)
    sizes = _rewrite_one_forall(rw, forall, grid, builder, insert_after=False)
    if not grid:
        grid = sizes + [1] * (3 - len(sizes))
    _alter_launch(rw, launch, grid=grid[:3])
    return BlockMappingResult(launch)


# ---------------------------------------------------------------------------------------
# threads


def _level(forall: ForallOp) -> str:
    first = _mapping(forall)[0]
    return first.level


def _map_one_forall_to_threads(
    rw: CanonRewriter,
    forall: ForallOp,
    block_dims: Sequence[int],
    warp_size: int,
    sync_after_distribute: bool,
) -> None:
    verify_gpu_mapping(forall, "thread")
    level = _level(forall)
    linear = _mapping(forall)[0].is_linear
    factor = {"warpgroup": WARPS_PER_WARPGROUP * warp_size, "warp": warp_size}.get(level, 1)
    sizes = _sizes(forall)
    if not linear and block_dims[0] % factor != 0:
        raise _definite(f"3-D mapping: size of threadIdx.x must be a multiple of {factor}")
    if prod(sizes) * factor > prod(block_dims):
        raise _definite(
            "the number of required parallel resources (blocks or threads) "
            f"{prod(sizes) * factor} overflows the number of available resources {prod(block_dims)}"
        )
    multiplicity = warp_size if level == "lane" else factor
    builder = _IdBuilder(rw, forall, level=level, linear=linear, multiplicity=multiplicity)
    anchor = forall.next_op
    parent = forall.parent
    assert parent is not None
    _rewrite_one_forall(rw, forall, block_dims, builder, insert_after=True)
    if sync_after_distribute:
        barrier = gpu.BarrierOp()
        barrier.location = forall.location
        if anchor is not None:
            rw.insert(barrier, InsertPoint.before(anchor))
        else:
            rw.insert(barrier, InsertPoint.at_end(parent))


WORKGROUP_BUFFER = "schedir.workgroup_buffer"
"""Marks a default-space `memref.alloc` of a launch's block-level code whose buffer the
threads share: `convert-gpu-to-nvvm` puts it in shared memory (see below)."""

_VIEWS = (
    memref.SubviewOp,
    memref.CastOp,
    memref.ExpandShapeOp,
    memref.CollapseShapeOp,
    memref.ReinterpretCastOp,
)


def _is_default_space(t: object) -> bool:
    return isinstance(t, MemRefType) and isinstance(t.memory_space, NoneAttr)


def mark_block_shared_buffers(launch: Operation) -> list[Operation]:
    """Mark the buffers that block-level code allocates and thread-mapped foralls use.

    After bufferization, a tensor that lives between the thread-level loops of a block
    (a partial reduction, an intermediate the threads write and others read) is a
    `memref.alloc` in the launch body, outside the thread foralls. MLIR runs that code in
    every thread, which would give each thread its own buffer; what the schedule means
    (and what IREE's GPU bufferization does) is one buffer per block. Such allocations
    get the `schedir.workgroup_buffer` attribute, which `convert-gpu-to-nvvm` honours by
    placing them in shared memory; allocations inside thread foralls stay per-thread.
    """
    thread_loops = [
        op
        for op in launch.walk()
        if isinstance(op, ForallOp) and _mapping(op) and _level(op) != "block"
    ]

    def in_thread_loop(op: Operation) -> bool:
        current: Operation | None = op
        while current is not None and current is not launch:
            if current in thread_loops:
                return True
            current = current.parent_op()
        return False

    marked: list[Operation] = []
    for op in list(launch.walk()):
        if (
            not isinstance(op, memref.AllocOp)
            or not _is_default_space(op.results[0].type)
            or in_thread_loop(op)
        ):
            continue
        todo = [op.results[0]]
        shared = False
        while todo and not shared:
            value = todo.pop()
            for use in value.uses:
                if isinstance(use.operation, _VIEWS) and not in_thread_loop(use.operation):
                    todo.extend(use.operation.results)
                elif in_thread_loop(use.operation):
                    shared = True
                    break
        if shared:
            op.attributes[WORKGROUP_BUFFER] = UnitAttr()
            marked.append(op)
    return marked


def map_nested_forall_to_threads(
    launch: Operation,
    *,
    block_dims: Sequence[int],
    warp_size: int = 32,
    sync_after_distribute: bool = True,
    listener: PatternRewriterListener | None = None,
) -> None:
    """Map every forall nested in `launch` to thread ids; see the module docstring."""
    if not isinstance(launch, gpu.LaunchOp):
        raise GpuMappingError("Given target is not a gpu.launch", definite=False)
    dims = list(block_dims)
    problem = check_gpu_limits(block=dims + [None] * (3 - len(dims)))
    if problem is not None:
        raise GpuMappingError(problem, definite=False, note='"block_dims" is too large')
    rw = CanonRewriter(InsertPoint.at_start(launch.body.block), listener)
    if len(dims) == 3:
        _alter_launch(rw, launch, block=dims)
    if len(dims) != 3:
        raise _definite("requires size-3 thread mapping")
    rw.set_insertion_point(InsertPoint.at_start(launch.body.block))
    zero = rw.constant_index(0, launch)
    foralls = [op for op in launch.walk(region_first=True) if isinstance(op, ForallOp)]
    for forall in foralls:
        verify_gpu_mapping(forall, "thread")
    mark_block_shared_buffers(launch)
    for forall in foralls:
        _map_one_forall_to_threads(rw, forall, dims, warp_size, sync_after_distribute)
    # Ids along dimensions of size 1 are 0 (upstream's replaceUnitMappingIdsHelper).
    for op in list(launch.walk()):
        if isinstance(op, gpu.ThreadIdOp) and dims[DIMS.index(op.dim)] == 1:
            op.results[0].replace_all_uses_with(zero)


def launch_sizes(launch: gpu.LaunchOp) -> tuple[list[int | None], list[int | None]]:
    """The constant grid and block sizes of a launch (None where not constant)."""
    return [constant_of(v) for v in launch.grid_sizes], [constant_of(v) for v in launch.block_sizes]


__all__ = [
    "OVERPROVISIONING",
    "WORKGROUP_BUFFER",
    "BlockMappingResult",
    "GpuMappingError",
    "check_gpu_limits",
    "launch_sizes",
    "map_forall_to_blocks",
    "map_nested_forall_to_threads",
    "mark_block_shared_buffers",
    "verify_gpu_mapping",
]
