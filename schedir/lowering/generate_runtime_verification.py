"""`generate-runtime-verification`: checks at run time what the verifier cannot know statically.

Upstream's pass (mlir/lib/Transforms/GenerateRuntimeVerification.cpp) asks every op with
the RuntimeVerifiableOpInterface to insert `cf.assert`s before it: memref.load/store
indices in bounds (`out-of-bounds access`), subviews inside their source, tensor
extract/insert indices and slices in bounds, and so on. A failed `cf.assert` prints the
message and aborts the process. schedir inserts the same checks (plus integer division
by zero and signed overflow, which upstream leaves undefined and which end the process
with SIGFPE on x86), but reports a failure as an error of the call, not an abort:

    %x = tensor.extract %t[%i] : tensor<5xf32>
    // ->
    %c0 = arith.constant 0 : index
    %dim = tensor.dim %t, %c0 : tensor<5xf32>
    %low = arith.cmpi slt, %i, %c0 : index
    %high = arith.cmpi sge, %i, %dim : index
    %bad = arith.ori %low, %high : i1
    scf.if %bad {
      %msg = llvm.mlir.addressof @__schedir_check_0 : !llvm.ptr
      %v0 = arith.index_cast %i : index to i64
      %v1 = arith.index_cast %dim : index to i64
      func.call @__schedir_runtime_check_failed(%msg, %v0, %v1)
          : (!llvm.ptr, i64, i64) -> ()
    }
    %x = tensor.extract %t[%i] : tensor<5xf32>

`@__schedir_check_N` is a constant string: the payload op's `file:line:col`, a newline,
and the message, where `{0}` and `{1}` stand for the two values passed. The CPU JIT
defines `__schedir_runtime_check_failed` (`schedir.cpu.jit.RUNTIME_CHECK_FAILED`): it
records the message and values and jumps back out of the kernel, and the call raises
`RuntimeVerificationError` at the payload op, e.g.

    payload.mlir:2:8: error: runtime verification failed: 'tensor.extract' op
    out-of-bounds access: index 7 is not in [0, 5) in dimension 0

Checked (by op class): `tensor.extract`, `tensor.insert`, `memref.load`, `memref.store`
(each index in `[0, dim)`), `tensor.extract_slice`, `tensor.insert_slice`,
`memref.subview` (per dimension, for a non-empty slice: the offset and the last index
`offset + (size - 1) * stride` in `[0, dim)`), `tensor.dim` and `memref.dim` (the
dimension exists), `tensor.cast` and `memref.cast` to a
static size (the dynamic size must be it), structured linalg ops on dynamically shaped
operands (as upstream's Linalg check: every operand dimension indexed by a loop equals
the loop size inferred from the first operand dimension that loop indexes; a compound
index such as a convolution's `d0 + d1` stays inside the operand), and the scalar integer divisions
`arith.divsi/divui/remsi/remui/ceildivsi/ceildivui/floordivsi` (divisor zero; for the
signed ones `INT_MIN / -1`). Checks that constants prove true are not emitted. Divisions
of vectors and float-to-int casts (poison, not a fault, in LLVM; upstream does not check
them either) are not checked.

The driver runs this pass first in the cpu pipeline when asked
(`CompileOptions.runtime_verification`, `--runtime-verification`), so it checks the
payload's ops after its schedule, not the in-bounds loops the lowering creates.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import affine, arith, func, memref, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    ShapedType,
    StringAttr,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from schedir.dialects import arith as sarith
from schedir.dialects import gpu, llvm
from schedir.dialects import memref as smemref
from schedir.dialects import tensor as stensor
from schedir.dialects.linalg.interface import (
    dps_inits,
    dps_inputs,
    indexing_maps,
    is_structured,
    num_loops,
)
from schedir.dialects.syntax import op_location
from schedir.dialects.utils import DYNAMIC_INDEX, Mixed, mixed_values

FAILED = "__schedir_runtime_check_failed"
"""The function a failed check calls (defined by the CPU JIT: `schedir.cpu.jit`)."""
MESSAGE_PREFIX = "__schedir_check_"


@dataclass
class _Builder:
    """Collects the ops of one check before the checked op, and the module's messages."""

    module: ModuleOp
    first: int = 0
    """The number of the first message (those of an earlier run come before)."""
    messages: list[str] = field(default_factory=list)
    _ops: list[Operation] = field(default_factory=list)

    def add(self, op: Operation) -> SSAValue:
        self._ops.append(op)
        return op.results[0]

    def index(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, IndexType())))

    def mixed(self, value: Mixed) -> SSAValue:
        return self.index(value) if isinstance(value, int) else value

    def cmp(self, lhs: SSAValue, rhs: SSAValue, predicate: str) -> SSAValue:
        return self.add(sarith.CmpiOp(lhs, rhs, predicate))

    def any(self, conditions: Sequence[SSAValue]) -> SSAValue:
        result = conditions[0]
        for condition in conditions[1:]:
            result = self.add(arith.OrIOp(result, condition))
        return result

    def all(self, conditions: Sequence[SSAValue]) -> SSAValue:
        result = conditions[0]
        for condition in conditions[1:]:
            result = self.add(arith.AndIOp(result, condition))
        return result

    def as_i64(self, value: SSAValue, signed: bool = True) -> SSAValue:
        kind = value.type
        if isinstance(kind, IndexType):
            return self.add(sarith.IndexCastOp(value, i64))
        assert isinstance(kind, IntegerType)
        width = kind.width.data
        if width == 64:
            return value
        if width > 64:
            return self.add(arith.TruncIOp(value, i64))
        if signed and width > 1:
            return self.add(arith.ExtSIOp(value, i64))
        return self.add(arith.ExtUIOp(value, i64))

    def fail_if(
        self,
        checked: Operation,
        bad: SSAValue,
        message: str,
        values: Sequence[SSAValue] = (),
        signed: bool = True,
    ) -> None:
        """Before `checked`: the ops added so far, then report `message` (about
        `checked`, with up to two `values`) when `bad` holds."""
        where = op_location(checked)
        name = f"{MESSAGE_PREFIX}{self.first + len(self.messages)}"
        self.messages.append(f"{where or ''}\n'{checked.name}' op {message}")
        condition, self._ops = self._ops, []
        args = [self.add(llvm.AddressOfOp(name, llvm.LLVMPointerType()))]
        args += [self.as_i64(value, signed) for value in values]
        while len(args) < 3:
            args.append(self.add(arith.ConstantOp(IntegerAttr(0, i64))))
        report = [*self._ops, func.CallOp(FAILED, args, []), scf.YieldOp()]
        self._ops = []
        Rewriter.insert_op([*condition, scf.IfOp(bad, [], report)], InsertPoint.before(checked))

    def dim(self, shaped: SSAValue, index: int) -> SSAValue:
        kind = shaped.type
        assert isinstance(kind, ShapedType)
        size = kind.get_shape()[index]
        if size != DYNAMIC_INDEX and size >= 0:
            return self.index(size)
        position = self.index(index)
        if isinstance(kind, MemRefType):
            return self.add(memref.DimOp.from_source_and_index(shaped, position))
        return self.add(tensor.DimOp(shaped, position))

    def finish(self) -> None:
        """Add the message strings and the declaration of the failure function."""
        block = self.module.body.block
        first = block.first_op
        declared = any(
            isinstance(op, func.FuncOp) and op.sym_name.data == FAILED for op in block.ops
        )
        new: list[Operation] = []
        if self.messages and not declared:
            declaration = func.FuncOp.external(FAILED, [llvm.LLVMPointerType(), i64, i64], [])
            new.append(declaration)
        for index, text in enumerate(self.messages, start=self.first):
            data = text.encode("ascii", "backslashreplace").decode("ascii") + "\0"
            new.append(
                llvm.GlobalOp(
                    llvm.LLVMArrayType(len(data), IntegerType(8)),
                    f"{MESSAGE_PREFIX}{index}",
                    "internal",
                    constant=True,
                    value=StringAttr(data),
                )
            )
        if not new:
            return
        if first is None:
            block.add_ops(new)
        else:
            block.insert_ops_before(new, first)


