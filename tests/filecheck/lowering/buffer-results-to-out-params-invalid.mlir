// RUN: schedir-opt %s -p buffer-results-to-out-params --split-input-file --verify-diagnostics

// The caller would allocate an identity buffer, which cannot stand for this layout.
// expected-error @below {{cannot create an out-parameter for result #0 of type memref<4xf32, strided<[1], offset: 2>>}}
func.func @static_offset(%a: memref<8xf32>) -> memref<4xf32, strided<[1], offset: 2>> {
  %v = memref.subview %a[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
  return %v : memref<4xf32, strided<[1], offset: 2>>
}
