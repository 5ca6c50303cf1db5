"""The CPU JIT: LLVM IR text -> optimized native code in this process (llvmlite MCJIT).

`JitModule(ir)` targets the host (its CPU name and features unless given) and has the
LLVM worker (`schedir.cpu.llvm_worker`: a child process, so that an LLVM assertion
failure cannot end this one) parse and verify the IR, optimize it with LLVM's new pass
manager at `-O<opt_level>` and compile it to an object file (`compile_object`). Here it
then resolves the object's external symbols (libc, libm and libgcc first, then
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
named in the repro note. An LLVM crash in the worker raises `InternalCompilerError`
(after one more try without the pass it names, if it names the loop or SLP vectorizer
or the unroller: then only a warning).

Runtime checks (`--runtime-verification`, see `RUNTIME_CHECK_FAILED`): a failed check
jumps back to the packed wrapper (`_setjmp`/`longjmp`), and `checked_call` turns the
status it left into a located `RuntimeVerificationError`.

This module must not import xDSL (it runs where only llvmlite is installed).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import struct
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

import llvmlite.binding as llvm

from schedir.cpu.llvm_worker import LlvmWorker, avoiding_crashed_passes, default_worker
from schedir.diagnostics import (
    Diagnostic,
    Location,
    Note,
    RuntimeVerificationError,
    ToolError,
)

STAGE = "llvm-ir -> object"
"""The name of the JIT's compile step in crash reports."""

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


RUNTIME_CHECK_FAILED = "__schedir_runtime_check_failed"
"""`void (ptr message, i64 value0, i64 value1)`: what code instrumented by
`generate-runtime-verification` calls when a check fails. `message` is a NUL-terminated
`file:line:col` line, then the message, in which `{0}` and `{1}` stand for the values."""
RUNTIME_CHECK_STATUS = "__schedir_runtime_check_status"
"""`{ptr message, i64 value0, i64 value1}`: the failed check of the last call (null message:
none), read and cleared by `JitModule.checked_call`."""
_JMPBUF = "__schedir_runtime_check_jmpbuf"

_RUNTIME_CHECK_SUPPORT: list[str] = [
    # glibc's x86-64 jmp_buf is 200 bytes; 512 leaves room for any libc.
    f"@{_JMPBUF} = internal global [64 x i64] zeroinitializer, align 16",
    f"@{RUNTIME_CHECK_STATUS} = global {{ptr, i64, i64}} zeroinitializer, align 8",
    "declare i32 @_setjmp(ptr) #0",
    "declare void @longjmp(ptr, i32) #1",
    f"define void @{RUNTIME_CHECK_FAILED}(ptr %message, i64 %v0, i64 %v1) #1 {{",
    f"  %m = getelementptr {{ptr, i64, i64}}, ptr @{RUNTIME_CHECK_STATUS}, i32 0, i32 0",
    "  store ptr %message, ptr %m",
    f"  %a = getelementptr {{ptr, i64, i64}}, ptr @{RUNTIME_CHECK_STATUS}, i32 0, i32 1",
    "  store i64 %v0, ptr %a",
    f"  %b = getelementptr {{ptr, i64, i64}}, ptr @{RUNTIME_CHECK_STATUS}, i32 0, i32 2",
    "  store i64 %v1, ptr %b",
    f"  call void @longjmp(ptr @{_JMPBUF}, i32 1) #1",
    "  unreachable",
    "}",
    "attributes #0 = { returns_twice }",
    "attributes #1 = { noreturn }",
]
"""The failure handler, its status slot and jump buffer (linked into checked modules)."""


def _add_packed_wrappers(module: llvm.ModuleRef) -> bool:
    """Add `_mlir_<f>(ptr args)` for every defined `_mlir_ciface_*` function.

    When the module calls `RUNTIME_CHECK_FAILED` (`--runtime-verification`), each wrapper
    first `_setjmp`s to a module-wide jump buffer, and the failure handler defined here
    records its message and values in `RUNTIME_CHECK_STATUS` and `longjmp`s back: a failed
    check ends the call, not the process. Returns whether the module has such checks.
    """
    checks = any(f.name == RUNTIME_CHECK_FAILED for f in module.functions)
    lines: list[str] = []
    for fn in module.functions:
        if fn.is_declaration or not fn.name.startswith(CIFACE_PREFIX):
            continue
        ftype = fn.global_value_type
        params = [str(t) for t in ftype.get_function_parameters()]
        result = str(ftype.get_function_return())
        lines.append(f'declare {result} @"{fn.name}"({", ".join(params)})')
        body = [f'define void @"{PACKED_PREFIX}{fn.name}"(ptr %args) {{']
        if checks:
            body += [
                f"  %jumped = call i32 @_setjmp(ptr @{_JMPBUF}) #0",
                "  %first = icmp eq i32 %jumped, 0",
                "  br i1 %first, label %run, label %failed",
                "failed:",
                "  ret void",
                "run:",
            ]
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
    if checks:
        lines += _RUNTIME_CHECK_SUPPORT
    if not lines:
        return checks
    wrappers = llvm.parse_assembly("\n".join(lines))
    wrappers.triple = module.triple
    wrappers.data_layout = module.data_layout
    module.link_in(wrappers)
    return checks


