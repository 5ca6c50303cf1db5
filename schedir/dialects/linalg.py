"""The linalg dialect as schedir uses it (placeholder: xDSL's, until completed)."""

from xdsl.dialects.linalg import Linalg as Linalg

__all__ = ["Linalg"]
