// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: schedir extends memref.multibuffer to allocations made in the loop's body and to byte buffers read through memref.view (upstream refuses both).

// A byte buffer allocated in the loop's body (a fresh tile each k step, as
// structured.promote makes it) and read through a view: hoisted before the loop, three
// times as large, the view of step k at byte ((k floordiv 32) mod 3) x 8192, the
// deallocation after the loop.
// CHECK:       #[[SLOT:.*]] = affine_map<(d0) -> (((d0 floordiv 32) mod 3) * 8192)>
// CHECK-LABEL: func.func @promoted_tile
// CHECK:       %[[T:.*]] = memref.alloc() : memref<24576xi8, #gpu.address_space<workgroup>>
// CHECK:       scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:    %[[SHIFT:.*]] = affine.apply #[[SLOT]](%[[K]])
// CHECK:         %[[AT:.*]] = arith.addi %{{.*}}, %[[SHIFT]] : index
// CHECK-NEXT:    %[[V:.*]] = memref.view %[[T]][%[[AT]]][%{{.*}}, %{{.*}}] : memref<24576xi8, #gpu.address_space<workgroup>> to memref<?x?xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:    memref.store %{{.*}}, %[[V]]
// CHECK-NEXT:  }
// CHECK-NEXT:  memref.dealloc %[[T]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %allocs = transform.structured.match ops{["memref.alloc"]} in %root : (!transform.any_op) -> !transform.op<"memref.alloc">
    %mb = transform.memref.multibuffer %allocs <{factor = 3}> : (!transform.op<"memref.alloc">) -> !transform.any_op
    transform.yield
  }
  func.func @promoted_tile(%x: f16) {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    scf.for %k = %c0 to %c1024 step %c32 {
      %t = memref.alloc() : memref<8192xi8, #gpu.address_space<workgroup>>
      %v = memref.view %t[%c0][%c128, %c32] : memref<8192xi8, #gpu.address_space<workgroup>> to memref<?x?xf16, #gpu.address_space<workgroup>>
      memref.store %x, %v[%c0, %c0] : memref<?x?xf16, #gpu.address_space<workgroup>>
      memref.dealloc %t : memref<8192xi8, #gpu.address_space<workgroup>>
    }
    return
  }
}
