"""Builders of linalg attributes used when constructing ops from Python."""

from schedir.dialects.linalg.conv import window_attr


def test_window_attr_is_upstreams_strides_type() -> None:
    assert str(window_attr([2, 3])) == "dense<[2, 3]> : tensor<2xi64>"
