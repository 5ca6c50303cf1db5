"""What each tensor op does to memory once bufferized: the facts One-Shot analysis reasons on.

This is schedir's version of upstream's `BufferizableOpInterface` implementations. For a
tensor operand (an `OpOperand`, here a `(op, index)` key) the model says whether the op
reads its buffer, writes it, and which tensor results share (alias) its buffer when the
operand bufferizes in place, and whether they are the very same buffer (equivalent). For a
tensor value it says whether it defines contents (a "definition") and whether its buffer
may be written.

Ops are recognised by class; an op with tensor operands or results that is not modelled
is *unknown* (`kind(op) == "unknown"`): One-Shot rejects it unless `allow-unknown-ops`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from xdsl.dialects import arith, bufferization, func, scf
from xdsl.dialects import tensor as xtensor
from xdsl.dialects import vector as xvector
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnitAttr,
    VectorType,
)
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineMap

from schedir.dialects.linalg import interface as structured
from schedir.dialects.scf import ForallOp, InParallelOp
from schedir.dialects.tensor import GenerateOp, ParallelInsertSliceOp

Key = tuple[Operation, int]
"""An op operand: the op and the operand's index (upstream's `OpOperand &`)."""


@dataclass(frozen=True)
class OperandInfo:
    """How one tensor operand bufferizes (upstream: bufferizesToMemoryRead/Write, aliases)."""

    read: bool
    write: bool
    aliases: tuple[tuple[SSAValue, bool], ...] = ()
    """Results that share this operand's buffer when it is in place, and `True` where the
    result is the same buffer (equivalent) rather than a part of it."""
    must_in_place: bool = False


@dataclass(frozen=True)
class FuncSummary:
    """What a bufferized function does to its tensor arguments (for its call sites)."""

    arg_read: tuple[bool, ...]
    arg_written: tuple[bool, ...]


_NEW_BUFFER = (
    xtensor.FromElementsOp,
    xtensor.SplatOp,
    xtensor.PadOp,
    xtensor.ConcatOp,
    GenerateOp,
)
"""Ops whose result is a new buffer with defined contents."""

_RESHAPE = (xtensor.CollapseShapeOp, xtensor.ExpandShapeOp)


def is_tensor(value: SSAValue) -> bool:
    """Whether `value` is a ranked tensor (what bufferization turns into a buffer)."""
    return isinstance(value.type, TensorType)


def has_tensor_semantics(op: Operation) -> bool:
    """Whether `op` has tensor operands, results or block arguments in its regions."""
    if any(is_tensor(v) for v in op.operands) or any(is_tensor(r) for r in op.results):
        return True
    return any(is_tensor(a) for region in op.regions for block in region.blocks for a in block.args)


def static_slice_params(
    op: Operation,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The static offsets, sizes and strides of a slice op (`extract_slice`, `insert_slice`,
    `parallel_insert_slice`), `DYNAMIC_INDEX` where dynamic."""

    def values(name: str) -> tuple[int, ...]:
        # The slice ops' verifiers make these i64 arrays.
        return cast(DenseArrayBase[IntegerType], op.properties[name]).get_values()

    return values("static_offsets"), values("static_sizes"), values("static_strides")


def is_structured(op: Operation) -> bool:
    """A linalg structured op (named or generic), as the linalg dialect defines it."""
    return structured.is_structured(op)


