// RUN: %roundtrip | filecheck %s

// arith on vectors and tensors, elementwise as upstream: comparisons give i1 containers of
// the operands' shape, select takes an i1 or an i1-container condition (its type printed
// only when it is not i1), casts keep the shape.

// CHECK-LABEL: func.func @f(
// CHECK: arith.cmpf olt, %a, %b : vector<4xf32>
// CHECK: arith.cmpi slt, %i, %j : vector<4xi32>
// CHECK: arith.select %c, %a, %b : vector<4xi1>, vector<4xf32>
// CHECK: arith.fptosi %a : vector<4xf32> to vector<4xi32>
// CHECK: arith.sitofp %i : vector<4xi32> to vector<4xf32>
// CHECK: arith.uitofp %i : vector<4xi32> to vector<4xf32>
// CHECK: arith.fptoui %a : vector<4xf32> to vector<4xi32>
// CHECK: arith.extf %h : vector<4xf16> to vector<4xf32>
// CHECK: arith.truncf %a : vector<4xf32> to vector<4xf16>
// CHECK: arith.extsi %i : vector<4xi32> to vector<4xi64>
// CHECK: arith.extui %i : vector<4xi32> to vector<4xi64>
// CHECK: arith.trunci %i : vector<4xi32> to vector<4xi8>
// CHECK: arith.index_cast %i : vector<4xi32> to vector<4xindex>
// CHECK: arith.bitcast %a : vector<4xf32> to vector<4xi32>
// CHECK: arith.cmpf olt, %t, %u : tensor<4xf32>
// CHECK: arith.select %{{.*}}, %t, %u : tensor<4xi1>, tensor<4xf32>
// CHECK: arith.addf %x, %x : vector<2x4xf32>
// CHECK: arith.maximumf %a, %b : vector<4xf32>
// CHECK: arith.negf %a : vector<4xf32>
// CHECK: math.exp %a : vector<4xf32>
// CHECK: arith.index_castui %i : vector<4xi32> to vector<4xindex>
// CHECK: arith.select %{{.*}}, %a, %b : vector<4xi1>, vector<4xf32>
// CHECK: arith.remf %a, %b : vector<4xf32>
// CHECK: arith.select %s, %a, %b : vector<4xf32>
func.func @f(%a: vector<4xf32>, %b: vector<4xf32>, %i: vector<4xi32>, %j: vector<4xi32>, %c: vector<4xi1>, %t: tensor<4xf32>, %u: tensor<4xf32>, %x: vector<2x4xf32>, %ix: vector<4xindex>, %h: vector<4xf16>, %s: i1) {
  %0 = arith.cmpf olt, %a, %b : vector<4xf32>
  %1 = arith.cmpi slt, %i, %j : vector<4xi32>
  %2 = arith.select %c, %a, %b : vector<4xi1>, vector<4xf32>
  %3 = arith.fptosi %a : vector<4xf32> to vector<4xi32>
  %4 = arith.sitofp %i : vector<4xi32> to vector<4xf32>
  %5 = arith.uitofp %i : vector<4xi32> to vector<4xf32>
  %6 = arith.fptoui %a : vector<4xf32> to vector<4xi32>
  %7 = arith.extf %h : vector<4xf16> to vector<4xf32>
  %8 = arith.truncf %a : vector<4xf32> to vector<4xf16>
  %9 = arith.extsi %i : vector<4xi32> to vector<4xi64>
  %10 = arith.extui %i : vector<4xi32> to vector<4xi64>
  %11 = arith.trunci %i : vector<4xi32> to vector<4xi8>
  %12 = arith.index_cast %i : vector<4xi32> to vector<4xindex>
  %13 = arith.bitcast %a : vector<4xf32> to vector<4xi32>
  %14 = arith.cmpf olt, %t, %u : tensor<4xf32>
  %15 = arith.select %14, %t, %u : tensor<4xi1>, tensor<4xf32>
  %16 = arith.addf %x, %x : vector<2x4xf32>
  %17 = arith.maximumf %a, %b : vector<4xf32>
  %18 = arith.negf %a : vector<4xf32>
  %19 = math.exp %a : vector<4xf32>
  %20 = arith.index_castui %i : vector<4xi32> to vector<4xindex>
  %21 = arith.select %0, %a, %b : vector<4xi1>, vector<4xf32>
  %22 = arith.remf %a, %b : vector<4xf32>
  %23 = arith.select %s, %a, %b : vector<4xf32>
  return
}