@dataclass(frozen=True)
class ObjectCode:
    """What the worker gives back for a module: its object file and what the parent needs
    to load and describe it."""

    obj: bytes
    optimized_ir: str
    functions: frozenset[str]
    triple: str
    data_layout: str
    runtime_checks: bool
    """Whether the module reports failed runtime checks (`RUNTIME_CHECK_FAILED`)."""


def _target_machine(
    cpu_name: str, cpu_features: str, opt_level: int
) -> tuple[llvm.TargetMachine, str]:
    _initialize()
    triple = llvm.get_process_triple()
    machine = llvm.Target.from_triple(triple).create_target_machine(
        cpu=cpu_name, features=cpu_features, opt=opt_level, codemodel="jitdefault", jit=True
    )
    return machine, triple


def compile_object(
    llvm_ir: str,
    opt_level: int,
    cpu_name: str,
    cpu_features: str,
    disabled: tuple[str, ...] = (),
) -> ObjectCode:
    """Parse, verify, optimize and compile `llvm_ir` to an object file for the given CPU.

    Runs in the LLVM worker (or in this process when asked). `disabled` names pipeline
    tuning options turned off (e.g. "loop_vectorization").
    """
    machine, triple = _target_machine(cpu_name, cpu_features, opt_level)
    try:
        module = llvm.parse_assembly(llvm_ir)
        module.verify()
    except RuntimeError as err:
        raise _tool_error("LLVM rejected the IR", err, llvm_ir) from None
    data_layout = str(machine.target_data)
    module.triple = triple
    module.data_layout = data_layout
    try:
        runtime_checks = _add_packed_wrappers(module)
        if opt_level:
            tuning = llvm.create_pipeline_tuning_options(speed_level=opt_level)
            for option in disabled:
                setattr(tuning, option, False)
            builder = llvm.create_pass_builder(machine, tuning)
            builder.getModulePassManager().run(module, builder)
        module.verify()
        obj = machine.emit_object(module)
    except RuntimeError as err:
        raise _tool_error("LLVM failed to optimize or compile the IR", err, llvm_ir) from None
    functions = frozenset(f.name for f in module.functions if not f.is_declaration)
    return ObjectCode(obj, str(module), functions, triple, data_layout, runtime_checks)


def object_code(
    llvm_ir: str,
    *,
    opt_level: int = 3,
    cpu_name: str | None = None,
    cpu_features: str | None = None,
    worker: LlvmWorker | None = None,
    on_diagnostic: Callable[[Diagnostic], None] | None = None,
) -> ObjectCode:
    """Optimize and compile `llvm_ir` to object code for a CPU (the host's unless given)
    in the LLVM `worker` (None: in this process), once more without a pass that crashed
    (a warning to `on_diagnostic`, stderr without one). `JitModule(code=...)` loads it."""
    _initialize()
    name = cpu_name if cpu_name is not None else llvm.get_host_cpu_name()
    features = cpu_features if cpu_features is not None else llvm.get_host_cpu_features().flatten()
    args = (llvm_ir, opt_level, name, features)
    if worker is None:
        return compile_object(*args)

    def warn(warning: Diagnostic) -> None:
        if on_diagnostic is not None:
            on_diagnostic(warning)
        else:
            print(warning.render(), file=sys.stderr)

    def repro() -> list[Note]:
        path = _write_repro(llvm_ir)
        return [
            Note(f"the LLVM IR given to the JIT is in {path}"),
            Note(
                f"repro: opt -O{opt_level} {path} | llc -O{opt_level} "
                f"-mcpu={name} -filetype=obj -o /dev/null"
            ),
        ]

    def attempt(disabled: tuple[str, ...]) -> ObjectCode:
        return worker.call(compile_object, *args, disabled, stage=STAGE, repro=repro)

    return avoiding_crashed_passes(attempt, warn)


def emit_assembly(optimized_ir: str, opt_level: int, cpu_name: str, cpu_features: str) -> str:
    """Host assembly of an already optimized module (code generation only)."""
    machine, _ = _target_machine(cpu_name, cpu_features, opt_level)
    return machine.emit_assembly(llvm.parse_assembly(optimized_ir))


