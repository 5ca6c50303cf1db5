"""Shared helpers of the GPU lowering passes: region captures, kernel lookup, module walks."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation, Region, SSAValue

from schedir.dialects import gpu


def is_inside(value: SSAValue, region: Region) -> bool:
    """Whether `value` is defined inside `region` (as an op result or a block argument)."""
    block = value.owner if not isinstance(value.owner, Operation) else value.owner.parent
    while block is not None:
        if block.parent is region:
            return True
        parent_op = block.parent_op()
        if parent_op is None:
            return False
        block = parent_op.parent
    return False


def used_values_defined_above(region: Region) -> list[SSAValue]:
    """Upstream's getUsedValuesDefinedAbove: values used in `region` but defined outside,
    in the order of their first use (pre-order walk, operands in order)."""
    found: dict[SSAValue, None] = {}
    for block in region.blocks:
        for op in block.ops:
            for nested in op.walk():
                for operand in nested.operands:
                    if operand not in found and not is_inside(operand, region):
                        found[operand] = None
    return list(found)


def launches(module: Operation) -> list[gpu.LaunchOp]:
    """Every `gpu.launch` in `module`, in program order."""
    return [op for op in module.walk() if isinstance(op, gpu.LaunchOp)]


def gpu_modules(module: ModuleOp) -> list[gpu.ModuleOp]:
    """The `gpu.module`s directly in `module`."""
    return [op for op in module.ops if isinstance(op, gpu.ModuleOp)]


def symbol_names(module: ModuleOp) -> set[str]:
    """The symbol names defined directly in `module`."""
    names: set[str] = set()
    for op in module.ops:
        sym = op.properties.get("sym_name") or op.attributes.get("sym_name")
        if isinstance(sym, StringAttr):
            names.add(sym.data)
    return names


def unique_name(base: str, taken: set[str]) -> str:
    """`base`, or `base_0`, `base_1`, ... as upstream's SymbolTable renames clashes."""
    if base not in taken:
        return base
    index = 0
    while f"{base}_{index}" in taken:
        index += 1
    return f"{base}_{index}"


def enclosing_function(op: Operation) -> Operation | None:
    """The nearest `func.func` / `gpu.func` / `llvm.func` around `op`."""
    current = op.parent_op()
    while current is not None and current.name not in ("func.func", "gpu.func", "llvm.func"):
        current = current.parent_op()
    return current


def walk_kernels(module: ModuleOp) -> Iterator[tuple[gpu.ModuleOp, gpu.FuncOp]]:
    """(gpu.module, kernel gpu.func) pairs of `module`."""
    for device in gpu_modules(module):
        for op in device.body.ops:
            if isinstance(op, gpu.FuncOp) and op.is_kernel:
                yield device, op


_VIEW_OPS = frozenset(
    {
        "memref.subview",
        "memref.cast",
        "memref.reinterpret_cast",
        "memref.expand_shape",
        "memref.collapse_shape",
        "memref.memory_space_cast",
        "memref.view",
        "memref.transpose",
    }
)


def written_arguments(fn: Operation) -> list[int]:
    """Indices of the memref arguments of `fn` that its code may write (conservative).

    An argument is only read if every use, through views, is a known read (a load, an
    input of a linalg op, the source of a copy, a dimension query); anything else
    (stores, linalg inits, kernel launches, unknown ops) counts as a write.
    """
    from xdsl.dialects.builtin import MemRefType

    from schedir.transform.rewrites.effects import WRITE, op_effects

    block = fn.regions[0].blocks.first
    if block is None:
        return []
    written: list[int] = []
    for index, arg in enumerate(block.args):
        if not isinstance(arg.type, MemRefType):
            continue
        todo: list[SSAValue] = [arg]
        seen: set[SSAValue] = set()
        found = False
        while todo and not found:
            value = todo.pop()
            if value in seen:
                continue
            seen.add(value)
            for use in value.uses:
                user = use.operation
                if user.name in _VIEW_OPS:
                    todo.extend(user.results)
                    continue
                if user.name == "func.return":
                    continue
                effects = op_effects(user)
                if effects is None or any(
                    e.kind == WRITE and (e.value is None or e.value is value) for e in effects
                ):
                    found = True
                    break
        if found:
            written.append(index)
    return written


