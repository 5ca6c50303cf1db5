"""Per-step checking: the first transform op that changes the results is reported at its line."""

from __future__ import annotations

from types import MappingProxyType

import pytest
from xdsl.dialects import arith

import schedir
from schedir.dialects.transform.core.handles import AnnotateOp
from schedir.transform import ops as transform_ops
from schedir.transform.interface import Apply, Interpreter

PAYLOAD_AND_SCHEDULE = """\
module attributes {transform.with_named_sequence} {
  func.func @f(%a: tensor<9x7xf32>, %b: tensor<9x7xf32>) -> tensor<9x7xf32> {
    %e = tensor.empty() : tensor<9x7xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                                          affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%a, %b : tensor<9x7xf32>, tensor<9x7xf32>) outs(%e : tensor<9x7xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<9x7xf32>
    return %r : tensor<9x7xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.annotate %g "first" : !transform.any_op
    transform.annotate %g "second" : !transform.any_op
    transform.yield
  }
}
"""


def _breaking_annotate(op: AnnotateOp, interp: Interpreter) -> None:
    """An 'annotate' that also turns addf into subf when it writes the name "second"."""
    name = op.name_.data
    for payload in interp.state.payload_ops(op.target):
        payload.attributes[name] = op.name_
        if name != "second":
            continue
        for inner in list(payload.walk()):
            if isinstance(inner, arith.AddfOp):
                rewriter = interp.state.rewriter(inner)
                rewriter.replace(inner, arith.SubfOp(inner.lhs, inner.rhs))


def test_correct_schedule_passes_every_step() -> None:
    kernel = schedir.compile(PAYLOAD_AND_SCHEDULE, verify_each=True)
    assert kernel.name == "f"


def test_first_changing_op_is_reported_at_its_line(monkeypatch: pytest.MonkeyPatch) -> None:
    table = dict(transform_ops.APPLY)
    table[AnnotateOp] = Apply(AnnotateOp, _breaking_annotate)
    monkeypatch.setattr(transform_ops, "APPLY", MappingProxyType(table))
    with pytest.raises(schedir.TransformError) as info:
        schedir.compile(PAYLOAD_AND_SCHEDULE, verify_each=True)
    err = info.value
    assert err.location is not None and err.location.line == 17, err.render()
    assert "changes the result of @f" in err.message
    assert "max_abs_err=" in err.message and "63 of 63 elements differ" in err.message


def test_without_verify_each_the_wrong_step_goes_unnoticed(monkeypatch: pytest.MonkeyPatch) -> None:
    table = dict(transform_ops.APPLY)
    table[AnnotateOp] = Apply(AnnotateOp, _breaking_annotate)
    monkeypatch.setattr(transform_ops, "APPLY", MappingProxyType(table))
    schedir.compile(PAYLOAD_AND_SCHEDULE)


def test_progress_lines_and_skips_decided_by_the_payload(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The match and two annotates: the match leaves the payload as it was (skipped), each
    # annotate adds an attribute (checked: any change of the payload is run).
    schedir.compile(PAYLOAD_AND_SCHEDULE.replace("readonly", "consumed"), verify_each=True)
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("verify-each:")]
    assert lines[0].startswith("verify-each: step 1 'transform.structured.match' (<payload>:15:")
    assert lines[0].split(": ", 2)[2].startswith("skipped: the payload did not change")
    assert "step 2 'transform.annotate'" in lines[1] and "results match" in lines[1]
    assert "step 3 'transform.annotate'" in lines[2] and "results match" in lines[2]
    assert lines[3] == (
        "verify-each: 3 steps, 2 checked; skipped (payload unchanged): "
        "1 'transform.structured.match' (line 15)"
    )


NO_OP_TRANSFORMS = """\
module attributes {transform.with_named_sequence} {
  func.func @f(%a: tensor<9x7xf32>) -> tensor<9x7xf32> {
    %e = tensor.empty() : tensor<9x7xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<9x7xf32>) outs(%e : tensor<9x7xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = math.exp %x : f32
      linalg.yield %s : f32
    } -> tensor<9x7xf32>
    return %r : tensor<9x7xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.param.constant 4 : i64 -> !transform.param<i64>
    %h = transform.get_parent_op %g : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    %t, %l = transform.structured.tile_using_for %g tile_sizes [4, 0]
      : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
"""


