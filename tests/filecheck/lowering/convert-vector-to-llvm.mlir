// RUN: schedir-opt %s -p convert-vector-to-llvm | filecheck %s

// convert-vector-to-llvm: the vector ops left after the schedule's lowering (and those this
// pass lowers first, as upstream's pass does) to the LLVM dialect.

// Float add/mul reductions are ordered (from the accumulator, 0.0 / 1.0 without one)
// unless the op allows reassociation; min/max keep their NaN semantics.
// CHECK-LABEL: func.func @reductions(
// CHECK-NEXT:  %[[V_0:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK-NEXT:  %[[V_1:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK-NEXT:  %[[V_2:.*]] = llvm.intr.vector.reduce.fadd(%acc, %v) : (f32, vector<16xf32>) -> f32
// CHECK-NEXT:  %[[V_3:.*]] = llvm.intr.vector.reduce.fadd(%[[V_0]], %v) fastmath<reassoc> : (f32, vector<16xf32>) -> f32
// CHECK-NEXT:  %[[V_4:.*]] = llvm.intr.vector.reduce.fmul(%[[V_1]], %v) : (f32, vector<16xf32>) -> f32
// CHECK-NEXT:  %[[V_5:.*]] = llvm.intr.vector.reduce.fmaximum(%v) : (vector<16xf32>) -> f32
// CHECK-NEXT:  %[[V_6:.*]] = llvm.intr.vector.reduce.fmin(%v) : (vector<16xf32>) -> f32
// CHECK-NEXT:  %[[V_7:.*]] = llvm.intr.minnum(%[[V_6]], %acc) : (f32, f32) -> f32
// CHECK-NEXT:  %[[V_8:.*]] = "llvm.intr.vector.reduce.add"(%iv) : (vector<16xi32>) -> i32
// CHECK-NEXT:  %[[V_9:.*]] = "llvm.intr.vector.reduce.smax"(%iv) : (vector<16xi32>) -> i32
// CHECK-NEXT:  %[[V_10:.*]] = llvm.icmp "sge" %iacc, %[[V_9]] : i32
// CHECK-NEXT:  %[[V_11:.*]] = llvm.select %[[V_10]], %iacc, %[[V_9]] : i1, i32
// CHECK-NEXT:  return %[[V_2]], %[[V_3]], %[[V_4]], %[[V_5]], %[[V_7]], %[[V_8]], %[[V_11]] : f32, f32, f32, f32, f32, i32, i32
func.func @reductions(%v: vector<16xf32>, %acc: f32, %iv: vector<16xi32>, %iacc: i32) -> (f32, f32, f32, f32, f32, i32, i32) {
  %0 = vector.reduction <add>, %v, %acc : vector<16xf32> into f32
  %1 = vector.reduction <add>, %v fastmath<reassoc> : vector<16xf32> into f32
  %2 = vector.reduction <mul>, %v : vector<16xf32> into f32
  %3 = vector.reduction <maximumf>, %v : vector<16xf32> into f32
  %4 = vector.reduction <minnumf>, %v, %acc : vector<16xf32> into f32
  %5 = vector.reduction <add>, %iv : vector<16xi32> into i32
  %6 = vector.reduction <maxsi>, %iv, %iacc : vector<16xi32> into i32
  return %0, %1, %2, %3, %4, %5, %6 : f32, f32, f32, f32, f32, i32, i32
}
// Masked-off lanes of a masked reduction take the kind's neutral value.

// CHECK-LABEL: func.func @masked_reduction(
// CHECK-NEXT:  %[[V_0:.*]] = llvm.mlir.constant(dense<0xff800000> : vector<4xf32>) : vector<4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = llvm.select %m, %v, %[[V_0]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = llvm.intr.vector.reduce.fmax(%[[V_1]]) : (vector<4xf32>) -> f32
// CHECK-NEXT:  return %[[V_2]] : f32
func.func @masked_reduction(%v: vector<4xf32>, %m: vector<4xi1>) -> f32 {
  %0 = vector.mask %m { vector.reduction <maxnumf>, %v : vector<4xf32> into f32 } : vector<4xi1> -> f32
  return %0 : f32
}
// Loads and stores address the aligned pointer plus the linearized index; the alignment
// is the element's unless the op gives one.

