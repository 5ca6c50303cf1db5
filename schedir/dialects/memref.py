"""The memref dialect as schedir uses it (placeholder: xDSL's, until completed)."""

from xdsl.dialects.memref import MemRef as MemRef

__all__ = ["MemRef"]