# ---------------------------------------------------------------------------------------
# static bounds of index values (for sizing per-thread buffers)

Interval = tuple[int | None, int | None]
"""Inclusive lower and upper bounds; None where unbounded."""

_NONNEGATIVE_IDS = frozenset(
    {"gpu.thread_id", "gpu.block_id", "gpu.block_dim", "gpu.grid_dim", "gpu.lane_id", "memref.dim"}
)


def _add(a: Interval, b: Interval) -> Interval:
    lo = a[0] + b[0] if a[0] is not None and b[0] is not None else None
    hi = a[1] + b[1] if a[1] is not None and b[1] is not None else None
    return lo, hi


def _scale(a: Interval, c: int) -> Interval:
    lo, hi = a
    if c >= 0:
        return (lo * c if lo is not None else None, hi * c if hi is not None else None)
    return (hi * c if hi is not None else None, lo * c if lo is not None else None)


def _expr_bounds(expr: object, operands: list[Interval], num_dims: int) -> Interval:
    from xdsl.ir.affine import (
        AffineBinaryOpExpr,
        AffineBinaryOpKind,
        AffineConstantExpr,
        AffineDimExpr,
        AffineSymExpr,
    )

    if isinstance(expr, AffineConstantExpr):
        return expr.value, expr.value
    if isinstance(expr, AffineDimExpr):
        return operands[expr.position]
    if isinstance(expr, AffineSymExpr):
        return operands[num_dims + expr.position]
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs = _expr_bounds(expr.lhs, operands, num_dims)
    rhs = _expr_bounds(expr.rhs, operands, num_dims)
    constant = rhs[0] if rhs[0] is not None and rhs[0] == rhs[1] else None
    if expr.kind == AffineBinaryOpKind.Add:
        return _add(lhs, rhs)
    if expr.kind == AffineBinaryOpKind.Mul:
        if constant is not None:
            return _scale(lhs, constant)
        if lhs[0] is not None and lhs[0] == lhs[1]:
            return _scale(rhs, lhs[0])
        return None, None
    if constant is None or constant <= 0:
        return None, None
    if expr.kind == AffineBinaryOpKind.Mod:
        return 0, constant - 1
    if expr.kind == AffineBinaryOpKind.FloorDiv:
        return (
            lhs[0] // constant if lhs[0] is not None else None,
            lhs[1] // constant if lhs[1] is not None else None,
        )
    return (
        -(-lhs[0] // constant) if lhs[0] is not None else None,
        -(-lhs[1] // constant) if lhs[1] is not None else None,
    )


def index_bounds(value: SSAValue, depth: int = 0) -> Interval:
    """Bounds of an index value from constants, affine min/max/apply, dims of views and
    allocations, and index arithmetic (None where nothing is known)."""
    from xdsl.dialects.builtin import IntegerAttr, MemRefType
    from xdsl.ir import OpResult

    if depth > 32 or not isinstance(value, OpResult):
        return None, None
    op = value.op
    name = op.name
    if name == "arith.constant":
        attr = op.properties.get("value")
        if isinstance(attr, IntegerAttr):
            return attr.value.data, attr.value.data
        return None, None
    if name in ("affine.min", "affine.max", "affine.apply"):
        amap = op.properties["map"].data  # type: ignore[attr-defined]
        operands = [index_bounds(v, depth + 1) for v in op.operands]
        results = [_expr_bounds(e, operands, amap.num_dims) for e in amap.results]
        if name == "affine.apply":
            return results[0]
        los = [r[0] for r in results]
        his = [r[1] for r in results]
        if name == "affine.min":
            known_hi = [h for h in his if h is not None]
            lo = min(los) if all(v is not None for v in los) else None  # type: ignore[type-var]
            return lo, (min(known_hi) if known_hi else None)
        known_lo = [v for v in los if v is not None]
        hi = max(his) if all(h is not None for h in his) else None  # type: ignore[type-var]
        return (max(known_lo) if known_lo else None), hi
    if name in ("arith.addi", "arith.muli", "arith.subi"):
        a = index_bounds(op.operands[0], depth + 1)
        b = index_bounds(op.operands[1], depth + 1)
        if name == "arith.addi":
            return _add(a, b)
        if name == "arith.subi":
            return _add(a, _scale(b, -1))
        if b[0] is not None and b[0] == b[1]:
            return _scale(a, b[0])
        if a[0] is not None and a[0] == a[1]:
            return _scale(b, a[0])
        return None, None
    if name in ("arith.minsi", "arith.minui"):
        a = index_bounds(op.operands[0], depth + 1)
        b = index_bounds(op.operands[1], depth + 1)
        his = [h for h in (a[1], b[1]) if h is not None]
        return (min(a[0], b[0]) if a[0] is not None and b[0] is not None else None), (
            min(his) if his else None
        )
    if name == "memref.dim":
        source, index = op.operands
        dim = index_bounds(index, depth + 1)[0]
        t = source.type
        if dim is None or not isinstance(t, MemRefType):
            return 0, None
        static = t.get_shape()[dim]
        if static >= 0:
            return static, static
        producer = source.owner
        if isinstance(producer, Operation):
            if producer.name == "memref.subview":
                sizes = producer.properties["static_sizes"].get_values()  # type: ignore[attr-defined]
                dynamic = iter(producer.operands[1 + len(_dynamic(producer, "static_offsets")) :])
                values: list[SSAValue | int] = [
                    s if s >= 0 else next(dynamic) for s in sizes if True
                ]
                kept = [v for v, d in zip(values, _kept_dims(producer), strict=False) if d]
                entry = kept[dim] if dim < len(kept) else None
                if isinstance(entry, int):
                    return entry, entry
                if entry is not None:
                    return index_bounds(entry, depth + 1)
            if producer.name in ("memref.alloc", "memref.alloca"):
                dynamic_dims = [i for i, s in enumerate(t.get_shape()) if s < 0]
                return index_bounds(producer.operands[dynamic_dims.index(dim)], depth + 1)
            if producer.name == "memref.cast":
                return index_bounds_of_dim(producer.operands[0], dim, depth + 1)
        return 0, None
    if name in _NONNEGATIVE_IDS:
        return 0, None
    return None, None


def index_bounds_of_dim(source: SSAValue, dim: int, depth: int) -> Interval:
    """Bounds of dimension `dim` of memref `source`."""
    from xdsl.dialects.builtin import MemRefType

    t = source.type
    if isinstance(t, MemRefType) and t.get_shape()[dim] >= 0:
        size = t.get_shape()[dim]
        return size, size
    return 0, None


def _dynamic(op: Operation, prop: str) -> list[int]:
    values = op.properties[prop].get_values()  # type: ignore[attr-defined]
    from xdsl.dialects.builtin import DYNAMIC_INDEX

    return [i for i, v in enumerate(values) if v == DYNAMIC_INDEX]


def _kept_dims(subview: Operation) -> list[bool]:
    """Which source dimensions of a (possibly rank-reducing) subview its result keeps."""
    from xdsl.dialects.builtin import MemRefType

    sizes = subview.properties["static_sizes"].get_values()  # type: ignore[attr-defined]
    result = subview.results[0].type
    assert isinstance(result, MemRefType)
    if len(sizes) == result.get_num_dims():
        return [True] * len(sizes)
    # Dropped dimensions are unit sizes; keep from the right as upstream's inference does.
    keep = [True] * len(sizes)
    extra = len(sizes) - result.get_num_dims()
    for i, s in enumerate(sizes):
        if extra and s == 1:
            keep[i] = False
            extra -= 1
    return keep


def upper_bound(value: SSAValue) -> int | None:
    """A static upper bound of an index value, or None."""
    return index_bounds(value)[1]


__all__ = [
    "enclosing_function",
    "gpu_modules",
    "index_bounds",
    "is_inside",
    "launches",
    "symbol_names",
    "unique_name",
    "upper_bound",
    "used_values_defined_above",
    "walk_kernels",
    "written_arguments",
]
