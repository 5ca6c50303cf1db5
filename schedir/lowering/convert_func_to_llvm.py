"""`convert-func-to-llvm`: functions, calls and returns, with upstream's calling convention.

Each `func.func` becomes an `llvm.func` of the same name (linkage from an `llvm.linkage`
attribute, external by default; discardable attributes and visibility kept):

- a memref argument is passed as its descriptor's fields, in order: allocated pointer,
  aligned pointer, offset, sizes..., strides... (rank 0: the first three); other
  arguments are converted (`index` -> `i64`);
- no result -> `void`; one result -> its converted type (a memref: the descriptor
  struct); several -> an `!llvm.struct` of them, built by `llvm.return`;
- `func.call` passes and unpacks values the same way; `func.return` packs them.

A function with the `llvm.emit_c_interface` unit attribute also gets upstream's C wrapper
`_mlir_ciface_<name>`: each memref argument is an `!llvm.ptr` to a descriptor struct; when
the result is a struct (a memref result or several results) it is written through an
extra first `!llvm.ptr` argument and the wrapper returns void; a single non-memref result
is returned by value. For a declaration with the attribute, the function gets a private
body that packs descriptors on the stack and calls an external `_mlir_ciface_<name>`, as
upstream's wrapExternalFunction.

Before:

    func.func @f(%m: memref<?xf32>, %n: index) -> f32 attributes {llvm.emit_c_interface}

After:

    llvm.func @f(%0: !llvm.ptr, %1: !llvm.ptr, %2: i64, %3: i64, %4: i64, %n: i64) -> f32
        attributes {llvm.emit_c_interface}
    llvm.func @_mlir_ciface_f(%m: !llvm.ptr, %n: i64) -> f32
        attributes {llvm.emit_c_interface}

Not handled: `func.constant`, `func.call_indirect`, variadic functions, unranked memrefs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import builtin, func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnrankedMemRefType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from schedir.diagnostics import LoweringError
from schedir.dialects import llvm
from schedir.dialects.syntax import op_location
from schedir.lowering.llvm.common import (
    INDEX,
    PTR,
    LLVMConversionPass,
    LLVMTypeConverter,
    Lowering,
    first_result,
    index_const,
    unsupported,
)
from schedir.lowering.llvm.memref import Emit, build_descriptor, extract, insert

PASS = "convert-func-to-llvm"
EMIT_C_INTERFACE = "llvm.emit_c_interface"
CIFACE_PREFIX = "_mlir_ciface_"
_DROPPED_ATTRS = frozenset({"llvm.linkage", "func.varargs", "llvm.readnone"})


def _expanded(lw: Lowering, t: Attribute, op: Operation) -> list[Attribute]:
    """The LLVM argument types one argument of type `t` becomes."""
    if isinstance(t, UnrankedMemRefType):
        raise unsupported(PASS, op, "unranked memref arguments")
    if isinstance(t, MemRefType):
        desc = lw.convert(t, op)
        assert isinstance(desc, llvm.LLVMStructType)
        ptr = desc.types.data[0]
        return [ptr, ptr, INDEX] + [INDEX] * (2 * t.get_num_dims())
    return [lw.convert(t, op)]


def _packed_result(lw: Lowering, results: Sequence[Attribute], op: Operation) -> Attribute:
    """Upstream's packFunctionResults: void, the one converted type, or a struct."""
    if not results:
        return llvm.LLVMVoidType()
    converted = [lw.convert(t, op) for t in results]
    if len(converted) == 1:
        return converted[0]
    return llvm.LLVMStructType.from_type_list(converted)


def _unpack(emit: Emit, value: SSAValue, t: Attribute) -> list[SSAValue]:
    """The argument values a value of (original) type `t` is passed as."""
    if isinstance(t, MemRefType):
        fields = [extract(emit, value, 0), extract(emit, value, 1), extract(emit, value, 2)]
        rank = t.get_num_dims()
        fields += [extract(emit, value, 3, i) for i in range(rank)]
        fields += [extract(emit, value, 4, i) for i in range(rank)]
        return fields
    return [value]


def _pack(
    emit: Emit, lw: Lowering, t: Attribute, args: Sequence[SSAValue], op: Operation
) -> SSAValue:
    """The value of (original) type `t` rebuilt from its argument values."""
    if isinstance(t, MemRefType):
        rank = t.get_num_dims()
        return build_descriptor(
            emit,
            lw.convert(t, op),
            args[0],
            args[1],
            args[2],
            args[3 : 3 + rank],
            args[3 + rank : 3 + 2 * rank],
        )
    return args[0]


