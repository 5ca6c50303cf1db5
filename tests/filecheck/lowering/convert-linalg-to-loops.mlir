// RUN: schedir-opt %s --mlir-print-local-scope -p convert-linalg-to-loops --split-input-file | filecheck %s

// One loop per iteration dimension, outermost first; a dynamic size comes from memref.dim.
// CHECK-LABEL: func.func @reduce_dynamic
// CHECK-SAME:    (%[[A:.*]]: memref<4x?xf32>, %[[O:.*]]: memref<?xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[N:.*]] = memref.dim %[[A]], %{{.*}} : memref<4x?xf32>
// CHECK:         scf.for %[[I:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK-NEXT:        %[[X:.*]] = memref.load %[[A]][%[[I]], %[[J]]] : memref<4x?xf32>
// CHECK-NEXT:        %[[ACC:.*]] = memref.load %[[O]][%[[J]]] : memref<?xf32>
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[X]], %[[ACC]] : f32
// CHECK-NEXT:        memref.store %[[S]], %[[O]][%[[J]]] : memref<?xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NOT:     linalg.
func.func @reduce_dynamic(%a: memref<4x?xf32>, %o: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>], iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<4x?xf32>) outs(%o : memref<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Named ops go through their generic form; strided (subview) buffers are indexed as is.
// CHECK-LABEL: func.func @matmul_strided
// CHECK-SAME:    (%[[A:.*]]: memref<?x23xf32, strided<[23, 1], offset: ?>>, %[[B:.*]]: memref<23x31xf32>, %[[C:.*]]: memref<?x31xf32, strided<[31, 1], offset: ?>>)
// CHECK:         %[[M:.*]] = memref.dim %[[A]], %{{.*}}
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %[[M]]
// CHECK-NEXT:      scf.for %[[J:.*]] =
// CHECK-NEXT:        scf.for %[[K:.*]] =
// CHECK-NEXT:          %[[X:.*]] = memref.load %[[A]][%[[I]], %[[K]]]
// CHECK-NEXT:          %[[Y:.*]] = memref.load %[[B]][%[[K]], %[[J]]]
// CHECK-NEXT:          %[[Z:.*]] = memref.load %[[C]][%[[I]], %[[J]]]
// CHECK-NEXT:          %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:          %[[S:.*]] = arith.addf %[[Z]], %[[P]] : f32
// CHECK-NEXT:          memref.store %[[S]], %[[C]][%[[I]], %[[J]]]
func.func @matmul_strided(%a: memref<?x23xf32, strided<[23, 1], offset: ?>>, %b: memref<23x31xf32>, %c: memref<?x31xf32, strided<[31, 1], offset: ?>>) {
  linalg.matmul ins(%a, %b : memref<?x23xf32, strided<[23, 1], offset: ?>>, memref<23x31xf32>) outs(%c : memref<?x31xf32, strided<[31, 1], offset: ?>>)
  return
}

// -----

// A scalar input is used as it is; linalg.index becomes the loop index.
// CHECK-LABEL: func.func @fill_and_index
// CHECK-SAME:    (%[[O:.*]]: memref<3x5xi32>, %[[V:.*]]: i32)
// CHECK:         scf.for %[[I:.*]] =
// CHECK-NEXT:      scf.for %[[J:.*]] =
// CHECK-NEXT:        memref.store %[[V]], %[[O]][%[[I]], %[[J]]] : memref<3x5xi32>
// CHECK:         scf.for %[[I2:.*]] =
// CHECK-NEXT:      scf.for %[[J2:.*]] =
// CHECK-NEXT:        %[[K:.*]] = arith.addi %[[I2]], %[[J2]] : index
// CHECK-NEXT:        %[[C:.*]] = arith.index_cast %[[K]] : index to i32
// CHECK-NEXT:        memref.store %[[C]], %[[O]][%[[I2]], %[[J2]]] : memref<3x5xi32>
func.func @fill_and_index(%o: memref<3x5xi32>, %v: i32) {
  linalg.fill ins(%v : i32) outs(%o : memref<3x5xi32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%o : memref<3x5xi32>) {
  ^bb0(%x: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.addi %i, %j : index
    %c = arith.index_cast %k : index to i32
    linalg.yield %c : i32
  }
  return
}

// -----

// An index that is not a plain loop index goes through affine.apply.
// CHECK-LABEL: func.func @window
// CHECK:         scf.for %[[I:.*]] =
// CHECK-NEXT:      scf.for %[[K:.*]] =
// CHECK-NEXT:        %[[IDX:.*]] = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%[[I]], %[[K]])
// CHECK-NEXT:        memref.load %{{.*}}[%[[IDX]]] : memref<10xf32>
func.func @window(%in: memref<10xf32>, %w: memref<3xf32>, %out: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, k) -> (i + k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%in, %w : memref<10xf32>, memref<3xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Rank 0: no loop at all.
// CHECK-LABEL: func.func @rank0
// CHECK-NEXT:    %[[X:.*]] = memref.load %{{.*}}[] : memref<f32>
// CHECK-NEXT:    %[[Y:.*]] = memref.load %{{.*}}[] : memref<f32>
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:    memref.store %[[S]], %{{.*}}[] : memref<f32>
// CHECK-NEXT:    return
func.func @rank0(%a: memref<f32>, %o: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%a : memref<f32>) outs(%o : memref<f32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// linalg.map and linalg.transpose are structured ops too.
// CHECK-LABEL: func.func @map_transpose
// CHECK:         scf.for %[[I:.*]] =
// CHECK-NEXT:      %[[X:.*]] = memref.load %{{.*}}[%[[I]]] : memref<8xf32>
// CHECK-NEXT:      %[[E:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT:      memref.store %[[E]], %{{.*}}[%[[I]]] : memref<8xf32>
// CHECK:         scf.for %[[P:.*]] =
// CHECK-NEXT:      scf.for %[[Q:.*]] =
// CHECK-NEXT:        %[[T:.*]] = memref.load %{{.*}}[%[[Q]], %[[P]]] : memref<3x2xf32>
// CHECK-NEXT:        memref.store %[[T]], %{{.*}}[%[[P]], %[[Q]]] : memref<2x3xf32>
func.func @map_transpose(%a: memref<8xf32>, %b: memref<8xf32>, %t: memref<3x2xf32>, %u: memref<2x3xf32>) {
  linalg.map { math.exp } ins(%a : memref<8xf32>) outs(%b : memref<8xf32>)
  linalg.transpose ins(%t : memref<3x2xf32>) outs(%u : memref<2x3xf32>) permutation = [1, 0]
  return
}
