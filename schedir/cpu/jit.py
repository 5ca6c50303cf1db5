"""The CPU JIT: LLVM IR text -> optimized native code in this process (llvmlite MCJIT).

`JitModule(ir)` parses and verifies the IR, targets the host (its CPU name and features
unless given), optimizes with LLVM's new pass manager at `-O<opt_level>`, compiles to an
object file, resolves the object's external symbols (libc, libm and libgcc first, then
schedir's own fallbacks for conversions some libgcc versions lack, such as
`__truncsfbf2`), and loads it with MCJIT. Every unresolved symbol is an error up front:
MCJIT would otherwise bind it to address 0 and the first call would crash the process.

For each function `_mlir_ciface_<name>` the module also gets upstream's packed wrapper
`_mlir__mlir_ciface_<name>(void **args)` (as mlir::ExecutionEngine adds them): `args[i]`
points to argument `i`, and, for a non-void function, `args[n]` points to where the result
is stored. Calling through it needs no knowledge of the platform's calling convention
for `half`, `bfloat` or `i1`, which ctypes cannot express.

`extra_symbols` (name -> address) resolves symbols the caller provides, before the C
libraries: the CUDA host code calls the `mgpu*` runtime functions that schedir.gpu.host
implements as ctypes callbacks (the caller keeps them alive as long as the module).

Failures raise `ToolError` with LLVM's message; the IR is written to a temporary file
named in the repro note.

This module must not import xDSL (it runs where only llvmlite is installed).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import struct
import tempfile
from collections.abc import Iterable, Mapping

import llvmlite.binding as llvm

from schedir.diagnostics import ToolError

PACKED_PREFIX = "_mlir_"
"""Packed wrapper of function F: `_mlir_` + F (upstream ExecutionEngine's name)."""
CIFACE_PREFIX = "_mlir_ciface_"

_FALLBACKS: dict[str, str] = {
    "__truncsfbf2": """
define bfloat @__truncsfbf2(float %x) {
  %b = bitcast float %x to i32
  %abs = and i32 %b, 2147483647
  %isnan = icmp ugt i32 %abs, 2139095040
  %hi = lshr i32 %b, 16
  %lsb = and i32 %hi, 1
  %bias = add i32 %lsb, 32767
  %r = add i32 %b, %bias
  %rne = lshr i32 %r, 16
  %qnan = or i32 %hi, 64
  %sel = select i1 %isnan, i32 %qnan, i32 %rne
  %t = trunc i32 %sel to i16
  %o = bitcast i16 %t to bfloat
  ret bfloat %o
}
""",
    "__truncdfbf2": """
declare double @llvm.fabs.f64(double)
define bfloat @__truncdfbf2(double %x) {
  %t = fptrunc double %x to float
  %back = fpext float %t to double
  %exact = fcmp oeq double %back, %x
  %tb = bitcast float %t to i32
  %ax = call double @llvm.fabs.f64(double %x)
  %aback = call double @llvm.fabs.f64(double %back)
  %up = fcmp ogt double %aback, %ax
  %dec = sub i32 %tb, 1
  %tz = select i1 %up, i32 %dec, i32 %tb
  %odd = or i32 %tz, 1
  %isnan = fcmp uno double %x, 0.0
  %inexact = xor i1 %exact, true
  %notnan = xor i1 %isnan, true
  %take_odd = and i1 %inexact, %notnan
  %b = select i1 %take_odd, i32 %odd, i32 %tb
  %hi = lshr i32 %b, 16
  %lsb = and i32 %hi, 1
  %bias = add i32 %lsb, 32767
  %r = add i32 %b, %bias
  %rne = lshr i32 %r, 16
  %qnan = or i32 %hi, 64
  %sel = select i1 %isnan, i32 %qnan, i32 %rne
  %h = trunc i32 %sel to i16
  %o = bitcast i16 %h to bfloat
  ret bfloat %o
}
""",
}
"""LLVM IR definitions of conversion helpers that libgcc before 13 does not export.

Both round to nearest even like compiler-rt; the double version first rounds to float
with round-to-odd so the two roundings give the correctly rounded result."""


def _initialize() -> None:
    # Idempotent in LLVM; llvmlite needs them before any target or JIT is created.
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()


class _SystemSymbols:
    """Addresses of C library symbols: the process, then libm, libgcc_s and libc."""

    def __init__(self) -> None:
        self._libraries: list[ctypes.CDLL] = [ctypes.CDLL(None)]
        for name in ("m", "gcc_s", "c"):
            path = ctypes.util.find_library(name)
            if path:
                try:
                    self._libraries.append(ctypes.CDLL(path))
                except OSError:
                    continue

    def find(self, name: str) -> int | None:
        for library in self._libraries:
            try:
                function = getattr(library, name)
            except AttributeError:
                continue
            address = ctypes.cast(function, ctypes.c_void_p).value
            if address:
                return address
        return None


def undefined_symbols(obj: bytes) -> list[str]:
    """Global symbols an ELF64 little-endian object file references but does not define."""
    if obj[:4] != b"\x7fELF" or obj[4] != 2 or obj[5] != 1:
        raise ToolError("the JIT expects 64-bit little-endian ELF objects from LLVM")
    (shoff,) = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + i * shentsize) for i in range(shnum)]
    names: list[str] = []
    for _name, kind, _flags, _addr, offset, size, link, _info, _align, entsize in sections:
        if kind != 2 or not entsize:  # SHT_SYMTAB
            continue
        strtab = sections[link][4]
        for k in range(size // entsize):
            st_name, st_info, _other, st_shndx, _value, _size = struct.unpack_from(
                "<IBBHQQ", obj, offset + k * entsize
            )
            binding = st_info >> 4
            if st_shndx == 0 and st_name and binding in (1, 2):  # UND, GLOBAL/WEAK
                end = obj.index(b"\0", strtab + st_name)
                names.append(obj[strtab + st_name : end].decode())
    return names


def _write_repro(text: str, suffix: str = ".ll") -> str:
    with tempfile.NamedTemporaryFile("w", suffix=suffix, prefix="schedir-jit-", delete=False) as f:
        f.write(text)
        return f.name


def _tool_error(message: str, err: BaseException, ir_text: str) -> ToolError:
    path = _write_repro(ir_text)
    return ToolError(
        message,
        log=str(err).strip(),
        repro=f"llc -O3 {path}  (the LLVM IR given to the JIT)",
    )


class JitModule:
    """LLVM IR compiled for the host CPU and loaded into this process."""

    def __init__(
        self,
        llvm_ir: str,
        *,
        opt_level: int = 3,
        cpu_name: str | None = None,
        cpu_features: str | None = None,
        extra_symbols: Mapping[str, int] | None = None,
    ) -> None:
        if not 0 <= opt_level <= 3:
            raise ValueError(f"opt_level must be 0..3, got {opt_level}")
        _initialize()
        self.source_ir = llvm_ir
        try:
            module = llvm.parse_assembly(llvm_ir)
            module.verify()
        except RuntimeError as err:
            raise _tool_error("LLVM rejected the IR", err, llvm_ir) from None

        triple = llvm.get_process_triple()
        target = llvm.Target.from_triple(triple)
        self.cpu_name = cpu_name if cpu_name is not None else llvm.get_host_cpu_name()
        self.cpu_features = (
            cpu_features if cpu_features is not None else llvm.get_host_cpu_features().flatten()
        )
        self._target_machine = target.create_target_machine(
            cpu=self.cpu_name,
            features=self.cpu_features,
            opt=opt_level,
            codemodel="jitdefault",
            jit=True,
        )
        data_layout = str(self._target_machine.target_data)
        module.triple = triple
        module.data_layout = data_layout
        try:
            self._add_packed_wrappers(module)
            if opt_level:
                tuning = llvm.create_pipeline_tuning_options(speed_level=opt_level)
                builder = llvm.create_pass_builder(self._target_machine, tuning)
                builder.getModulePassManager().run(module, builder)
            module.verify()
            obj = self._target_machine.emit_object(module)
        except RuntimeError as err:
            raise _tool_error("LLVM failed to optimize or compile the IR", err, llvm_ir) from None
        self._module = module
        self._assembly: str | None = None

        self._extra_symbols = dict(extra_symbols or {})
        support = self._resolve(undefined_symbols(obj), triple, data_layout, llvm_ir)
        empty = llvm.parse_assembly("")
        empty.triple = triple
        empty.data_layout = data_layout
        self._engine = llvm.create_mcjit_compiler(empty, self._target_machine)
        for extra in support:
            self._engine.add_module(extra)
        self._engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
        self._engine.finalize_object()
        self._functions = frozenset(f.name for f in module.functions if not f.is_declaration)

    # -- building ----------------------------------------------------------------------

    @staticmethod
    def _add_packed_wrappers(module: llvm.ModuleRef) -> None:
        """Add `_mlir_<f>(ptr args)` for every defined `_mlir_ciface_*` function."""
        lines: list[str] = []
        for fn in module.functions:
            if fn.is_declaration or not fn.name.startswith(CIFACE_PREFIX):
                continue
            ftype = fn.global_value_type
            params = [str(t) for t in ftype.get_function_parameters()]
            result = str(ftype.get_function_return())
            lines.append(f'declare {result} @"{fn.name}"({", ".join(params)})')
            body = [f'define void @"{PACKED_PREFIX}{fn.name}"(ptr %args) {{']
            call_args: list[str] = []
            for i, param in enumerate(params):
                body += [
                    f"  %p{i} = getelementptr ptr, ptr %args, i64 {i}",
                    f"  %a{i} = load ptr, ptr %p{i}",
                    f"  %v{i} = load {param}, ptr %a{i}",
                ]
                call_args.append(f"{param} %v{i}")
            call = f'call {result} @"{fn.name}"({", ".join(call_args)})'
            if result == "void":
                body.append(f"  {call}")
            else:
                n = len(params)
                body += [
                    f"  %r = {call}",
                    f"  %rp = getelementptr ptr, ptr %args, i64 {n}",
                    "  %ra = load ptr, ptr %rp",
                    f"  store {result} %r, ptr %ra",
                ]
            body += ["  ret void", "}"]
            lines += body
        if not lines:
            return
        wrappers = llvm.parse_assembly("\n".join(lines))
        wrappers.triple = module.triple
        wrappers.data_layout = module.data_layout
        module.link_in(wrappers)

    def _resolve(
        self, names: Iterable[str], triple: str, data_layout: str, llvm_ir: str
    ) -> list[llvm.ModuleRef]:
        """Register every external symbol of the object; fallbacks for missing helpers."""
        system = _SystemSymbols()
        support: list[llvm.ModuleRef] = []
        missing: list[str] = []
        for name in sorted(set(names)):
            # The caller's symbols first: they are what the code was compiled against.
            address = self._extra_symbols.get(name) or system.find(name)
            if address is not None:
                llvm.add_symbol(name, address)
            elif name in _FALLBACKS:
                extra = llvm.parse_assembly(_FALLBACKS[name])
                extra.triple = triple
                extra.data_layout = data_layout
                support.append(extra)
            else:
                missing.append(name)
        if missing:
            path = _write_repro(llvm_ir)
            raise ToolError(
                f"the JIT cannot resolve {', '.join(repr(m) for m in missing)}: not in libc, "
                "libm, libgcc_s or the extra symbols given",
                repro=f"the IR is in {path}",
            )
        return support

    # -- use ---------------------------------------------------------------------------

    def address(self, name: str) -> int:
        """The address of function `name` (a ToolError if it is not defined here)."""
        if name not in self._functions:
            known = ", ".join(sorted(self._functions)) or "none"
            raise ToolError(f"the JIT module defines no function '{name}' (defined: {known})")
        address = self._engine.get_function_address(name)
        if not address:
            raise ToolError(f"the JIT could not locate function '{name}'")
        return address

    def has_function(self, name: str) -> bool:
        return name in self._functions

    @property
    def optimized_ir(self) -> str:
        """The module after optimization (what was compiled), as LLVM IR text."""
        return str(self._module)

    @property
    def assembly(self) -> str:
        """Host assembly of the optimized module (emitted on first use)."""
        if self._assembly is None:
            self._assembly = self._target_machine.emit_assembly(self._module)
        return self._assembly


__all__ = ["CIFACE_PREFIX", "PACKED_PREFIX", "JitModule", "undefined_symbols"]