class JitModule:
    """LLVM IR compiled for the host CPU and loaded into this process.

    Optimization and code generation run in the LLVM worker (`schedir.cpu.llvm_worker`)
    unless `isolated=False` (for debugging: an LLVM crash then ends this process). An LLVM
    crash is an `InternalCompilerError`; when its message names a pass that can be turned
    off (the loop or SLP vectorizer, the unroller) the module is compiled once more
    without it and a warning goes to `on_diagnostic` (stderr without one). Loading the
    object (MCJIT) happens here and runs no optimization.
    """

    def __init__(
        self,
        llvm_ir: str,
        *,
        opt_level: int = 3,
        cpu_name: str | None = None,
        cpu_features: str | None = None,
        extra_symbols: Mapping[str, int] | None = None,
        isolated: bool = True,
        worker: LlvmWorker | None = None,
        on_diagnostic: Callable[[Diagnostic], None] | None = None,
        code: ObjectCode | None = None,
    ) -> None:
        """`code`: the object code of `llvm_ir` compiled elsewhere (`object_code`) for the
        same options and CPU (the tuner's compile workers): then it is only loaded here."""
        if not 0 <= opt_level <= 3:
            raise ValueError(f"opt_level must be 0..3, got {opt_level}")
        _initialize()
        self.source_ir = llvm_ir
        self.opt_level = opt_level
        self.cpu_name = cpu_name if cpu_name is not None else llvm.get_host_cpu_name()
        self.cpu_features = (
            cpu_features if cpu_features is not None else llvm.get_host_cpu_features().flatten()
        )
        self._isolated = isolated
        self._worker = worker if worker is not None or not isolated else default_worker()
        self._on_diagnostic = on_diagnostic
        code = code if code is not None else self._compile()
        self._code = code
        self._assembly: str | None = None
        self._target_machine, _ = _target_machine(self.cpu_name, self.cpu_features, opt_level)
        self._extra_symbols = dict(extra_symbols or {})
        support = self._resolve(undefined_symbols(code.obj), llvm_ir)
        empty = llvm.parse_assembly("")
        empty.triple = code.triple
        empty.data_layout = code.data_layout
        self._engine = llvm.create_mcjit_compiler(empty, self._target_machine)
        for extra in support:
            self._engine.add_object_file(llvm.ObjectFileRef.from_data(extra))
        self._engine.add_object_file(llvm.ObjectFileRef.from_data(code.obj))
        self._engine.finalize_object()
        self._functions = code.functions
        self._check_lock = threading.Lock()

    # -- building ----------------------------------------------------------------------

    def _compile(self) -> ObjectCode:
        """The object code, from the worker; once more without a pass that crashed."""
        return object_code(
            self.source_ir,
            opt_level=self.opt_level,
            cpu_name=self.cpu_name,
            cpu_features=self.cpu_features,
            worker=self._worker,
            on_diagnostic=self._on_diagnostic,
        )

    def _resolve(self, names: Iterable[str], llvm_ir: str) -> list[bytes]:
        """Register every external symbol of the object; the object code of the fallbacks
        for missing helpers (compiled as the module is, by the worker)."""
        system = _SystemSymbols()
        support: list[bytes] = []
        missing: list[str] = []
        for name in sorted(set(names)):
            # The caller's symbols first: they are what the code was compiled against.
            address = self._extra_symbols.get(name) or system.find(name)
            if address is not None:
                llvm.add_symbol(name, address)
            elif name in _FALLBACKS:
                args = (_FALLBACKS[name], self.opt_level, self.cpu_name, self.cpu_features)
                if self._worker is None:
                    support.append(compile_object(*args).obj)
                else:
                    support.append(self._worker.call(compile_object, *args, stage=STAGE).obj)
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
        return self._code.optimized_ir

    @property
    def assembly(self) -> str:
        """Host assembly of the optimized module (emitted on first use, in the worker)."""
        if self._assembly is None:
            args = (self._code.optimized_ir, self.opt_level, self.cpu_name, self.cpu_features)
            if self._worker is None:
                self._assembly = emit_assembly(*args)
            else:
                self._assembly = self._worker.call(emit_assembly, *args, stage="llvm-ir -> asm")
        return self._assembly

    @property
    def runtime_checks(self) -> bool:
        """Whether the module reports failed runtime checks (`--runtime-verification`)."""
        return self._code.runtime_checks

    @contextlib.contextmanager
    def checked_call(self) -> Iterator[None]:
        """Around a call into the module: raises `RuntimeVerificationError` if a runtime
        check failed during it. Calls of a checked module are serialized (its jump buffer
        and status slot are shared)."""
        if not self._code.runtime_checks:
            yield
            return
        status = self._engine.get_global_value_address(RUNTIME_CHECK_STATUS)
        slot = (ctypes.c_int64 * 3).from_address(status)
        with self._check_lock:
            slot[0] = slot[1] = slot[2] = 0
            yield
            message, first, second = slot[0], slot[1], slot[2]
            slot[0] = 0
        if message:
            raise runtime_check_error(
                ctypes.string_at(message).decode(errors="replace"), first, second
            )


def runtime_check_error(text: str, first: int, second: int) -> RuntimeVerificationError:
    """The error of a failed check: `text` is its `file:line:col` line, then the message."""
    where, _, message = text.partition("\n")
    location = None
    parts = where.rsplit(":", 2)
    if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        location = Location(parts[0], int(parts[1]), int(parts[2]))
    message = message.replace("{0}", str(first)).replace("{1}", str(second))
    return RuntimeVerificationError(f"runtime verification failed: {message}", location)


__all__ = [
    "CIFACE_PREFIX",
    "PACKED_PREFIX",
    "RUNTIME_CHECK_FAILED",
    "RUNTIME_CHECK_STATUS",
    "STAGE",
    "JitModule",
    "ObjectCode",
    "compile_object",
    "emit_assembly",
    "object_code",
    "runtime_check_error",
    "undefined_symbols",
]