// CHECK-LABEL: func.func @memory(
// CHECK-NEXT:  %[[V_0:.*]] = builtin.unrealized_conversion_cast %m : memref<?x?xf32> to !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK-NEXT:  %[[V_1:.*]] = llvm.extractvalue %[[V_0]][4, 0] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK-NEXT:  %[[V_2:.*]] = llvm.extractvalue %[[V_0]][1] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK-NEXT:  %[[V_3:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT:  %[[V_4:.*]] = llvm.mul %[[V_3]], %[[V_1]] : i64
// CHECK-NEXT:  %[[V_5:.*]] = llvm.add %[[V_4]], %[[V_3]] : i64
// CHECK-NEXT:  %[[V_6:.*]] = llvm.getelementptr %[[V_2]][%[[V_5]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:  %[[V_7:.*]] = llvm.load %[[V_6]] <alignment = 4> : !llvm.ptr -> vector<8xf32>
// CHECK-NEXT:  %[[V_8:.*]] = llvm.mul %[[V_3]], %[[V_1]] : i64
// CHECK-NEXT:  %[[V_9:.*]] = llvm.add %[[V_8]], %[[V_3]] : i64
// CHECK-NEXT:  %[[V_10:.*]] = llvm.getelementptr %[[V_2]][%[[V_9]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:  llvm.store %[[V_7]], %[[V_10]] <alignment = 32> : vector<8xf32>, !llvm.ptr
// CHECK-NEXT:  %[[V_11:.*]] = llvm.mul %[[V_3]], %[[V_1]] : i64
// CHECK-NEXT:  %[[V_12:.*]] = llvm.add %[[V_11]], %[[V_3]] : i64
// CHECK-NEXT:  %[[V_13:.*]] = llvm.getelementptr %[[V_2]][%[[V_12]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:  %[[V_14:.*]] = llvm.intr.masked.load(%[[V_13]], %mk, %pt), alignment(4) : (!llvm.ptr, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
// CHECK-NEXT:  %[[V_15:.*]] = llvm.mul %[[V_3]], %[[V_1]] : i64
// CHECK-NEXT:  %[[V_16:.*]] = llvm.add %[[V_15]], %[[V_3]] : i64
// CHECK-NEXT:  %[[V_17:.*]] = llvm.getelementptr %[[V_2]][%[[V_16]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:  llvm.intr.masked.store(%[[V_14]], %[[V_17]], %mk), alignment(4) : vector<8xf32>, vector<8xi1> into !llvm.ptr
// CHECK-NEXT:  return %[[V_14]] : vector<8xf32>
func.func @memory(%m: memref<?x?xf32>, %i: index, %mk: vector<8xi1>, %pt: vector<8xf32>) -> vector<8xf32> {
  %0 = vector.load %m[%i, %i] : memref<?x?xf32>, vector<8xf32>
  vector.store %0, %m[%i, %i] alignment = 32 : memref<?x?xf32>, vector<8xf32>
  %1 = vector.maskedload %m[%i, %i], %mk, %pt : memref<?x?xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  vector.maskedstore %m[%i, %i], %mk, %1 : memref<?x?xf32>, vector<8xi1>, vector<8xf32>
  return %1 : vector<8xf32>
}
// Beyond upstream: an n-D load reads its rows.