def _constant(value: Mixed) -> int | None:
    if isinstance(value, int):
        return value
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _static_size(shaped: SSAValue, index: int) -> int | None:
    kind = shaped.type
    assert isinstance(kind, ShapedType)
    size = kind.get_shape()[index]
    return size if size != DYNAMIC_INDEX and size >= 0 else None


def _check_indices(
    b: _Builder, op: Operation, shaped: SSAValue, indices: Sequence[SSAValue]
) -> None:
    """Each index in [0, dim): upstream's "out-of-bounds access"."""
    for dim, index in enumerate(indices):
        known, size = _constant(index), _static_size(shaped, dim)
        if known is not None and size is not None and 0 <= known < size:
            continue
        zero = b.index(0)
        extent = b.dim(shaped, dim)
        bad = b.any([b.cmp(index, zero, "slt"), b.cmp(index, extent, "sge")])
        b.fail_if(
            op,
            bad,
            f"out-of-bounds access: index {{0}} is not in [0, {{1}}) in dimension {dim}",
            [index, extent],
        )


def _check_slice(
    b: _Builder,
    op: Operation,
    shaped: SSAValue,
    offsets: Sequence[Mixed],
    sizes: Sequence[Mixed],
    strides: Sequence[Mixed],
) -> None:
    """Per dimension of a non-empty slice: the offset and the last index in [0, dim)."""
    for dim, (offset, size, stride) in enumerate(zip(offsets, sizes, strides, strict=True)):
        known = [_constant(offset), _constant(size), _constant(stride)]
        extent_known = _static_size(shaped, dim)
        if all(k is not None for k in known) and extent_known is not None:
            o, s, st = (k for k in known if k is not None)
            if s == 0 or (0 <= o < extent_known and 0 <= o + (s - 1) * st < extent_known):
                continue
        zero = b.index(0)
        one = b.index(1)
        extent = b.dim(shaped, dim)
        first = b.mixed(offset)
        count = b.mixed(size)
        nonempty = b.cmp(count, zero, "sgt")
        bad_offset = b.all(
            [nonempty, b.any([b.cmp(first, zero, "slt"), b.cmp(first, extent, "sge")])]
        )
        b.fail_if(
            op,
            bad_offset,
            f"offset {{0}} is out of bounds in dimension {dim} (of size {{1}})",
            [first, extent],
        )
        zero = b.index(0)
        one = b.index(1)
        extent = b.dim(shaped, dim)
        first = b.mixed(offset)
        count = b.mixed(size)
        step = b.mixed(stride)
        nonempty = b.cmp(count, zero, "sgt")
        last = b.add(
            arith.AddiOp(first, b.add(arith.MuliOp(b.add(arith.SubiOp(count, one)), step)))
        )
        bad_end = b.all([nonempty, b.any([b.cmp(last, zero, "slt"), b.cmp(last, extent, "sge")])])
        b.fail_if(
            op,
            bad_end,
            f"runs out of bounds in dimension {dim}: its last index {{0}} is not in [0, {{1}})",
            [last, extent],
        )