class _AtStart:
    """An emitter inserting ops at the start of `block`, in order (before a marker op that
    `done` removes)."""

    def __init__(self, block: Block, lw: Lowering) -> None:
        self.block = block
        self.lw = lw
        self.marker = llvm.UnreachableOp()
        first = block.first_op
        if first is None:
            block.add_op(self.marker)
        else:
            block.insert_op_before(self.marker, first)

    def __call__(self, new: Operation) -> SSAValue:
        self.block.insert_op_before(new, self.marker)
        self.lw.track(new)
        return first_result(new)

    def done(self) -> None:
        self.marker.detach()
        self.marker.erase()


def _discardable(op: Operation) -> dict[str, Attribute]:
    return {k: v for k, v in op.attributes.items() if k not in _DROPPED_ATTRS}


def _linkage(op: Operation) -> llvm.LinkageAttr:
    attr = op.attributes.get("llvm.linkage")
    if attr is None:
        return llvm.LinkageAttr("external")
    if not isinstance(attr, llvm.LinkageAttr):
        raise LoweringError(
            f"'llvm.linkage' must be an #llvm.linkage attribute, got {attr}", op_location(op)
        )
    return attr


def _new_func(
    name: str,
    ftype: llvm.LLVMFunctionType,
    linkage: llvm.LinkageAttr,
    attrs: dict[str, Attribute],
    visibility: Attribute | None,
    body: Region | None = None,
) -> llvm.FuncOp:
    fn = llvm.FuncOp(name, ftype, linkage=linkage, body=body or Region())
    fn.attributes.update(attrs)
    if isinstance(visibility, StringAttr):
        fn.sym_visibility = visibility
    return fn


def _convert_func(lw: Lowering, op: Operation, module: ModuleOp) -> None:
    ftype = op.properties["function_type"]
    assert isinstance(ftype, FunctionType)
    inputs = list(ftype.inputs.data)
    outputs = list(ftype.outputs.data)
    arg_types: list[Attribute] = []
    for t in inputs:
        arg_types += _expanded(lw, t, op)
    result = _packed_result(lw, outputs, op)
    llvm_type = llvm.LLVMFunctionType(arg_types, result)
    name = op.properties["sym_name"]
    assert isinstance(name, StringAttr)
    visibility = op.properties.get("sym_visibility")
    region: Region = op.regions[0]
    body = Region()
    region.move_blocks(body)
    fn = _new_func(name.data, llvm_type, _linkage(op), _discardable(op), visibility, body)
    _copy_arg_attrs(op, fn, inputs, lw)
    fn.location = op.location
    parent = op.parent
    assert parent is not None
    parent.insert_op_before(fn, op)

    if body.blocks:
        _convert_entry_block(lw, body.blocks[0], inputs, fn)
        for ret in [o for o in fn.walk() if isinstance(o, func.ReturnOp)]:
            _convert_return(lw, ret, result)
    if EMIT_C_INTERFACE in op.attributes:
        if body.blocks:
            _c_wrapper_for_definition(lw, fn, inputs, outputs, module)
        else:
            _c_wrapper_for_declaration(lw, fn, inputs, outputs, module)
    op.detach()
    op.erase()


def _copy_arg_attrs(op: Operation, fn: llvm.FuncOp, inputs: list[Attribute], lw: Lowering) -> None:
    """Argument attributes survive where an argument stays one argument (as upstream);
    `llvm.align` on an expanded memref goes to its aligned pointer (upstream's gpu.func
    lowering copies it to the pointers; the allocated one may be less aligned)."""
    arg_attrs = op.properties.get("arg_attrs")
    res_attrs = op.properties.get("res_attrs")
    if isinstance(arg_attrs, ArrayAttr):
        new: list[DictionaryAttr] = []
        for t, attrs in zip(inputs, arg_attrs.data, strict=True):
            width = len(_expanded(lw, t, op))
            if width == 1:
                new.append(attrs)
                continue
            fields = [DictionaryAttr({})] * width
            align = attrs.data.get("llvm.align") if isinstance(attrs, DictionaryAttr) else None
            if isinstance(t, MemRefType) and align is not None:
                fields[1] = DictionaryAttr({"llvm.align": align})
            new += fields
        fn.arg_attrs = ArrayAttr(new)
    if isinstance(res_attrs, ArrayAttr) and len(res_attrs.data) == 1:
        fn.res_attrs = res_attrs


