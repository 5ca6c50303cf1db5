"""The translation of a module: globals, function declarations with their attributes,
function bodies block by block, and the one table that dispatches ops by class."""

from __future__ import annotations

import re
from collections.abc import Mapping

import llvmlite.ir as ir
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Operation

from schedir.diagnostics import LoweringError, SchedirError, UnsupportedError
from schedir.dialects import llvm, nvvm
from schedir.dialects.syntax import op_location
from schedir.lowering.to_llvm_ir import (
    arithmetic,
    calls,
    control,
    intrinsics,
    memory,
    values,
)
from schedir.lowering.to_llvm_ir import nvvm as nvvm_translation
from schedir.lowering.to_llvm_ir.llvmlite_ir import (
    ARG_FLAGS,
    ARG_INTS,
    Poison,
    StringFunctionAttributes,
    constant,
    llvm_type,
    set_alignment,
    set_initializer,
)
from schedir.lowering.to_llvm_ir.translation import Translate, Translation, unexpected


def _one_table(*families: Mapping[type[Operation], Translate]) -> dict[type[Operation], Translate]:
    table: dict[type[Operation], Translate] = {}
    for family in families:
        for op_class, translate in family.items():
            assert op_class not in table, f"{op_class.name} is translated twice"
            table[op_class] = translate
    return table


TRANSLATIONS: Mapping[type[Operation], Translate] = _one_table(
    values.TRANSLATIONS,
    arithmetic.TRANSLATIONS,
    memory.TRANSLATIONS,
    control.TRANSLATIONS,
    calls.TRANSLATIONS,
    intrinsics.TRANSLATIONS,
    nvvm_translation.TRANSLATIONS,
)
"""Op class -> its translation, for every op that can appear in a function body."""

_DIALECT_OPS: frozenset[type[Operation]] = frozenset((*llvm.LLVM.operations, *nvvm.NVVM.operations))
"""The ops of the llvm and nvvm dialects: anything else must be lowered first."""

_NVVM_LAUNCH_BOUNDS = ("nvvm.maxntid", "nvvm.reqntid", "nvvm.minctasm", "nvvm.maxnreg")
"""Kernel attributes that become NVPTX launch-bound function attributes (`"nvvm.maxntid"=
"32,8,1"`), as upstream's NVVM translation emits them."""

_NEEDLESS_QUOTES = re.compile(r'([@%])"([-a-zA-Z$._][-a-zA-Z$._0-9]*)"')


def translate_module(module: ModuleOp) -> str:
    """LLVM IR text of a module in the LLVM dialect (see the package docstring)."""
    target = ir.Module(name="schedir")
    triple = module.attributes.get("llvm.target_triple")
    layout = module.attributes.get("llvm.data_layout")
    target.triple = triple.data if isinstance(triple, StringAttr) else ""
    target.data_layout = layout.data if isinstance(layout, StringAttr) else ""
    t = Translation(module, target)
    _check_dialect(module)
    funcs: list[llvm.FuncOp] = []
    for op in module.ops:
        try:
            if isinstance(op, llvm.GlobalOp):
                _global(t, op)
            elif isinstance(op, llvm.FuncOp):
                funcs.append(op)
                _declare(t, op)
            else:
                raise unexpected(op)
        except SchedirError:
            raise
        except Exception as err:  # llvmlite raises plain exceptions on bad input
            raise LoweringError(
                f"cannot translate '{op.name}' to LLVM IR: {err}", op_location(op)
            ) from None
    for fn in funcs:
        if fn.body.blocks:
            _function_body(t, fn)
    try:
        text = str(target)
    except Exception as err:  # an llvmlite instruction that cannot print itself
        raise LoweringError(f"cannot print the LLVM IR: {type(err).__name__}: {err}") from None
    # llvmlite quotes every name; LLVM needs quotes only for unusual characters.
    return _NEEDLESS_QUOTES.sub(r"\1\2", text)


def _check_dialect(module: ModuleOp) -> None:
    """Report the first op not in the LLVM dialect (casts last: they are symptoms)."""
    cast: Operation | None = None
    for op in module.walk():
        if op is module or type(op) in _DIALECT_OPS:
            continue
        if isinstance(op, UnrealizedConversionCastOp):
            cast = cast or op
            continue
        raise unexpected(op)
    if cast is not None:
        raise unexpected(cast)


# ---------------------------------------------------------------------------------------
# globals and declarations


def _global(t: Translation, op: llvm.GlobalOp) -> None:
    gtype = llvm_type(op.global_type)
    space = op.addr_space.value.data if op.addr_space is not None else 0
    gvar = ir.GlobalVariable(t.module, gtype, name=op.sym_name.data, addrspace=space)
    linkage = op.linkage.linkage.data
    if op.constant is not None:
        gvar.global_constant = True
    alignment = op.properties.get("alignment")
    if isinstance(alignment, IntegerAttr) and alignment.value.data:
        set_alignment(gvar, alignment.value.data)
    if op.value is not None:
        init = constant(gtype, op.value)
        if isinstance(op.value, StringAttr) and init.type != gtype:
            raise LoweringError(
                f"string of {len(op.value.data)} bytes does not fill {op.global_type}",
                op_location(op),
            )
        set_initializer(gvar, init)
    elif op.body.blocks:
        set_initializer(gvar, _global_initializer(op, gtype))
    elif linkage != "external" and linkage != "extern_weak":
        set_initializer(gvar, ir.Constant(gtype, ir.Undefined))
    if linkage != "external":
        gvar.linkage = linkage


