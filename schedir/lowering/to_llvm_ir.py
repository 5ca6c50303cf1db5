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
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import llvmlite.ir as ir
from llvmlite.ir import instructions as ir_instr
from xdsl.backend.llvm.convert_op import convert_op as xdsl_convert_op
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
)
from xdsl.ir import Block, Operation, SSAValue

from schedir.diagnostics import LoweringError, SchedirError, UnsupportedError
from schedir.dialects import llvm
from schedir.dialects.syntax import op_location
from schedir.lowering._llvm_ir import (
    ARG_FLAGS,
    ARG_INTS,
    BFLOAT,
    AllocaInAddressSpace,
    CastWithFlags,
    Freeze,
    GEPWithFlags,
    IndirectCallee,
    Poison,
    StringFunctionAttributes,
    VolatileLoad,
    VolatileStore,
    constant,
    fastmath_words,
    insert_instruction,
    intrinsic_suffix,
    is_float,
    llvm_type,
)

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

_CASTS: dict[str, str] = {
    "llvm.trunc": "trunc",
    "llvm.zext": "zext",
    "llvm.sext": "sext",
    "llvm.fptrunc": "fptrunc",
    "llvm.fpext": "fpext",
    "llvm.fptosi": "fptosi",
    "llvm.fptoui": "fptoui",
    "llvm.sitofp": "sitofp",
    "llvm.uitofp": "uitofp",
    "llvm.bitcast": "bitcast",
    "llvm.ptrtoint": "ptrtoint",
    "llvm.inttoptr": "inttoptr",
    "llvm.addrspacecast": "addrspacecast",
}

_NVVM_LAUNCH_BOUNDS = ("nvvm.maxntid", "nvvm.reqntid", "nvvm.minctasm", "nvvm.maxnreg")
"""Kernel attributes that become NVPTX launch-bound function attributes (`"nvvm.maxntid"=
"32,8,1"`), as upstream's NVVM translation emits them."""

_IMMARG_FLAG = {
    "llvm.intr.ctlz": ("is_zero_poison", 1),
    "llvm.intr.cttz": ("is_zero_poison", 1),
    "llvm.intr.abs": ("is_int_min_poison", 1),
    "llvm.intr.memcpy": ("isVolatile", 1),
    "llvm.intr.is.fpclass": ("bit", 32),
}
"""Intrinsics whose last (immediate) argument is an op property: (name, bit width)."""


