"""LLVM dialect -> LLVM IR text (what `llvmlite.binding.parse_assembly` reads).

xDSL's `xdsl.backend.llvm` translator builds an llvmlite `ir.Module`; schedir reuses its
instruction builders for the ops it translates correctly (integer/float arithmetic with
flags, `icmp`, `select`, aggregates, `insertelement`, `shufflevector`, `fneg`, returns,
inline asm, vector reductions) and translates the rest itself:

- `llvm.getelementptr` keeps the base pointer's address space (xDSL bitcasts it to
  address space 0, which LLVM rejects) and its no-wrap flags (`inbounds`, `nuw`);
- types include `bfloat`, constants include bf16 (`0xR...`), nested arrays and vectors;
- intrinsics are declared with their mangled names (`llvm.fabs.f32`, `llvm.memcpy.p0.p0.i64`)
  so one module can use an intrinsic at several types;
- `poison`, `freeze`, `switch`, `extractelement`, `addrspacecast`, float<->int casts,
  loads/stores with alignment, volatile and nontemporal, allocas in any address space,
  indirect calls, calling conventions;
- functions keep linkage, visibility, calling convention (`ptx_kernel` for functions
  marked `nvvm.kernel`), argument attributes and simple function attributes
  (`passthrough`, `no_inline`, `target_cpu`, `target_features`); the launch bounds
  `nvvm.maxntid`/`reqntid`/`minctasm`/`maxnreg` become NVPTX function attributes;
- nvvm ops become NVPTX intrinsics: `nvvm.read.ptx.sreg.tid.x` ->
  `llvm.nvvm.read.ptx.sreg.tid.x`, `nvvm.barrier` -> `llvm.nvvm.barrier.cta.sync.aligned.all(0)`,
  `nvvm.shfl.sync bfly` -> `llvm.nvvm.shfl.sync.bfly.f32` (`...f32p` with the validity bit);
- branches to a block reached twice from one terminator with different arguments go
  through a new block (LLVM phis take one value per predecessor); unreachable blocks are
  dropped; blocks are emitted in reverse post-order so definitions precede uses.

The module's triple and data layout are taken from `llvm.target_triple` /
`llvm.data_layout` attributes when present and otherwise left empty: the CPU JIT and the
NVPTX backend set their own.

The translator is one class over mixins, one per op family: `_to_llvm_ir_values` (values,
float arithmetic, casts, memory), `_to_llvm_ir_calls` (calls, intrinsics, nvvm, vector ops),
`_to_llvm_ir_control` (branches, switches, block order); `_to_llvm_ir_base` holds the state
they share. This module keeps the module-level translation (globals, declarations, bodies)
and the dispatch.
"""

from __future__ import annotations

import re

import llvmlite.ir as ir
from xdsl.backend.llvm.convert_op import convert_op as xdsl_convert_op
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
)
from xdsl.ir import Block, Operation, SSAValue

from schedir.diagnostics import LoweringError, SchedirError, UnsupportedError
from schedir.dialects import llvm
from schedir.dialects.syntax import op_location
from schedir.lowering.to_llvm_ir.calls import CallTranslation
from schedir.lowering.to_llvm_ir.control import ControlFlowTranslation, reverse_post_order
from schedir.lowering.to_llvm_ir.llvmlite_ir import (
    ARG_FLAGS,
    ARG_INTS,
    BFLOAT,
    Poison,
    StringFunctionAttributes,
    constant,
    llvm_type,
)
from schedir.lowering.to_llvm_ir.values import CASTS, ValueTranslation

# ---------------------------------------------------------------------------------------
# the translator

_DELEGATED = frozenset(
    {
        "llvm.add",
        "llvm.sub",
        "llvm.mul",
        "llvm.udiv",
        "llvm.sdiv",
        "llvm.urem",
        "llvm.srem",
        "llvm.and",
        "llvm.or",
        "llvm.xor",
        "llvm.shl",
        "llvm.lshr",
        "llvm.ashr",
        "llvm.icmp",
        "llvm.extractvalue",
        "llvm.insertvalue",
        "llvm.insertelement",
        "llvm.shufflevector",
        "llvm.return",
        "llvm.unreachable",
        "llvm.inline_asm",
    }
)
"""Ops whose xDSL translation is right; everything else is translated here."""

