// RUN: %roundtrip | filecheck %s

// The pre-LLVM-24 spellings (inherent attributes in the attribute dictionary), which
// upstream now rejects, are still accepted and printed in the current syntax.

// CHECK: memref.global "private" @gb : memref<2xi8> = dense<[1, 2]> alignment = 16
memref.global "private" @gb : memref<2xi8> = dense<[1, 2]> {alignment = 16 : i64}

// CHECK-LABEL: func.func @legacy
func.func @legacy(%a: memref<4x8xf32>, %i: index, %f: f32) {
  // CHECK: %al = memref.alloc(%i) alignment = 64 : memref<?x4xf32>
  %al = memref.alloc(%i) {alignment = 64 : i64} : memref<?x4xf32>
  // CHECK: %aa = memref.alloca() alignment = 16 : memref<4xf32>
  %aa = memref.alloca() {alignment = 16 : i64} : memref<4xf32>
  // CHECK: %l = memref.load %a[%i, %i] nontemporal(true) : memref<4x8xf32>
  %l = memref.load %a[%i, %i] {nontemporal = true} : memref<4x8xf32>
  // CHECK: memref.store %f, %a[%i, %i] nontemporal(true) : memref<4x8xf32>
  memref.store %f, %a[%i, %i] {nontemporal = true} : memref<4x8xf32>
  return
}
