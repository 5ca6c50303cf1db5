"""Shared machinery of the `*-to-llvm` passes: type conversion and value materialization.

The passes convert one dialect at a time, as upstream MLIR's do, and meet at
`builtin.unrealized_conversion_cast` ops: a pass that replaces an op producing `index` (or
a memref) by an LLVM op producing `i64` (or a descriptor struct) casts the new value back
to the old type for users it does not convert; a pass that needs an LLVM-typed operand
looks through such a cast or inserts one. `reconcile-unrealized-casts` removes the pairs
at the end. `LLVMTypeConverter` is upstream's LLVMTypeConverter (index -> i64, memref ->
descriptor struct, memory spaces as `!llvm.ptr<N>`, in `type_converter`);
`Lowering` holds one pass run's state (the casts and helpers it made) and inserts new ops
before the op being replaced. A pass finds the lowering of an op in a table keyed by op
class (`handler_for`); `LLVMConversionPass` is the pass class whose converter
convert-gpu-to-nvvm can choose.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar, cast

from xdsl.context import Context
from xdsl.dialects import builtin, func
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    VectorType,
    i1,
    i64,
)
from xdsl.dialects.utils import FastMathFlag
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass

from schedir.diagnostics import LoweringError, UnsupportedError
from schedir.dialects import gpu, llvm
from schedir.dialects.syntax import op_location
from schedir.lowering.llvm.type_converter import (
    DYNAMIC,
    INDEX,
    PTR,
    LLVMTypeConverter,
    address_space_of,
    element_size,
    is_contiguous_row_major,
    strides_and_offset,
)

H = TypeVar("H")

Handler = Callable[["Lowering", Operation], None]
"""The lowering of one op: replaces it (with `Lowering.replace`) by LLVM dialect ops."""


def fastmath_to_llvm(attr: Attribute | None) -> llvm.FastMathAttr:
    """arith/math fastmath flags -> `#llvm.fastmath` (same flag names)."""
    flags = getattr(attr, "data", None)
    if not flags:
        return llvm.FastMathAttr(None)
    return llvm.FastMathAttr([FastMathFlag(f.value) for f in flags])


def attr_of(op: Operation, name: str) -> Attribute | None:
    """Property `name` of `op`, or its attribute of that name (generic-form input)."""
    found = op.properties.get(name)
    return found if found is not None else op.attributes.get(name)


_PURE_OPS: frozenset[type[Operation]] = frozenset(
    {
        llvm.ConstantOp,
        llvm.PoisonOp,
        llvm.UndefOp,
        llvm.ZeroOp,
        llvm.ExtractValueOp,
        llvm.InsertValueOp,
        llvm.ExtractElementOp,
        llvm.InsertElementOp,
        llvm.AddOp,
        llvm.SubOp,
        llvm.MulOp,
        llvm.URemOp,
        llvm.GEPOp,
        llvm.PtrToIntOp,
        llvm.IntToPtrOp,
        llvm.AddrSpaceCastOp,
        llvm.ICmpOp,
        llvm.SelectOp,
        builtin.UnrealizedConversionCastOp,
    }
)
"""Ops a lowering may leave unused and that can be erased without changing behaviour (the
classes the lowerings build them from)."""


@dataclass
class Lowering:
    """One pass run: converts values between types and inserts ops before an anchor.

    `value(v, anchor)` gives the LLVM-typed counterpart of `v` (the input of the cast that
    produced it, or a new cast after its definition, made once per value);
    `replace(op, values)` replaces `op`'s results, casting back where the types differ,
    and erases `op`. `finish()` erases the helper ops that ended up unused.

    Helpers are made once and shared, which keeps the IR (and the time xDSL spends
    building it) linear in the ops lowered: `constant` puts each distinct constant once at
    the start of its function, `field` reads each field of a struct once, right after the
    struct is defined (both dominate every use).
    """

    converter: LLVMTypeConverter
    pass_name: str

    def __post_init__(self) -> None:
        self._casts: dict[SSAValue, SSAValue] = {}
        self._made: list[Operation] = []
        self._keep: set[Operation] = set()
        self._arg_casts: dict[Block, Operation] = {}
        self._symbols: dict[ModuleOp, dict[str, Operation]] = {}
        self._constants: dict[tuple[Block, int | float, Attribute], SSAValue] = {}
        self._last_constant: dict[Block, Operation] = {}
        self._fields: dict[tuple[SSAValue, tuple[int, ...]], SSAValue] = {}
        self._last_field: dict[SSAValue, Operation] = {}

    # -- types -----------------------------------------------------------------------

    def convert(self, t: Attribute, op: Operation | None = None) -> Attribute:
        """`converter.convert`, reporting failures at `op`."""
        try:
            return self.converter.convert(t)
        except UnsupportedError as err:
            raise UnsupportedError(
                f"{self.pass_name}: {err.message}", op_location(op) if op else None
            ) from None

    # -- values ----------------------------------------------------------------------

    def value(self, v: SSAValue, op: Operation | None = None) -> SSAValue:
        """The LLVM-typed counterpart of `v`."""
        target = self.convert(v.type, op)
        if target == v.type:
            return v
        owner = v.owner
        if (
            isinstance(owner, builtin.UnrealizedConversionCastOp)
            and len(owner.inputs) == 1
            and len(owner.outputs) == 1
            and owner.inputs[0].type == target
        ):
            return owner.inputs[0]
        cached = self._casts.get(v)
        if cached is not None:
            return cached
        cast = builtin.UnrealizedConversionCastOp(operands=[[v]], result_types=[[target]])
        if isinstance(v, BlockArgument):
            # Casts of a block's arguments go at its start, in the order they are made.
            block = v.block
            previous = self._arg_casts.get(block)
            if previous is not None and previous.parent is block:
                block.insert_op_after(cast, previous)
            elif (first := block.first_op) is None:
                block.add_op(cast)
            else:
                block.insert_op_before(cast, first)
            self._arg_casts[block] = cast
        else:
            assert isinstance(owner, Operation)
            cast.location = owner.location
            parent = owner.parent
            assert parent is not None
            parent.insert_op_after(cast, owner)
        self._made.append(cast)
        self._casts[v] = cast.results[0]
        return cast.results[0]

    def values(self, vs: Iterable[SSAValue], op: Operation | None = None) -> list[SSAValue]:
        return [self.value(v, op) for v in vs]

    def cast_back(self, new: SSAValue, old_type: Attribute, anchor: Operation) -> SSAValue:
        """`new` as a value of `old_type` (a cast before `anchor` when types differ)."""
        if new.type == old_type:
            return new
        owner = new.owner
        if (
            isinstance(owner, builtin.UnrealizedConversionCastOp)
            and len(owner.inputs) == 1
            and owner.inputs[0].type == old_type
        ):
            return owner.inputs[0]
        cast = builtin.UnrealizedConversionCastOp(operands=[[new]], result_types=[[old_type]])
        self.insert(cast, anchor)
        self._made.append(cast)
        return cast.results[0]

    def replace(self, op: Operation, new_values: Sequence[SSAValue]) -> None:
        """Replace `op`'s results by `new_values` (LLVM-typed) and erase `op`."""
        if len(new_values) != len(op.results):
            raise LoweringError(
                f"{self.pass_name}: internal error: {len(new_values)} values for "
                f"{len(op.results)} results of '{op.name}'",
                op_location(op),
            )
        for old, new in zip(op.results, new_values, strict=True):
            # What replaces a user's op stays even if unused: finish() only erases the
            # helpers a lowering made (upstream does not delete dead user code either).
            if isinstance(new.owner, Operation):
                self._keep.add(new.owner)
            if old.first_use is not None:
                old.replace_all_uses_with(self.cast_back(new, old.type, op))
        op.detach()
        op.erase()

    # -- building --------------------------------------------------------------------

    def insert(self, new: Operation, anchor: Operation) -> Operation:
        """Insert `new` before `anchor`, with `anchor`'s location."""
        new.location = anchor.location
        block = anchor.parent
        assert block is not None
        block.insert_op_before(new, anchor)
        if type(new) in _PURE_OPS:
            self._made.append(new)
        return new

    def constant(self, value: int | float, t: Attribute, anchor: Operation) -> SSAValue:
        """`llvm.mlir.constant(value) : t`, once per function, at the start of its body."""
        entry = _function_entry(anchor)
        if entry is None:
            return const(self.emit(anchor), value, t)
        key = (entry, value, t)
        found = self._constants.get(key)
        if found is not None and found.owner.parent is entry:
            return found
        new = llvm.ConstantOp(_constant_attr(value, t), t)
        new.location = anchor.location
        previous = self._last_constant.get(entry)
        if previous is not None and previous.parent is entry:
            entry.insert_op_after(new, previous)
        elif (first := entry.first_op) is None:
            entry.add_op(new)
        else:
            entry.insert_op_before(new, first)
        self._last_constant[entry] = new
        self._made.append(new)
        self._constants[key] = new.results[0]
        return new.results[0]

    def index(self, value: int, anchor: Operation) -> SSAValue:
        """An `index` (i64) constant, shared within the function (see `constant`)."""
        return self.constant(value, INDEX, anchor)

    def field(self, struct: SSAValue, *position: int) -> SSAValue:
        """`llvm.extractvalue struct[position]`, made once, right after `struct` is defined."""
        key = (struct, position)
        found = self._fields.get(key)
        if found is not None and found.owner.parent is not None:
            return found
        t = struct.type
        for p in position:
            # a descriptor's fields: structs, and arrays of sizes and strides
            t = (
                t.types.data[p]
                if isinstance(t, llvm.LLVMStructType)
                else cast(llvm.LLVMArrayType, t).type
            )
        new = llvm.ExtractValueOp(DenseArrayBase.from_list(i64, position), struct, t)
        owner = struct.owner
        previous = self._last_field.get(struct)
        if previous is not None and previous.parent is not None:
            assert previous.parent is not None
            previous.parent.insert_op_after(new, previous)
        elif isinstance(owner, Operation):
            new.location = owner.location
            assert owner.parent is not None
            owner.parent.insert_op_after(new, owner)
        else:
            assert isinstance(struct, BlockArgument)
            first = struct.block.first_op
            if first is None:
                struct.block.add_op(new)
            else:
                struct.block.insert_op_before(new, first)
        self._last_field[struct] = new
        self._made.append(new)
        self._fields[key] = new.results[0]
        return new.results[0]

    def track(self, new: Operation) -> None:
        """Let `finish` erase `new` if it ends up unused (for ops placed by hand)."""
        if type(new) in _PURE_OPS:
            self._made.append(new)

    def emit(self, anchor: Operation) -> Callable[[Operation], SSAValue]:
        """A function inserting an op before `anchor` and returning its (first) result."""

        def add(new: Operation) -> SSAValue:
            self.insert(new, anchor)
            return first_result(new)

        return add

    def symbols(self, anchor: Operation) -> dict[str, Operation]:
        """Symbol name -> op of the module around `anchor` (kept up to date by this run)."""
        module = enclosing_module(anchor)
        symbols = self._symbols.get(module)
        if symbols is None:
            symbols = self._symbols[module] = top_level_symbols(module)
        return symbols

    def declare(self, name: str, ftype: llvm.LLVMFunctionType, anchor: Operation) -> None:
        """Declare `@name` in `anchor`'s module if needed (see `lookup_or_declare`)."""
        lookup_or_declare(enclosing_module(anchor), name, ftype, anchor, self.symbols(anchor))

    # -- end -------------------------------------------------------------------------

    def finish(self) -> None:
        """Erase the side-effect-free ops this run made that nothing uses (linear: in
        reverse creation order, an op's users were made after it and are gone first)."""
        for made in reversed(self._made):
            if made in self._keep or made.parent is None:
                continue
            if all(r.first_use is None for r in made.results):
                made.detach()
                made.erase()
        self._made.clear()
        self._keep.clear()
        self._arg_casts.clear()
        self._symbols.clear()
        self._constants.clear()
        self._last_constant.clear()
        self._fields.clear()
        self._last_field.clear()
        self._casts.clear()


