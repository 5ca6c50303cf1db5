"""Round trips of every pattern-set descriptor (`transform.apply_patterns.*`), with and
without options, inside `transform.apply_patterns`; iree-opt accepts all of them."""

from __future__ import annotations

import pytest
from test_transform_helpers import (
    Case,
    body_of,
    case_ids,
    check_case,
    check_upstream_accepts,
    roundtrip,
    wrap,
)

from schedir.dialects.transform import gpu, loop, memref, tensor, vector
from schedir.dialects.transform.core.apply import ApplyCanonicalizationPatternsOp
from schedir.dialects.transform.descriptors import Option
from schedir.dialects.transform.interfaces import PatternDescriptorOpInterface
from schedir.dialects.transform.structured import patterns

DESCRIPTORS = [
    ApplyCanonicalizationPatternsOp,
    *patterns.OPS,
    *loop.OPS,
    *tensor.OPS,
    *memref.OPS,
    *gpu.OPS,
    *vector.OPS,
]
DESCRIPTORS = [d for d in DESCRIPTORS if d.name.startswith("transform.apply_patterns.")]


def _non_default(option: Option) -> str:
    if option.kind == "paren":
        return f"{option.name}(64)"
    if option.kind == "enum":
        choice = next(c for i, c in enumerate(option.choices) if i != option.default)
        word = choice if choice.replace("_", "").isalnum() else f'"{choice}"'
        return f"{option.name} = {word}"
    if option.kind == "bool":
        return f"{option.name} = {'false' if option.default else 'true'}"
    if option.kind == "unit":
        return option.name
    return f"{option.name} = 3"


def _in_apply(*descriptors: str) -> str:
    inner = "\n".join("  " + d for d in descriptors)
    return f"transform.apply_patterns to %a {{\n{inner}\n}} : !transform.any_op"


def _cases() -> list[Case]:
    cases: list[Case] = []
    for descriptor in DESCRIPTORS:
        options: tuple[Option, ...] = getattr(descriptor, "OPTIONS", ())
        required = [o for o in options if o.required]
        base = " ".join([descriptor.name, *(_non_default(o) for o in required)])
        cases.append(Case(_in_apply(base)))
        if options and not required:
            spelled = " ".join([descriptor.name, *(_non_default(o) for o in options)])
            cases.append(Case(_in_apply(spelled)))
    return cases


CASES = _cases()


@pytest.mark.parametrize("case", CASES, ids=[c.printed.split()[5] for c in CASES])
def test_descriptor_roundtrip(case: Case) -> None:
    check_case(case)


LEGACY = ("transform.apply_patterns.vector.lower_multi_reduction",)
"""Descriptors schedir keeps for older upstream schedules that LLVM 24 no longer has
(`lower_multi_reduction` was split into its three stages)."""


def test_upstream_accepts_every_descriptor() -> None:
    check_upstream_accepts([c for c in CASES if not any(name in c.printed for name in LEGACY)])


def test_descriptors_implement_the_pattern_interface() -> None:
    assert len(DESCRIPTORS) >= 60
    for descriptor in DESCRIPTORS:
        assert issubclass(descriptor, PatternDescriptorOpInterface), descriptor.name


def test_default_options_are_elided_and_quoted_enums_accepted() -> None:
    text = wrap(
        _in_apply(
            'transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"',
            "transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1",
            "transform.apply_patterns.vector.split_transfer_full_partial "
            'split_transfer_strategy = "vector-transfer"',
        )
    )
    body = body_of(roundtrip(text))
    assert "transform.apply_patterns.vector.lower_contraction\n" in body
    assert "transform.apply_patterns.vector.lower_transfer\n" in body
    assert 'split_transfer_strategy = "vector-transfer"' in body


def test_enum_options_are_stored_as_upstream_i32() -> None:
    from test_transform_helpers import parse
    from xdsl.dialects.builtin import IntegerAttr, i32

    module = parse(
        wrap(_in_apply("transform.apply_patterns.vector.lower_contraction lowering_strategy = dot"))
    )
    op = next(o for o in module.walk() if o.name.endswith("lower_contraction"))
    assert op.properties["lowering_strategy"] == IntegerAttr(0, i32)


def test_case_ids_are_unique() -> None:
    assert len(set(case_ids(CASES))) == len(CASES)