// CHECK-LABEL: func.func @load_2d(
// CHECK-NEXT:  %[[V_0:.*]] = llvm.mlir.constant(8) : i64
// CHECK-NEXT:  %[[V_1:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:  %[[V_2:.*]] = builtin.unrealized_conversion_cast %m : memref<4x8xf32> to !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK-NEXT:  %[[V_3:.*]] = llvm.extractvalue %[[V_2]][1] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK-NEXT:  %[[V_4:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT:  %[[V_5:.*]] = llvm.mul %[[V_4]], %[[V_0]] : i64
// CHECK-NEXT:  %[[V_6:.*]] = llvm.add %[[V_5]], %[[V_4]] : i64
// CHECK-NEXT:  %[[V_7:.*]] = llvm.getelementptr %[[V_3]][%[[V_6]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:  %[[V_8:.*]] = llvm.load %[[V_7]] <alignment = 4> : !llvm.ptr -> vector<8xf32>
// CHECK-NEXT:  %[[V_9:.*]] = llvm.add %[[V_4]], %[[V_1]] : i64
// CHECK-NEXT:  %[[V_10:.*]] = llvm.mul %[[V_9]], %[[V_0]] : i64
// CHECK-NEXT:  %[[V_11:.*]] = llvm.add %[[V_10]], %[[V_4]] : i64
// CHECK-NEXT:  %[[V_12:.*]] = llvm.getelementptr %[[V_3]][%[[V_11]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:  %[[V_13:.*]] = llvm.load %[[V_12]] <alignment = 4> : !llvm.ptr -> vector<8xf32>
// CHECK-NEXT:  %[[V_14:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<8xf32>>
// CHECK-NEXT:  %[[V_15:.*]] = llvm.insertvalue %[[V_8]], %[[V_14]][0] : !llvm.array<2 x vector<8xf32>>
// CHECK-NEXT:  %[[V_16:.*]] = llvm.insertvalue %[[V_13]], %[[V_15]][1] : !llvm.array<2 x vector<8xf32>>
// CHECK-NEXT:  %[[V_17:.*]] = builtin.unrealized_conversion_cast %[[V_16]] : !llvm.array<2 x vector<8xf32>> to vector<2x8xf32>
// CHECK-NEXT:  return %[[V_17]] : vector<2x8xf32>
func.func @load_2d(%m: memref<4x8xf32>, %i: index) -> vector<2x8xf32> {
  %0 = vector.load %m[%i, %i] : memref<4x8xf32>, vector<2x8xf32>
  return %0 : vector<2x8xf32>
}
// A 1-D transfer that may run out of bounds reads under create_mask(dim - offset).

// CHECK-LABEL: func.func @transfer_out_of_bounds(
// CHECK-NEXT:  %[[V_0:.*]] = builtin.unrealized_conversion_cast %m : memref<?xf32> to !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK-NEXT:  %[[V_1:.*]] = llvm.extractvalue %[[V_0]][1] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// CHECK-NEXT:  %[[V_2:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT:  %[[V_3:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK-NEXT:  %[[V_C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[V_4:.*]] = memref.dim %m, %[[V_C0]] : memref<?xf32>
// CHECK-NEXT:  %[[V_5:.*]] = arith.subi %[[V_4]], %i : index
// CHECK-NEXT:  %[[V_6:.*]] = builtin.unrealized_conversion_cast %[[V_5]] : index to i64
// CHECK-NEXT:  %[[V_7:.*]] = llvm.mlir.constant(dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi32>) : vector<8xi32>
// CHECK-NEXT:  %[[V_8:.*]] = llvm.trunc %[[V_6]] : i64 to i32
// CHECK-NEXT:  %[[V_9:.*]] = llvm.mlir.poison : vector<8xi32>
// CHECK-NEXT:  %[[V_10:.*]] = llvm.insertelement %[[V_8]], %[[V_9]][%[[V_3]] : i32] : vector<8xi32>
// CHECK-NEXT:  %[[V_11:.*]] = llvm.shufflevector %[[V_10]], %[[V_9]] [0, 0, 0, 0, 0, 0, 0, 0] : vector<8xi32>
// CHECK-NEXT:  %[[V_12:.*]] = llvm.icmp "slt" %[[V_7]], %[[V_11]] : vector<8xi32>
// CHECK-NEXT:  %[[V_13:.*]] = llvm.getelementptr %[[V_1]][%[[V_2]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:  %[[V_14:.*]] = llvm.intr.masked.load(%[[V_13]], %[[V_12]], %[[V_CST]]), alignment(4) : (!llvm.ptr, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
// CHECK-NEXT:  return %[[V_14]] : vector<8xf32>
func.func @transfer_out_of_bounds(%m: memref<?xf32>, %i: index) -> vector<8xf32> {
  %p = arith.constant 0.0 : f32
  %0 = vector.transfer_read %m[%i], %p : memref<?xf32>, vector<8xf32>
  return %0 : vector<8xf32>
}