def first_result(op: Operation) -> SSAValue:
    """What an emitter returns for the op it inserted: its first result (None for an op
    without results, which the emitter's callers do not use)."""
    return op.results[0] if op.results else None  # type: ignore[return-value]  # None for an op without results: callers do not use it


def const(emit: Callable[[Operation], SSAValue], value: int | float, t: Attribute) -> SSAValue:
    """`llvm.mlir.constant(value) : t` for an integer or float type `t`."""
    if isinstance(t, IntegerType):
        if t.width.data == 1:
            return emit(llvm.ConstantOp(IntegerAttr(int(bool(value)), i1), t))
        return emit(llvm.ConstantOp(IntegerAttr(_wrap(int(value), t.width.data), t), t))
    assert isinstance(t, AnyFloat)
    return emit(llvm.ConstantOp(FloatAttr(float(value), t), t))


def _constant_attr(value: int | float, t: Attribute) -> Attribute:
    if isinstance(t, IntegerType):
        width = t.width.data
        if width == 1:
            return IntegerAttr(int(bool(value)), i1)
        return IntegerAttr(_wrap(int(value), width), t)
    assert isinstance(t, AnyFloat)
    return FloatAttr(float(value), t)


_FUNCTION_OPS: tuple[type[Operation], ...] = (func.FuncOp, llvm.FuncOp, gpu.FuncOp)


