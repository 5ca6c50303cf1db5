// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// tensor.pad implements the TilingInterface (upstream's PadOpTiling): a tile of the pad
// is a pad of a slice of the source, behind an `scf.if` that builds the tile with
// `tensor.generate` when the slice would be empty. The loops write a `tensor.empty`.
// CHECK-LABEL: func.func @tile_pad
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<15x9xf32>
// CHECK:         scf.forall ({{.*}}) in (4, 3) shared_outs(%[[O:.*]] = %[[E]])
// CHECK:           %[[Z:.*]] = arith.cmpi eq
// CHECK:           %[[T:.*]] = scf.if %{{.*}} -> (tensor<?x3xf32>) {
// CHECK-NEXT:        %[[G:.*]] = tensor.generate %{{.*}} {
// CHECK:             tensor.yield %{{.*}} : f32
// CHECK:           } else {
// CHECK-NEXT:        %[[S:.*]] = tensor.extract_slice %{{.*}} : tensor<10x7xf32> to tensor<?x?xf32>
// CHECK-NEXT:        %[[P:.*]] = tensor.pad %[[S]] low[%{{.*}}, %{{.*}}] high[%{{.*}}, %{{.*}}] {
// CHECK:             %{{.*}} = tensor.cast %[[P]] : tensor<?x?xf32> to tensor<?x3xf32>
// CHECK:           tensor.parallel_insert_slice %[[T]] into %[[O]]
module attributes {transform.with_named_sequence} {
  func.func @tile_pad(%a: tensor<10x7xf32>, %c: f32) -> tensor<15x9xf32> {
    %p = tensor.pad %a low[2, 1] high[3, 1] {
    ^bb0(%i: index, %j: index):
      tensor.yield %c : f32
    } : tensor<10x7xf32> to tensor<15x9xf32>
    return %p : tensor<15x9xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %p = transform.structured.match ops{["tensor.pad"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %p tile_sizes [4, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