_NVVM_LAUNCH_BOUNDS = ("nvvm.maxntid", "nvvm.reqntid", "nvvm.minctasm", "nvvm.maxnreg")
"""Kernel attributes that become NVPTX launch-bound function attributes (`"nvvm.maxntid"=
"32,8,1"`), as upstream's NVVM translation emits them."""


class _Translator(ValueTranslation, CallTranslation, ControlFlowTranslation):
    """One module's translation; the op families are the mixins, dispatched by `_op`."""

    def __init__(self, module: ModuleOp) -> None:
        self.source = module
        self.module = ir.Module(name="schedir")
        triple = module.attributes.get("llvm.target_triple")
        layout = module.attributes.get("llvm.data_layout")
        self.module.triple = triple.data if isinstance(triple, StringAttr) else ""
        self.module.data_layout = layout.data if isinstance(layout, StringAttr) else ""
        self.values: dict[SSAValue, ir.Value] = {}
        self.blocks: dict[Block, ir.Block] = {}

    # -- module level -----------------------------------------------------------------

    def run(self) -> str:
        self._check_dialect()
        funcs: list[llvm.FuncOp] = []
        for op in self.source.ops:
            try:
                if isinstance(op, llvm.GlobalOp):
                    self._global(op)
                elif isinstance(op, llvm.FuncOp):
                    funcs.append(op)
                    self._declare(op)
                else:
                    raise self._unexpected(op)
            except SchedirError:
                raise
            except Exception as err:  # llvmlite raises plain exceptions on bad input
                raise LoweringError(
                    f"cannot translate '{op.name}' to LLVM IR: {err}", op_location(op)
                ) from None
        for fn in funcs:
            if fn.body.blocks:
                self._function_body(fn)
        try:
            text = str(self.module)
        except Exception as err:  # an llvmlite instruction that cannot print itself
            raise LoweringError(f"cannot print the LLVM IR: {type(err).__name__}: {err}") from None
        # llvmlite quotes every name; LLVM needs quotes only for unusual characters.
        return _NEEDLESS_QUOTES.sub(r"\1\2", text)

    def _check_dialect(self) -> None:
        """Report the first op not in the LLVM dialect (casts last: they are symptoms)."""
        cast: Operation | None = None
        for op in self.source.walk():
            if op is self.source or op.name.startswith(("llvm.", "nvvm.")):
                continue
            if op.name == "builtin.unrealized_conversion_cast":
                cast = cast or op
                continue
            raise self._unexpected(op)
        if cast is not None:
            raise self._unexpected(cast)

    def _global(self, op: llvm.GlobalOp) -> None:
        gtype = llvm_type(op.global_type)
        space = op.addr_space.value.data if op.addr_space is not None else 0
        gvar = ir.GlobalVariable(self.module, gtype, name=op.sym_name.data, addrspace=space)
        linkage = op.linkage.linkage.data
        if op.constant is not None:
            gvar.global_constant = True
        alignment = op.properties.get("alignment")
        if isinstance(alignment, IntegerAttr) and alignment.value.data:
            gvar.align = alignment.value.data
        if op.value is not None:
            init = constant(gtype, op.value)
            if isinstance(op.value, StringAttr) and init.type != gtype:
                raise LoweringError(
                    f"string of {len(op.value.data)} bytes does not fill {op.global_type}",
                    op_location(op),
                )
            gvar.initializer = init
        elif op.body.blocks:
            gvar.initializer = self._global_initializer(op, gtype)
        elif linkage != "external" and linkage != "extern_weak":
            gvar.initializer = ir.Constant(gtype, ir.Undefined)
        if linkage != "external":
            gvar.linkage = linkage

    def _global_initializer(self, op: llvm.GlobalOp, gtype: ir.Type) -> ir.Constant:
        """Initializer regions made of one undef/zero/constant op and its return."""
        body = [o for o in op.body.blocks[0].ops]
        if len(body) == 2 and body[1].name == "llvm.return":
            first = body[0]
            if first.name == "llvm.mlir.undef":
                return ir.Constant(gtype, ir.Undefined)
            if first.name == "llvm.mlir.poison":
                return Poison(gtype)
            if first.name == "llvm.mlir.zero":
                return ir.Constant(gtype, None)
            if first.name == "llvm.mlir.constant":
                return constant(gtype, first.properties["value"])
        raise UnsupportedError(
            "global initializer regions other than one constant are not supported",
            op_location(op),
        )

    def _declare(self, op: llvm.FuncOp) -> None:
        ftype = llvm_type(op.function_type)
        assert isinstance(ftype, ir.FunctionType)
        fn = ir.Function(self.module, ftype, name=op.sym_name.data)
        linkage = op.linkage.linkage.data
        if linkage != "external":
            fn.linkage = linkage
        visibility = op.visibility_.value.data
        if visibility:
            fn.visibility = {1: "hidden", 2: "protected"}[visibility]
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
                self._arg_attributes(arg, attr_dict)

    @staticmethod
    def _arg_attributes(arg: ir.Argument, attrs: DictionaryAttr) -> None:
        for name, value in attrs.data.items():
            if name in ARG_FLAGS:
                arg.add_attribute(ARG_FLAGS[name])
            elif name in ARG_INTS and isinstance(value, IntegerAttr):
                setattr(arg.attributes, ARG_INTS[name], value.value.data)

    # -- function bodies --------------------------------------------------------------

    def _function_body(self, op: llvm.FuncOp) -> None:
        fn = self.module.get_global(op.sym_name.data)
        order = reverse_post_order(op.body.blocks[0])
        self.blocks = {}
        for block in order:
            self.blocks[block] = fn.append_basic_block(name=f"bb{len(self.blocks)}")
        entry = order[0]
        if len(entry.args) != len(fn.args):
            raise LoweringError(
                f"'@{op.sym_name.data}' has {len(fn.args)} parameters but its entry block "
                f"has {len(entry.args)} arguments",
                op_location(op),
            )
        for arg, value in zip(entry.args, fn.args, strict=True):
            self.values[arg] = value
        for block in order[1:]:
            if block.args:
                builder = ir.IRBuilder(self.blocks[block])
                for arg in block.args:
                    self.values[arg] = builder.phi(llvm_type(arg.type))
        for block in order:
            builder = ir.IRBuilder(self.blocks[block])
            if self.blocks[block].instructions:
                builder.position_after(self.blocks[block].instructions[-1])
            for inner in block.ops:
                try:
                    self._op(inner, builder)
                except SchedirError:
                    raise
                except Exception as err:  # llvmlite raises plain exceptions on bad input
                    raise LoweringError(
                        f"cannot translate '{inner.name}' to LLVM IR: {type(err).__name__}: {err}",
                        op_location(inner),
                    ) from None

    def _op(self, op: Operation, b: ir.IRBuilder) -> None:
        name = op.name
        if name in _DELEGATED:
            xdsl_convert_op(op, b, self.values, self.blocks)  # type: ignore[arg-type]
            return
        if name in CASTS:
            self._cast(op, b)
            return
        handler = getattr(self, "_op_" + name.replace(".", "_"), None)
        if handler is not None:
            handler(op, b)
            return
        if name.startswith("llvm.intr."):
            self._intrinsic(op, b)
            return
        if name.startswith("nvvm."):
            self._nvvm(op, b)
            return
        raise self._unexpected(op)


_NEEDLESS_QUOTES = re.compile(r'([@%])"([-a-zA-Z$._][-a-zA-Z$._0-9]*)"')


def translate_module(module: ModuleOp) -> str:
    """LLVM IR text of a module in the LLVM dialect (see the module docstring)."""
    return _Translator(module).run()


__all__ = ["BFLOAT", "constant", "llvm_type", "translate_module"]