class _Translator:
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

    def _unexpected(self, op: Operation) -> SchedirError:
        if op.name == "builtin.unrealized_conversion_cast":
            return LoweringError(
                "an unrealized conversion cast remains "
                f"({', '.join(str(v.type) for v in op.operands)} to "
                f"{', '.join(str(r.type) for r in op.results)}): some op was not lowered "
                "to the LLVM dialect, or reconcile-unrealized-casts did not run",
                op_location(op),
            )
        return UnsupportedError(
            f"'{op.name}' is not in the LLVM dialect: lower it before translating to LLVM IR",
            op_location(op),
        )

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
        order = _reverse_post_order(op.body.blocks[0])
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

    def _v(self, value: SSAValue) -> ir.Value:
        found = self.values.get(value)
        if found is None:
            raise LoweringError("a value is used where its definition does not dominate", None)
        return found

    def _set(self, op: Operation, value: ir.Value) -> None:
        self.values[op.results[0]] = value

    def _op(self, op: Operation, b: ir.IRBuilder) -> None:
        name = op.name
        if name in _DELEGATED:
            xdsl_convert_op(op, b, self.values, self.blocks)  # type: ignore[arg-type]
            return
        if name in _CASTS:
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

    # nvvm: special registers, barriers and shuffles as NVPTX intrinsics

    def _nvvm(self, op: Operation, b: ir.IRBuilder) -> None:
        name = op.name
        i32 = ir.IntType(32)
        if name.startswith("nvvm.read.ptx.sreg."):
            result = llvm_type(op.results[0].type)
            fn = self._function("llvm." + name, ir.FunctionType(result, []))
            self._set(op, b.call(fn, []))
            return
        if name in ("nvvm.barrier", "nvvm.barrier0"):
            # `bar.sync 0`: what LLVM 21+ spells llvm.nvvm.barrier0 after auto-upgrade.
            fn = self._function(
                "llvm.nvvm.barrier.cta.sync.aligned.all", ir.FunctionType(ir.VoidType(), [i32])
            )
            b.call(fn, [ir.Constant(i32, 0)])
            return
        if name == "nvvm.shfl.sync":
            args = [self._v(a) for a in op.operands]
            value_type = args[1].type
            suffix = "f32" if isinstance(value_type, ir.FloatType) else "i32"
            kind = op.properties["kind"].data.value  # type: ignore[attr-defined]
            with_valid = op.properties.get("return_value_and_is_valid") is not None
            result = llvm_type(op.results[0].type)
            intrinsic = f"llvm.nvvm.shfl.sync.{kind}.{suffix}{'p' if with_valid else ''}"
            fn = self._function(intrinsic, ir.FunctionType(result, [a.type for a in args]))
            self._set(op, b.call(fn, args))
            return
        raise self._unexpected(op)

    # values

    def _op_llvm_mlir_constant(self, op: Operation, b: ir.IRBuilder) -> None:
        self._set(op, constant(llvm_type(op.results[0].type), op.properties["value"]))

    def _op_llvm_mlir_poison(self, op: Operation, b: ir.IRBuilder) -> None:
        self._set(op, Poison(llvm_type(op.results[0].type)))

    def _op_llvm_mlir_undef(self, op: Operation, b: ir.IRBuilder) -> None:
        self._set(op, ir.Constant(llvm_type(op.results[0].type), ir.Undefined))

    def _op_llvm_mlir_zero(self, op: Operation, b: ir.IRBuilder) -> None:
        self._set(op, ir.Constant(llvm_type(op.results[0].type), None))

    def _op_llvm_mlir_addressof(self, op: Operation, b: ir.IRBuilder) -> None:
        ref = op.properties["global_name"]
        assert isinstance(ref, SymbolRefAttr)
        self._set(op, self.module.get_global(ref.root_reference.data))

    def _op_llvm_freeze(self, op: Operation, b: ir.IRBuilder) -> None:
        self._set(op, insert_instruction(b, Freeze(b.block, self._v(op.operands[0]))))

    def _op_llvm_extractelement(self, op: Operation, b: ir.IRBuilder) -> None:
        self._set(op, b.extract_element(self._v(op.operands[0]), self._v(op.operands[1])))

    def _float_arith(self, op: Operation, b: ir.IRBuilder) -> None:
        args = [self._v(a) for a in op.operands]
        flags = fastmath_words(op.properties.get("fastmathFlags"))
        if op.name == "llvm.fneg":
            self._set(op, b.fneg(args[0], flags=flags))
            return
        build = getattr(b, op.name.removeprefix("llvm."))
        self._set(op, build(args[0], args[1], flags=flags))

    _op_llvm_fadd = _op_llvm_fsub = _op_llvm_fmul = _float_arith
    _op_llvm_fdiv = _op_llvm_frem = _op_llvm_fneg = _float_arith

    def _op_llvm_fcmp(self, op: Operation, b: ir.IRBuilder) -> None:
        assert isinstance(op, llvm.FCmpOp)
        predicate = op.predicate_name.lstrip("_")
        flags = fastmath_words(op.fastmathFlags)
        instr = ir_instr.FCMPInstr(
            b.block, predicate, self._v(op.lhs), self._v(op.rhs), flags=flags
        )
        self._set(op, insert_instruction(b, instr))

    def _cast(self, op: Operation, b: ir.IRBuilder) -> None:
        flags: list[str] = []
        if op.properties.get("nonNeg") is not None:
            flags.append("nneg")
        overflow = op.properties.get("overflowFlags")
        if overflow is not None and hasattr(overflow, "data"):
            flags += [f.value for f in overflow.data]  # type: ignore[union-attr]
        instr = CastWithFlags(
            b.block, _CASTS[op.name], self._v(op.operands[0]), llvm_type(op.results[0].type), flags
        )
        self._set(op, insert_instruction(b, instr))

    # memory

    def _op_llvm_getelementptr(self, op: Operation, b: ir.IRBuilder) -> None:
        assert isinstance(op, llvm.GEPOp)
        indices = [
            ir.Constant(ir.IntType(32), i) if isinstance(i, int) else self._v(i)
            for i in op.indices()
        ]
        instr = GEPWithFlags(b.block, self._v(op.base), indices, llvm_type(op.elem_type), op.flags)
        self._set(op, insert_instruction(b, instr))

    def _op_llvm_load(self, op: Operation, b: ir.IRBuilder) -> None:
        assert isinstance(op, llvm.LoadOp)
        typ = llvm_type(op.res.type)
        if op.volatile_ is not None:
            instr = insert_instruction(b, VolatileLoad(b.block, self._v(op.addr), typ=typ))
        else:
            instr = b.load(self._v(op.addr), typ=typ)
        if op.alignment is not None:
            instr.align = op.alignment.value.data
        if op.nontemporal is not None:
            instr.set_metadata(
                "nontemporal", self.module.add_metadata([ir.Constant(ir.IntType(32), 1)])
            )
        self._set(op, instr)

    def _op_llvm_store(self, op: Operation, b: ir.IRBuilder) -> None:
        assert isinstance(op, llvm.StoreOp)
        if op.volatile_ is not None:
            instr = insert_instruction(
                b, VolatileStore(b.block, self._v(op.value), self._v(op.addr))
            )
        else:
            instr = b.store(self._v(op.value), self._v(op.addr))
        if op.alignment is not None:
            instr.align = op.alignment.value.data
        if op.nontemporal is not None:
            instr.set_metadata(
                "nontemporal", self.module.add_metadata([ir.Constant(ir.IntType(32), 1)])
            )

    def _op_llvm_alloca(self, op: Operation, b: ir.IRBuilder) -> None:
        ptr_type = llvm_type(op.results[0].type)
        assert isinstance(ptr_type, ir.PointerType)
        alignment = op.properties.get("alignment")
        align = (
            alignment.value.data
            if isinstance(alignment, IntegerAttr) and alignment.value.data
            else None
        )
        instr = AllocaInAddressSpace(
            b.block,
            llvm_type(op.properties["elem_type"]),
            self._v(op.operands[0]),
            ptr_type.addrspace,
            align,
        )
        self._set(op, insert_instruction(b, instr))

    # calls

    def _op_llvm_call(self, op: Operation, b: ir.IRBuilder) -> None:
        assert isinstance(op, llvm.CallOp)
        args = [self._v(a) for a in op.args]
        if op.callee is not None:
            callee: ir.Value = self.module.get_global(op.callee.string_value())
        else:
            callee_ptr, args = args[0], args[1:]
            result = llvm_type(op.returned.type) if op.returned is not None else ir.VoidType()
            ftype = (
                llvm_type(op.var_callee_type)
                if op.var_callee_type is not None
                else ir.FunctionType(result, [a.type for a in args])
            )
            callee = IndirectCallee(callee_ptr, ftype)
        fastmath = fastmath_words(op.fastmathFlags) if op.returned is not None else []
        cconv = op.CConv.cconv_name
        instr = b.call(
            callee,
            args,
            cconv=None if cconv == "ccc" else cconv,
            tail=op.TailCallKind.data != "none",
            fastmath=fastmath if is_float(op.returned) else (),
        )
        if op.returned is not None:
            self.values[op.returned] = instr

    def _op_llvm_call_intrinsic(self, op: Operation, b: ir.IRBuilder) -> None:
        args = [self._v(a) for a in op.operands]
        result = llvm_type(op.results[0].type) if op.results else ir.VoidType()
        name = op.properties["intrin"]
        assert isinstance(name, StringAttr)
        fn = self._function(name.data, ir.FunctionType(result, [a.type for a in args]))
        instr = b.call(fn, args)
        if op.results:
            self._set(op, instr)

    def _function(self, name: str, ftype: ir.FunctionType) -> ir.Function:
        existing = self.module.globals.get(name)
        if existing is not None:
            if existing.function_type != ftype:  # type: ignore[attr-defined]
                raise UnsupportedError(
                    f"'{name}' is used with types {existing.function_type} and {ftype}"
                )  # type: ignore[attr-defined]
            return existing  # type: ignore[return-value]
        return ir.Function(self.module, ftype, name=name)

    def _intrinsic(self, op: Operation, b: ir.IRBuilder) -> None:
        base = "llvm." + op.name.removeprefix("llvm.intr.")
        args = [self._v(a) for a in op.operands]
        result = llvm_type(op.results[0].type) if op.results else ir.VoidType()
        if base == "llvm.powi":
            overloads = [result, args[1].type]
        elif base == "llvm.memcpy":
            overloads = [a.type for a in args]
        elif base == "llvm.stackrestore" or base in ("llvm.is.fpclass",):
            overloads = [args[0].type]
        elif base == "llvm.trap":
            overloads = []
        else:
            overloads = [result] if op.results else [args[0].type]
        flag = _IMMARG_FLAG.get(op.name)
        if flag is not None:
            prop_name, width = flag
            attr = op.properties.get(prop_name)
            value = attr.value.data if isinstance(attr, IntegerAttr) else 0
            args.append(ir.Constant(ir.IntType(width), value & ((1 << width) - 1)))
        name = ".".join([base, *(intrinsic_suffix(t) for t in overloads)])
        fn = self._function(name, ir.FunctionType(result, [a.type for a in args]))
        fastmath = fastmath_words(op.properties.get("fastmathFlags")) if op.results else []
        instr = b.call(
            fn, args, fastmath=fastmath if is_float(op.results[0] if op.results else None) else ()
        )
        if op.results:
            self._set(op, instr)

    # vector ops of convert-vector-to-llvm (schedir/dialects/_vector_llvm.py)

    def _op_llvm_select(self, op: Operation, b: ir.IRBuilder) -> None:
        cond, lhs, rhs = (self._v(a) for a in op.operands)
        flags = fastmath_words(op.properties.get("fastmathFlags"))
        self._set(op, b.select(cond, lhs, rhs, flags=flags) if flags else b.select(cond, lhs, rhs))

    def _vector_reduce(self, op: Operation, b: ir.IRBuilder) -> None:
        """`llvm.vector.reduce.<kind>.<vector type>`: overloaded on the vector operand;
        fadd/fmul take the start value first (ordered unless `reassoc`)."""
        args = [self._v(a) for a in op.operands]
        result = llvm_type(op.results[0].type)
        base = "llvm." + op.name.removeprefix("llvm.intr.")
        name = f"{base}.{intrinsic_suffix(args[-1].type)}"
        fn = self._function(name, ir.FunctionType(result, [a.type for a in args]))
        fastmath = fastmath_words(op.properties.get("fastmathFlags"))
        self._set(op, b.call(fn, args, fastmath=fastmath if is_float(op.results[0]) else ()))

    _op_llvm_intr_vector_reduce_add = _op_llvm_intr_vector_reduce_mul = _vector_reduce
    _op_llvm_intr_vector_reduce_and = _op_llvm_intr_vector_reduce_or = _vector_reduce
    _op_llvm_intr_vector_reduce_xor = _vector_reduce
    _op_llvm_intr_vector_reduce_smax = _op_llvm_intr_vector_reduce_smin = _vector_reduce
    _op_llvm_intr_vector_reduce_umax = _op_llvm_intr_vector_reduce_umin = _vector_reduce
    _op_llvm_intr_vector_reduce_fmax = _op_llvm_intr_vector_reduce_fmin = _vector_reduce
    _op_llvm_intr_vector_reduce_fmaximum = _op_llvm_intr_vector_reduce_fminimum = _vector_reduce
    _op_llvm_intr_vector_reduce_fadd = _op_llvm_intr_vector_reduce_fmul = _vector_reduce

    def _alignment(self, op: Operation) -> ir.Constant:
        attr = op.properties.get("alignment")
        # Without an alignment the access may be unaligned: 1 is always correct.
        value = attr.value.data if isinstance(attr, IntegerAttr) and attr.value.data else 1
        return ir.Constant(ir.IntType(32), value)

    def _op_llvm_intr_masked_load(self, op: Operation, b: ir.IRBuilder) -> None:
        # The pre-LLVM-22 form with the alignment argument: the IR parser upgrades it.
        ptr, mask = self._v(op.operands[0]), self._v(op.operands[1])
        result = llvm_type(op.results[0].type)
        assert isinstance(result, ir.VectorType)
        passthru = self._v(op.operands[2]) if len(op.operands) > 2 else Poison(result)
        align = self._alignment(op)
        name = f"llvm.masked.load.{intrinsic_suffix(result)}.{intrinsic_suffix(ptr.type)}"
        args = [ptr, align, mask, passthru]
        fn = self._function(name, ir.FunctionType(result, [a.type for a in args]))
        self._set(op, b.call(fn, args))

    def _op_llvm_intr_masked_store(self, op: Operation, b: ir.IRBuilder) -> None:
        value, ptr, mask = (self._v(a) for a in op.operands)
        assert isinstance(value.type, ir.VectorType)
        align = self._alignment(op)
        name = f"llvm.masked.store.{intrinsic_suffix(value.type)}.{intrinsic_suffix(ptr.type)}"
        args = [value, ptr, align, mask]
        fn = self._function(name, ir.FunctionType(ir.VoidType(), [a.type for a in args]))
        b.call(fn, args)

    # control flow

    def _edge(
        self,
        b: ir.IRBuilder,
        source: Block,
        dest: Block,
        args: Sequence[SSAValue],
        seen: dict[Block, tuple[ir.Value, ...]],
    ) -> ir.Block:
        """The LLVM block to branch to for `source -> dest(args)`, adding phi incomings.

        A second edge to `dest` from the same terminator with other arguments goes
        through a new block, since a phi has one value per predecessor block.
        """
        values = tuple(self._v(a) for a in args)
        target = self.blocks[dest]
        if dest in seen and seen[dest] != values:
            trampoline = b.function.append_basic_block(name="edge")
            ir.IRBuilder(trampoline).branch(target)
            for arg, value in zip(dest.args, values, strict=True):
                self._v(arg).add_incoming(value, trampoline)  # type: ignore[attr-defined]
            return trampoline
        seen.setdefault(dest, values)
        for arg, value in zip(dest.args, values, strict=True):
            self._v(arg).add_incoming(value, b.block)  # type: ignore[attr-defined]
        return target

    def _op_llvm_br(self, op: Operation, b: ir.IRBuilder) -> None:
        assert op.parent is not None
        b.branch(self._edge(b, op.parent, op.successors[0], op.operands, {}))

    def _op_llvm_cond_br(self, op: Operation, b: ir.IRBuilder) -> None:
        assert isinstance(op, llvm.CondBrOp) and op.parent is not None
        seen: dict[Block, tuple[ir.Value, ...]] = {}
        then_target = self._edge(b, op.parent, op.then_block, op.then_arguments, seen)
        else_target = self._edge(b, op.parent, op.else_block, op.else_arguments, seen)
        b.cbranch(self._v(op.cond), then_target, else_target)

    def _op_llvm_switch(self, op: Operation, b: ir.IRBuilder) -> None:
        assert isinstance(op, llvm.SwitchOp) and op.parent is not None
        seen: dict[Block, tuple[ir.Value, ...]] = {}
        default = self._edge(b, op.parent, op.defaultDestination, op.defaultOperands, seen)
        targets = [
            (value, self._edge(b, op.parent, block, args, seen))
            for value, block, args in op.cases()
        ]
        switch = b.switch(self._v(op.value), default)
        for value, target in targets:
            switch.add_case(ir.Constant(llvm_type(op.value.type), value), target)


def _reverse_post_order(entry: Block) -> list[Block]:
    """Blocks reachable from `entry`, definitions before uses (iterative DFS)."""
    order: list[Block] = []
    visited = {entry}
    stack: list[tuple[Block, int]] = [(entry, 0)]
    while stack:
        block, index = stack.pop()
        successors = _successors(block)
        if index < len(successors):
            stack.append((block, index + 1))
            nxt = successors[index]
            if nxt not in visited:
                visited.add(nxt)
                stack.append((nxt, 0))
        else:
            order.append(block)
    order.reverse()
    return order


def _successors(block: Block) -> tuple[Block, ...]:
    last = block.last_op
    return tuple(last.successors) if last is not None else ()


_NEEDLESS_QUOTES = re.compile(r'([@%])"([-a-zA-Z$._][-a-zA-Z$._0-9]*)"')


def translate_module(module: ModuleOp) -> str:
    """LLVM IR text of a module in the LLVM dialect (see the module docstring)."""
    return _Translator(module).run()


__all__ = ["BFLOAT", "constant", "llvm_type", "translate_module"]
