// RUN: schedir-opt %s -p lower-affine --split-input-file | filecheck %s

// CHECK-LABEL: func.func @min_of_tile
// CHECK-DAG:   %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:   %[[CM1:.*]] = arith.constant -1 : index
// CHECK:       %[[NEG:.*]] = arith.muli %{{.*}}, %[[CM1]] : index
// CHECK:       %[[REST:.*]] = arith.addi %[[NEG]], %{{.*}} : index
// CHECK:       arith.minsi %[[C16]], %[[REST]] : index
// CHECK-NOT:   affine.
func.func @min_of_tile(%i: index) -> index {
  %n = affine.min affine_map<(d0) -> (16, -d0 + 50)>(%i)
  return %n : index
}

// -----

// mod is never negative: remsi, then add the divisor when the remainder is negative.
// CHECK-LABEL: func.func @mod
// CHECK:       %[[REM:.*]] = arith.remsi
// CHECK:       %[[NEG:.*]] = arith.cmpi slt, %[[REM]]
// CHECK:       %[[ADD:.*]] = arith.addi %[[REM]]
// CHECK:       arith.select %[[NEG]], %[[ADD]], %[[REM]] : index
func.func @mod(%i: index) -> index {
  %m = affine.apply affine_map<(d0) -> (d0 mod 8)>(%i)
  return %m : index
}

// -----

// CHECK-LABEL: func.func @max_with_symbol
// CHECK:       arith.maxsi
// CHECK:       arith.maxsi
func.func @max_with_symbol(%i: index, %s: index) -> index {
  %m = affine.max affine_map<(d0)[s0] -> (d0 floordiv 4, s0, 2)>(%i)[%s]
  return %m : index
}
