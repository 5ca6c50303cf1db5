"""What the `*-to-llvm` passes share, one module per subject.

`common`: one pass run's state (`Lowering`: casts, constants, fields, declarations), the
`LLVMConversionPass` base class and `handler_for` (op-class tables); `type_converter`:
upstream's LLVMTypeConverter and memref layout facts; `memref`: descriptors and element
addresses; `memref_views`: view ops as new descriptors over a buffer; `memref_alignment`:
the provable alignment of kernel arguments; `vector`: n-D vectors as arrays of 1-D rows,
splats and reductions; `vector_memory`: vector loads and stores. The passes import these
modules by name (their names overlap: `memref_views` and `vector` each name their pass
`PASS`), so this package re-exports nothing.
"""