// CHECK-LABEL: func.func @create_mask(
// CHECK-NEXT:  %[[V_0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:  %[[V_1:.*]] = builtin.unrealized_conversion_cast %n : index to i64
// CHECK-NEXT:  %[[V_2:.*]] = llvm.mlir.constant(dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi32>) : vector<8xi32>
// CHECK-NEXT:  %[[V_3:.*]] = llvm.trunc %[[V_1]] : i64 to i32
// CHECK-NEXT:  %[[V_4:.*]] = llvm.mlir.poison : vector<8xi32>
// CHECK-NEXT:  %[[V_5:.*]] = llvm.insertelement %[[V_3]], %[[V_4]][%[[V_0]] : i32] : vector<8xi32>
// CHECK-NEXT:  %[[V_6:.*]] = llvm.shufflevector %[[V_5]], %[[V_4]] [0, 0, 0, 0, 0, 0, 0, 0] : vector<8xi32>
// CHECK-NEXT:  %[[V_7:.*]] = llvm.icmp "slt" %[[V_2]], %[[V_6]] : vector<8xi32>
// CHECK-NEXT:  return %[[V_7]] : vector<8xi1>
func.func @create_mask(%n: index) -> vector<8xi1> {
  %0 = vector.create_mask %n : vector<8xi1>
  return %0 : vector<8xi1>
}

// CHECK-LABEL: func.func @broadcasts(
// CHECK-NEXT:  %[[V_0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:  %[[V_1:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_2:.*]] = llvm.mlir.poison : vector<4xf32>
// CHECK-NEXT:  %[[V_3:.*]] = llvm.insertelement %s, %[[V_2]][%[[V_0]] : i32] : vector<4xf32>
// CHECK-NEXT:  %[[V_4:.*]] = llvm.shufflevector %[[V_3]], %[[V_2]] [0, 0, 0, 0] : vector<4xf32>
// CHECK-NEXT:  %[[V_5:.*]] = llvm.mlir.poison : vector<4xf32>
// CHECK-NEXT:  %[[V_6:.*]] = llvm.insertelement %s, %[[V_5]][%[[V_0]] : i32] : vector<4xf32>
// CHECK-NEXT:  %[[V_7:.*]] = llvm.shufflevector %[[V_6]], %[[V_5]] [0, 0, 0, 0] : vector<4xf32>
// CHECK-NEXT:  %[[V_8:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_9:.*]] = llvm.insertvalue %[[V_7]], %[[V_8]][0] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_10:.*]] = llvm.insertvalue %[[V_7]], %[[V_9]][1] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_11:.*]] = builtin.unrealized_conversion_cast %[[V_10]] : !llvm.array<2 x vector<4xf32>> to vector<2x4xf32>
// CHECK-NEXT:  %[[V_12:.*]] = llvm.insertvalue %v, %[[V_1]][0] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_13:.*]] = llvm.insertvalue %v, %[[V_12]][1] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_14:.*]] = builtin.unrealized_conversion_cast %[[V_13]] : !llvm.array<2 x vector<4xf32>> to vector<2x4xf32>
// CHECK-NEXT:  return %[[V_4]], %[[V_11]], %[[V_14]] : vector<4xf32>, vector<2x4xf32>, vector<2x4xf32>
func.func @broadcasts(%s: f32, %v: vector<4xf32>) -> (vector<4xf32>, vector<2x4xf32>, vector<2x4xf32>) {
  %0 = vector.broadcast %s : f32 to vector<4xf32>
  %1 = vector.broadcast %s : f32 to vector<2x4xf32>
  %2 = vector.broadcast %v : vector<4xf32> to vector<2x4xf32>
  return %0, %1, %2 : vector<4xf32>, vector<2x4xf32>, vector<2x4xf32>
}

