// RUN: schedir-opt %s --split-input-file --verify-diagnostics

func.func @alloc_dynamic_sizes(%i: index) {
  // expected-error @below {{incorrect number of dynamic sizes, has 2, expected 1}}
  %a = memref.alloc(%i, %i) : memref<?x4xf32>
  return
}

// -----

func.func @alloca_dynamic_sizes(%i: index) {
  // expected-error @below {{incorrect number of dynamic sizes, has 0, expected 1}}
  %a = memref.alloca() : memref<?xf32>
  return
}

// -----

func.func @cast_incompatible(%a: memref<4xf32>) {
  // expected-error @below {{operand type 'memref<4xf32>' and result type 'memref<8xf32>' are cast incompatible}}
  %c = memref.cast %a : memref<4xf32> to memref<8xf32>
  return
}

// -----

func.func @copy_element_type(%a: memref<4xf32>, %b: memref<4xf16>) {
  // expected-error @below {{requires the same element type for all operands}}
  memref.copy %a, %b : memref<4xf32> to memref<4xf16>
  return
}
