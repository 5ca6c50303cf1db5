"""The scf dialect as schedir uses it (placeholder: xDSL's, until completed)."""

from xdsl.dialects.scf import Scf as Scf

__all__ = ["Scf"]