def _convert_entry_block(
    lw: Lowering, block: Block, inputs: list[Attribute], fn: Operation
) -> None:
    old_args = list(block.args)
    emit = _AtStart(block, lw)
    for arg, t in zip(old_args, inputs, strict=True):
        new_args = [block.insert_arg(at, len(block.args)) for at in _expanded(lw, t, fn)]
        if len(new_args) == 1:
            new_args[0].name_hint = arg.name_hint
        value = _pack(emit, lw, t, new_args, fn)
        if arg.first_use is not None:
            cast_back = value
            if value.type != t:
                cast = builtin.UnrealizedConversionCastOp(operands=[[value]], result_types=[[t]])
                emit(cast)
                cast_back = cast.results[0]
            arg.replace_all_uses_with(cast_back)
    for arg in old_args:
        block.erase_arg(arg)
    emit.done()


def _convert_return(lw: Lowering, op: Operation, result: Attribute) -> None:
    emit = lw.emit(op)
    values = lw.values(op.operands, op)
    if not values:
        new = llvm.ReturnOp()
    elif len(values) == 1:
        new = llvm.ReturnOp(values[0])
    else:
        packed = emit(llvm.PoisonOp(result))
        for i, v in enumerate(values):
            packed = insert(emit, packed, v, i)
        new = llvm.ReturnOp(packed)
    lw.insert(new, op)
    lw.replace(op, [])


def _convert_call(lw: Lowering, op: Operation) -> None:
    emit = lw.emit(op)
    callee = op.properties["callee"]
    assert isinstance(callee, builtin.SymbolRefAttr)
    args: list[SSAValue] = []
    for v in op.operands:
        if isinstance(v.type, UnrankedMemRefType):
            raise unsupported(PASS, op, "unranked memref arguments")
        args += _unpack(emit, lw.value(v, op), v.type)
    result_types = [r.type for r in op.results]
    packed = _packed_result(lw, result_types, op)
    call = llvm.CallOp(
        callee.root_reference.data,
        *args,
        return_type=None if isinstance(packed, llvm.LLVMVoidType) else packed,
    )
    emit(call)
    if len(result_types) <= 1:
        lw.replace(op, list(call.results))
    else:
        lw.replace(op, [extract(emit, call.results[0], i) for i in range(len(result_types))])


def _wrapper_signature(
    lw: Lowering, inputs: list[Attribute], outputs: list[Attribute], anchor: Operation
) -> tuple[llvm.LLVMFunctionType, Attribute | None]:
    """Upstream's convertFunctionTypeCWrapper: (wrapper type, struct result or None)."""
    packed = _packed_result(lw, outputs, anchor)
    result_struct = packed if isinstance(packed, llvm.LLVMStructType) else None
    params: list[Attribute] = [PTR] if result_struct is not None else []
    for t in inputs:
        params.append(PTR if isinstance(t, MemRefType) else lw.convert(t, anchor))
    result: Attribute = llvm.LLVMVoidType() if result_struct is not None else packed
    return llvm.LLVMFunctionType(params, result), result_struct


def _c_wrapper_for_definition(
    lw: Lowering,
    fn: llvm.FuncOp,
    inputs: list[Attribute],
    outputs: list[Attribute],
    module: ModuleOp,
) -> None:
    """`_mlir_ciface_<name>`: loads descriptors through pointers and calls `fn`."""
    wtype, result_struct = _wrapper_signature(lw, inputs, outputs, fn)
    block = Block(arg_types=wtype.inputs.data)
    wrapper = _new_func(
        CIFACE_PREFIX + fn.sym_name.data,
        wtype,
        llvm.LinkageAttr("external"),
        dict(fn.attributes),
        fn.sym_visibility,
        Region([block]),
    )
    wrapper.location = fn.location

    def emit(new: Operation) -> SSAValue:
        new.location = fn.location
        block.add_op(new)
        return first_result(new)

    offset = 1 if result_struct is not None else 0
    args: list[SSAValue] = []
    for i, t in enumerate(inputs):
        arg = block.args[i + offset]
        if isinstance(t, MemRefType):
            desc = emit(llvm.LoadOp(arg, lw.convert(t, fn)))
            args += _unpack(emit, desc, t)
        else:
            args.append(arg)
    output = fn.function_type.output
    call = llvm.CallOp(
        fn.sym_name.data,
        *args,
        return_type=None if isinstance(output, llvm.LLVMVoidType) else output,
    )
    emit(call)
    if result_struct is not None:
        emit(llvm.StoreOp(call.results[0], block.args[0]))
        emit(llvm.ReturnOp())
    else:
        emit(llvm.ReturnOp(call.results[0]) if call.results else llvm.ReturnOp())
    module.body.block.insert_op_after(wrapper, fn)