def _extract(b: _Builder, op: Operation) -> None:
    assert isinstance(op, tensor.ExtractOp)
    _check_indices(b, op, op.tensor, op.indices)


def _insert(b: _Builder, op: Operation) -> None:
    assert isinstance(op, tensor.InsertOp)
    _check_indices(b, op, op.dest, op.indices)


def _load(b: _Builder, op: Operation) -> None:
    assert isinstance(op, memref.LoadOp)
    _check_indices(b, op, op.memref, op.indices)


def _store(b: _Builder, op: Operation) -> None:
    assert isinstance(op, memref.StoreOp)
    _check_indices(b, op, op.memref, op.indices)


def _extract_slice(b: _Builder, op: Operation) -> None:
    assert isinstance(op, stensor.ExtractSliceOp)
    _check_slice(b, op, op.source, op.mixed_offsets, op.mixed_sizes, op.mixed_strides)


def _insert_slice(b: _Builder, op: Operation) -> None:
    assert isinstance(op, stensor.InsertSliceOp)
    _check_slice(b, op, op.dest, op.mixed_offsets, op.mixed_sizes, op.mixed_strides)


def _subview(b: _Builder, op: Operation) -> None:
    assert isinstance(op, memref.SubviewOp)
    _check_slice(
        b,
        op,
        op.source,
        mixed_values(op.static_offsets, op.offsets),
        mixed_values(op.static_sizes, op.sizes),
        mixed_values(op.static_strides, op.strides),
    )