def kind(op: Operation) -> str:
    """The bufferization rule `op` follows (a short name), or "unknown"/"none"."""
    if is_structured(op):
        return "structured"
    match op:
        case xtensor.EmptyOp():
            return "empty"
        case bufferization.AllocTensorOp():
            return "alloc_tensor"
        case xtensor.ExtractSliceOp():
            return "extract_slice"
        case ParallelInsertSliceOp():
            return "parallel_insert_slice"
        case xtensor.InsertSliceOp():
            return "insert_slice"
        case xtensor.ExtractOp():
            return "extract"
        case xtensor.InsertOp():
            return "insert"
        case xtensor.DimOp():
            return "dim"
        case xtensor.CastOp():
            return "cast"
        case xtensor.CollapseShapeOp() | xtensor.ExpandShapeOp():
            return "reshape"
        case _ if isinstance(op, _NEW_BUFFER):
            return "new"
        case arith.ConstantOp() if is_tensor(op.result):
            return "constant"
        case scf.ForOp():
            return "for"
        case scf.WhileOp() if while_carries_tensors_in_place(op):
            return "while"
        case scf.ConditionOp():
            return "condition"
        case scf.IfOp():
            return "if"
        case ForallOp():
            return "forall"
        case InParallelOp():
            return "in_parallel"
        case scf.YieldOp():
            return "yield"
        case func.ReturnOp():
            return "return"
        case func.CallOp():
            return "call"
        case func.FuncOp():
            return "func"
        case bufferization.ToTensorOp():
            return "to_tensor"
        case bufferization.ToBufferOp():
            return "to_buffer"
        case bufferization.MaterializeInDestinationOp():
            return "materialize"
        case xvector.TransferReadOp() if is_tensor(op.operands[0]):
            return "transfer_read"
        case xvector.TransferWriteOp() if is_tensor(op.operands[1]):
            return "transfer_write"
        case _:
            pass
    return "unknown" if has_tensor_semantics(op) else "none"


def while_carries_tensors_in_place(op: scf.WhileOp) -> bool:
    """Whether every tensor of an `scf.while` keeps its position and type through the loop
    (init k, before-region argument k, condition argument k, after-region argument k and
    result k): then one buffer per position carries it, as an `scf.for` iteration argument.
    Other loops (a tensor moving to another position) are not supported."""
    before, after = op.before_region.block, op.after_region.block
    condition = before.last_op
    if not isinstance(condition, scf.ConditionOp):
        return False
    init_types = [v.type for v in op.arguments]
    chains = (
        [a.type for a in before.args],
        [v.type for v in condition.args],
        [a.type for a in after.args],
        [r.type for r in op.results],
    )
    if any(len(types) != len(init_types) for types in chains):
        return False
    return all(
        types[k] == t
        for types in chains
        for k, t in enumerate(init_types)
        if isinstance(t, TensorType) or isinstance(types[k], TensorType)
    )


def enclosing_loop_trip_nonzero(op: scf.ForOp | ForallOp) -> bool:
    """Whether every dimension of the loop provably runs at least once."""
    if isinstance(op, scf.ForOp):
        lb, ub = _constant(op.lb), _constant(op.ub)
        return lb is not None and ub is not None and ub > lb
    for lb, ub in zip(op.lower_bounds, op.upper_bounds, strict=True):
        lo = lb if isinstance(lb, int) else _constant(lb)
        hi = ub if isinstance(ub, int) else _constant(ub)
        if lo is None or hi is None or hi <= lo:
            return False
    return True


