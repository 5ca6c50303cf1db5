"""The llvm dialect as schedir uses it (placeholder: xDSL's, until completed)."""

from xdsl.dialects.llvm import LLVM as LLVM

__all__ = ["LLVM"]