def _function_entry(op: Operation) -> Block | None:
    """The entry block of the function around `op`, or None outside functions."""
    current: Operation | None = op.parent_op()
    while current is not None:
        if isinstance(current, _FUNCTION_OPS):
            region = current.regions[0]
            return region.blocks[0] if region.blocks else None
        current = current.parent_op()
    return None


def splat_const(
    emit: Callable[[Operation], SSAValue], value: int | float, t: Attribute
) -> SSAValue:
    """A constant of scalar or 1-D vector type `t` with every element `value`."""
    if isinstance(t, VectorType):
        elem = t.get_element_type()
        data = [int(value) if isinstance(elem, IntegerType) else float(value)]
        attr = DenseIntOrFPElementsAttr.from_list(t, data)
        return emit(llvm.ConstantOp(attr, t))
    return const(emit, value, t)


def _wrap(value: int, width: int) -> int:
    """`value` as a signed `width`-bit integer (what IntegerAttr accepts)."""
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def index_const(emit: Callable[[Operation], SSAValue], value: int) -> SSAValue:
    return const(emit, value, INDEX)


def lookup_or_declare(
    module: ModuleOp,
    name: str,
    ftype: llvm.LLVMFunctionType,
    anchor: Operation,
    symbols: dict[str, Operation] | None = None,
) -> None:
    """Declare `llvm.func @name` at the top of `module` unless a symbol of that name exists.

    `symbols` (name -> top-level op of `module`) saves a scan of the module per call; it is
    updated with the new declaration. An existing function with another signature is
    reported: a call to it would be invalid.
    """
    if symbols is None:
        symbols = top_level_symbols(module)
    existing = symbols.get(name)
    if existing is not None:
        found = getattr(existing, "function_type", None)
        if isinstance(existing, llvm.FuncOp) and found is not None and found != ftype:
            raise LoweringError(
                f"'@{name}' is declared with type {found}, expected {ftype}",
                op_location(anchor),
            )
        return
    decl = llvm.FuncOp(name, ftype, linkage=llvm.LinkageAttr("external"))
    symbols[name] = decl
    # Declarations go in creation order before the first function with a body.
    block = module.body.block
    for op in block.ops:
        if not (isinstance(op, llvm.FuncOp) and not op.body.blocks):
            block.insert_op_before(decl, op)
            return
    block.add_op(decl)


