"""The tensor dialect as schedir uses it (placeholder: xDSL's, until completed)."""

from xdsl.dialects.tensor import Tensor as Tensor

__all__ = ["Tensor"]