def _constant(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def func_arg_writable(func_op: func.FuncOp, index: int) -> bool:
    """The `bufferization.writable` attribute of a function argument (default: writable)."""
    if func_op.arg_attrs is None:
        return True
    attrs = func_op.arg_attrs.data[index].data
    writable: Attribute | None = attrs.get("bufferization.writable")
    if isinstance(writable, IntegerAttr):
        return bool(writable.value.data)
    return True


class OpModel:
    """Bufferization facts of ops and values (static: they do not depend on decisions)."""

    def __init__(
        self,
        *,
        function_boundaries: bool,
        summaries: Mapping[str, FuncSummary],
    ) -> None:
        self.function_boundaries = function_boundaries
        self.summaries = summaries
        self._info: dict[Key, OperandInfo] = {}

    # -- operands ----------------------------------------------------------------------

    def analyzed(self) -> list[Key]:
        """Every operand whose info was asked for (all tensor operands, after an analysis)."""
        return list(self._info)

    def info(self, op: Operation, index: int) -> OperandInfo:
        """How tensor operand `index` of `op` bufferizes."""
        key = (op, index)
        cached = self._info.get(key)
        if cached is None:
            cached = self._compute(op, index)
            self._info[key] = cached
        return cached

    def _compute(self, op: Operation, index: int) -> OperandInfo:
        value = op.operands[index]
        match kind(op):
            case "structured":
                return self._structured(op, index)
            case "extract_slice" | "cast" | "reshape":
                if index != 0:
                    return OperandInfo(read=False, write=False)
                equivalent = kind(op) != "extract_slice"
                return OperandInfo(read=False, write=False, aliases=((op.results[0], equivalent),))
            case "insert_slice":
                assert isinstance(op, xtensor.InsertSliceOp)
                if value is op.dest and index == 1:
                    return OperandInfo(
                        read=not _overwrites_whole_dest(op),
                        write=True,
                        aliases=((op.result, True),),
                    )
                return OperandInfo(read=True, write=False)
            case "parallel_insert_slice":
                assert isinstance(op, ParallelInsertSliceOp)
                if index == 1:
                    return OperandInfo(read=False, write=True)
                return OperandInfo(read=True, write=False)
            case "insert":
                assert isinstance(op, xtensor.InsertOp)
                if index == 1:
                    return OperandInfo(read=True, write=True, aliases=((op.result, True),))
                return OperandInfo(read=False, write=False)
            case "dim":
                return OperandInfo(read=False, write=False)
            case "for":
                assert isinstance(op, scf.ForOp)
                pos = index - 3
                arg = op.body.block.args[1 + pos]
                read = self.value_read(arg) or not enclosing_loop_trip_nonzero(op)
                return OperandInfo(read=read, write=True, aliases=((op.results[pos], True),))
            case "while":
                # The before region runs at least once; the loop writes the buffer of
                # its init in place (or of a copy), as an scf.for does.
                return OperandInfo(read=True, write=True, aliases=((op.results[index], True),))
            case "condition":
                return OperandInfo(read=True, write=False)
            case "forall":
                assert isinstance(op, ForallOp)
                outputs = list(op.outputs)
                if value not in outputs or index < len(op.operands) - len(outputs):
                    return OperandInfo(read=False, write=False)
                pos = index - (len(op.operands) - len(outputs))
                arg = op.region_iter_args[pos]
                read = self.value_read(arg) or not enclosing_loop_trip_nonzero(op)
                return OperandInfo(read=read, write=True, aliases=((op.res[pos], True),))
            case "yield":
                parent = op.parent_op()
                if isinstance(parent, scf.IfOp):
                    return OperandInfo(
                        read=True,
                        write=False,
                        aliases=((parent.results[index], False),),
                        must_in_place=True,
                    )
                return OperandInfo(read=True, write=False)
            case "return":
                return OperandInfo(read=True, write=False)
            case "call":
                assert isinstance(op, func.CallOp)
                summary = self.summaries.get(op.callee.root_reference.data)
                if summary is None or not self.function_boundaries:
                    return OperandInfo(read=True, write=True)
                return OperandInfo(read=summary.arg_read[index], write=summary.arg_written[index])
            case "extract" | "new" | "alloc_tensor" | "transfer_read":
                return OperandInfo(read=True, write=False)
            case "to_buffer":
                # A read-only to_buffer (upstream: bufferizesToMemoryWrite is !read_only)
                # only reads; another may be written through.
                assert isinstance(op, bufferization.ToBufferOp)
                return OperandInfo(read=True, write=op.read_only is None)
            case "materialize":
                # A copy of the source into the destination (a memref destination is
                # not a tensor operand); the result is the destination's buffer.
                if index == 0:
                    return OperandInfo(read=True, write=False)
                return OperandInfo(read=False, write=True, aliases=((op.results[0], True),))
            case "transfer_write":
                if index != 1:
                    return OperandInfo(read=False, write=False)
                return OperandInfo(
                    read=not _transfer_overwrites_all(op),
                    write=True,
                    aliases=((op.results[0], True),),
                )
            case _:
                # Unknown ops (allowed by allow-unknown-ops) and to_buffer: they may read,
                # write and keep any of their operands' buffers in their results.
                aliases = tuple((r, False) for r in op.results if is_tensor(r))
                return OperandInfo(read=True, write=True, aliases=aliases)

    def _structured(self, op: Operation, index: int) -> OperandInfo:
        # Inits are the trailing operands; a value passed both as input and as init is
        # two operands with different roles, so the position decides.
        num_inits = len(structured.dps_inits(op))
        first_init = len(op.operands) - num_inits
        if index < first_init:
            return OperandInfo(read=True, write=False)
        pos = index - first_init
        tensor_results = [r for r in op.results if is_tensor(r)]
        aliases = ((tensor_results[pos], True),) if pos < len(tensor_results) else ()
        return OperandInfo(read=_payload_reads_init(op, pos), write=True, aliases=aliases)

    def value_read(self, value: SSAValue) -> bool:
        """Whether any op reads `value`'s buffer, looking through alias-only ops (upstream's
        isValueRead: extract_slice, cast, ... do not read but their results may be read)."""
        work = [(use.operation, use.index) for use in value.uses]
        seen: set[Key] = set()
        while work:
            key = work.pop()
            if key in seen:
                continue
            seen.add(key)
            op, index = key
            if not is_tensor(op.operands[index]) or kind(op) == "none":
                continue
            info = self.info(op, index)
            if info.read:
                return True
            if not info.write:
                for result, _ in info.aliases:
                    work.extend((use.operation, use.index) for use in result.uses)
        return False

    # -- values ------------------------------------------------------------------------

    def aliasing_operands(self, value: SSAValue) -> list[tuple[Key, bool]]:
        """Operands whose buffer `value` (an op result) may share (the reverse of `info`)."""
        if not isinstance(value, OpResult):
            return []
        op = value.op
        match kind(op):
            case "if":
                assert isinstance(op, scf.IfOp)
                keys: list[tuple[Key, bool]] = []
                for region in op.regions:
                    for block in region.blocks:
                        term = block.last_op
                        if isinstance(term, scf.YieldOp):
                            keys.append(((term, value.index), False))
                return keys
            case "for":
                return [((op, 3 + value.index), True)]
            case "while":
                return [((op, value.index), True)]
            case "forall":
                assert isinstance(op, ForallOp)
                first = len(op.operands) - len(op.outputs)
                return [((op, first + value.index), True)]
            case "none" | "func":
                return []
            case _:
                result: list[tuple[Key, bool]] = []
                for index, operand in enumerate(op.operands):
                    if not is_tensor(operand):
                        continue
                    for alias, equivalent in self.info(op, index).aliases:
                        if alias is value:
                            result.append(((op, index), equivalent))
                return result

    def is_definition(self, value: SSAValue) -> bool:
        """Whether `value` defines the contents of its buffer (upstream: bufferizesToMemoryWrite
        of a value); alias-only results and fresh `tensor.empty` buffers do not."""
        if isinstance(value, BlockArgument):
            return True
        assert isinstance(value, OpResult)
        op = value.op
        match kind(op):
            case "extract_slice" | "cast" | "reshape" | "empty":
                return False
            case "alloc_tensor":
                assert isinstance(op, bufferization.AllocTensorOp)
                return op.copy is not None
            case "if":
                assert isinstance(op, scf.IfOp)
                # A definition when a branch computes what it yields; otherwise the result
                # stands for values defined outside, which are its definitions.
                for region in op.regions:
                    for block in region.blocks:
                        term = block.last_op
                        if isinstance(term, scf.YieldOp):
                            yielded = term.operands[value.index]
                            if op.is_ancestor(yielded.owner) and yielded.owner is not op:
                                return True
                return False
            case _:
                return True

    def is_writable(self, value: SSAValue) -> bool:
        """Whether `value`'s own buffer may be written in place (aliases are followed by the
        analysis): not constants, not read-only function arguments, not unknown results."""
        if isinstance(value, BlockArgument):
            owner = value.block.parent_op()
            if isinstance(owner, func.FuncOp):
                return self.function_boundaries and func_arg_writable(owner, value.index)
            return isinstance(owner, scf.ForOp | ForallOp | scf.WhileOp)
        assert isinstance(value, OpResult)
        op = value.op
        match kind(op):
            case "constant" | "unknown":
                return False
            case "to_tensor":
                assert isinstance(op, bufferization.ToTensorOp)
                return op.writable is not None or op.restrict is not None
            case _:
                return True

    def has_undefined_contents(self, value: SSAValue) -> bool:
        """Whether every reverse alias chain of `value` ends at a `tensor.empty` (no data)."""
        work = [value]
        seen: set[SSAValue] = set()
        while work:
            v = work.pop()
            if v in seen:
                continue
            seen.add(v)
            if self.is_definition(v):
                return False
            sources = self.aliasing_operands(v)
            # A block argument here is a definition or has aliasing operands.
            if not sources and kind(cast(Operation, v.owner)) not in ("empty", "alloc_tensor"):
                return False
            work.extend(key[0].operands[key[1]] for key, _ in sources)
        return True

    def elementwise(self, op: Operation, indices: Sequence[int]) -> bool:
        """Whether a structured op accesses the given operands element by element: all loops
        parallel and identity indexing maps, so each element is read before it is written."""
        if kind(op) != "structured":
            return False
        if any(t != "parallel" for t in structured.iterator_types(op)):
            return False
        maps = structured.indexing_maps(op)
        return all(
            maps[i].num_symbols == 0 and maps[i] == AffineMap.identity(maps[i].num_dims)
            for i in indices
        )


def _payload_reads_init(op: Operation, pos: int) -> bool:
    """Whether a structured op's payload uses init `pos` (else it only overwrites it)."""
    if not op.regions or not op.regions[0].blocks:
        return True
    block = op.regions[0].block
    num_inputs = len(structured.dps_inputs(op))
    if len(block.args) == num_inputs:
        return False  # the payload has no argument for the inits (e.g. linalg.map)
    index = num_inputs + pos
    if index >= len(block.args):
        return True
    return bool(block.args[index].uses)


def _transfer_overwrites_all(op: Operation) -> bool:
    """A transfer_write without mask at offset 0 of a static tensor no larger than the vector
    (upstream's test for a write that does not read its destination)."""
    assert isinstance(op, xvector.TransferWriteOp)
    dest_shape = cast(TensorType[Attribute], op.source.type).get_shape()  # a tensor: see kind
    vector_shape = cast(VectorType[Attribute], op.vector.type).get_shape()
    if op.mask is not None or any(d < 0 for d in dest_shape):
        return False
    if any(_constant(i) != 0 for i in op.indices):
        return False
    return len(dest_shape) == len(vector_shape) and all(
        d <= v for d, v in zip(dest_shape, vector_shape, strict=True)
    )


def _overwrites_whole_dest(op: xtensor.InsertSliceOp) -> bool:
    """An insert_slice at offset 0, stride 1, of a source as large as the destination."""
    dest_shape = cast(TensorType[Attribute], op.dest.type).get_shape()  # a tensor: see kind
    src_shape = cast(TensorType[Attribute], op.source.type).get_shape()
    if op.offsets or op.sizes or op.strides or any(d < 0 for d in dest_shape):
        return False
    return (
        all(o == 0 for o in op.static_offsets.get_values())
        and all(s == 1 for s in op.static_strides.get_values())
        and list(op.static_sizes.get_values()) == list(dest_shape)
        and len(src_shape) == len(dest_shape)
    )


def unit_attr_set(op: Operation, name: str) -> bool:
    """Whether `op` carries unit attribute/property `name`."""
    return isinstance(op.properties.get(name) or op.attributes.get(name), UnitAttr)


__all__ = [
    "FuncSummary",
    "Key",
    "OpModel",
    "OperandInfo",
    "enclosing_loop_trip_nonzero",
    "func_arg_writable",
    "has_tensor_semantics",
    "is_structured",
    "is_tensor",
    "kind",
]
