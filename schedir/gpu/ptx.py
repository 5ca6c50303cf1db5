"""LLVM IR -> PTX with LLVM's NVPTX back end (llvmlite), and PTX -> cubin with ptxas.

`compile_ptx(llvm_ir, target)` needs no GPU and no CUDA driver. In the LLVM worker
process (`schedir.cpu.llvm_worker`: an LLVM assertion failure there is an
`InternalCompilerError`, not the end of this process; one in a vectorizer or the unroller
is retried once without that pass, with a warning) it parses and verifies
the IR, sets the NVPTX triple and data layout, links libdevice when the IR calls
`__nv_*` functions (its definitions are made internal afterwards so the optimizer drops
every function the kernels do not use), optimizes with LLVM's new pass manager (`-O3` by
default; the NVPTX target machine adds NVVMReflect, which resolves libdevice's
`__nvvm_reflect` queries), and emits PTX. The PTX's `.version` is checked against the
requested ISA: LLVM only warns about an unknown `+ptxNN` feature and falls back to its
minimum, which would silently change the code.

The IR is expected in NVPTX form: kernels are `define ptx_kernel void @name(...)`
(launch bounds as the `"nvvm.maxntid"` function attribute), global memory is
`addrspace(1)`, shared memory `addrspace(3)` globals, local memory `addrspace(5)`.

Two silent failures are made loud. An `llvm.nvvm.*` name LLVM does not know (a misspelled
intrinsic) is not an error in LLVM: it becomes an external function the PTX calls, so PTX
declaring `.extern .func llvm.nvvm...` is an `InternalCompilerError` (schedir emitted a
wrong name). ptxas's C751x messages (C7515, C7511, C7517, C7519; printed with `-v`, which
`assemble` passes for PTX using wgmma) mean it serialized the wgmma instructions (a
2x-class slowdown with correct results), so `assemble` treats them as failures.

`assemble(ptx, arch)` runs `ptxas -arch=<arch>` on a temporary file and returns the
cubin. Both functions raise `ToolError` with the tool's log and a command that repeats
the failure on a file holding the input.

Where the CUDA toolkit is: `find_ptxas` and `find_libdevice` take the directories to
look in first (a CUDA installation or the folder holding the file), then try `ptxas` on
PATH, the usual installation folders, and the pip packages that ship them (nvidia-cuda-
nvcc, the CUDA 13 `nvidia/cu13` layout, triton). Their errors list every place tried.

This module must not import xDSL or cuda-python.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

import llvmlite.binding as llvm

from schedir.cpu.llvm_worker import avoiding_crashed_passes, default_worker
from schedir.diagnostics import InternalCompilerError, Note, ToolError
from schedir.gpu.target import TRIPLE, GpuTarget

LIBDEVICE_NAME = "libdevice.10.bc"

_STANDARD_CUDA_HOMES: tuple[Path, ...] = (
    Path("/usr/local/cuda"),
    Path("/opt/cuda"),
    Path("/usr/lib/cuda"),
    Path("/usr/lib/nvidia-cuda-toolkit"),
)
"""Installation folders of the NVIDIA installers and of Debian/Arch packages."""

LLVM_MIN_PTX: dict[str, str] = {
    "sm_70": "6.0",
    "sm_72": "6.1",
    "sm_75": "6.3",
    "sm_80": "7.0",
    "sm_86": "7.1",
    "sm_87": "7.4",
    "sm_89": "7.8",
    "sm_90": "7.8",
    "sm_90a": "8.0",
    "sm_100": "8.6",
    "sm_100a": "8.6",
    "sm_100f": "8.8",
    "sm_101": "8.6",
    "sm_101a": "8.6",
    "sm_103": "8.8",
    "sm_103a": "8.8",
    "sm_110": "9.0",
    "sm_110a": "9.0",
    "sm_120": "8.7",
    "sm_120a": "8.7",
    "sm_121": "8.8",
    "sm_121a": "8.8",
}
"""Architectures LLVM 22's NVPTX back end knows (from sm_70) and the oldest PTX ISA each
needs. Checked before LLVM sees them: a too-old PTX version is a fatal LLVM error that
would end the Python process, and an unknown arch only a warning."""
_ENTRY = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+([\w$.]+)", re.MULTILINE)
_VERSION = re.compile(r"^\s*\.version\s+(\d+\.\d+)", re.MULTILINE)


def _initialize() -> None:
    # Idempotent in LLVM; the NVPTX target and printer must exist before any target machine.
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()


def _write_temp(data: str | bytes, suffix: str, prefix: str = "schedir-") -> Path:
    mode = "wb" if isinstance(data, bytes) else "w"
    with tempfile.NamedTemporaryFile(mode, suffix=suffix, prefix=prefix, delete=False) as f:
        f.write(data)
        return Path(f.name)


def _pip_package_dirs(package: str) -> list[Path]:
    """Folders of an installed (namespace) package, found without importing it."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return []
    if spec is None or spec.submodule_search_locations is None:
        return []
    return [Path(p) for p in spec.submodule_search_locations]


