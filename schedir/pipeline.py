"""The compile stages as data, and the driver that runs them.

    payload -> scheduled -> llvm-dialect -> llvm-ir -> (cpu: native code | cuda: ptx -> cubin)

Each stage has a name (`STAGES`) so it can be printed (`--emit`), dumped (`dump_dir`) and
tested alone. Pass pipelines come from `schedir.lowering.pipelines`; passes run with the
verifier after each one, and every failure is a `SchedirError` with a location.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpecParseError
from xdsl.utils.exceptions import DiagnosticException

from schedir.abi import DYNAMIC, ArgSpec, EntrySignature, MemRefSpec, is_out_param
from schedir.diagnostics import (
    Diagnostic,
    InputError,
    LoweringError,
    Note,
    SchedirError,
    UnsupportedError,
)
from schedir.dialects.syntax import op_location, verify_module
from schedir.lowering import get_all_passes
from schedir.lowering.pipelines import PIPELINES
from schedir.options import CompileOptions


@dataclass(frozen=True)
class Stage:
    """One named compile stage and what its text holds."""

    name: str
    description: str


STAGES: tuple[Stage, ...] = (
    Stage("payload", "the parsed payload module, as written"),
    Stage("scheduled", "the payload after its transform schedule"),
    Stage("llvm-dialect", "the module lowered to the LLVM dialect"),
    Stage("llvm-ir", "LLVM IR text, as llvmlite reads it"),
    Stage("ptx", "PTX assembly from LLVM's NVPTX backend"),
    Stage("cubin", "the CUDA binary loaded by the driver"),
)
STAGE_NAMES: tuple[str, ...] = tuple(s.name for s in STAGES)

AfterPass = Callable[[ModulePass, ModuleOp], None]


def parse_pass_pipeline(spec: str) -> tuple[ModulePass, ...]:
    """Passes from a `-p` spec such as `canonicalize,one-shot-bufferize{x=true}`."""
    if not spec.strip():
        return ()
    available = get_all_passes()
    from xdsl.utils.arg_spec import parse_pipeline

    try:
        specs = tuple(parse_pipeline(_quote_dotted_values(spec)))
    except ArgSpecParseError as err:
        raise InputError(f"invalid pass pipeline '{spec}': {err}") from None
    passes: list[ModulePass] = []
    for pass_spec in specs:
        factory = available.get(pass_spec.name)
        if factory is None:
            known = ", ".join(sorted(available))
            raise InputError(
                f"unknown pass '{pass_spec.name}'", notes=(Note(f"available passes: {known}"),)
            )
        try:
            passes.append(factory().from_pass_spec(pass_spec))
        except (ValueError, TypeError, ArgSpecParseError) as err:
            raise InputError(f"invalid options for pass '{pass_spec.name}': {err}") from None
    return tuple(passes)


_DOTTED_VALUE = re.compile(r"(?<=[=,])([A-Za-z_][\w-]*(?:\.[\w-]+)+)(?=[\s,}])")


def _quote_dotted_values(spec: str) -> str:
    """Quote option values such as `linalg.copy`, which upstream accepts bare.

    xDSL's pipeline lexer has no dots in identifiers; pass names never contain dots, so
    only option values are affected.
    """
    return _DOTTED_VALUE.sub(r'"\1"', spec)


def run_passes(
    ctx: Context,
    module: ModuleOp,
    passes: Sequence[ModulePass],
    *,
    after_pass: AfterPass | None = None,
    verify_each: bool = True,
) -> None:
    """Run `passes` in order on `module`, verifying after each; failures are SchedirErrors."""
    for p in passes:
        try:
            p.apply(ctx, module)
        except SchedirError:
            raise
        except DiagnosticException as err:
            raise LoweringError(
                f"pass '{p.name}' failed: {_first_line(err)}", op_location(module)
            ) from None
        if verify_each:
            try:
                verify_module(module)
            except SchedirError as err:
                err.notes += (Note(f"the IR is invalid after pass '{p.name}'"),)
                raise
        if after_pass is not None:
            after_pass(p, module)


def _schedule_ops(module: ModuleOp) -> list[Operation]:
    """Top-level transform ops, and nested modules that hold only a schedule.

    Upstream's own tests put the schedule in a nested `module attributes
    {transform.with_named_sequence}` next to the payload's functions.
    """
    found: list[Operation] = []
    for op in module.ops:
        if op.name.startswith("transform.") or (
            isinstance(op, ModuleOp)
            and "transform.with_named_sequence" in op.attributes
            and all(inner.name.startswith("transform.") for inner in op.ops)
        ):
            found.append(op)
    return found


def has_schedule(module: ModuleOp) -> bool:
    """True if the module carries transform IR (an embedded schedule)."""
    return "transform.with_named_sequence" in module.attributes or bool(_schedule_ops(module))


def strip_schedule(module: ModuleOp) -> None:
    """Remove the schedule (transform ops, or a nested schedule module) from a payload module."""
    for op in _schedule_ops(module):
        op.detach()
        op.erase(safe_erase=False)
    module.attributes.pop("transform.with_named_sequence", None)


StepCheck = Callable[[Operation, Operation], None]
"""Called after each top-level transform op with (transform op, payload root)."""


def apply_schedule(
    ctx: Context,
    module: ModuleOp,
    library: ModuleOp | None = None,
    *,
    entry_point: str = "__transform_main",
    after_step: StepCheck | None = None,
    on_diagnostic: Callable[[Diagnostic], None] | None = None,
) -> bool:
    """Run the schedule of `module` (embedded, or `library`), then strip it from the payload.

    As upstream's transform interpreter, the payload root is the whole module; with a
    library (upstream's preloaded schedule) named sequences are looked up there first.
    Returns whether a schedule ran. Remarks and warnings of the run go to `on_diagnostic`
    (to stderr without it).
    """
    from schedir.transform.interpreter import InterpreterHooks, TransformInterpreter

    if library is None and not has_schedule(module):
        return False
    interp = TransformInterpreter(
        ctx,
        module,
        library if library is not None else module,
        passes=get_all_passes(),
        hooks=InterpreterHooks(after_top_level_op=after_step, on_diagnostic=on_diagnostic),
    )
    if (
        library is not None
        and interp.find_named_sequence(entry_point) is None
        and has_schedule(module)
    ):
        interp = TransformInterpreter(
            ctx,
            module,
            module,
            passes=get_all_passes(),
            hooks=InterpreterHooks(after_top_level_op=after_step, on_diagnostic=on_diagnostic),
        )
    interp.run(entry_point)
    strip_schedule(module)
    verify_module(module)
    return True


def lower(
    ctx: Context,
    module: ModuleOp,
    pipeline: str | Sequence[str],
    *,
    after_pass: AfterPass | None = None,
    verify_each: bool = False,
) -> None:
    """Run a lowering pipeline: a name of `schedir.lowering.pipelines.PIPELINES`, or the
    pass specs themselves (see `cuda_passes`).

    The module is verified once at the end; `verify_each` verifies after every pass, as
    `schedir-opt -p` does (it costs about as much as the passes themselves).
    """
    specs = PIPELINES[pipeline] if isinstance(pipeline, str) else tuple(pipeline)
    passes = parse_pass_pipeline(",".join(specs))
    run_passes(ctx, module, passes, after_pass=after_pass, verify_each=verify_each)
    if not verify_each:
        try:
            verify_module(module)
        except SchedirError as err:
            name = pipeline if isinstance(pipeline, str) else "cuda"
            err.notes += (Note(f"the IR is invalid after the '{name}' pipeline"),)
            raise


def _is_llvm_dialect(module: ModuleOp) -> bool:
    return all(op.name.startswith("llvm.") for op in module.ops)


def emit_llvm_ir(
    ctx: Context, module: ModuleOp, *, target: str = "cpu", after_pass: AfterPass | None = None
) -> str:
    """LLVM IR text of a module, lowering it to the LLVM dialect first if needed (for
    "cuda", the host code with the kernels embedded; `emit_ptx` gives the kernels)."""
    if target not in ("cpu", "cuda"):
        raise UnsupportedError(f"--emit llvm for target '{target}' is not supported")
    if not _is_llvm_dialect(module):
        if target == "cuda":
            lower(ctx, module, cuda_passes(CompileOptions(target="cuda")), after_pass=after_pass)
        else:
            lower(ctx, module, "cpu", after_pass=after_pass)
    from schedir.lowering.to_llvm_ir import translate_module

    return translate_module(module)


def cuda_passes(options: CompileOptions) -> tuple[str, ...]:
    """The "cuda" pipeline for the arch, PTX version and -O level of `options`."""
    from schedir.gpu import GpuTarget
    from schedir.lowering.pipelines import BUFFERIZE, cuda_to_llvm

    target = GpuTarget.from_options(options)
    return BUFFERIZE + cuda_to_llvm(target.arch, target.ptx_feature, options.opt_level)


def kernels_ptx(module: ModuleOp) -> str:
    """The PTX of the `gpu.binary` ops of `module` (one module after the other)."""
    texts = [
        obj.object.data  # type: ignore[attr-defined]
        for op in module.ops
        if op.name == "gpu.binary"
        for obj in op.properties["objects"].data  # type: ignore[attr-defined]
        if getattr(obj, "format", None) is not None and obj.format.data == "assembly"  # type: ignore[attr-defined]
    ]
    return "\n".join(texts)


def has_gpu_kernels(module: ModuleOp) -> bool:
    """Whether the (scheduled) module launches anything on the GPU."""
    return any(
        op.name in ("gpu.launch", "gpu.launch_func", "gpu.module", "gpu.binary")
        for op in module.walk()
    )


def emit_ptx(
    ctx: Context,
    module: ModuleOp,
    *,
    options: CompileOptions | None = None,
    after_pass: AfterPass | None = None,
) -> str:
    """PTX of a module's GPU kernels (no GPU needed).

    The module is lowered with the "cuda" pipeline up to `gpu-module-to-binary` unless its
    kernels are compiled already (`gpu.binary`).
    """
    options = options or CompileOptions(target="cuda")
    if not any(op.name == "gpu.binary" for op in module.ops):
        if not has_gpu_kernels(module):
            raise UnsupportedError(
                "the module has no GPU kernel: the schedule must map the computation to "
                "blocks and threads (transform.gpu.map_forall_to_blocks)",
                op_location(module),
            )
        passes = cuda_passes(options)
        last = next(i for i, p in enumerate(passes) if p.startswith("gpu-module-to-binary"))
        lower(ctx, module, passes[: last + 1], after_pass=after_pass)
    return kernels_ptx(module)


@dataclass
class StepChecker:
    """Per-step checking of a schedule: run the payload after each top-level transform op.

    The untransformed payload is evaluated once by the reference on seeded random inputs;
    after every top-level transform op a copy of the payload (schedule stripped) is lowered,
    JIT-compiled and run on the same inputs. The first op after which the results differ
    gets a definite error at its line with the size of the difference. Steps whose IR the
    CPU pipeline cannot run (yet) are recorded in `skipped`, never silently passed.
    """

    ctx: Context
    signature: EntrySignature
    inputs: list[np.ndarray]
    expected: list[np.ndarray]
    reduction_length: int
    options: CompileOptions
    skipped: list[tuple[Operation, str]]

    @staticmethod
    def for_module(
        ctx: Context, module: ModuleOp, entry: str | None, options: CompileOptions, seed: int = 0
    ) -> StepChecker:
        from schedir import reference
        from schedir.dialects.types import entry_signature, find_entry

        payload = module.clone()
        strip_schedule(payload)
        signature = entry_signature(find_entry(payload, entry))
        inputs = reference.random_inputs(signature, seed)
        expected = reference.evaluate(payload, signature.name, inputs)
        length = reference.reduction_length(payload, signature.name)
        return StepChecker(ctx, signature, inputs, expected, length, options, [])

    def __call__(self, transform_op: Operation, root: Operation) -> None:
        from schedir import reference
        from schedir.diagnostics import TransformError
        from schedir.dialects.types import find_entry

        assert isinstance(root, ModuleOp)
        payload = root.clone()
        strip_schedule(payload)
        try:
            prepare_entry(find_entry(payload, self.signature.name))
            llvm_ir = emit_llvm_ir(self.ctx, payload, target="cpu")
            executable = CpuExecutable.build(llvm_ir, self.signature, self.options)
        except (UnsupportedError, LoweringError) as err:
            self.skipped.append((transform_op, err.message))
            return
        results = executable.run(self.inputs, prefill_nan=True)
        for index, (spec, got, want) in enumerate(
            zip(self.signature.results, results, self.expected, strict=True)
        ):
            check = reference.compare(got, want, spec.dtype, self.reduction_length)
            if check.ok:
                continue
            which = f"result #{index}" if len(results) > 1 else "the result"
            raise TransformError(
                f"this transform op changes {which} of @{self.signature.name}: "
                f"max_abs_err={check.max_abs_err:.3g} max_rel_err={check.max_rel_err:.3g} "
                f"({check.num_mismatches} of {got.size} elements differ)",
                op_location(transform_op),
                (Note(check.message),) if check.message else (),
            )


@dataclass(frozen=True)
class CpuExecutable:
    """A JIT-compiled entry function and the ABI to call it on numpy arrays.

    The entry's tensor arguments are passed as read-only memrefs; statically shaped results
    are written into arrays allocated here (trailing out-params, see
    `buffer-results-to-out-params`); dynamically shaped results come back from the kernel.
    """

    signature: EntrySignature
    function: Any

    @staticmethod
    def build(llvm_ir: str, signature: EntrySignature, options: CompileOptions) -> CpuExecutable:
        """JIT-compile `llvm_ir` and bind its `_mlir_ciface_` wrapper of the entry."""
        from schedir.cpu.jit import JitModule
        from schedir.cpu.runtime import CpuFunction

        params = [*signature.args, *signature.out_params]
        results = [r for r in signature.results if not is_out_param(r)]
        jit = JitModule(
            llvm_ir,
            opt_level=options.opt_level,
            cpu_name=options.cpu_name,
            cpu_features=options.cpu_features,
        )
        return CpuExecutable(
            signature, CpuFunction(jit, f"_mlir_ciface_{signature.name}", params, results)
        )

    def run(self, args: Sequence[Any], *, prefill_nan: bool = False) -> list[np.ndarray]:
        """Call with `args` (checked against the signature); all results, in order."""
        params = self._params(args, prefill_nan)
        return self._collect(params, self.function(*params))

    def bind(self, args: Sequence[Any]) -> Callable[[], object]:
        """A call with fixed arguments and outputs, for timing."""
        params = self._params(args, False)
        return lambda: self.function(*params)

    def _params(self, args: Sequence[Any], prefill_nan: bool) -> list[Any]:
        sig = self.signature
        if len(args) != len(sig.args):
            raise InputError(
                f"@{sig.name} takes {len(sig.args)} argument(s) "
                f"({', '.join(a.mlir_type for a in sig.args)}), got {len(args)}"
            )
        params = [
            _check_arg(i, spec, value)
            for i, (spec, value) in enumerate(zip(sig.args, args, strict=True))
        ]
        params += [_new_output(spec, prefill_nan) for spec in sig.out_params]
        return params

    def _collect(self, params: list[Any], returned: Sequence[Any]) -> list[np.ndarray]:
        outs = iter(params[len(self.signature.args) :])
        rets = iter(returned)
        return [
            next(outs) if is_out_param(spec) else np.asarray(next(rets), dtype=spec.dtype)
            for spec in self.signature.results
        ]


@dataclass(frozen=True)
class CudaExecutable:
    """A CUDA program: its host code JIT-compiled for this CPU, calling the kernels through
    the `mgpu*` runtime of `schedir.gpu.host`, and the ABI to call it on arrays.

    Arguments are numpy arrays (copied to the device) or device arrays (used in place;
    copied first when the program writes them, see `written`); statically shaped results
    are device buffers allocated per call and returned as numpy arrays.
    """

    signature: EntrySignature
    function: Any
    """The `schedir.gpu.host.HostFunction` of the entry."""
    jit: Any
    """The JIT module holding the host code (kept alive with the function)."""

    @staticmethod
    def build(
        llvm_ir: str,
        signature: EntrySignature,
        options: CompileOptions,
        written: Sequence[int] = (),
        runtime: Any = None,
    ) -> CudaExecutable:
        """JIT-compile the host code `llvm_ir` against `runtime` (a new `HostRuntime` by
        default; tests pass one that records the runtime calls)."""
        from schedir.cpu.jit import CIFACE_PREFIX, PACKED_PREFIX, JitModule
        from schedir.gpu.host import HostFunction, HostRuntime

        for spec in signature.results:
            if not is_out_param(spec):
                raise UnsupportedError(
                    f"@{signature.name} returns {spec.mlir_type}: dynamically shaped or scalar "
                    "results are not supported on the cuda target yet"
                )

        params = [*signature.args, *signature.results]
        runtime = runtime if runtime is not None else HostRuntime()
        jit = JitModule(
            llvm_ir,
            opt_level=options.opt_level,
            cpu_name=options.cpu_name,
            cpu_features=options.cpu_features,
            extra_symbols=runtime.symbols(),
        )
        address = jit.address(f"{PACKED_PREFIX}{CIFACE_PREFIX}{signature.name}")
        outputs = range(len(signature.args), len(params))
        function = HostFunction(
            address, params, runtime, name=signature.name, outputs=outputs, written=written
        )
        return CudaExecutable(signature, function, jit)

    def run(self, args: Sequence[Any], *, prefill_nan: bool = False) -> list[np.ndarray]:
        """Call with `args` (numpy or device arrays, scalars); the results as numpy arrays."""
        if len(args) != len(self.signature.args):
            raise InputError(
                f"@{self.signature.name} takes {len(self.signature.args)} argument(s), got {len(args)}"
            )
        outputs = (
            [_new_output(spec, True) for spec in self.signature.out_params] if prefill_nan else None
        )
        return self.function(*args, outputs=outputs)

    def run_device(self, args: Sequence[Any]) -> list[Any]:
        """Call with `args`; the results stay on the device (`DeviceArray`s)."""
        return self.function.run_device(*args)

    def bind(self, args: Sequence[Any]) -> Any:
        """A call with fixed arguments that queues one run without waiting (for timing)."""
        return self.function.bind(*args)


def _check_arg(index: int, spec: ArgSpec, value: Any) -> Any:
    """The argument as the runtime takes it; InputError if it does not fit `spec`."""
    if not isinstance(spec, MemRefSpec):
        if isinstance(value, np.ndarray) and value.ndim != 0:
            raise InputError(
                f"argument {index}: expected a scalar of type {spec.mlir_type}, got an array"
            )
        return np.asarray(value).astype(spec.dtype, casting="same_kind").item()
    array = value if isinstance(value, np.ndarray) else np.asarray(value)
    if array.dtype != spec.dtype:
        raise InputError(
            f"argument {index}: expected an array of dtype {spec.dtype} ({spec.mlir_type}), got {array.dtype}"
        )
    if array.ndim != spec.rank or any(
        want != DYNAMIC and want != got for want, got in zip(spec.shape, array.shape, strict=True)
    ):
        shape = "(" + ", ".join("?" if d == DYNAMIC else str(d) for d in spec.shape) + ")"
        raise InputError(
            f"argument {index}: expected shape {shape} ({spec.mlir_type}), got {tuple(array.shape)}"
        )
    # (np.ascontiguousarray would turn a 0-d array into a 1-d one.)
    return array if array.flags.c_contiguous else array.copy(order="C")


def _new_output(spec: MemRefSpec, prefill_nan: bool) -> np.ndarray:
    if prefill_nan:
        from schedir.reference import nan_filled

        return nan_filled(spec)
    return np.empty(spec.shape, dtype=spec.dtype)


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


__all__ = [
    "STAGES",
    "STAGE_NAMES",
    "CpuExecutable",
    "CudaExecutable",
    "Stage",
    "StepChecker",
    "apply_schedule",
    "cuda_passes",
    "emit_llvm_ir",
    "emit_ptx",
    "has_gpu_kernels",
    "has_schedule",
    "kernels_ptx",
    "lower",
    "parse_pass_pipeline",
    "prepare_entry",
    "run_passes",
    "strip_schedule",
]


def prepare_entry(fn: func.FuncOp) -> None:
    """Mark the entry function for the CPU ABI before bufferization.

    Its arguments become read-only buffers (`bufferization.writable = false`), so a kernel
    never writes into the caller's input arrays, and it gets the `llvm.emit_c_interface`
    wrapper (`_mlir_ciface_<name>`) that the Python runtime calls.
    """
    from xdsl.dialects.builtin import DictionaryAttr, IntegerAttr, TensorType, UnitAttr

    attrs = (
        list(fn.arg_attrs.data) if fn.arg_attrs is not None else [DictionaryAttr({})] * len(fn.args)
    )
    new_attrs = []
    for arg, existing in zip(fn.args, attrs, strict=True):
        entries = dict(existing.data)
        if isinstance(arg.type, TensorType):
            entries["bufferization.writable"] = IntegerAttr.from_bool(False)
        new_attrs.append(DictionaryAttr(entries))
    fn.arg_attrs = ArrayAttr(new_attrs)
    fn.attributes["llvm.emit_c_interface"] = UnitAttr()
