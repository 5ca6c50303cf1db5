"""The affine dialect as schedir uses it (placeholder: xDSL's, until completed)."""

from xdsl.dialects.affine import Affine as Affine

__all__ = ["Affine"]