def _dim(b: _Builder, op: Operation) -> None:
    """The dimension asked for exists: upstream's "index is out of bounds"."""
    source, index = op.operands[0], op.operands[1]
    if not isinstance(source.type, ShapedType):
        return  # unranked: no static rank to compare with
    rank = len(source.type.get_shape())
    known = _constant(index)
    if known is not None and 0 <= known < rank:
        return
    zero = b.index(0)
    limit = b.index(rank)
    bad = b.any([b.cmp(index, zero, "slt"), b.cmp(index, limit, "sge")])
    b.fail_if(op, bad, "index {0} is out of bounds (rank {1})", [index, limit])


def _cast(b: _Builder, op: Operation) -> None:
    """A cast to a static size: the source's dynamic size must be it."""
    source, result = op.operands[0], op.results[0]
    if not isinstance(source.type, ShapedType) or not isinstance(result.type, ShapedType):
        return  # unranked: nothing static to compare with
    for dim, (have, want) in enumerate(
        zip(source.type.get_shape(), result.type.get_shape(), strict=True)
    ):
        if have != DYNAMIC_INDEX or want == DYNAMIC_INDEX:
            continue  # static -> static is the verifier's; anything -> ? needs nothing
        actual = b.dim(source, dim)
        expected = b.index(want)
        b.fail_if(
            op,
            b.cmp(actual, expected, "ne"),
            f"size mismatch of dimension {dim}: {{0}} is not {{1}}",
            [actual, expected],
        )


def _structured(b: _Builder, op: Operation) -> None:
    """A structured op on dynamically shaped operands (upstream's linalg check): every
    operand dimension agrees with the loop sizes inferred from the first operand
    dimension each loop indexes, and no access is negative."""
    if not is_structured(op):
        return
    operands = (*dps_inputs(op), *dps_inits(op))
    if all(
        DYNAMIC_INDEX not in operand.type.get_shape()
        for operand in operands
        if isinstance(operand.type, ShapedType)
    ):
        return  # static shapes: the verifier checked them
    maps = indexing_maps(op)
    owners: list[tuple[SSAValue, int] | None] = [None] * num_loops(op)
    for operand, map_ in zip(operands, maps, strict=True):
        for dim, expr in enumerate(map_.results):
            if isinstance(expr, AffineDimExpr) and owners[expr.position] is None:
                owners[expr.position] = (operand, dim)
    if any(owner is None for owner in owners):
        return  # a loop no operand dimension bounds: nothing to compare with
    for number, (operand, map_) in enumerate(zip(operands, maps, strict=True)):
        if not isinstance(operand.type, ShapedType):
            continue
        for dim, expr in enumerate(map_.results):
            if isinstance(expr, AffineDimExpr):
                owner = owners[expr.position]
                assert owner is not None
                if owner == (operand, dim):
                    continue
                inferred = b.dim(*owner)
                actual = b.dim(operand, dim)
                bad = b.cmp(inferred, actual, "ne")
            else:
                # A compound index (a convolution's d0 + d1): its largest value, at the
                # last iteration of every loop, must be inside the operand.
                ends = [b.add(arith.SubiOp(b.dim(*o), b.index(1))) for o in owners if o]
                single = AffineMap(map_.num_dims, map_.num_symbols, (expr,))
                last = b.add(affine.ApplyOp(ends, AffineMapAttr(single)))
                inferred = b.add(arith.AddiOp(last, b.index(1)))
                actual = b.dim(operand, dim)
                bad = b.cmp(inferred, actual, "sgt")
            b.fail_if(
                op,
                bad,
                f"dimension #{dim} of input/output operand #{number} is incompatible with "
                "inferred dimension size (it is {1}, the loops need {0})",
                [inferred, actual],
            )


