// RUN: schedir-opt %s -p finalize-memref-to-llvm,convert-func-to-llvm --split-input-file --verify-diagnostics

// Ops the LLVM lowering does not handle are reported at the op, never dropped.

func.func @atomic(%m: memref<4xf32>, %v: f32, %i: index) -> f32 {
  // expected-error @below {{finalize-memref-to-llvm: 'memref.atomic_rmw' is not supported}}
  %r = "memref.atomic_rmw"(%v, %m, %i) <{kind = 0 : i64}> : (f32, memref<4xf32>, index) -> f32
  return %r : f32
}

// -----

func.func @unranked(%m: memref<*xf32>) -> memref<4xf32> {
  // expected-error @below {{finalize-memref-to-llvm: 'memref.cast' is not supported: casts from or to unranked memrefs}}
  %r = memref.cast %m : memref<*xf32> to memref<4xf32>
  return %r : memref<4xf32>
}

// -----

func.func @non_contiguous_alloc() {
  // expected-error @below {{finalize-memref-to-llvm: 'memref.alloc' is not supported: allocation with layout strided<[1, 4]>}}
  %a = memref.alloc() : memref<4x4xf32, strided<[1, 4]>>
  return
}

// -----

func.func @bad_memory_space(%m: memref<4xf32, "weird">, %i: index) -> f32 {
  // expected-error @below {{memory space "weird" has no LLVM address space}}
  %v = memref.load %m[%i] : memref<4xf32, "weird">
  return %v : f32
}

// -----

// expected-error @below {{convert-func-to-llvm: 'func.func' is not supported: unranked memref arguments}}
func.func @unranked_argument(%m: memref<*xf32>) {
  return
}
