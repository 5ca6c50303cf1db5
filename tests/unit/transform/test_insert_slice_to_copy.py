"""`transform.structured.insert_slice_to_copy` with dynamic slice sizes: the extract_slice
it builds has the type upstream infers from the sizes (`?` is the kDynamic size, equal to
what the parser makes of `?`), so the IR verifies, prints and parses back, and the
copied insertion computes what the payload does."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schedir
from schedir import reference
from tests.helpers import ANY, check_kernel, match, schedule_module

SCHEDULE = (
    match("%s", "tensor.insert_slice")
    + f"    %c = transform.structured.insert_slice_to_copy %s : ({ANY}) -> {ANY}\n"
)


def _payload(rows: int, cols: int, dynamic: tuple[bool, bool], offsets: tuple[int, int]) -> str:
    """Insert %a (each dimension static or dynamic) into a 2-D tensor at `offsets`."""
    src_shape = "x".join("?" if d else str(n) for d, n in zip(dynamic, (rows, cols), strict=True))
    sizes = ", ".join(
        f"%d{i}" if d else str(n)
        for i, (d, n) in enumerate(zip(dynamic, (rows, cols), strict=True))
    )
    dims = "".join(
        f"    %c{i} = arith.constant {i} : index\n    %d{i} = tensor.dim %a, %c{i} : tensor<{src_shape}xf32>\n"
        for i, d in enumerate(dynamic)
        if d
    )
    big = (rows + offsets[0] + 2, cols + offsets[1] + 3)
    dest = f"tensor<{big[0]}x{big[1]}xf32>"
    return f"""\
  func.func @insert(%a: tensor<{src_shape}xf32>, %b: {dest}) -> {dest} {{
{dims}    %r = tensor.insert_slice %a into %b[{offsets[0]}, {offsets[1]}] [{sizes}] [1, 1]
        : tensor<{src_shape}xf32> into {dest}
    return %r : {dest}
  }}"""


@settings(max_examples=12)
@given(
    rows=st.integers(1, 9),
    cols=st.integers(1, 9),
    dynamic=st.tuples(st.booleans(), st.booleans()),
    offsets=st.tuples(st.integers(0, 4), st.integers(0, 4)),
)
def test_insert_slice_to_copy_at_any_static_dynamic_mix(
    rows: int, cols: int, dynamic: tuple[bool, bool], offsets: tuple[int, int]
) -> None:
    payload = _payload(rows, cols, dynamic, offsets)
    text = schedule_module(payload, SCHEDULE)
    kernel = schedir.compile(text)
    scheduled = kernel.stages["scheduled"]
    assert "linalg.copy" in scheduled
    # The scheduled IR parses back (its extract_slice type equals the parsed one).
    schedir.parse(scheduled)
    # Dynamic dimensions of the source take the given sizes.
    sizes = [n for d, n in zip(dynamic, (rows, cols), strict=True) if d]
    inputs = reference.random_inputs(kernel.signature, 0, dynamic_sizes=sizes or None)
    check_kernel(kernel, text, inputs=inputs)


@pytest.mark.parametrize("dynamic", [(True, False), (False, True), (True, True)])
def test_extract_slice_type_has_the_dynamic_size(dynamic: tuple[bool, bool]) -> None:
    kernel = schedir.compile(schedule_module(_payload(3, 5, dynamic, (1, 2)), SCHEDULE))
    shape = "x".join("?" if d else str(n) for d, n in zip(dynamic, (3, 5), strict=True))
    assert f"to tensor<{shape}xf32>" in kernel.stages["scheduled"]
