// On buffers: the k loop of a matmul on subviews, vectorized; hoist_redundant_vector_transfers
// moves the accumulator's read before the loop and its write after (loop-carried vector).
module attributes {transform.with_named_sequence} {
  func.func @mm(%a: memref<8x64xf32>, %b: memref<64x16xf32>, %c: memref<8x16xf32>) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    scf.for %k = %c0 to %c64 step %c8 {
      %sa = memref.subview %a[0, %k] [8, 8] [1, 1] : memref<8x64xf32> to memref<8x8xf32, strided<[64, 1], offset: ?>>
      %sb = memref.subview %b[%k, 0] [8, 16] [1, 1] : memref<64x16xf32> to memref<8x16xf32, strided<[16, 1], offset: ?>>
      linalg.matmul ins(%sa, %sb : memref<8x8xf32, strided<[64, 1], offset: ?>>, memref<8x16xf32, strided<[16, 1], offset: ?>>) outs(%c : memref<8x16xf32>)
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %v = transform.structured.vectorize_children_and_apply_patterns %f : (!transform.any_op) -> !transform.any_op
    %h = transform.structured.hoist_redundant_vector_transfers %v : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
