"""The gpu dialect as schedir uses it (placeholder: xDSL's, until completed)."""

from xdsl.dialects.gpu import GPU as GPU

__all__ = ["GPU"]
