"""`one-shot-bufferize`: tensors become buffers, in place wherever that is safe.

Upstream's One-Shot Bufferize (mlir/docs/Bufferization.md) in two steps:

1. *Analysis* (`bufferization/analysis.py`): decide for each tensor operand whether its op
   may use the operand's buffer in place, merging alias and equivalence sets, rejecting
   decisions that would create a read-after-write conflict or write a read-only buffer.
2. *Rewrite* (`bufferization/rewrite.py`): tensor ops become memref ops; an out-of-place operand
   gets a private copy (`memref.alloc`, plus `memref.copy` when its contents are needed);
   `tensor.empty` becomes `memref.alloc`, `extract_slice` a `memref.subview`, dense
   constants a private `memref.global` (never written), structured linalg ops the same op
   on buffers (no results), loops update their init's buffer in place.

Then every allocation that does not leave its function is freed once, after its last use
(`bufferization/deallocation.py`).

With `bufferize-function-boundaries`, function arguments and results become memrefs
(arguments with the layout `function-boundary-type-conversion` asks for, results with the
identity layout). A function returns buffers it allocated, each once: a returned value
that is an argument, a constant or a view is copied into a new buffer first. Callers own
(and free) what calls return. An argument with `{bufferization.writable = false}` is never
written: writes to it go to a copy. Without function boundaries, tensor arguments are read
through `bufferization.to_buffer` (read-only) and results returned through
`bufferization.to_tensor`.

    func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>) -> tensor<4x5xf32> {
      %e = tensor.empty() : tensor<4x5xf32>
      %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x5xf32>) -> tensor<4x5xf32>
      %r = linalg.matmul ins(%a, %b : ...) outs(%z : tensor<4x5xf32>) -> tensor<4x5xf32>
      return %r : tensor<4x5xf32>
    }
    // one-shot-bufferize{bufferize-function-boundaries=true} ->
    func.func @f(%a: memref<4x8xf32>, %b: memref<8x5xf32>) -> memref<4x5xf32> {
      %e = memref.alloc() alignment = 64 : memref<4x5xf32>
      linalg.fill ins(%cst : f32) outs(%e : memref<4x5xf32>)
      linalg.matmul ins(%a, %b : ...) outs(%e : memref<4x5xf32>)
      return %e : memref<4x5xf32>
    }

Options (upstream's names): `bufferize-function-boundaries` (default false),
`function-boundary-type-conversion` (`identity-layout-map` (default here),
`fully-dynamic-layout-map`, `infer-layout-map`: results are fresh identity buffers, so
inferring gives the identity layout; arguments get the fully dynamic layout),
`allow-return-allocs-from-loops` (accepted; loops never return allocations here: a
yielded buffer that is not the iteration's buffer is copied into it, which satisfies both
settings), `allow-unknown-ops` (default false: an unknown op on tensors is an error),
`check-parallel-regions` (default true), `copy-before-write` (skip the analysis: every
write goes to a copy), `memcpy-op` (`memref.copy` or `linalg.copy`), `test-analysis-only`
(annotate ops with `__inplace_operands_attr__` instead of bufferizing).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    FunctionType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from schedir.diagnostics import UnsupportedError
from schedir.dialects import vector
from schedir.dialects.bufferization import ToTensorOp
from schedir.dialects.linalg import SoftmaxOp
from schedir.dialects.linalg.aggregate import decompose_softmax
from schedir.dialects.syntax import op_location
from schedir.lowering.bufferization import (
    AnalysisOptions,
    BufferizeState,
    Decisions,
    FuncSummary,
    FunctionRewriter,
    InPlaceAnalysis,
    LayoutKind,
    OpModel,
    RewriteOptions,
    RewritePlan,
    has_tensor_semantics,
    insert_deallocs,
    is_tensor,
    kind,
    memref_for_tensor,
    strip_casts,
)

_LAYOUTS: dict[str, LayoutKind] = {
    "identity-layout-map": "identity",
    "fully-dynamic-layout-map": "fully-dynamic",
    "infer-layout-map": "fully-dynamic",
}
_MEMCPY_OPS = ("memref.copy", "linalg.copy")


@dataclass(frozen=True)
class OneShotBufferize(ModulePass):
    """Bufferize tensor IR with in-place analysis (see the module docstring)."""

    name = "one-shot-bufferize"

    bufferize_function_boundaries: bool = False
    function_boundary_type_conversion: str = "identity-layout-map"
    allow_return_allocs_from_loops: bool = False
    allow_unknown_ops: bool = False
    check_parallel_regions: bool = True
    copy_before_write: bool = False
    memcpy_op: str = "memref.copy"
    test_analysis_only: bool = False

    def __post_init__(self) -> None:
        if self.function_boundary_type_conversion not in _LAYOUTS:
            raise ValueError(
                f"function-boundary-type-conversion must be one of {', '.join(_LAYOUTS)}, "
                f"not '{self.function_boundary_type_conversion}'"
            )
        if self.memcpy_op not in _MEMCPY_OPS:
            raise ValueError(
                f"memcpy-op must be one of {', '.join(_MEMCPY_OPS)}, not '{self.memcpy_op}'"
            )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.bufferize(op)

    def bufferize(self, root: Operation) -> None:
        """Bufferize `root`: a module (every function in it), or one function (as the
        transform op `bufferization.one_shot_bufferize` may target; needs function
        boundaries off, since callers would see a changed signature)."""
        if isinstance(root, func.FuncOp):
            if self.bufferize_function_boundaries:
                raise UnsupportedError(
                    "bufferize-function-boundaries needs a module, not a single function",
                    op_location(root),
                )
            functions = [root]
            module = root.parent_op()
            while module is not None and not isinstance(module, ModuleOp):
                module = module.parent_op()
            if module is None:
                raise UnsupportedError(
                    "one-shot-bufferize of a function outside any module", op_location(root)
                )
        elif isinstance(root, ModuleOp):
            functions = [f for f in root.ops if isinstance(f, func.FuncOp)]
            module = root
        else:
            raise UnsupportedError(
                f"one-shot-bufferize applies to a module or a function, not '{root.name}'",
                op_location(root),
            )
        _decompose_tensor_softmax(root)
        _unmask_tensor_transfers(root)
        self._check_supported(root)
        summaries: dict[str, FuncSummary] = {}
        plans: dict[func.FuncOp, tuple[OpModel, Decisions]] = {}
        for function in _callees_first(functions):
            model = OpModel(
                function_boundaries=self.bufferize_function_boundaries, summaries=summaries
            )
            if not function.body.blocks or not _has_tensors(function):
                continue
            if len(function.body.blocks) > 1:
                raise UnsupportedError(
                    f"'@{function.sym_name.data}' has several blocks: one-shot-bufferize "
                    "supports structured control flow only",
                    op_location(function),
                )
            analysis = InPlaceAnalysis(
                model,
                AnalysisOptions(
                    check_parallel_regions=self.check_parallel_regions,
                    copy_before_write=self.copy_before_write,
                ),
            )
            decisions = analysis.run(function.body)
            plans[function] = (model, decisions)
            summaries[function.sym_name.data] = _summarize(function, model, analysis)
        if self.test_analysis_only:
            for model, decisions in plans.values():
                _annotate(model, decisions)
            return
        state = BufferizeState(
            module,
            RewriteOptions(
                function_boundaries=self.bufferize_function_boundaries,
                layout=_LAYOUTS[self.function_boundary_type_conversion],
                memcpy_op=self.memcpy_op,
                allow_unknown_ops=self.allow_unknown_ops,
            ),
        )
        # Plans read the analysis' view of the IR: build them all before any rewrite.
        rewrite_plans = {f: _plan(model, decisions) for f, (model, decisions) in plans.items()}
        for function in functions:
            plan = rewrite_plans.get(function)
            self._rewrite_function(state, function, plan)
        insert_deallocs(state.owned)
        _drop_unused_globals(module, set(state.globals.values()))

    def _check_supported(self, root: Operation) -> None:
        for op in root.walk():
            if any(isinstance(v.type, UnrankedTensorType) for v in (*op.operands, *op.results)) or (
                isinstance(op, func.FuncOp)
                and any(isinstance(t, UnrankedTensorType) for t in op.function_type.inputs.data)
            ):
                raise UnsupportedError(
                    f"'{op.name}' on unranked tensors is not supported by one-shot-bufferize",
                    op_location(op),
                )
            op_kind = kind(op)
            if op_kind == "unknown" and not self.allow_unknown_ops:
                raise UnsupportedError(
                    f"'{op.name}' on tensors is not supported by one-shot-bufferize "
                    "(allow-unknown-ops=true keeps it behind to_tensor/to_buffer)",
                    op_location(op),
                )
            if (
                op_kind == "call"
                and not self.bufferize_function_boundaries
                and has_tensor_semantics(op)
                and not self.allow_unknown_ops
            ):
                raise UnsupportedError(
                    "'func.call' on tensors needs bufferize-function-boundaries=true",
                    op_location(op),
                )
            if isinstance(op, func.FuncOp) and not self.bufferize_function_boundaries:
                inputs = op.function_type.inputs.data
                outputs = op.function_type.outputs.data
                if (
                    any(isinstance(t, TensorType) for t in (*inputs, *outputs))
                    and not op.body.blocks
                ):
                    raise UnsupportedError(
                        f"declaration '@{op.sym_name.data}' with tensor types needs "
                        "bufferize-function-boundaries=true",
                        op_location(op),
                    )

    def _rewrite_function(
        self, state: BufferizeState, function: func.FuncOp, plan: RewritePlan | None
    ) -> None:
        boundaries = self.bufferize_function_boundaries
        layout = _LAYOUTS[self.function_boundary_type_conversion]
        inputs = list(function.function_type.inputs.data)
        outputs = list(function.function_type.outputs.data)
        if boundaries:
            inputs = [
                memref_for_tensor(t, layout) if isinstance(t, TensorType) else t for t in inputs
            ]
            outputs = [memref_for_tensor(t) if isinstance(t, TensorType) else t for t in outputs]
        if plan is None or not function.body.blocks:
            function.function_type = FunctionType.from_lists(inputs, outputs)
            return
        rewriter = FunctionRewriter(state, plan)
        block = function.body.block
        if not boundaries:
            # Arguments are read through to_buffer (read-only), made in argument order.
            for arg in reversed(block.args):
                if is_tensor(arg) and arg.uses:
                    rewriter.buffer_of(arg)
        if boundaries:
            for arg, new_type in zip(list(block.args), inputs, strict=True):
                if is_tensor(arg):
                    new_arg = Rewriter.replace_value_with_new_type(arg, new_type)
                    _bind_argument(rewriter, block, new_arg)
        rewriter.rewrite_block(block)
        terminator = block.last_op
        if isinstance(terminator, func.ReturnOp) and boundaries:
            returned: list[SSAValue] = []
            taken: set[SSAValue] = set()
            for value, result_type in zip(terminator.arguments, outputs, strict=True):
                if not is_tensor(value):
                    returned.append(value)
                    continue
                buffer = rewriter.buffer_of(value)
                # A `memref.cast` of an owned buffer is that whole buffer (a tile loop
                # leaves one: the loop carries the tensor with dynamic sizes), returned as
                # is when the cast has the result's type.
                root = strip_casts(buffer)
                whole = buffer is root or buffer.type == result_type
                if root not in state.owned or root in taken or not whole:
                    # Results are buffers the caller owns: never an argument, a constant,
                    # a view, or the same buffer twice.
                    buffer = rewriter.private_copy(buffer, True, terminator)
                    root = buffer
                taken.add(root)
                returned.append(buffer)
            new_return = func.ReturnOp(*returned)
            Rewriter.insert_op(new_return, InsertPoint.before(terminator))
            new_return.location = terminator.location
            Rewriter.erase_op(terminator)
        # Nested returns cannot exist (func bodies are single-block here).
        function.function_type = FunctionType.from_lists(inputs, outputs)
        rewriter.erase_dead_placeholders()


def _drop_unused_globals(module: ModuleOp, names: set[str]) -> None:
    """Erase the constant globals this run made that no `memref.get_global` reads."""
    if not names:
        return
    used = {
        op.name_.root_reference.data for op in module.walk() if isinstance(op, memref.GetGlobalOp)
    }
    for op in list(module.ops):
        sym = op.properties.get("sym_name")
        if (
            isinstance(op, memref.GlobalOp)
            and isinstance(sym, StringAttr)
            and sym.data in names
            and sym.data not in used
        ):
            Rewriter.erase_op(op)


def _has_tensors(function: func.FuncOp) -> bool:
    """Whether the function has tensors in its signature or in any op of its body."""
    signature = (*function.function_type.inputs.data, *function.function_type.outputs.data)
    if any(isinstance(t, TensorType) for t in signature):
        return True
    return any(has_tensor_semantics(op) for op in function.walk() if op is not function)


def _bind_argument(rewriter: FunctionRewriter, block: Block, arg: SSAValue) -> None:
    """Make the uses of a function argument (now a memref) read it through a placeholder."""
    placeholder = ToTensorOp(arg)
    Rewriter.insert_op(placeholder, InsertPoint.at_start(block))
    rewriter.placeholders.add(placeholder)
    arg.replace_uses_with_if(placeholder.tensor, lambda use: use.operation is not placeholder)


def _callees_first(functions: list[func.FuncOp]) -> list[func.FuncOp]:
    """Functions ordered so that each comes after the functions it calls."""
    by_name = {f.sym_name.data: f for f in functions}
    order: list[func.FuncOp] = []
    state: dict[func.FuncOp, int] = {}  # 1: in progress, 2: done

    def visit(f: func.FuncOp) -> None:
        if state.get(f) == 2:
            return
        if state.get(f) == 1:
            raise UnsupportedError(
                f"recursive call to '@{f.sym_name.data}': one-shot-bufferize needs an "
                "acyclic call graph",
                op_location(f),
            )
        state[f] = 1
        for op in f.walk():
            if isinstance(op, func.CallOp):
                callee = by_name.get(op.callee.root_reference.data)
                if callee is not None:
                    visit(callee)
        state[f] = 2
        order.append(f)

    for f in functions:
        visit(f)
    return order


def _decompose_tensor_softmax(root: Operation) -> None:
    """`linalg.softmax` on tensors -> its decomposition (`linalg-decompose-aggregated-ops`),
    whose ops bufferize as any linalg op. Upstream keeps a `linalg.softmax` on buffers,
    which only its decomposition (on tensors) lowers; the values are the same."""
    for softmax in [o for o in root.walk() if isinstance(o, SoftmaxOp)]:
        if not isinstance(softmax.output.type, TensorType):
            continue
        new_ops = decompose_softmax(softmax)
        Rewriter.insert_op(new_ops, InsertPoint.before(softmax))
        softmax.result[0].replace_all_uses_with(new_ops[-1].results[0])
        Rewriter.erase_op(softmax)


def _unmask_tensor_transfers(root: Operation) -> None:
    """`vector.mask` around a transfer on a tensor -> the transfer with the mask as its
    mask operand (upstream bufferizes the `vector.mask` through its region; the transfer
    that takes the mask itself reads and writes the same elements, and bufferizes as any
    transfer). A masked read with a pass-through value is left (and reported)."""
    from schedir.transform.rewrites.rewriter import CanonRewriter
    from schedir.transform.rewrites.vector.masks import masked_transfer

    for op in list(root.walk()):
        if not isinstance(op, vector.MaskOp) or op.parent is None:
            continue
        inner = op.maskable_op()
        if inner is None or not any(is_tensor(v) for v in (*inner.operands, *inner.results)):
            continue
        masked_transfer(op, CanonRewriter(op))


def _summarize(function: func.FuncOp, model: OpModel, analysis: InPlaceAnalysis) -> FuncSummary:
    """Which tensor arguments the function reads and writes (for the in-place analysis of
    its call sites)."""
    args = function.body.block.args
    read = tuple(is_tensor(a) and model.value_read(a) for a in args)
    written = tuple(
        is_tensor(a)
        and any(
            analysis.is_write((use.operation, use.index))
            for member in analysis.decisions.aliases.members(a)
            for use in member.uses
        )
        for a in args
    )
    return FuncSummary(read, written)


def _plan(model: OpModel, decisions: Decisions) -> RewritePlan:
    """Facts the rewrite needs from the analysis, gathered before the IR changes."""
    copy_contents: dict[tuple[Operation, int], bool] = {}
    yield_via_temp: set[tuple[Operation, int]] = set()
    aliases = decisions.aliases
    for key in model.analyzed():
        info = model.info(*key)
        if key in decisions.in_place:
            continue
        op, index = key
        value = op.operands[index]
        copy_contents[key] = (info.read or not info.write) and not model.has_undefined_contents(
            value
        )
    seen_loops: set[Operation] = set()
    for key in model.analyzed():
        op = key[0]
        if not isinstance(op, scf.ForOp | scf.WhileOp) or op in seen_loops:
            continue
        seen_loops.add(op)
        blocks = [r.block for r in op.regions]
        roots = {aliases.find(v) for b in blocks for v in b.args if is_tensor(v)}
        roots |= {aliases.find(r) for r in op.results if is_tensor(r)}
        for block in blocks:
            terminator = block.last_op
            assert terminator is not None
            for position, value in enumerate(terminator.operands):
                if is_tensor(value) and aliases.find(value) in roots:
                    yield_via_temp.add((terminator, position))
    return RewritePlan(set(decisions.in_place), copy_contents, yield_via_temp)


def _annotate(model: OpModel, decisions: Decisions) -> None:
    """test-analysis-only: `__inplace_operands_attr__` on every op with tensor operands."""
    for key in model.analyzed():
        op = key[0]
        if "__inplace_operands_attr__" in op.attributes:
            continue
        marks: list[Attribute] = []
        for index, value in enumerate(op.operands):
            if not is_tensor(value):
                marks.append(StringAttr("none"))
            else:
                marks.append(StringAttr("true" if (op, index) in decisions.in_place else "false"))
        op.attributes["__inplace_operands_attr__"] = ArrayAttr(marks)


__all__ = ["OneShotBufferize"]