def test_steps_without_payload_effects_are_skipped_whatever_their_kind(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Matches, a param, get_parent_op and a canonicalization with nothing to do leave the
    # payload unchanged: only the tiling is run.
    schedir.compile(NO_OP_TRANSFORMS, verify_each=True)
    err = capsys.readouterr().err
    summary = err.strip().splitlines()[-1]
    assert summary.startswith("verify-each: 6 steps, 1 checked; skipped (payload unchanged): ")
    for name in (
        "'transform.structured.match'",
        "'transform.param.constant'",
        "'transform.get_parent_op'",
        "'transform.apply_patterns'",
    ):
        assert name in summary
    assert "'transform.structured.tile_using_for'" not in summary


def test_a_step_whose_kernel_crashes_is_skipped_and_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # An intermediate payload may fault where the scheduled one does not (matmul_cpu's
    # packing buffer on the stack in every iteration, before buffer_loop_hoisting): the
    # step's kernel runs in a child, and its crash makes the step one that cannot run
    # (named with the signal), never the end of the process.
    import schedir.verify_each as verify_each
    from schedir.diagnostics import KernelCrash

    original = verify_each.run_step
    calls = [0]

    def crashing_once(*args: object, **kwargs: object) -> object:
        calls[0] += 1
        if calls[0] == 1:
            raise KernelCrash("the kernel @f crashed with SIGSEGV (segmentation fault)")
        return original(*args, **kwargs)  # pyright: ignore[reportArgumentType]  # forwarded as received

    monkeypatch.setattr(verify_each, "run_step", crashing_once)
    schedir.compile(PAYLOAD_AND_SCHEDULE.replace("readonly", "consumed"), verify_each=True)
    lines = [line for line in capsys.readouterr().err.splitlines() if "verify-each:" in line]
    assert "step 2 'transform.annotate'" in lines[1]
    assert "skipped: cannot run this step (the kernel @f crashed with SIGSEGV" in lines[1]
    assert "step 3 'transform.annotate'" in lines[2] and "results match" in lines[2]
    assert lines[3].endswith("skipped (cannot run): 2 'transform.annotate' (line 16)")


def _copy_loop(alloca: bool) -> str:
    """`f(a) = a` by a loop of 3001 steps; with `alloca`, each step goes through a 32 KiB
    buffer allocated on the stack in the loop and filled (96 MiB of stack in all, as an intermediate
    payload of matmul_cpu allocates its packing buffer before it is hoisted)."""
    through = (
        """
      %buf = memref.alloca() : memref<8192xf32>
      scf.for %j = %c0 to %c8192 step %c1 {
        memref.store %x, %buf[%j] : memref<8192xf32>
      }
      %y = memref.load %buf[%i] : memref<8192xf32>"""
        if alloca
        else """
      %y = arith.addf %x, %z : f32"""
    )
    return f"""func.func @f(%a: tensor<3001xf32>) -> tensor<3001xf32> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 3001 : index
  %c8192 = arith.constant 8192 : index
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3001xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %e) -> (tensor<3001xf32>) {{
      %x = tensor.extract %a[%i] : tensor<3001xf32>{through}
      %u = tensor.insert %y into %t[%i] : tensor<3001xf32>
      scf.yield %u : tensor<3001xf32>
  }}
  return %r : tensor<3001xf32>
}}"""


@pytest.mark.parametrize("stack", ["default", "main thread's"])
def test_a_step_runs_on_a_stack_larger_than_the_main_threads(
    stack: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import schedir.verify_each as verify_each
    from schedir.dialects.context import get_context
    from schedir.options import CompileOptions

    if stack != "default":
        monkeypatch.setattr(verify_each, "STEP_STACK_BYTES", 8 << 20)
    checker = verify_each.StepChecker.for_module(
        get_context(), schedir.parse(_copy_loop(False)), None, CompileOptions()
    )
    step = schedir.parse(_copy_loop(True))
    checker(next(op for op in step.walk() if op.name == "memref.alloca"), step)
    (result,) = checker.steps
    if stack == "default":
        assert result.status == "checked", result.line()
    else:
        assert result.status == "cannot run" and "SIGSEGV" in result.detail, result.line()
