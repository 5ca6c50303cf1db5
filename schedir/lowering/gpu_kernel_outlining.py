"""`gpu-kernel-outlining`: each `gpu.launch` becomes a kernel and a `gpu.launch_func`.

Upstream's pass (GPU/Transforms/KernelOutlining.cpp). The body of a launch in function
`@f` moves into `gpu.func @f_kernel kernel` inside a new `gpu.module @f_kernel` (renamed
`@f_kernel_0`, `@f_kernel_1`, ... on clashes) at the end of the module, which gets the
`gpu.container_module` attribute. The values the body uses from outside become the
kernel's arguments, in the order of their first use; the 12 launch-configuration
arguments become `gpu.block_id`, `gpu.thread_id`, `gpu.grid_dim` and `gpu.block_dim` ops
at the start of the kernel; `gpu.terminator` becomes `gpu.return`; workgroup and private
attributions stay attributions. Constant grid and block sizes are recorded as
`known_grid_size` / `known_block_size`. Run `gpu-launch-sink-index-computations` first to
keep constants out of the argument list.

Beyond upstream: the launch's `nvvm.*` attributes (e.g. `nvvm.minctasm` from
`transform.annotate`) move to the kernel, and a memref argument whose aligned pointer is
proven aligned (an allocation's `alignment`, or an argument of the runtime's entry, see
llvm/memref_alignment.py) gets `llvm.align`, which the LLVM lowering puts on the aligned
pointer so that NVPTX can emit vector loads and stores.

    func.func @f(%a: memref<16xf32>) {
      gpu.launch blocks(...) in (%gx = %c1, ...) threads(%tx, ...) in (%sx = %c16, ...) {
        memref.store %v, %a[%tx] : memref<16xf32>
        gpu.terminator
      }
    }
    // ->
    func.func @f(%a: memref<16xf32>) {
      gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1)
          threads in (%c16, %c1, %c1) args(%v : f32, %a : memref<16xf32>)
    }
    gpu.module @f_kernel {
      gpu.func @f_kernel(%arg0: f32, %arg1: memref<16xf32>) kernel
          attributes {known_block_size = array<i32: 16, 1, 1>, known_grid_size = ...} {
        %block_id_x = gpu.block_id x
        ...
        gpu.return
      }
    }
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.passes import ModulePass

from schedir.diagnostics import LoweringError
from schedir.dialects import gpu
from schedir.dialects.gpu.syntax import DIMS
from schedir.dialects.syntax import op_location
from schedir.lowering.gpu import (
    enclosing_function,
    is_nested_in,
    launches,
    symbol_names,
    unique_name,
    used_values_defined_above,
)
from schedir.lowering.llvm.memref_alignment import base_alignment, called_symbols
from schedir.transform.rewrites.tiling.affine import constant_of

CONTAINER = "gpu.container_module"


def _known_sizes(values: tuple[SSAValue, SSAValue, SSAValue]) -> DenseArrayBase | None:
    sizes = [constant_of(v) for v in values]
    if any(s is None for s in sizes):
        return None
    return DenseArrayBase.from_list(i32, [s for s in sizes if s is not None])


def outline_launch(launch: gpu.LaunchOp, module: ModuleOp, taken: set[str]) -> gpu.LaunchFuncOp:
    """Outline one launch into a new gpu.module at the end of `module`."""
    func = enclosing_function(launch)
    if func is None:
        raise LoweringError(
            "'gpu.launch' must be inside a function to be outlined", op_location(launch)
        )
    func_name = func.properties.get("sym_name") or func.attributes.get("sym_name")
    assert isinstance(func_name, StringAttr)
    kernel_name = f"{func_name.data}_kernel"
    module_name = unique_name(kernel_name, taken)
    taken.add(module_name)

    captured = used_values_defined_above(launch.body)
    workgroup = list(launch.workgroup_attribution_args)
    private = list(launch.private_attribution_args)
    ftype = FunctionType.from_lists([v.type for v in captured], [])
    entry = Block(
        arg_types=[
            *(v.type for v in captured),
            *(a.type for a in workgroup),
            *(a.type for a in private),
        ]
    )
    kernel = gpu.FuncOp(
        kernel_name, ftype, Region(entry), kernel=True, workgroup_attributions=len(workgroup)
    )
    kernel.location = launch.location
    _annotate(kernel, launch, captured, called_symbols(module))
    for key, values in (
        ("known_block_size", launch.block_sizes),
        ("known_grid_size", launch.grid_sizes),
    ):
        known = _known_sizes(values)
        if known is not None:
            kernel.properties[key] = known

    # The configuration arguments become id and dimension ops (upstream's order; cluster
    # ids and sizes follow when the launch has clusters).
    config: list[SSAValue] = []
    id_ops: list[type[gpu.DimensionOp]] = [
        gpu.BlockIdOp,
        gpu.ThreadIdOp,
        gpu.GridDimOp,
        gpu.BlockDimOp,
    ]
    if launch.has_clusters:
        id_ops += [gpu.ClusterIdOp, gpu.ClusterDimOp]
    for cls in id_ops:
        for dim in DIMS:
            op = cls(dim)
            op.location = launch.location
            entry.add_op(op)
            config.append(op.results[0])
    body = launch.body
    old_args = list(body.block.args)
    for old, new in zip(old_args[: launch.num_config_args], config, strict=True):
        old.replace_all_uses_with(new)
    attribution_args = list(entry.args[len(captured) :])
    for old, new in zip([*workgroup, *private], attribution_args, strict=True):
        old.replace_all_uses_with(new)
    for value, arg in zip(captured, entry.args, strict=False):
        for use in list(value.uses):
            if use.operation is not launch and is_nested_in(use.operation, launch):
                use.operation.operands[use.index] = arg
        arg.name_hint = value.name_hint

    # Move the body: the entry block's ops after the id ops, further blocks as they are.
    blocks = list(body.blocks)
    for op in list(blocks[0].ops):
        op.detach()
        entry.add_op(op)
    region = kernel.body
    for block in blocks[1:]:
        body.detach_block(block)
        region.add_block(block)
    for block in region.blocks:
        last = block.last_op
        if isinstance(last, gpu.TerminatorOp):
            ret = gpu.ReturnOp()
            ret.location = last.location
            block.insert_op_before(ret, last)
            last.detach()
            last.erase()

    device = gpu.ModuleOp(module_name)
    device.location = launch.location
    device.body.add_op(kernel)
    module.body.block.add_op(device)

    launch_func = gpu.LaunchFuncOp(
        SymbolRefAttr(module_name, [kernel_name]),
        launch.grid_sizes,
        launch.block_sizes,
        captured,
        dynamic_shared_memory_size=launch.dynamicSharedMemorySize,
        async_dependencies=list(launch.asyncDependencies),
        async_launch=launch.asyncToken is not None,
        async_object=launch.asyncObject,
        cluster_size=launch.cluster_sizes,
    )
    launch_func.location = launch.location
    parent = launch.parent
    assert parent is not None
    parent.insert_op_before(launch_func, launch)
    if launch.asyncToken is not None and launch_func.asyncToken is not None:
        launch.asyncToken.replace_all_uses_with(launch_func.asyncToken)
    launch.detach()
    launch.erase(safe_erase=False)
    return launch_func


def _annotate(
    kernel: gpu.FuncOp, launch: gpu.LaunchOp, captured: list[SSAValue], called: frozenset[str]
) -> None:
    """The kernel's `nvvm.*` attributes (launch bounds such as `nvvm.minctasm`, set on the
    launch, e.g. by `transform.annotate`) and `llvm.align` on each memref argument whose
    aligned pointer is proven aligned beyond its element (see llvm/memref_alignment.py)."""
    for key, attr in launch.attributes.items():
        if key.startswith("nvvm."):
            kernel.attributes[key] = attr
    arg_attrs: list[DictionaryAttr] = []
    for value in captured:
        alignment = base_alignment(value, called)
        attrs: dict[str, Attribute] = {}
        if alignment is not None and alignment > 1:
            attrs["llvm.align"] = IntegerAttr(alignment, i64)
        arg_attrs.append(DictionaryAttr(attrs))
    if any(a.data for a in arg_attrs):
        kernel.arg_attrs = ArrayAttr(arg_attrs)


def outline_kernels(module: ModuleOp) -> list[gpu.LaunchFuncOp]:
    """Outline every `gpu.launch` of `module` (see the module docstring)."""
    found = launches(module)
    if not found:
        return []
    taken = symbol_names(module)
    result = [outline_launch(launch, module, taken) for launch in found]
    module.attributes[CONTAINER] = UnitAttr()
    return result


@dataclass(frozen=True)
class GpuKernelOutlining(ModulePass):
    """Outline `gpu.launch` bodies into kernels (see the module docstring)."""

    name = "gpu-kernel-outlining"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        outline_kernels(op)


__all__ = ["CONTAINER", "GpuKernelOutlining", "outline_kernels", "outline_launch"]
