"""The fuzz generators and the independent oracle, in-process and through hypothesis."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings

from schedir import reference
from schedir.dialects.syntax import parse_module
from schedir.testing.fuzz import Case, Payload, compare, evaluate, gen_case
from schedir.testing.fuzz.payload import DTYPES, I32, random_inputs
from schedir.testing.fuzz.strategies import cases, mutants, payloads

FAST = settings(max_examples=40)


@FAST
@given(payloads())
def test_oracle_agrees_with_the_reference(payload: Payload) -> None:
    # Two independent evaluations of the untransformed payload: the fuzzer's (from its op
    # records) and schedir.reference (from the parsed text).
    module = parse_module(payload.text, "payload.mlir")
    inputs = random_inputs(payload, 1)
    (expected,) = reference.evaluate(module, None, inputs)
    check = compare(expected.astype(payload.dtype.np), evaluate(payload, inputs), payload.dtype)
    assert check.ok, f"{check.message}\n{payload.text}"


@FAST
@given(cases())
def test_cases_parse_and_verify(case: Case) -> None:
    parse_module(case.text, "case.mlir")
    assert case.upstream is not None and "transform.tune" not in case.upstream
    parse_module(case.upstream, "upstream.mlir")


@FAST
@given(mutants())
def test_mutants_differ_from_valid_cases(case: Case) -> None:
    assert case.mutations and case.upstream is None and case.payload is None


def test_generation_is_a_function_of_the_seed() -> None:
    a, b = gen_case(random.Random(5)), gen_case(random.Random(5))
    assert a.text == b.text and all(
        np.array_equal(x, y) for x, y in zip(a.inputs, b.inputs, strict=True)
    )


@pytest.mark.parametrize("dtype", [*DTYPES, I32], ids=lambda d: d.name)
def test_the_oracle_check_catches_wrong_elements(dtype: object) -> None:
    # The check can fail: a zeroed element, a NaN and an off-by-one element each fail it.
    rng = random.Random(11)
    payload = next(p for p in (gen_payload_of(rng, dtype) for _ in range(100)) if p.result.shape)
    inputs = random_inputs(payload, 2)
    want = evaluate(payload, inputs)
    exact = want.value.astype(payload.dtype.np)
    assert compare(exact, want, payload.dtype).ok
    flat = exact.reshape(-1)
    for bad in (0, np.nan, 1):
        if bad is np.nan and not payload.dtype.is_float:
            continue
        wrong = flat.copy()
        wrong[-1] = bad if bad != 1 else wrong[-1] + max(1, abs(wrong[-1]))
        if bad == 0 and flat[-1] == 0:
            continue
        assert not compare(wrong.reshape(exact.shape), want, payload.dtype).ok


def gen_payload_of(rng: random.Random, dtype: object) -> Payload:
    from schedir.testing.fuzz.payload import DType, gen_payload

    assert isinstance(dtype, DType)
    return gen_payload(rng, dtype)