// CHECK-LABEL: func.func @extract_insert(
// CHECK-NEXT:  %[[V_0:.*]] = llvm.mlir.constant(2) : i64
// CHECK-NEXT:  %[[V_1:.*]] = builtin.unrealized_conversion_cast %v : vector<2x4xf32> to !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_2:.*]] = builtin.unrealized_conversion_cast %i : index to i64
// CHECK-NEXT:  %[[V_3:.*]] = llvm.extractvalue %[[V_1]][1] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_4:.*]] = llvm.extractelement %[[V_3]][%[[V_0]] : i64] : vector<4xf32>
// CHECK-NEXT:  %[[V_5:.*]] = llvm.extractvalue %[[V_1]][0] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_6:.*]] = llvm.extractelement %[[V_5]][%[[V_2]] : i64] : vector<4xf32>
// CHECK-NEXT:  %[[V_7:.*]] = llvm.extractvalue %[[V_1]][1] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_8:.*]] = llvm.extractvalue %[[V_1]][1] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_9:.*]] = llvm.insertelement %s, %[[V_8]][%[[V_2]] : i64] : vector<4xf32>
// CHECK-NEXT:  %[[V_10:.*]] = llvm.insertvalue %[[V_9]], %[[V_1]][1] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_11:.*]] = builtin.unrealized_conversion_cast %[[V_10]] : !llvm.array<2 x vector<4xf32>> to vector<2x4xf32>
// CHECK-NEXT:  return %[[V_4]], %[[V_6]], %[[V_7]], %[[V_11]] : f32, f32, vector<4xf32>, vector<2x4xf32>
func.func @extract_insert(%v: vector<2x4xf32>, %i: index, %s: f32) -> (f32, f32, vector<4xf32>, vector<2x4xf32>) {
  %0 = vector.extract %v[1, 2] : f32 from vector<2x4xf32>
  %1 = vector.extract %v[0, %i] : f32 from vector<2x4xf32>
  %2 = vector.extract %v[1] : vector<4xf32> from vector<2x4xf32>
  %3 = vector.insert %s, %v [1, %i] : f32 into vector<2x4xf32>
  return %0, %1, %2, %3 : f32, f32, vector<4xf32>, vector<2x4xf32>
}

// CHECK-LABEL: func.func @shuffles(
// CHECK-NEXT:  %[[V_0:.*]] = llvm.shufflevector %a, %b [0, 4, 1, 5, 2, 6, 3, 7] : vector<4xf32>
// CHECK-NEXT:  %[[V_1:.*]] = llvm.shufflevector %c, %c [0, 2, 1, 3] : vector<2xf32>
// CHECK-NEXT:  %[[V_2:.*]] = llvm.shufflevector %a, %a [0, 2] : vector<4xf32>
// CHECK-NEXT:  %[[V_3:.*]] = llvm.shufflevector %a, %a [1, 3] : vector<4xf32>
// CHECK-NEXT:  return %[[V_0]], %[[V_1]], %[[V_2]], %[[V_3]] : vector<8xf32>, vector<4xf32>, vector<2xf32>, vector<2xf32>
func.func @shuffles(%a: vector<4xf32>, %b: vector<4xf32>, %c: vector<2xf32>) -> (vector<8xf32>, vector<4xf32>, vector<2xf32>, vector<2xf32>) {
  %0 = vector.shuffle %a, %b [0, 4, 1, 5, 2, 6, 3, 7] : vector<4xf32>, vector<4xf32>
  %1 = vector.interleave %c, %c : vector<2xf32> -> vector<4xf32>
  %2, %3 = vector.deinterleave %a : vector<4xf32> -> vector<2xf32>
  return %0, %1, %2, %3 : vector<8xf32>, vector<4xf32>, vector<2xf32>, vector<2xf32>
}

// CHECK-LABEL: func.func @elements(
// CHECK-NEXT:  return %x, %y : f32, f32
func.func @elements(%x: f32, %y: f32) -> (f32, f32) {
  %0 = vector.from_elements %x, %y : vector<2xf32>
  %1:2 = vector.to_elements %0 : vector<2xf32>
  return %1#0, %1#1 : f32, f32
}
// n-D fma and arith are done row by row (the arith rows are converted by
// convert-arith-to-llvm); vector.fma is llvm.intr.fmuladd.