def _global_initializer(op: llvm.GlobalOp, gtype: ir.Type) -> ir.Constant:
    """Initializer regions made of one undef/zero/constant op and its return."""
    body = list(op.body.blocks[0].ops)
    if len(body) == 2 and isinstance(body[1], llvm.ReturnOp):
        first = body[0]
        if isinstance(first, llvm.UndefOp):
            return ir.Constant(gtype, ir.Undefined)
        if isinstance(first, llvm.PoisonOp):
            return Poison(gtype)
        if isinstance(first, llvm.ZeroOp):
            return ir.Constant(gtype, None)
        if isinstance(first, llvm.ConstantOp):
            return constant(gtype, first.value)
    raise UnsupportedError(
        "global initializer regions other than one constant are not supported",
        op_location(op),
    )


def _declare(t: Translation, op: llvm.FuncOp) -> None:
    ftype = llvm_type(op.function_type)
    assert isinstance(ftype, ir.FunctionType)
    fn = ir.Function(t.module, ftype, name=op.sym_name.data)
    linkage = op.linkage.linkage.data
    if linkage != "external":
        fn.linkage = linkage
    # `visibility_` (hidden, protected) is not translated: llvmlite has no visibility.
    cconv = op.CConv.cconv_name
    if "nvvm.kernel" in op.attributes:
        cconv = "ptx_kernel"
    if cconv != "ccc":
        fn.calling_convention = cconv
    attrs = StringFunctionAttributes()
    if op.no_inline is not None:
        attrs.add("noinline")
    if op.no_unwind is not None:
        attrs.add("nounwind")
    if op.target_cpu is not None:
        attrs.add(f'"target-cpu"="{op.target_cpu.data}"')
    if op.passthrough is not None:
        for item in op.passthrough.data:
            if isinstance(item, StringAttr):
                attrs.add(item.data)
            elif isinstance(item, ArrayAttr) and len(item.data) == 2:
                key, value = item.data
                if isinstance(key, StringAttr) and isinstance(value, StringAttr):
                    attrs.add(f'"{key.data}"="{value.data}"')
    for key in _NVVM_LAUNCH_BOUNDS:
        bounds = op.attributes.get(key)
        if isinstance(bounds, DenseArrayBase):
            attrs.add(f'"{key}"="{",".join(str(v) for v in bounds.get_values())}"')
        elif isinstance(bounds, IntegerAttr):
            attrs.add(f'"{key}"="{bounds.value.data}"')
    fn.attributes = attrs
    if op.arg_attrs is not None:
        for arg, attr_dict in zip(fn.args, op.arg_attrs.data, strict=False):
            _arg_attributes(arg, attr_dict)


def _arg_attributes(arg: ir.Argument, attrs: DictionaryAttr) -> None:
    for name, value in attrs.data.items():
        if name in ARG_FLAGS:
            arg.add_attribute(ARG_FLAGS[name])
        elif name in ARG_INTS and isinstance(value, IntegerAttr):
            setattr(arg.attributes, ARG_INTS[name], value.value.data)


# ---------------------------------------------------------------------------------------
# function bodies


def _function_body(t: Translation, op: llvm.FuncOp) -> None:
    fn = t.module.get_global(op.sym_name.data)
    order = control.reverse_post_order(op.body.blocks[0])
    t.blocks = {}
    for block in order:
        t.blocks[block] = fn.append_basic_block(name=f"bb{len(t.blocks)}")
    entry = order[0]
    if len(entry.args) != len(fn.args):
        raise LoweringError(
            f"'@{op.sym_name.data}' has {len(fn.args)} parameters but its entry block "
            f"has {len(entry.args)} arguments",
            op_location(op),
        )
    for arg, value in zip(entry.args, fn.args, strict=True):
        t.values[arg] = value
    for block in order[1:]:
        if block.args:
            builder = ir.IRBuilder(t.blocks[block])
            for arg in block.args:
                t.values[arg] = builder.phi(llvm_type(arg.type))
    for block in order:
        t.builder = ir.IRBuilder(t.blocks[block])
        if t.blocks[block].instructions:
            t.builder.position_after(t.blocks[block].instructions[-1])
        for inner in block.ops:
            try:
                _translate_op(t, inner)
            except SchedirError:
                raise
            except Exception as err:  # llvmlite raises plain exceptions on bad input
                raise LoweringError(
                    f"cannot translate '{inner.name}' to LLVM IR: {type(err).__name__}: {err}",
                    op_location(inner),
                ) from None


def _translate_op(t: Translation, op: Operation) -> None:
    translate = TRANSLATIONS.get(type(op))
    if translate is None:
        raise unexpected(op)
    translate(t, op)


__all__ = ["TRANSLATIONS", "translate_module"]
