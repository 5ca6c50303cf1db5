// RUN: schedir-opt %s --split-input-file --verify-diagnostics

func.func @bad_mapping_id() {
  scf.forall (%i) in (2) {
  // expected-error @below {{expected ::mlir::gpu::MappingId to be one of: x, y, z, linear_dim_0}}
  } {mapping = [#gpu.block<w>]}
  return
}

// -----

func.func @bad_address_space() {
  // expected-error @below {{expected ::mlir::gpu::AddressSpace to be one of: global, workgroup, private}}
  %s = memref.alloc() : memref<4xf32, #gpu.address_space<shared>>
  return
}