// CHECK-LABEL: func.func @rows(
// CHECK-NEXT:  %[[V_0:.*]] = builtin.unrealized_conversion_cast %a : vector<2x4xf32> to !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_1:.*]] = builtin.unrealized_conversion_cast %b : vector<2x4xf32> to !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<1.000000e+00> : vector<4xf32>
// CHECK-NEXT:  %[[V_2:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_3:.*]] = llvm.extractvalue %[[V_0]][0] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_4:.*]] = llvm.extractvalue %[[V_1]][0] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_5:.*]] = llvm.intr.fmuladd(%[[V_3]], %[[V_4]], %[[V_CST]]) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT:  %[[V_6:.*]] = llvm.insertvalue %[[V_5]], %[[V_2]][0] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_7:.*]] = llvm.extractvalue %[[V_0]][1] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_8:.*]] = llvm.extractvalue %[[V_1]][1] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_9:.*]] = llvm.intr.fmuladd(%[[V_7]], %[[V_8]], %[[V_CST]]) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT:  %[[V_10:.*]] = llvm.insertvalue %[[V_9]], %[[V_6]][1] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_11:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_12:.*]] = llvm.extractvalue %[[V_10]][0] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_13:.*]] = llvm.extractvalue %[[V_0]][0] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_14:.*]] = arith.addf %[[V_12]], %[[V_13]] : vector<4xf32>
// CHECK-NEXT:  %[[V_15:.*]] = llvm.insertvalue %[[V_14]], %[[V_11]][0] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_16:.*]] = llvm.extractvalue %[[V_10]][1] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_17:.*]] = llvm.extractvalue %[[V_0]][1] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_18:.*]] = arith.addf %[[V_16]], %[[V_17]] : vector<4xf32>
// CHECK-NEXT:  %[[V_19:.*]] = llvm.insertvalue %[[V_18]], %[[V_15]][1] : !llvm.array<2 x vector<4xf32>>
// CHECK-NEXT:  %[[V_20:.*]] = builtin.unrealized_conversion_cast %[[V_19]] : !llvm.array<2 x vector<4xf32>> to vector<2x4xf32>
// CHECK-NEXT:  return %[[V_20]] : vector<2x4xf32>
func.func @rows(%a: vector<2x4xf32>, %b: vector<2x4xf32>) -> vector<2x4xf32> {
  %c = arith.constant dense<1.0> : vector<2x4xf32>
  %0 = vector.fma %a, %b, %c : vector<2x4xf32>
  %1 = arith.addf %0, %a : vector<2x4xf32>
  return %1 : vector<2x4xf32>
}
// Strided slices become shuffles, vector.step a constant.

// CHECK-LABEL: func.func @slices(
// CHECK-NEXT:  %[[V_CST:.*]] = arith.constant dense<[0, 1, 2, 3]> : vector<4xindex>
// CHECK-NEXT:  %[[V_0:.*]] = llvm.shufflevector %v, %v [2, 3, 4, 5] : vector<8xf32>
// CHECK-NEXT:  %[[V_1:.*]] = llvm.shufflevector %u, %u [0, 1, 0, 0, 0, 0, 0, 0] : vector<2xf32>
// CHECK-NEXT:  %[[V_2:.*]] = llvm.shufflevector %[[V_1]], %v [8, 9, 10, 0, 1, 13, 14, 15] : vector<8xf32>
// CHECK-NEXT:  return %[[V_0]], %[[V_2]], %[[V_CST]] : vector<4xf32>, vector<8xf32>, vector<4xindex>
func.func @slices(%v: vector<8xf32>, %u: vector<2xf32>) -> (vector<4xf32>, vector<8xf32>, vector<4xindex>) {
  %0 = vector.extract_strided_slice %v offsets = [2], sizes = [4], strides = [1] : vector<8xf32> to vector<4xf32>
  %1 = vector.insert_strided_slice %u, %v offsets = [3], strides = [1] : vector<2xf32> into vector<8xf32>
  %2 = vector.step : vector<4xindex>
  return %0, %1, %2 : vector<4xf32>, vector<8xf32>, vector<4xindex>
}

