"""Convolution windows (strides, dilations) are verified as upstream and never hang.

A zero stride or dilation drops a loop from the input's indexing map: upstream rejects the
op ("unexpected loop dimension for convolution op"), schedir computed something. Huge
strides (up to the i64 range) are valid when the output window has one position: they must
compile and run at once, with the reference's result. Validity is decided by iree-opt's
verifier for random windows.
"""

from __future__ import annotations

import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schedir.diagnostics import VerifyError
from schedir.dialects.syntax import parse_module
from schedir.testing.fuzz import FINDINGS, Case, Runner, find_iree_opt

_WINDOW = st.sampled_from([0, 1, 2, 3, -1, -3, 2**31, 2**62, 2**63 - 1, -(2**63)])


def conv(strides: tuple[int, int], dilations: tuple[int, int], ow: int) -> str:
    """A 3x3-input, 2x2-kernel conv_2d_nhwc_hwcf whose output is 1 x `ow`."""
    out = f"tensor<1x2x{ow}x3xf32>"
    return (
        f"func.func @f(%a: tensor<1x3x3x2xf32>, %k: tensor<2x2x2x3xf32>, %o: {out}) -> {out} {{\n"
        "  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<"
        f"[{dilations[0]}, {dilations[1]}]> : tensor<2xi64>, strides = dense<[{strides[0]}, "
        f"{strides[1]}]> : tensor<2xi64>}} ins(%a, %k : tensor<1x3x3x2xf32>, "
        f"tensor<2x2x2x3xf32>) outs(%o : {out}) -> {out}\n"
        f"  return %r : {out}\n}}\n"
    )


@pytest.fixture(scope="module")
def iree_opt() -> str:
    found = find_iree_opt()
    assert found is not None, "iree-opt (iree-base-compiler, a dev dependency) is the oracle"
    return found


@settings(max_examples=40)
@given(
    st.tuples(st.just(1), _WINDOW),
    st.tuples(st.just(1), _WINDOW),
    st.sampled_from([1, 2]),
)
def test_windows_are_accepted_exactly_when_upstream_accepts(
    iree_opt: str,
    tmp_path_factory: pytest.TempPathFactory,
    strides: tuple[int, int],
    dilations: tuple[int, int],
    ow: int,
) -> None:
    text = conv(strides, dilations, ow)
    path = tmp_path_factory.mktemp("conv") / "conv.mlir"
    path.write_text(text)
    upstream = subprocess.run([iree_opt, str(path)], capture_output=True, text=True, timeout=60)
    try:
        parse_module(text, "conv.mlir")
        accepted = True
    except VerifyError as err:
        assert err.location is not None and err.location.line == 2, err.render()
        accepted = False
    assert accepted == (upstream.returncode == 0), upstream.stderr or "upstream accepts"


@pytest.mark.parametrize("stride", [2**31, 2**62, 2**63 - 1, -3])
def test_huge_strides_on_one_window_position_run_at_once(runner: Runner, stride: int) -> None:
    text = conv((1, stride), (1, 1), 1)
    outcome = runner.run(Case("conv", text, upstream=text), timeout=60)
    assert outcome.kind not in FINDINGS, f"{outcome.kind}: {outcome.detail}"
    assert "check: OK" in outcome.result.stdout, outcome.result.stdout + outcome.result.stderr
