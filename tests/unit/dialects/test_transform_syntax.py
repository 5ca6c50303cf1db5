"""Round trips of the core transform ops in upstream syntax, and the reference schedules.

Each case is parsed in its current spelling (and its legacy `{...}` spelling where one
exists), printed in upstream's current spelling, re-parsed and re-printed identically,
and upstream MLIR (iree-opt) accepts the printed text.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_transform_helpers import (
    Case,
    body_of,
    case_ids,
    check_case,
    check_upstream_accepts,
    expect_error,
    parse,
    roundtrip,
    transform_context,
    upstream_errors,
    wrap,
)
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.syntax import parse_module
from schedir.dialects.transform.core import NamedSequenceOp

SCHEDULES = Path(__file__).parents[2] / "data" / "reference_schedules"

ANY = "!transform.any_op"
P64 = "!transform.param<i64>"

CORE_CASES = [
    Case(f"transform.apply_cse to %a : {ANY}"),
    Case(f"transform.apply_dce to %a : {ANY}"),
    Case(f"transform.apply_licm to %a : {ANY}"),
    Case(
        "transform.apply_patterns to %a {\n  transform.apply_patterns.canonicalization\n"
        f"}} apply_cse max_iterations = 3 max_num_rewrites = 5 : {ANY}",
        legacy="transform.apply_patterns to %a {\n  transform.apply_patterns.canonicalization\n"
        f"}} {{apply_cse, max_iterations = 3 : i64, max_num_rewrites = 5}} : {ANY}",
    ),
    Case(
        f"transform.apply_patterns to %a {{\n}} : {ANY}",
        current=f"transform.apply_patterns to %a {{}} : {ANY}",
    ),
    Case(
        '%r = transform.apply_registered_pass "canonicalize" with options = '
        '{"max-iterations" = %p, "top-down" = false} to %a '
        f": ({ANY}, {P64}) -> {ANY}",
        current='%r = transform.apply_registered_pass "canonicalize" with options = '
        '{ "top-down" = false, "max-iterations" = %p } to %a '
        f": ({ANY}, {P64}) -> {ANY}",
    ),
    Case(
        f'%r = transform.apply_registered_pass "cse" to %a : ({ANY}) -> {ANY}',
    ),
    Case(
        '%r = transform.apply_registered_pass "canonicalize" with options = '
        f'{{"top-down" = "false"}} to %a : ({ANY}) -> {ANY}',
        legacy='%r = transform.apply_registered_pass "canonicalize" to %a '
        f'{{options = "top-down=false"}} : ({ANY}) -> {ANY}',
    ),
    Case(
        f"%r0, %r1 = transform.split_handle %a : ({ANY}) -> ({ANY}, {ANY})",
    ),
    Case(
        "%r0, %r1 = transform.split_handle %a pass_through_empty_handle = false "
        f"fail_on_payload_too_small = false overflow_result = 1 : ({ANY}) -> ({ANY}, {ANY})",
        legacy="%r0, %r1 = transform.split_handle %a {pass_through_empty_handle = false, "
        f"fail_on_payload_too_small = false, overflow_result = 1 : i64}} : ({ANY}) -> ({ANY}, {ANY})",
    ),
    Case(
        f"%r = transform.merge_handles deduplicate %a, %b : {ANY}",
        legacy=f"%r = transform.merge_handles %a, %b {{deduplicate}} : {ANY}",
    ),
    Case(f"%r = transform.merge_handles %p, %q : {P64}"),
    Case(
        f'%r = transform.get_parent_op %a <op_name = "func.func", deduplicate> : ({ANY}) -> {ANY}',
        current='%r = transform.get_parent_op %a <{op_name = "func.func", deduplicate}> '
        f": ({ANY}) -> {ANY}",
        legacy=f'%r = transform.get_parent_op %a {{op_name = "func.func", deduplicate}} '
        f": ({ANY}) -> {ANY}",
    ),
    Case(
        "%r = transform.get_parent_op %a <isolated_from_above, allow_empty_results, "
        f"nth_parent = 3> : ({ANY}) -> {ANY}",
        current="%r = transform.get_parent_op %a <{nth_parent = 3 : i64, isolated_from_above, "
        f"allow_empty_results}}> : ({ANY}) -> {ANY}",
    ),
    Case(
        f"%r = transform.get_parent_op %a : ({ANY}) -> {ANY}",
        current=f"%r = transform.get_parent_op %a <{{nth_parent = 1}}> : ({ANY}) -> {ANY}",
    ),
    Case(f"%r = transform.get_producer_of_operand %a[2] : ({ANY}) -> {ANY}"),
    Case(f"%r = transform.get_consumers_of_result %a[0] : ({ANY}) -> {ANY}"),
    Case(f"%r = transform.get_result %a[0] : ({ANY}) -> !transform.any_value"),
    Case(f"%r = transform.get_result %a[except(0, 2)] : ({ANY}) -> !transform.any_value"),
    Case(f"%r = transform.get_operand %a[all] : ({ANY}) -> !transform.any_value"),
    Case(f"%r = transform.get_defining_op %v : (!transform.any_value) -> {ANY}"),
    Case("%r = transform.get_type elemental %v : (!transform.any_value) -> !transform.type"),
    Case(f'%r = transform.cast %a : {ANY} to !transform.op<"linalg.matmul">'),
    Case(f'%r = transform.select "linalg.matmul" in %a : ({ANY}) -> {ANY}'),
    Case(f"%r = transform.num_associations %a : ({ANY}) -> {P64}"),
    Case(f'transform.annotate %a "tag" = %p : {ANY}, {P64}'),
    Case(f'transform.annotate %a "tag" : {ANY}'),
    Case(
        f'transform.print %a name = "after" assume_verified skip_regions : {ANY}',
        legacy=f'transform.print %a {{name = "after", assume_verified, skip_regions}} : {ANY}',
    ),
    Case(f"transform.print %a use_local_scope : {ANY}"),
    Case("transform.print\ntransform.apply_cse to %a : !transform.any_op"),
    Case(f"%r = transform.param.constant 4 : i64 -> {P64}"),
    Case(
        "%r = transform.param.constant [4, 5] -> !transform.any_param",
        current="%r = transform.param.constant [4 : i64, 5] -> !transform.any_param",
    ),
    Case(f'transform.match.operation_name %a ["linalg.matmul", "linalg.fill"] : {ANY}'),
    Case(f"transform.match.operation_empty %a : {ANY}"),
    Case(f"transform.match.param.cmpi ge %p, %q : {P64}"),
    Case(f"transform.match.param.cmpi ne %p, %q : {P64}"),
    Case(f"transform.verify %a : {ANY}"),
    Case(
        f"%r = transform.sequence %a, %p : ({ANY}, {P64}) -> {ANY} failures(propagate) {{\n"
        f"^bb0(%x: {ANY}, %y: {P64}):\n  transform.yield %x : {ANY}\n}}"
    ),
    Case(
        f"transform.sequence %a : {ANY} failures(suppress) attributes {{foo}} {{\n"
        f"^bb0(%x: {ANY}):\n}}",
        current=f"transform.sequence %a : {ANY} failures(suppress) attributes {{foo}} {{\n"
        f"^bb0(%x: {ANY}):\n  yield\n}}",
    ),
    Case(
        f"%r = transform.alternatives %a : {ANY} -> {ANY} {{\n^bb0(%x: {ANY}):\n"
        f"  transform.yield %x : {ANY}\n}}, {{\n^bb0(%y: {ANY}):\n  transform.yield %y : {ANY}\n}}"
    ),
    Case(
        f"%r0, %r1 = transform.foreach %a, %b with_zip_shortest : {ANY}, {ANY} -> {ANY}, {ANY} {{\n"
        f"^bb0(%x: {ANY}, %y: {ANY}):\n  transform.yield %x, %y : {ANY}, {ANY}\n}}"
    ),
    Case(f"transform.foreach %a : {ANY} {{\n^bb0(%x: {ANY}):\n}} {{foo}}"),
]


@pytest.mark.parametrize("case", CORE_CASES, ids=case_ids(CORE_CASES))
def test_core_op_roundtrip(case: Case) -> None:
    check_case(case)


def test_upstream_accepts_core_ops() -> None:
    check_upstream_accepts(CORE_CASES)


SYMBOLS = f"""
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @m(%op: {ANY} {{transform.readonly}}) -> {ANY} {{
    transform.yield %op : {ANY}
  }}
  transform.named_sequence @m2(%op: {ANY} {{transform.readonly}}, %p: {P64} {{transform.readonly}}) -> ({ANY}, {P64}) {{
    transform.yield %op, %p : {ANY}, {P64}
  }}
  transform.named_sequence private @decl({ANY} {{transform.readonly}})
  transform.named_sequence @a(%op: {ANY} {{transform.readonly}}) {{
    transform.yield
  }}
  transform.named_sequence @a2(%op: {ANY} {{transform.readonly}}, %p: {P64} {{transform.readonly}}) -> {P64} {{
    transform.yield %p : {P64}
  }}
  transform.named_sequence @__transform_main(%root: {ANY} {{transform.consumed}}, %p: {P64} {{transform.readonly}}) attributes {{foo = 1 : i64}} {{
    %u = transform.foreach_match restrict_root in %root @m -> @a, @m -> @a : ({ANY}) -> {ANY}
    %u2, %o = transform.foreach_match flatten_results in %u, %p @m2 -> @a2 : ({ANY}, {P64}) -> ({ANY}, {P64})
    %x = transform.collect_matching @m in %u2 : ({ANY}) -> {ANY}
    %r = transform.include @m failures(suppress) (%x) : ({ANY}) -> {ANY}
    transform.include @a failures(propagate) (%r) : ({ANY}) -> ()
    transform.yield
  }}
}}
"""


def test_symbol_ops_roundtrip_and_upstream_accepts() -> None:
    printed = roundtrip(SYMBOLS)
    assert "transform.named_sequence private @decl(!transform.any_op {transform.readonly})" in (
        printed
    )
    assert "restrict_root in %root @m -> @a, @m -> @a : " in printed
    assert "flatten_results in %u, %p @m2 -> @a2 : " in printed
    assert "transform.include @m failures(suppress) (%x) : (!transform.any_op)" in printed
    assert "attributes {foo = 1 : i64} {" in printed
    assert not upstream_errors([printed])


def test_named_sequence_result_attributes_and_visibility() -> None:
    text = f"""
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence public @f(%x: {ANY} {{transform.readonly}}) -> ({ANY} {{a.b}}) {{
    transform.yield %x : {ANY}
  }}
}}"""
    printed = roundtrip(text)
    assert f"public @f(%x: {ANY} {{transform.readonly}}) -> ({ANY} {{a.b}}) {{" in printed
    assert not upstream_errors([printed])


REFERENCE_SCHEDULES = [
    "a_matmul_bias_relu_tile_fuse.mlir",
    "b_matmul_bias_relu_gpu.mlir",
    "c_softmax_rows.mlir",
    "d_matmul_bias_relu_gpu_vectorized.mlir",
    "e_payload.mlir",
    "e_schedule.mlir",
]


@pytest.mark.parametrize("name", REFERENCE_SCHEDULES)
def test_reference_schedules_roundtrip(name: str) -> None:
    path = SCHEDULES / name
    printed = roundtrip(path.read_text())
    assert "builtin.module" in printed or "module" in printed
    assert not upstream_errors([printed])


def test_region_ops_print_implicit_terminators_like_upstream() -> None:
    body = body_of(roundtrip(wrap(f"transform.foreach %a : {ANY} {{\n^bb0(%x: {ANY}):\n}}")))
    assert "transform.yield" not in body


# --- verifier errors (upstream's messages, at the op) -------------------------------------


def _module(*ops: str) -> str:
    return "module attributes {transform.with_named_sequence} {\n" + "\n".join(ops) + "\n}\n"


def test_named_sequence_consumes_readonly_argument() -> None:
    text = _module(
        f"  transform.named_sequence @f(%a: {ANY} {{transform.readonly}}) {{",
        f'    %r = transform.apply_registered_pass "cse" to %a : ({ANY}) -> {ANY}',
        "    transform.yield",
        "  }",
    )
    expect_error(text, "argument #0 is consumed in the body but is not marked as such", 2, 3)


def test_named_sequence_both_readonly_and_consumed() -> None:
    text = _module(
        f"  transform.named_sequence @f(%a: {ANY} {{transform.readonly, transform.consumed}}) {{",
        "    transform.yield",
        "  }",
    )
    expect_error(text, "argument #0 cannot be both readonly and consumed", 2, 3)


def test_external_named_sequence_needs_annotations() -> None:
    text = _module(f"  transform.named_sequence private @f({ANY})")
    expect_error(
        text,
        "must provide consumed/readonly status for arguments of external or called ops",
        2,
        3,
    )


def test_named_sequence_needs_with_named_sequence_attribute() -> None:
    text = (
        "module {\n"
        f"  transform.named_sequence @f(%a: {ANY} {{transform.readonly}}) {{\n"
        "    transform.yield\n  }\n}\n"
    )
    expect_error(
        text,
        "expects the parent symbol table to have the 'transform.with_named_sequence' attribute",
        2,
        3,
    )


def test_named_sequence_terminator_count() -> None:
    text = _module(
        f"  transform.named_sequence @f(%a: {ANY} {{transform.readonly}}) -> {ANY} {{",
        "    transform.yield",
        "  }",
    )
    expect_error(
        text, "expected terminator to have as many operands as the parent op has results", 3, 5
    )


def test_named_sequence_terminator_type() -> None:
    text = _module(
        f"  transform.named_sequence @f(%a: {ANY} {{transform.readonly}}) -> {P64} {{",
        f"    transform.yield %a : {ANY}",
        "  }",
    )
    expect_error(
        text,
        "the type of the terminator operand #0 must match the type of the corresponding "
        f"parent op result ('{ANY}' vs '{P64}')",
        3,
        5,
    )


def test_named_sequence_empty_body() -> None:
    text = _module(f"  transform.named_sequence @f(%a: {ANY} {{transform.readonly}}) {{", "  }")
    # schedir's generic empty-block check reports this before the op verifier does.
    expect_error(text, "empty block", 2, 3)
    module = parse_module(text, ctx=transform_context(), verify=False)
    seq = next(op for op in module.walk() if isinstance(op, NamedSequenceOp))
    with pytest.raises(VerifyException, match="expected a non-empty body block"):
        seq.verify_()


def _with_callee(callee_args: str, call: str) -> str:
    return _module(
        f"  transform.named_sequence @f({callee_args}) {{",
        "    transform.yield",
        "  }",
        f"  transform.named_sequence @g(%a: {ANY} {{transform.readonly}}, "
        f"%p: {P64} {{transform.readonly}}) {{",
        f"    {call}",
        "    transform.yield",
        "  }",
    )


def test_include_unknown_callee() -> None:
    text = _with_callee(
        f"%x: {ANY} {{transform.readonly}}",
        f"transform.include @nope failures(propagate) (%a) : ({ANY}) -> ()",
    )
    expect_error(text, "'transform.include' op does not reference a named transform sequence", 6, 5)


def test_include_operand_type_mismatch() -> None:
    text = _with_callee(
        f"%x: {ANY} {{transform.readonly}}",
        f"transform.include @f failures(propagate) (%p) : ({P64}) -> ()",
    )
    expect_error(
        text,
        f"operand type mismatch: expected operand type '{ANY}', but provided '{P64}' for "
        "operand number 0",
        6,
        5,
    )


def test_include_result_count() -> None:
    text = _with_callee(
        f"%x: {ANY} {{transform.readonly}}",
        f"%r = transform.include @f failures(propagate) (%a) : ({ANY}) -> {ANY}",
    )
    expect_error(text, "incorrect number of results for callee", 6, 5)


def test_include_of_unannotated_callee() -> None:
    text = _with_callee(
        f"%x: {ANY}", f"transform.include @f failures(propagate) (%a) : ({ANY}) -> ()"
    )
    expect_error(text, "TransformOpInterface requires memory effects on operands", 6, 5)


def test_include_bad_failure_mode() -> None:
    text = _with_callee(
        f"%x: {ANY} {{transform.readonly}}",
        f"transform.include @f failures(ignore) (%a) : ({ANY}) -> ()",
    )
    expect_error(text, "for failure propagation mode", 6, 35)


def test_foreach_match_unresolved_action() -> None:
    text = _module(
        f"  transform.named_sequence @m(%a: {ANY} {{transform.readonly}}) -> {ANY} {{",
        f"    transform.yield %a : {ANY}",
        "  }",
        f"  transform.named_sequence @g(%a: {ANY} {{transform.consumed}}) {{",
        f"    %0 = transform.foreach_match in %a @m -> @nope : ({ANY}) -> {ANY}",
        "    transform.yield",
        "  }",
    )
    # Upstream's emitError() has no `'<op>' op` prefix; it is still at the op's name.
    expect_error(text, "unresolved action symbol @nope", 6, 10)


def test_foreach_match_arity_mismatch() -> None:
    text = _module(
        f"  transform.named_sequence @m(%a: {ANY} {{transform.readonly}}) -> {ANY} {{",
        f"    transform.yield %a : {ANY}",
        "  }",
        f"  transform.named_sequence @act(%a: {ANY} {{transform.readonly}}, "
        f"%b: {ANY} {{transform.readonly}}) {{",
        "    transform.yield",
        "  }",
        f"  transform.named_sequence @g(%a: {ANY} {{transform.consumed}}) {{",
        f"    %0 = transform.foreach_match in %a @m -> @act : ({ANY}) -> {ANY}",
        "    transform.yield",
        "  }",
    )
    expect_error(
        text,
        "mismatching number of matcher results and action arguments between @m (1) and @act (2)",
        9,
        10,
    )


def test_foreach_match_consuming_matcher() -> None:
    text = _module(
        f"  transform.named_sequence @m(%a: {ANY} {{transform.consumed}}) -> {ANY} {{",
        f"    transform.yield %a : {ANY}",
        "  }",
        f"  transform.named_sequence @act(%a: {ANY} {{transform.readonly}}) {{",
        "    transform.yield",
        "  }",
        f"  transform.named_sequence @g(%a: {ANY} {{transform.consumed}}) {{",
        f"    %0 = transform.foreach_match in %a @m -> @act : ({ANY}) -> {ANY}",
        "    transform.yield",
        "  }",
    )
    expect_error(text, "does not expect matcher symbol to consume its operand #0", 9, 5)


def test_collect_matching_result_kind() -> None:
    text = _module(
        f"  transform.named_sequence @m(%a: {ANY} {{transform.readonly}}) -> {ANY} {{",
        f"    transform.yield %a : {ANY}",
        "  }",
        f"  transform.named_sequence @g(%a: {ANY} {{transform.readonly}}) {{",
        f"    %0 = transform.collect_matching @m in %a : ({ANY}) -> {P64}",
        "    transform.yield",
        "  }",
    )
    expect_error(text, "mismatching type interfaces for matcher result and op result #0", 6, 5)


def test_split_handle_overflow_result() -> None:
    text = wrap(f"%0:2 = transform.split_handle %a overflow_result = 2 : ({ANY}) -> ({ANY}, {ANY})")
    expect_error(
        text, "'transform.split_handle' op overflow_result is not a valid result index", 3, 5
    )


def test_merge_handles_needs_operands() -> None:
    text = wrap(f"%0 = transform.merge_handles : {ANY}")
    expect_error(text, "expected 1 or more operands, but found 0", 3, 5)


def test_get_result_all_and_values() -> None:
    text = wrap(f"%0 = transform.get_result %a[except()] : ({ANY}) -> !transform.any_value")
    expect_error(text, "must request specific values in the list if 'all' is not set", 3, 5)


def test_sequence_block_argument_type() -> None:
    text = wrap(
        f'transform.sequence %a : {ANY} failures(propagate) {{\n^bb0(%x: !transform.op<"foo">):\n}}'
    )
    expect_error(
        text, "expects the type of the block argument to match the type of the operand", 3, 5
    )


def test_sequence_terminator_types() -> None:
    text = wrap(
        f"%0 = transform.sequence %a : {ANY} -> {ANY} failures(propagate) {{\n"
        f"^bb0(%x: {ANY}):\n  transform.yield\n}}"
    )
    expect_error(
        text, "expects the types of the terminator operands to match the types of the result", 3, 5
    )


def test_alternatives_terminator_types() -> None:
    text = wrap(
        f"%0 = transform.alternatives %a : {ANY} -> {ANY} {{\n^bb0(%x: {ANY}):\n"
        "  transform.yield\n}"
    )
    expect_error(
        text,
        "expects terminator operands to have the same type as results of the operation",
        3,
        5,
    )


def test_alternatives_needs_a_region() -> None:
    text = wrap(f"transform.alternatives %a : {ANY}")
    expect_error(text, "expects at least one region", 3, 5)


def test_unknown_prop_dict_entry() -> None:
    text = wrap(f"%0 = transform.get_parent_op %a <{{bogus = 1}}> : ({ANY}) -> {ANY}")
    expect_error(text, "has no property 'bogus'", 3, 39)


def test_parsed_ops_carry_handle_effects() -> None:
    from schedir.dialects.transform.core.apply import ApplyRegisteredPassOp
    from schedir.dialects.transform.core.control import IncludeOp
    from schedir.dialects.transform.interfaces import TransformOpInterface

    module = parse(SYMBOLS)
    ops = list(module.walk())
    assert all(
        isinstance(op, TransformOpInterface) for op in ops if op.name.startswith("transform.")
    )
    include = next(op for op in ops if isinstance(op, IncludeOp))
    assert include.consumed_values() == ()
    text = wrap(f'%r = transform.apply_registered_pass "cse" to %a : ({ANY}) -> {ANY}')
    op = next(o for o in parse(text).walk() if isinstance(o, ApplyRegisteredPassOp))
    assert op.consumed_values() == (op.target,)


def test_legacy_top_level_sequence() -> None:
    """Schedules before named sequences: a top-level `transform.sequence` whose block
    argument is the payload root; ops in it may drop the `transform.` prefix."""
    text = f"""
transform.sequence failures(propagate) {{
^bb0(%root: {ANY}):
  %m = transform.structured.match ops{{["linalg.matmul"]}} in %root : ({ANY}) -> {ANY}
  %t, %l = transform.structured.tile_using_for %m tile_sizes [4] : ({ANY}) -> ({ANY}, {ANY})
  yield
}}
"""
    printed = roundtrip(text)
    assert "transform.sequence failures(propagate) {" in printed
    assert f"^bb0(%root: {ANY}):" in printed
    assert not upstream_errors([printed])