def top_level_symbols(module: ModuleOp) -> dict[str, Operation]:
    """Symbol name -> op, for the ops directly in `module`."""
    found: dict[str, Operation] = {}
    for op in module.ops:
        sym = op.properties.get("sym_name")
        if isinstance(sym, builtin.StringAttr):
            found[sym.data] = op
    return found


def enclosing_module(op: Operation) -> ModuleOp:
    """The outermost `builtin.module` around `op`."""
    found: ModuleOp | None = None
    current: Operation | None = op
    while current is not None:
        if isinstance(current, ModuleOp):
            found = current
        current = current.parent_op()
    if found is None:
        raise LoweringError(f"'{op.name}' is not inside a module", op_location(op))
    return found


def handler_for(table: Mapping[type[Operation], H], op: Operation) -> H | None:
    """The entry of `table` for the class of `op` or its nearest base class in `table`.

    schedir redefines some xDSL ops as subclasses (`schedir.dialects.arith.CmpiOp` of
    xDSL's `arith.CmpiOp`) and both classes get built, so tables key those on xDSL's class.
    """
    for cls in type(op).__mro__:
        if issubclass(cls, Operation):
            found = table.get(cls)
            if found is not None:
                return found
    return None


class LLVMConversionPass(ModulePass, ABC):
    """A `*-to-llvm` pass: it converts its dialect with a type converter, the default one
    when run as a pass; convert-gpu-to-nvvm runs it with NVVM's address spaces."""

    @abstractmethod
    def convert(self, module: ModuleOp, converter: LLVMTypeConverter) -> None:
        """Convert the ops of this pass's dialect in `module`, types with `converter`."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.convert(op, LLVMTypeConverter())


def unsupported(pass_name: str, op: Operation, why: str = "") -> UnsupportedError:
    """The error for an op a pass does not lower."""
    detail = f": {why}" if why else ""
    return UnsupportedError(f"{pass_name}: '{op.name}' is not supported{detail}", op_location(op))


def block_args_to_llvm(lowering: Lowering, block: Block, op: Operation) -> None:
    """Give `block` LLVM-typed arguments; old uses see a cast back to the old type."""
    for index, arg in enumerate(tuple(block.args)):
        target = lowering.convert(arg.type, op)
        if target == arg.type:
            continue
        new = block.insert_arg(target, index)
        new.name_hint = arg.name_hint
        if arg.first_use is not None:
            cast = builtin.UnrealizedConversionCastOp(operands=[[new]], result_types=[[arg.type]])
            cast.location = op.location
            first = block.first_op
            if first is None:
                block.add_op(cast)
            else:
                block.insert_op_before(cast, first)
            arg.replace_all_uses_with(cast.results[0])
        block.erase_arg(arg)


__all__ = [
    "DYNAMIC",
    "INDEX",
    "PTR",
    "Handler",
    "LLVMConversionPass",
    "LLVMTypeConverter",
    "Lowering",
    "address_space_of",
    "attr_of",
    "block_args_to_llvm",
    "const",
    "element_size",
    "enclosing_module",
    "fastmath_to_llvm",
    "first_result",
    "handler_for",
    "index_const",
    "is_contiguous_row_major",
    "lookup_or_declare",
    "splat_const",
    "strides_and_offset",
    "top_level_symbols",
    "unsupported",
]
