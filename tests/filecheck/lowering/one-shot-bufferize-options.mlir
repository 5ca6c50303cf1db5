// RUN: schedir-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true memcpy-op="linalg.copy"}' --split-input-file | filecheck %s --check-prefix=LINALG
// RUN: schedir-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true function-boundary-type-conversion=fully-dynamic-layout-map}' --split-input-file | filecheck %s --check-prefix=DYN
// RUN: schedir-opt %s -p one-shot-bufferize --split-input-file | filecheck %s --check-prefix=NOFB
// RUN: schedir-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true copy-before-write=true}' --split-input-file | filecheck %s --check-prefix=CBW
// RUN: schedir-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true check-parallel-regions=false}' --split-input-file | filecheck %s --check-prefix=NOPAR
// RUN: schedir-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' --split-input-file | filecheck %s --check-prefix=PAR

// LINALG-LABEL: func.func @matmul_read_only_init
// LINALG:         %[[BUF:.*]] = memref.alloc()
// LINALG-NEXT:    linalg.copy ins(%{{.*}} : memref<4x5xf32>) outs(%[[BUF]] : memref<4x5xf32>)
// LINALG-NOT:     memref.copy

// Arguments get the fully dynamic layout; results stay identity buffers.
// DYN-LABEL: func.func @matmul_read_only_init
// DYN-SAME:    (%{{.*}}: memref<4x8xf32, strided<[?, ?], offset: ?>>, %{{.*}}: memref<8x5xf32, strided<[?, ?], offset: ?>>, %[[C:.*]]: memref<4x5xf32, strided<[?, ?], offset: ?>> {bufferization.writable = false}) -> memref<4x5xf32>
// DYN:         memref.copy %[[C]], %{{.*}} : memref<4x5xf32, strided<[?, ?], offset: ?>> to memref<4x5xf32>

// Without function boundaries, arguments are read through to_buffer and results leave
// through to_tensor; the signature keeps its tensors.
// NOFB-LABEL: func.func @matmul_read_only_init
// NOFB-SAME:    (%[[A:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8x5xf32>, %[[C:.*]]: tensor<4x5xf32> {bufferization.writable = false}) -> tensor<4x5xf32>
// NOFB-NEXT:    %[[MA:.*]] = bufferization.to_buffer %[[A]] : tensor<4x8xf32> to memref<4x8xf32>
// NOFB-NEXT:    %[[MB:.*]] = bufferization.to_buffer %[[B]] : tensor<8x5xf32> to memref<8x5xf32>
// NOFB-NEXT:    %[[MC:.*]] = bufferization.to_buffer %[[C]] : tensor<4x5xf32> to memref<4x5xf32>
// NOFB-NEXT:    %[[BUF:.*]] = memref.alloc()
// NOFB-NEXT:    memref.copy %[[MC]], %[[BUF]]
// NOFB-NEXT:    linalg.matmul ins(%[[MA]], %[[MB]] : {{.*}}) outs(%[[BUF]] : memref<4x5xf32>)
// NOFB-NEXT:    %[[R:.*]] = bufferization.to_tensor %[[BUF]] : memref<4x5xf32> to tensor<4x5xf32>
// NOFB-NEXT:    return %[[R]] : tensor<4x5xf32>
func.func @matmul_read_only_init(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<4x5xf32> {bufferization.writable = false}) -> tensor<4x5xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

// -----

// copy-before-write skips the analysis: the fill into a fresh tensor.empty still gets a
// buffer of its own (no data to copy; the empty one, never used, is dropped), and the
// matmul writes into a copy of it.
// CBW-LABEL: func.func @chain
// CBW:         %[[F:.*]] = memref.alloc()
// CBW-NEXT:    linalg.fill ins(%{{.*}} : f32) outs(%[[F]] : memref<4x5xf32>)
// CBW-NEXT:    %[[M:.*]] = memref.alloc()
// CBW-NEXT:    memref.copy %[[F]], %[[M]]
// CBW-NEXT:    memref.dealloc %[[F]]
// CBW-NEXT:    linalg.matmul ins(%{{.*}}, %{{.*}} : {{.*}}) outs(%[[M]] : memref<4x5xf32>)
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>) -> tensor<4x5xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x5xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<4x5xf32>) -> tensor<4x5xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%z : tensor<4x5xf32>) -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

// -----

// A write in a forall to a tensor defined outside it: each iteration works on a private
// copy (check-parallel-regions, the default); without the check it writes %t directly.
// PAR-LABEL: func.func @outside_write
// PAR-SAME:    (%[[T:.*]]: memref<8xf32>)
// PAR:         scf.forall
// PAR-NEXT:      %[[PRIV:.*]] = memref.alloc() alignment = 64 : memref<8xf32>
// PAR-NEXT:      linalg.fill ins(%{{.*}} : f32) outs(%[[PRIV]] : memref<8xf32>)
// NOPAR-LABEL: func.func @outside_write
// NOPAR-SAME:    (%[[T:.*]]: memref<8xf32>)
// NOPAR:         scf.forall
// NOPAR-NEXT:      linalg.fill ins(%{{.*}} : f32) outs(%[[T]] : memref<8xf32>)
func.func @outside_write(%t: tensor<8xf32>) -> tensor<8xf32> {
  %cst = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %r = scf.forall (%i) in (8) shared_outs(%o = %e) -> (tensor<8xf32>) {
    %f = linalg.fill ins(%cst : f32) outs(%t : tensor<8xf32>) -> tensor<8xf32>
    %v = tensor.extract %f[%i] : tensor<8xf32>
    %s = tensor.from_elements %v : tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [1] [1] : tensor<1xf32> into tensor<8xf32>
    }
  }
  return %r : tensor<8xf32>
}