def _toolkit_homes(search_dirs: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """CUDA installation folders to try, in order, without duplicates."""
    homes: list[Path] = [Path(d) for d in search_dirs]
    for tool in ("ptxas", "nvcc"):
        found = shutil.which(tool)
        if found:
            # The real binary may sit behind a symlink; `bin/..` is the toolkit's root.
            homes.append(Path(found).resolve().parent.parent)
    homes += _STANDARD_CUDA_HOMES
    for nvidia in _pip_package_dirs("nvidia"):
        homes += [nvidia / "cuda_nvcc", *sorted(nvidia.glob("cu[0-9]*"))]
    unique: list[Path] = []
    for home in homes:
        if home not in unique:
            unique.append(home)
    return unique


def find_libdevice(search_dirs: Sequence[str | os.PathLike[str]] = ()) -> Path:
    """Path of `libdevice.10.bc`; a ToolError naming every place looked at if none exists.

    Each entry of `search_dirs` may be the file itself, the folder holding it, or a CUDA
    installation (`<dir>/nvvm/libdevice/`); they are tried before the defaults.
    """
    candidates: list[Path] = []
    for given in search_dirs:
        path = Path(given)
        candidates += [path, path / LIBDEVICE_NAME]
    for home in _toolkit_homes(search_dirs):
        candidates.append(home / "nvvm" / "libdevice" / LIBDEVICE_NAME)
    for triton in _pip_package_dirs("triton"):
        candidates.append(triton / "backends" / "nvidia" / "lib" / LIBDEVICE_NAME)
    for path in candidates:
        if path.is_file() and path.name == LIBDEVICE_NAME:
            return path
    looked = "\n".join(f"  {p}" for p in dict.fromkeys(candidates))
    raise ToolError(
        f"cannot find {LIBDEVICE_NAME}, which the IR needs for its __nv_* calls; install the "
        "CUDA toolkit or the nvidia-cuda-nvcc pip package, or pass its folder",
        log=f"looked in:\n{looked}",
    )


def find_ptxas(search_dirs: Sequence[str | os.PathLike[str]] = ()) -> Path:
    """Path of a `ptxas` executable; a ToolError naming every place looked at if none.

    Each entry of `search_dirs` may be the executable, the folder holding it, or a CUDA
    installation (`<dir>/bin/ptxas`); they are tried before PATH and the defaults.
    """
    candidates: list[Path] = []
    for given in search_dirs:
        path = Path(given)
        candidates += [path, path / "ptxas", path / "bin" / "ptxas"]
    on_path = shutil.which("ptxas")
    if on_path:
        candidates.append(Path(on_path))
    for home in _toolkit_homes(search_dirs):
        candidates.append(home / "bin" / "ptxas")
    for triton in _pip_package_dirs("triton"):
        candidates.append(triton / "backends" / "nvidia" / "bin" / "ptxas")
    for path in candidates:
        if path.name == "ptxas" and path.is_file() and os.access(path, os.X_OK):
            return path
    looked = "\n".join(f"  {p}" for p in dict.fromkeys(candidates))
    raise ToolError(
        "cannot find ptxas; install the CUDA toolkit (or the nvidia-cuda-nvcc pip package), "
        "put ptxas on PATH, or pass its folder",
        log=f"looked in PATH and:\n{looked}",
    )


def kernel_names(ptx: str) -> list[str]:
    """The names of the `.entry` functions (kernels) of a PTX module, in order."""
    return _ENTRY.findall(ptx)


def _llc_repro(path: Path, target: GpuTarget, opt_level: int) -> str:
    return (
        f"llc -mtriple={TRIPLE} -mcpu={target.arch} -mattr={target.llvm_features} "
        f"-O{opt_level} {path} -o -"
    )


def _llvm_error(
    message: str, err: BaseException, text: str, target: GpuTarget, opt: int
) -> ToolError:
    path = _write_temp(text, ".ll", "schedir-nvptx-")
    return ToolError(message, log=str(err).strip(), repro=_llc_repro(path, target, opt))


def check_llvm_support(target: GpuTarget) -> None:
    """ToolError unless LLVM can compile for `target` (its arch and PTX version)."""
    minimum = LLVM_MIN_PTX.get(target.arch)
    if minimum is None:
        known = ", ".join(LLVM_MIN_PTX)
        raise ToolError(
            f"LLVM's NVPTX back end does not know the architecture '{target.arch}'",
            notes=(Note(f"known architectures: {known}"),),
        )

    def as_tuple(version: str) -> tuple[int, int]:
        major, minor = version.split(".")
        return int(major), int(minor)

    if as_tuple(target.ptx_version) < as_tuple(minimum):
        raise ToolError(
            f"{target.arch} needs PTX ISA {minimum} or later, but the target asks for "
            f"{target.ptx_version} ('+{target.ptx_feature}')"
        )


def _declared_libdevice_calls(module: llvm.ModuleRef) -> bool:
    return any(f.is_declaration and f.name.startswith("__nv_") for f in module.functions)


def _link_libdevice(module: llvm.ModuleRef, libdevice: Path, data_layout: str) -> None:
    """Link libdevice into `module`, keeping only what is called once optimized."""
    try:
        library = llvm.parse_bitcode(libdevice.read_bytes())
    except (OSError, RuntimeError) as err:
        raise ToolError(f"cannot read libdevice from {libdevice}", log=str(err)) from None
    # libdevice says `nvptx64-nvidia-gpulibs` and an older layout; ours avoids link warnings.
    library.triple = TRIPLE
    library.data_layout = data_layout
    provided = {f.name for f in library.functions if not f.is_declaration}
    module.link_in(library)
    for fn in module.functions:
        # Internal linkage lets global DCE drop the ~350 functions the kernels never call.
        if fn.name in provided and not fn.is_declaration:
            fn.linkage = llvm.Linkage.internal


def compile_ptx(
    llvm_ir: str,
    target: GpuTarget | None = None,
    *,
    opt_level: int = 3,
    libdevice: str | os.PathLike[str] | None = None,
    search_dirs: Sequence[str | os.PathLike[str]] = (),
    isolated: bool = True,
) -> str:
    """PTX assembly for NVPTX LLVM IR text (no GPU needed).

    Args:
        llvm_ir: the module, with `ptx_kernel` kernels and NVPTX address spaces.
        target: arch and PTX version (default: `GpuTarget()`, sm_90 with PTX 8.0).
        opt_level: LLVM optimization level 0..3 (new pass manager).
        libdevice: path of `libdevice.10.bc`; found with `find_libdevice(search_dirs)`
            when None and the IR calls `__nv_*` functions.
        search_dirs: CUDA installation folders to look in first for libdevice.
        isolated: run LLVM in the LLVM worker process (`schedir.cpu.llvm_worker`), where
            an LLVM crash becomes an `InternalCompilerError` instead of ending this
            process; False (for debugging) runs it here.
    """
    if not 0 <= opt_level <= 3:
        raise ValueError(f"opt_level must be 0..3, got {opt_level}")
    target = target if target is not None else GpuTarget()
    check_llvm_support(target)
    args = (llvm_ir, target, opt_level, libdevice, tuple(search_dirs))
    if not isolated:
        return compile_ptx_here(*args)

    def repro() -> list[Note]:
        path = _write_temp(llvm_ir, ".ll", "schedir-nvptx-")
        return [
            Note(f"the NVPTX LLVM IR is in {path}"),
            Note(f"repro: {_llc_repro(path, target, opt_level)}"),
        ]

    def attempt(disabled: tuple[str, ...]) -> str:
        return default_worker().call(
            compile_ptx_here, *args, disabled, stage="llvm-ir -> ptx", repro=repro
        )

    return avoiding_crashed_passes(attempt, lambda d: print(d.render(), file=sys.stderr))


def compile_ptx_here(
    llvm_ir: str,
    target: GpuTarget,
    opt_level: int,
    libdevice: str | os.PathLike[str] | None,
    search_dirs: Sequence[str | os.PathLike[str]],
    disabled: tuple[str, ...] = (),
) -> str:
    """`compile_ptx` in this process (what the LLVM worker runs); `disabled` names
    pipeline tuning options turned off (e.g. "loop_vectorization")."""
    _initialize()
    try:
        module = llvm.parse_assembly(llvm_ir)
        module.verify()
    except RuntimeError as err:
        raise _llvm_error("LLVM rejected the NVPTX IR", err, llvm_ir, target, opt_level) from None

    machine = llvm.Target.from_triple(TRIPLE).create_target_machine(
        cpu=target.arch, features=target.llvm_features, opt=opt_level
    )
    data_layout = str(machine.target_data)
    module.triple = TRIPLE
    module.data_layout = data_layout
    if _declared_libdevice_calls(module):
        path = Path(libdevice) if libdevice is not None else find_libdevice(search_dirs)
        if not path.is_file():
            raise ToolError(f"libdevice file {path} does not exist")
        _link_libdevice(module, path, data_layout)
    try:
        tuning = llvm.create_pipeline_tuning_options(speed_level=opt_level)
        for option in disabled:
            setattr(tuning, option, False)
        builder = llvm.create_pass_builder(machine, tuning)
        if opt_level:
            builder.getModulePassManager().run(module, builder)
        else:
            # Even unoptimized, drop the libdevice functions nothing calls (about 1 MB of PTX).
            dce = llvm.create_new_module_pass_manager()
            dce.add_global_dead_code_eliminate_pass()
            dce.run(module, builder)
        module.verify()
        ptx = machine.emit_assembly(module)
    except RuntimeError as err:
        raise _llvm_error(
            f"LLVM failed to compile the IR to PTX for {target.arch}",
            err,
            llvm_ir,
            target,
            opt_level,
        ) from None

    unknown = unknown_intrinsics(ptx)
    if unknown:
        raise InternalCompilerError(
            f"the NVPTX IR calls LLVM intrinsics that do not exist: {', '.join(unknown)}",
            notes=(
                Note("LLVM emits an unknown llvm.nvvm.* name as an external function"),
                Note(
                    f"repro: {_llc_repro(_write_temp(llvm_ir, '.ll', 'schedir-nvptx-'), target, opt_level)}"
                ),
            ),
            stage="llvm-ir -> ptx",
        )
    version = _VERSION.search(ptx)
    if version is None or version.group(1) != target.ptx_version:
        got = version.group(1) if version else "none"
        raise ToolError(
            f"LLVM emitted PTX ISA {got}, not the {target.ptx_version} asked for with "
            f"'+{target.ptx_feature}': this LLVM does not know that PTX version or it is too "
            f"old for {target.arch}",
            repro=_llc_repro(_write_temp(llvm_ir, ".ll", "schedir-nvptx-"), target, opt_level),
        )
    return ptx


_EXTERN_INTRINSIC = re.compile(
    r"^\s*\.extern\s+\.func\b[^\n]*?\b(llvm\.nvvm\.[\w.]+)", re.MULTILINE
)
_SERIALIZED_WGMMA = re.compile(r"^.*\bC751\d\b.*$", re.MULTILINE)


def unknown_intrinsics(ptx: str) -> list[str]:
    """The `llvm.nvvm.*` names PTX declares as external functions (LLVM's spelling of an
    intrinsic it does not know), sorted."""
    return sorted(set(_EXTERN_INTRINSIC.findall(ptx)))


def serialization_warnings(log: str) -> list[str]:
    """ptxas's lines saying it serialized wgmma instructions: C7515 (accumulator registers
    defined by non-wgmma instructions inside the pipeline), C7511 (not enough registers),
    C7517/C7519 (warpgroup.wait/arrive injected around a wgmma): the C751x family."""
    return [m.group(0).strip() for m in _SERIALIZED_WGMMA.finditer(log)]


def assemble(
    ptx: str,
    arch: str | GpuTarget = "sm_90",
    *,
    ptxas: str | os.PathLike[str] | None = None,
    opt_level: int = 3,
    extra_args: Sequence[str] = (),
    timeout_s: float = 600.0,
) -> bytes:
    """The cubin of `ptx` for `arch`, assembled by `ptxas -arch=<arch>`.

    Raises ToolError with ptxas's output and the exact command, on a kept copy of the PTX,
    when ptxas fails, times out, cannot be found, or serializes wgmma instructions
    (`serialization_warnings`).
    """
    if isinstance(arch, GpuTarget):
        arch = arch.arch
    if not 0 <= opt_level <= 3:
        raise ValueError(f"opt_level must be 0..3, got {opt_level}")
    tool = Path(ptxas) if ptxas is not None else find_ptxas()
    source = _write_temp(ptx, ".ptx", "schedir-ptxas-")
    output = source.with_suffix(".cubin")
    # ptxas reports wgmma serialization only as `-v` info lines.
    verbose = ["-v"] if "wgmma" in ptx and "-v" not in extra_args else []
    command = [
        str(tool),
        f"-arch={arch}",
        f"-O{opt_level}",
        *verbose,
        *extra_args,
        str(source),
        "-o",
        str(output),
    ]
    repro = " ".join(command)
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout_s, check=False
        )
    except subprocess.TimeoutExpired as err:
        log = "\n".join(str(s) for s in (err.stdout, err.stderr) if s)
        raise ToolError(
            f"ptxas took more than {timeout_s:g} s for {arch}", log=log, repro=repro
        ) from None
    except OSError as err:
        raise ToolError(f"cannot run ptxas ({tool})", log=str(err), repro=repro) from None
    log = (done.stdout + done.stderr).strip()
    if done.returncode != 0 or not output.is_file():
        output.unlink(missing_ok=True)
        raise ToolError(
            f"ptxas failed to assemble the PTX for {arch} (exit status {done.returncode})",
            log=log or "(ptxas printed nothing)",
            repro=repro,
        )
    serialized = serialization_warnings(log)
    if serialized:
        output.unlink(missing_ok=True)
        raise ToolError(
            f"ptxas serialized the wgmma instructions for {arch}: {serialized[0]}",
            log=log,
            repro=repro,
        )
    try:
        return output.read_bytes()
    finally:
        # Success: nothing to reproduce, so leave no files behind.
        output.unlink(missing_ok=True)
        source.unlink(missing_ok=True)


__all__ = [
    "LIBDEVICE_NAME",
    "LLVM_MIN_PTX",
    "assemble",
    "check_llvm_support",
    "compile_ptx",
    "compile_ptx_here",
    "find_libdevice",
    "find_ptxas",
    "kernel_names",
    "serialization_warnings",
    "unknown_intrinsics",
]
