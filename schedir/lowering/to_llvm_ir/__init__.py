"""LLVM dialect -> LLVM IR text (what `llvmlite.binding.parse_assembly` reads).

xDSL's `xdsl.backend.llvm` translator builds an llvmlite `ir.Module`; schedir reuses its
instruction builders for the ops it translates correctly (integer/float arithmetic with
flags, `icmp`, `select`, aggregates, `insertelement`, `shufflevector`, `fneg`, returns,
inline asm, vector reductions) and translates the rest itself:

- `llvm.getelementptr` keeps the base pointer's address space (xDSL bitcasts it to
  address space 0, which LLVM rejects) and its no-wrap flags (`inbounds`, `nuw`);
- types include `bfloat`, constants include bf16 (`0xR...`), nested arrays and vectors;
- intrinsics are declared with their mangled names (`llvm.fabs.f32`, `llvm.memcpy.p0.p0.i64`)
  so one module can use an intrinsic at several types;
- `poison`, `freeze`, `switch`, `extractelement`, `addrspacecast`, float<->int casts,
  loads/stores with alignment, volatile and nontemporal, allocas in any address space,
  indirect calls, calling conventions;
- functions keep linkage, visibility, calling convention (`ptx_kernel` for functions
  marked `nvvm.kernel`), argument attributes and simple function attributes
  (`passthrough`, `no_inline`, `target_cpu`, `target_features`); the launch bounds
  `nvvm.maxntid`/`reqntid`/`minctasm`/`maxnreg` become NVPTX function attributes;
- nvvm ops become NVPTX intrinsics: `nvvm.read.ptx.sreg.tid.x` ->
  `llvm.nvvm.read.ptx.sreg.tid.x`, `nvvm.barrier` -> `llvm.nvvm.barrier.cta.sync.aligned.all(0)`,
  `nvvm.shfl.sync bfly` -> `llvm.nvvm.shfl.sync.bfly.f32` (`...f32p` with the validity bit);
- branches to a block reached twice from one terminator with different arguments go
  through a new block (LLVM phis take one value per predecessor); unreachable blocks are
  dropped; blocks are emitted in reverse post-order so definitions precede uses.

The module's triple and data layout are taken from `llvm.target_triple` /
`llvm.data_layout` attributes when present and otherwise left empty: the CPU JIT and the
NVPTX backend set their own.

The translation is a table from op class to a translation function, assembled in
`module` (which also translates globals, declarations and function bodies) from one table
per op family: `values` (constants, casts, aggregates, `select`), `arithmetic`, `memory`,
`control` (branches, switches, block order), `calls`, `intrinsics` (`llvm.intr.*`,
vector reductions, masked memory) and `nvvm`. `translation` holds the state they share;
`llvmlite_ir` the llvmlite pieces.
"""

from __future__ import annotations

from schedir.lowering.to_llvm_ir.module import translate_module

__all__ = ["translate_module"]