// CHECK-LABEL: func.func @bitcast_and_cast(
// CHECK-NEXT:  %[[V_0:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:  %[[V_1:.*]] = builtin.unrealized_conversion_cast %m : memref<4x8xf32> to !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK-NEXT:  %[[V_2:.*]] = llvm.extractvalue %[[V_1]][0] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK-NEXT:  %[[V_3:.*]] = llvm.extractvalue %[[V_1]][1] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// CHECK-NEXT:  %[[V_4:.*]] = llvm.bitcast %v : vector<4xf32> to vector<16xi8>
// CHECK-NEXT:  %[[V_5:.*]] = llvm.mlir.poison : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64)>
// CHECK-NEXT:  %[[V_6:.*]] = llvm.insertvalue %[[V_2]], %[[V_5]][0] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64)>
// CHECK-NEXT:  %[[V_7:.*]] = llvm.insertvalue %[[V_3]], %[[V_6]][1] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64)>
// CHECK-NEXT:  %[[V_8:.*]] = llvm.insertvalue %[[V_0]], %[[V_7]][2] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64)>
// CHECK-NEXT:  %[[V_9:.*]] = builtin.unrealized_conversion_cast %[[V_8]] : !llvm.struct<(!llvm.ptr, !llvm.ptr, i64)> to memref<vector<4x8xf32>>
// CHECK-NEXT:  return %[[V_4]], %[[V_9]] : vector<16xi8>, memref<vector<4x8xf32>>
func.func @bitcast_and_cast(%v: vector<4xf32>, %m: memref<4x8xf32>) -> (vector<16xi8>, memref<vector<4x8xf32>>) {
  %0 = vector.bitcast %v : vector<4xf32> to vector<16xi8>
  %1 = vector.type_cast %m : memref<4x8xf32> to memref<vector<4x8xf32>>
  return %0, %1 : vector<16xi8>, memref<vector<4x8xf32>>
}
// Contractions are lowered first (dot products by default).