def _division(signed: bool) -> Callable[[_Builder, Operation], None]:
    def check(b: _Builder, op: Operation) -> None:
        lhs, rhs = op.operands[0], op.operands[1]
        kind = rhs.type
        if isinstance(kind, IndexType):
            width = 64
        elif isinstance(kind, IntegerType):
            width = kind.width.data
        else:
            return  # vectors: not checked
        divisor = _constant(rhs)
        if divisor is None or divisor == 0:
            zero = b.add(arith.ConstantOp(IntegerAttr(0, kind)))
            b.fail_if(op, b.cmp(rhs, zero, "eq"), "division by zero: {0} / 0", [lhs], signed)
        if signed and width > 1 and (divisor is None or divisor == -1):
            dividend = _constant(lhs)
            if dividend is not None and dividend != -(1 << (width - 1)):
                return
            minimum = b.add(arith.ConstantOp(IntegerAttr(-(1 << (width - 1)), kind)))
            minus_one = b.add(arith.ConstantOp(IntegerAttr(-1, kind)))
            overflow = b.all([b.cmp(lhs, minimum, "eq"), b.cmp(rhs, minus_one, "eq")])
            b.fail_if(op, overflow, "signed division overflow: {0} / -1", [lhs], signed)

    return check


_CHECKS: dict[type[Operation], Callable[[_Builder, Operation], None]] = {
    tensor.ExtractOp: _extract,
    tensor.InsertOp: _insert,
    memref.LoadOp: _load,
    smemref.LoadOp: _load,
    memref.StoreOp: _store,
    smemref.StoreOp: _store,
    stensor.ExtractSliceOp: _extract_slice,
    stensor.InsertSliceOp: _insert_slice,
    memref.SubviewOp: _subview,
    arith.DivSIOp: _division(signed=True),
    arith.RemSIOp: _division(signed=True),
    arith.CeilDivSIOp: _division(signed=True),
    arith.FloorDivSIOp: _division(signed=True),
    arith.DivUIOp: _division(signed=False),
    arith.RemUIOp: _division(signed=False),
    arith.CeilDivUIOp: _division(signed=False),
    tensor.DimOp: _dim,
    memref.DimOp: _dim,
    tensor.CastOp: _cast,
    memref.CastOp: _cast,
}
"""The checks, keyed by op class (a subclass finds its base's check)."""


def _check_for(op: Operation) -> Callable[[_Builder, Operation], None] | None:
    if is_structured(op):
        return _structured
    for cls in type(op).__mro__:
        check = _CHECKS.get(cls)
        if check is not None:
            return check
    return None


def _in_device_code(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, gpu.ModuleOp):
            return True
        parent = parent.parent_op()
    return False


@dataclass(frozen=True)
class GenerateRuntimeVerification(ModulePass):
    """Insert a runtime check before every op whose validity depends on runtime values.

    See the module docstring for the checks, their messages and how a failure is
    reported. Ops in `gpu.module`s (device code) are left alone.
    """

    name = "generate-runtime-verification"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        existing = sum(
            1
            for inner in op.body.block.ops
            if isinstance(inner, llvm.GlobalOp) and inner.sym_name.data.startswith(MESSAGE_PREFIX)
        )
        builder = _Builder(op, first=existing)
        targets = [inner for inner in op.walk() if _check_for(inner) is not None]
        for target in targets:
            if _in_device_code(target):
                continue
            check = _check_for(target)
            assert check is not None
            check(builder, target)
        builder.finish()


__all__ = ["FAILED", "MESSAGE_PREFIX", "GenerateRuntimeVerification"]