def _c_wrapper_for_declaration(
    lw: Lowering,
    fn: llvm.FuncOp,
    inputs: list[Attribute],
    outputs: list[Attribute],
    module: ModuleOp,
) -> None:
    """Give the declaration `fn` a private body calling an external `_mlir_ciface_<name>`."""
    wtype, result_struct = _wrapper_signature(lw, inputs, outputs, fn)
    wrapper = _new_func(
        CIFACE_PREFIX + fn.sym_name.data,
        wtype,
        llvm.LinkageAttr("external"),
        dict(fn.attributes),
        fn.sym_visibility,
    )
    wrapper.location = fn.location
    module.body.block.insert_op_after(wrapper, fn)
    fn.linkage = llvm.LinkageAttr("private")
    block = Block(arg_types=fn.function_type.inputs.data)
    fn.body.add_block(block)

    def emit(new: Operation) -> SSAValue:
        new.location = fn.location
        block.add_op(new)
        return first_result(new)

    one = index_const(emit, 1)
    args: list[SSAValue] = []
    if result_struct is not None:
        args.append(
            emit(
                llvm.AllocaOp.create(
                    operands=[one], result_types=[PTR], properties={"elem_type": result_struct}
                )
            )
        )
    remaining = list(block.args)
    for t in inputs:
        width = len(_expanded(lw, t, fn))
        values, remaining = remaining[:width], remaining[width:]
        if isinstance(t, MemRefType):
            desc = _pack(emit, lw, t, values, fn)
            slot = emit(
                llvm.AllocaOp.create(
                    operands=[one], result_types=[PTR], properties={"elem_type": desc.type}
                )
            )
            emit(llvm.StoreOp(desc, slot))
            args.append(slot)
        else:
            args.append(values[0])
    output = wtype.output
    call = llvm.CallOp(
        wrapper.sym_name.data,
        *args,
        return_type=None if isinstance(output, llvm.LLVMVoidType) else output,
    )
    emit(call)
    if result_struct is not None:
        emit(llvm.ReturnOp(emit(llvm.LoadOp(args[0], result_struct))))
    else:
        emit(llvm.ReturnOp(call.results[0]) if call.results else llvm.ReturnOp())


_FUNC_OPS: tuple[type[Operation], ...] = tuple(func.Func.operations)


def lower_func(module: ModuleOp, converter: LLVMTypeConverter | None = None) -> None:
    """Replace `func.func`/`call`/`return` in `module` by their LLVM counterparts."""
    lw = Lowering(converter or LLVMTypeConverter(), PASS)
    for op in list(module.walk()):
        if op.parent is None and op is not module:
            continue
        match op:
            case func.FuncOp():
                if op.attributes.get("func.varargs") is not None:
                    raise unsupported(PASS, op, "variadic functions")
                _convert_func(lw, op, _module_of(op))
            case func.CallOp():
                _convert_call(lw, op)
            case func.ReturnOp():
                pass  # converted with its function
            case _ if isinstance(op, _FUNC_OPS):
                raise unsupported(PASS, op)
            case _:
                pass
    lw.finish()


def _module_of(op: Operation) -> ModuleOp:
    parent = op.parent_op()
    if not isinstance(parent, ModuleOp):
        raise LoweringError("'func.func' must be directly inside a module", op_location(op))
    return parent


@dataclass(frozen=True)
class ConvertFuncToLLVMPass(LLVMConversionPass):
    """Lower the func dialect to the LLVM dialect (see the module docstring)."""

    name = "convert-func-to-llvm"

    def convert(self, module: ModuleOp, converter: LLVMTypeConverter) -> None:
        lower_func(module, converter)


__all__ = ["CIFACE_PREFIX", "EMIT_C_INTERFACE", "ConvertFuncToLLVMPass", "lower_func"]
