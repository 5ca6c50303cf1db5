// RUN: schedir-opt %s -p canonicalize | filecheck %s

// subi(subi(a, b), a) is subi(0, b) on vectors too: the 0 is a splat of the vector type.
// CHECK-LABEL: func.func @sub_of_sub(
// CHECK-SAME:  %[[A:[a-z0-9]+]]: vector<4xi32>, %[[B:[a-z0-9]+]]: vector<4xi32>)
// CHECK:         %[[Z:.*]] = arith.constant dense<0> : vector<4xi32>
// CHECK:         %[[R:.*]] = arith.subi %[[Z]], %[[B]] : vector<4xi32>
// CHECK:         return %[[R]]
func.func @sub_of_sub(%a: vector<4xi32>, %b: vector<4xi32>) -> vector<4xi32> {
  %d = arith.subi %a, %b : vector<4xi32>
  %r = arith.subi %d, %a : vector<4xi32>
  return %r : vector<4xi32>
}
