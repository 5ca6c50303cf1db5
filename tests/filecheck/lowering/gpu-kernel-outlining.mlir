// RUN: schedir-opt %s --mlir-print-local-scope -p gpu-kernel-outlining | filecheck %s

// Each launch becomes a gpu.module @<func>_kernel (then _0, _1, ...) at the end of the
// module holding a kernel of the same name; the values the body uses from outside are
// the arguments, in the order of first use; the launch configuration becomes id/dim ops;
// constant sizes are recorded as known_block_size / known_grid_size
// (upstream: mlir/test/Dialect/GPU/outlining.mlir); the entry's memref argument is
// 16-byte aligned by the runtime (gpu-kernel-outlining-alignment.mlir).
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK:         func.func @f(%[[A:.*]]: memref<?xf32>, %[[N:.*]]: index, %[[X:.*]]: f32)
// CHECK:           gpu.launch_func @f_kernel::@f_kernel blocks in (%[[C1:.*]], %[[C1]], %[[C1]]) threads in (%[[C16:.*]], %[[C1]], %[[C1]]) args(%[[N]] : index, %[[X]] : f32, %[[A]] : memref<?xf32>)
// CHECK:           gpu.launch_func @f_kernel_0::@f_kernel blocks in (%[[N]], %[[C1]], %[[C1]]) threads in (%[[C1]], %[[C1]], %[[C1]]) args(%[[X]] : f32, %[[A]] : memref<?xf32>)
// CHECK-NOT:       gpu.launch blocks
// CHECK:         gpu.module @f_kernel {
// CHECK-NEXT:      gpu.func @f_kernel(%[[KN:.*]]: index, %[[KX:.*]]: f32, %[[KA:.*]]: memref<?xf32> {llvm.align = 16 : i64}) kernel attributes {known_block_size = array<i32: 16, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
// CHECK-NEXT:        %{{.*}} = gpu.block_id x
// CHECK-NEXT:        %{{.*}} = gpu.block_id y
// CHECK-NEXT:        %{{.*}} = gpu.block_id z
// CHECK-NEXT:        %[[TX:.*]] = gpu.thread_id x
// CHECK-NEXT:        %{{.*}} = gpu.thread_id y
// CHECK-NEXT:        %{{.*}} = gpu.thread_id z
// CHECK-NEXT:        %{{.*}} = gpu.grid_dim x
// CHECK-NEXT:        %{{.*}} = gpu.grid_dim y
// CHECK-NEXT:        %{{.*}} = gpu.grid_dim z
// CHECK-NEXT:        %{{.*}} = gpu.block_dim x
// CHECK-NEXT:        %{{.*}} = gpu.block_dim y
// CHECK-NEXT:        %{{.*}} = gpu.block_dim z
// CHECK-NEXT:        %[[I:.*]] = arith.addi %[[TX]], %[[KN]] : index
// CHECK-NEXT:        memref.store %[[KX]], %[[KA]][%[[I]]] : memref<?xf32>
// CHECK-NEXT:        gpu.return
// CHECK:         gpu.module @f_kernel_0 {
// CHECK-NEXT:      gpu.func @f_kernel(%{{.*}}: f32, %{{.*}}: memref<?xf32> {llvm.align = 16 : i64}) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
func.func @f(%a: memref<?xf32>, %n: index, %x: f32) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %i = arith.addi %tx, %n : index
    memref.store %x, %a[%i] : memref<?xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %x, %a[%bx] : memref<?xf32>
    gpu.terminator
  }
  return
}
