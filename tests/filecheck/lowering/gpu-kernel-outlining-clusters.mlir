// RUN: schedir-opt %s -p gpu-kernel-outlining | filecheck %s

// A launch with thread block clusters keeps them on the launch_func; the cluster ids and
// sizes become gpu.cluster_id / gpu.cluster_dim after the other configuration ops.
// CHECK-LABEL: func.func @clustered
// CHECK:         gpu.launch_func @clustered_kernel::@clustered_kernel clusters in (%{{.*}}, %{{.*}}, %{{.*}}) blocks in
// CHECK-LABEL: gpu.func @clustered_kernel
// CHECK:         gpu.block_dim z
// CHECK-NEXT:    %[[CID:.*]] = gpu.cluster_id x
// CHECK-NEXT:    gpu.cluster_id y
// CHECK-NEXT:    gpu.cluster_id z
// CHECK-NEXT:    %[[CDIM:.*]] = gpu.cluster_dim x
// CHECK-NEXT:    gpu.cluster_dim y
// CHECK-NEXT:    gpu.cluster_dim z
// CHECK-NEXT:    arith.index_cast %[[CID]] : index to i32
// CHECK-NEXT:    arith.index_cast %[[CDIM]] : index to i32
func.func @clustered(%c1: index) {
  gpu.launch clusters(%cx, %cy, %cz) in (%a = %c1, %b = %c1, %c = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = arith.index_cast %cx : index to i32
    %w = arith.index_cast %a : index to i32
    gpu.terminator
  }
  return
}
