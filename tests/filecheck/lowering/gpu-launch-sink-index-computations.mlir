// RUN: schedir-opt %s -p gpu-launch-sink-index-computations | filecheck %s

// Constants, memref.dim, arith.select and arith.cmpi whose operands are available in the
// body are cloned into it (dependencies first); other producers (affine.apply,
// index_cast, addi) and dims of values the body does not use stay outside and become
// kernel arguments when outlined (upstream: mlir/test/Dialect/GPU/outlining.mlir).
// CHECK-LABEL: func.func @sink
// CHECK:         %[[AP:.*]] = affine.apply
// CHECK:         %[[IC:.*]] = arith.index_cast
// CHECK:         %[[AD:.*]] = arith.addi
// CHECK:         %[[D:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?xf32>
// CHECK:         gpu.launch
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[P:.*]] = arith.cmpi slt, %[[C1]], %[[C16]] : index
// CHECK-NEXT:      %[[S:.*]] = arith.select %[[P]], %[[C1]], %[[C16]] : index
// CHECK-NEXT:      %{{.*}} = arith.addi %{{.*}}, %[[S]] : index
// CHECK-NEXT:      %{{.*}} = arith.addi %{{.*}}, %[[AP]] : index
// CHECK-NEXT:      %{{.*}} = arith.index_cast %[[IC]] : i32 to index
// CHECK:           %{{.*}} = arith.addi %{{.*}}, %[[AD]] : index
// CHECK-NEXT:      %{{.*}} = arith.addi %{{.*}}, %[[D]] : index
func.func @sink(%a: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %p = arith.cmpi slt, %c1, %c16 : index
  %s = arith.select %p, %c1, %c16 : index
  %ap = affine.apply affine_map<(d0) -> (d0 * 2)>(%c16)
  %ic = arith.index_cast %c16 : index to i32
  %ad = arith.addi %c1, %c16 : index
  %d = memref.dim %a, %n : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %i = arith.addi %tx, %s : index
    %j = arith.addi %i, %ap : index
    %k = arith.index_cast %ic : i32 to index
    %l = arith.addi %j, %k : index
    %m = arith.addi %l, %ad : index
    %o = arith.addi %m, %d : index
    %f = arith.constant 1.0 : f32
    memref.store %f, %a[%o] : memref<?xf32>
    gpu.terminator
  }
  return
}
