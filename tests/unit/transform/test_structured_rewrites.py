"""The payload rewrites behind transform.structured.decompose, called directly.

schedir's linalg dialect has no 1-D convolutions yet, so the transform op reports them
missing; the rewrite itself is checked here with a 1-D convolution defined by the test
(upstream's `linalg.conv_1d_nwc_wcf`): the H-less 2-D convolution becomes the 1-D one on
rank-reduced slices, and computes the same values (checked after generalizing it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import pytest
from xdsl.ir import Attribute, Block, Operation
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_op_definition
from xdsl.pattern_rewriter import PatternRewriter

import schedir
from schedir import reference
from schedir.dialects import get_context
from schedir.dialects.linalg.conv import WindowedOp
from schedir.dialects.linalg.interface import is_structured
from schedir.dialects.linalg.named import affine_maps, loop_dims, multiply_accumulate
from schedir.dialects.syntax import parse_module, print_op
from schedir.transform.rewrites import structured_misc


@irdl_op_definition
class Conv1DNwcWcfOp(WindowedOp):
    """Upstream's 1-D convolution: input NWC, kernel WCF, output NWF."""

    name = "linalg.conv_1d_nwc_wcf"
    SPATIAL: ClassVar[int] = 1
    ITERATORS: ClassVar[tuple[str, ...]] = ("parallel",) * 3 + ("reduction",) * 2

    @classmethod
    def fill_body(
        cls, block: Block, num_inputs: int, properties: Mapping[str, Attribute | None]
    ) -> None:
        multiply_accumulate(block, num_inputs, {})

    def default_indexing_maps(self) -> tuple[AffineMap, ...]:
        n, ow, f, kw, c = loop_dims(5)
        (sw,), (dw,) = self._window_params()
        return affine_maps(5, (n, ow * sw + kw * dw, c), (kw, c, f), (n, ow, f))


PAYLOAD = """func.func @conv(%x: tensor<2x1x13x3xf32>, %w: tensor<1x3x3x5xf32>, %o: tensor<2x1x5x5xf32>) -> tensor<2x1x5x5xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>} ins(%x, %w : tensor<2x1x13x3xf32>, tensor<1x3x3x5xf32>) outs(%o : tensor<2x1x5x5xf32>) -> tensor<2x1x5x5xf32>
  return %0 : tensor<2x1x5x5xf32>
}
"""


def _conv(module: Operation) -> Operation:
    return next(op for op in module.walk() if op.name == "linalg.conv_2d_nhwc_hwcf")


def test_decompose_unit_height_convolution_to_1d() -> None:
    module = parse_module(PAYLOAD, "<test>", ctx=get_context())
    conv = _conv(module)
    lookup = {"linalg.conv_1d_nwc_wcf": Conv1DNwcWcfOp}.get
    result = structured_misc.decompose_conv(PatternRewriter(conv), conv, lookup)
    conv_1d = result.conv_1d
    assert isinstance(conv_1d, Conv1DNwcWcfOp)
    assert [str(v.type) for v in conv_1d.operands] == [
        "tensor<2x13x3xf32>",
        "tensor<3x3x5xf32>",
        "tensor<2x5x5xf32>",
    ]
    # H is dropped from strides and dilations, W kept.
    assert conv_1d._window_params() == ((2,), (2,))
    body = conv_1d.parent_block()
    assert body is not None
    names = [op.name for op in body.ops if op.name.startswith(("tensor.", "linalg."))]
    assert names == [
        "tensor.extract_slice",
        "tensor.extract_slice",
        "tensor.extract_slice",
        "linalg.conv_1d_nwc_wcf",
        "tensor.insert_slice",
    ]
    # Same values: generalize the (test-defined) 1-D op and run both.
    structured_misc.generalize(PatternRewriter(conv_1d), conv_1d)
    text = print_op(module)
    kernel = schedir.compile(text)
    inputs = reference.random_inputs(kernel.signature, seed=3)
    expected = reference.evaluate_with_bounds(PAYLOAD, None, inputs)
    (actual,) = kernel.run(*inputs, prefill_nan=True)
    check = reference.compare(actual, expected[0], kernel.signature.results[0].dtype)
    assert check.ok, check.message


def test_decompose_reports_a_missing_1d_op() -> None:
    module = parse_module(PAYLOAD, "<test>", ctx=get_context())
    conv = _conv(module)
    with pytest.raises(structured_misc.MissingOp, match=r"linalg\.conv_1d_nwc_wcf"):
        structured_misc.decompose_conv(PatternRewriter(conv), conv, lambda _: None)
    assert conv.parent is not None  # nothing was rewritten


def test_decompose_needs_a_unit_window_dimension() -> None:
    taller = PAYLOAD.replace("2x1x13x3", "2x2x13x3").replace("2x1x5x5", "2x2x5x5")
    module = parse_module(taller, "<test>", ctx=get_context())
    conv = _conv(module)
    with pytest.raises(structured_misc.RewriteFailure):
        structured_misc.decompose_conv(PatternRewriter(conv), conv)
    assert is_structured(conv)


def test_decompose_through_the_transform_op_names_the_missing_op() -> None:
    schedule = """
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.structured.match ops{["linalg.conv_2d_nhwc_hwcf"]} in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.structured.decompose %c : (!transform.any_op) -> !transform.any_op
    transform.yield
  }"""
    text = "module attributes {transform.with_named_sequence} {\n" + PAYLOAD + schedule + "\n}\n"
    with pytest.raises(schedir.TransformError) as info:
        schedir.compile(text)
    assert "linalg.conv_1d_nwc_wcf, which schedir does not define" in info.value.message
    assert not info.value.silenceable