// CHECK-LABEL: func.func @contract(
// CHECK-NEXT:  %[[V_0:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:  %[[V_1:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:  %[[V_2:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
// CHECK-NEXT:  %[[V_3:.*]] = builtin.unrealized_conversion_cast %b : vector<2x2xf32> to !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_4:.*]] = builtin.unrealized_conversion_cast %a : vector<2x2xf32> to !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_5:.*]] = builtin.unrealized_conversion_cast %c : vector<2x2xf32> to !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_6:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_7:.*]] = arith.constant dense<0.000000e+00> : vector<2xf32>
// CHECK-NEXT:  %[[V_8:.*]] = llvm.insertvalue %[[V_7]], %[[V_6]][0] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_9:.*]] = llvm.insertvalue %[[V_7]], %[[V_8]][1] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_10:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_11:.*]] = llvm.extractvalue %[[V_3]][0] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_12:.*]] = llvm.extractelement %[[V_11]][%[[V_0]] : i64] : vector<2xf32>
// CHECK-NEXT:  %[[V_13:.*]] = llvm.extractvalue %[[V_10]][0] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_14:.*]] = llvm.insertelement %[[V_12]], %[[V_13]][%[[V_0]] : i64] : vector<2xf32>
// CHECK-NEXT:  %[[V_15:.*]] = llvm.insertvalue %[[V_14]], %[[V_10]][0] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_16:.*]] = llvm.extractvalue %[[V_3]][0] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_17:.*]] = llvm.extractelement %[[V_16]][%[[V_1]] : i64] : vector<2xf32>
// CHECK-NEXT:  %[[V_18:.*]] = llvm.extractvalue %[[V_15]][1] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_19:.*]] = llvm.insertelement %[[V_17]], %[[V_18]][%[[V_0]] : i64] : vector<2xf32>
// CHECK-NEXT:  %[[V_20:.*]] = llvm.insertvalue %[[V_19]], %[[V_15]][1] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_21:.*]] = llvm.extractvalue %[[V_3]][1] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_22:.*]] = llvm.extractelement %[[V_21]][%[[V_0]] : i64] : vector<2xf32>
// CHECK-NEXT:  %[[V_23:.*]] = llvm.extractvalue %[[V_20]][0] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_24:.*]] = llvm.insertelement %[[V_22]], %[[V_23]][%[[V_1]] : i64] : vector<2xf32>
// CHECK-NEXT:  %[[V_25:.*]] = llvm.insertvalue %[[V_24]], %[[V_20]][0] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_26:.*]] = llvm.extractvalue %[[V_3]][1] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_27:.*]] = llvm.extractelement %[[V_26]][%[[V_1]] : i64] : vector<2xf32>
// CHECK-NEXT:  %[[V_28:.*]] = llvm.extractvalue %[[V_25]][1] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_29:.*]] = llvm.insertelement %[[V_27]], %[[V_28]][%[[V_1]] : i64] : vector<2xf32>
// CHECK-NEXT:  %[[V_30:.*]] = llvm.insertvalue %[[V_29]], %[[V_25]][1] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_31:.*]] = llvm.extractvalue %[[V_4]][0] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_32:.*]] = llvm.extractvalue %[[V_30]][0] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_33:.*]] = arith.mulf %[[V_31]], %[[V_32]] : vector<2xf32>
// CHECK-NEXT:  %[[V_34:.*]] = llvm.intr.vector.reduce.fadd(%[[V_2]], %[[V_33]]) : (f32, vector<2xf32>) -> f32
// CHECK-NEXT:  %[[V_35:.*]] = llvm.extractvalue %[[V_9]][0] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_36:.*]] = llvm.insertelement %[[V_34]], %[[V_35]][%[[V_0]] : i64] : vector<2xf32>
// CHECK-NEXT:  %[[V_37:.*]] = llvm.insertvalue %[[V_36]], %[[V_9]][0] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_38:.*]] = llvm.extractvalue %[[V_30]][1] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_39:.*]] = arith.mulf %[[V_31]], %[[V_38]] : vector<2xf32>
// CHECK-NEXT:  %[[V_40:.*]] = llvm.intr.vector.reduce.fadd(%[[V_2]], %[[V_39]]) : (f32, vector<2xf32>) -> f32
// CHECK-NEXT:  %[[V_41:.*]] = llvm.extractvalue %[[V_37]][0] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_42:.*]] = llvm.insertelement %[[V_40]], %[[V_41]][%[[V_1]] : i64] : vector<2xf32>
// CHECK-NEXT:  %[[V_43:.*]] = llvm.insertvalue %[[V_42]], %[[V_37]][0] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_44:.*]] = llvm.extractvalue %[[V_4]][1] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_45:.*]] = arith.mulf %[[V_44]], %[[V_32]] : vector<2xf32>
// CHECK-NEXT:  %[[V_46:.*]] = llvm.intr.vector.reduce.fadd(%[[V_2]], %[[V_45]]) : (f32, vector<2xf32>) -> f32
// CHECK-NEXT:  %[[V_47:.*]] = llvm.extractvalue %[[V_43]][1] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_48:.*]] = llvm.insertelement %[[V_46]], %[[V_47]][%[[V_0]] : i64] : vector<2xf32>
// CHECK-NEXT:  %[[V_49:.*]] = llvm.insertvalue %[[V_48]], %[[V_43]][1] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_50:.*]] = arith.mulf %[[V_44]], %[[V_38]] : vector<2xf32>
// CHECK-NEXT:  %[[V_51:.*]] = llvm.intr.vector.reduce.fadd(%[[V_2]], %[[V_50]]) : (f32, vector<2xf32>) -> f32
// CHECK-NEXT:  %[[V_52:.*]] = llvm.extractvalue %[[V_49]][1] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_53:.*]] = llvm.insertelement %[[V_51]], %[[V_52]][%[[V_1]] : i64] : vector<2xf32>
// CHECK-NEXT:  %[[V_54:.*]] = llvm.insertvalue %[[V_53]], %[[V_49]][1] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_55:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_56:.*]] = llvm.extractvalue %[[V_54]][0] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_57:.*]] = llvm.extractvalue %[[V_5]][0] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_58:.*]] = arith.addf %[[V_56]], %[[V_57]] : vector<2xf32>
// CHECK-NEXT:  %[[V_59:.*]] = llvm.insertvalue %[[V_58]], %[[V_55]][0] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_60:.*]] = llvm.extractvalue %[[V_54]][1] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_61:.*]] = llvm.extractvalue %[[V_5]][1] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_62:.*]] = arith.addf %[[V_60]], %[[V_61]] : vector<2xf32>
// CHECK-NEXT:  %[[V_63:.*]] = llvm.insertvalue %[[V_62]], %[[V_59]][1] : !llvm.array<2 x vector<2xf32>>
// CHECK-NEXT:  %[[V_64:.*]] = builtin.unrealized_conversion_cast %[[V_63]] : !llvm.array<2 x vector<2xf32>> to vector<2x2xf32>
// CHECK-NEXT:  return %[[V_64]] : vector<2x2xf32>
func.func @contract(%a: vector<2x2xf32>, %b: vector<2x2xf32>, %c: vector<2x2xf32>) -> vector<2x2xf32> {
  %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x2xf32>, vector<2x2xf32> into vector<2x2xf32>
  return %0 : vector<2x2xf32>
}
