"""The IR schedir reads and writes: xDSL's dialects, completed and corrected where needed.

`get_context()` returns a fresh xDSL `Context` holding every dialect a payload, a schedule
or a lowering stage may contain (see `context`). The dialects schedir defines or completes
live in the modules and sub-packages here, each package's `__init__` being its public face
(the dialect object and the op and attribute classes):

    arith, affine, bufferization, memref, tensor, nvvm      one module each
    gpu/, linalg/, llvm/, scf/, vector/                     one module per op family
    transform/                                              the Transform dialect
    syntax                                                  parse, print, locations
    types                                                   entry signatures (ABI specs)
    utils                                                   mixed static/dynamic operands
"""

from __future__ import annotations

from schedir.dialects.context import DIALECT_FACTORIES, get_context

__all__ = ["DIALECT_FACTORIES", "get_context"]
