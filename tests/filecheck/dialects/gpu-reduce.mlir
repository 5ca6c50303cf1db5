// RUN: %roundtrip | filecheck %s

// gpu.subgroup_reduce and gpu.all_reduce in upstream's custom syntax
// (mlir/test/Dialect/GPU/ops.mlir): every operation keyword, `uniform`, clusters with and
// without a stride, vector operands, the region form; printed, parsed again, printed the
// same.

// CHECK-LABEL: func.func @subgroup
// CHECK:         gpu.subgroup_reduce add %{{.*}} : (f32) -> f32
// CHECK:         gpu.subgroup_reduce maxnumf %{{.*}} uniform cluster(size = 8, stride = 2) : (f32) -> f32
// CHECK:         gpu.subgroup_reduce minimumf %{{.*}} cluster(size = 4) : (vector<4xf32>) -> vector<4xf32>
// CHECK:         gpu.subgroup_reduce xor %{{.*}} uniform : (i32) -> i32
// CHECK:         gpu.subgroup_reduce maxui %{{.*}} : (i8) -> i8
// CHECK:         gpu.subgroup_reduce mul %{{.*}} : (f16) -> f16
func.func @subgroup(%v: f32, %w: vector<4xf32>, %i: i32, %b: i8, %h: f16) {
  %a = gpu.subgroup_reduce add %v : (f32) -> f32
  %m = gpu.subgroup_reduce maxnumf %v uniform cluster(size = 8, stride = 2) : (f32) -> f32
  %c = gpu.subgroup_reduce minimumf %w cluster(size = 4) : (vector<4xf32>) -> vector<4xf32>
  %x = gpu.subgroup_reduce xor %i uniform : (i32) -> i32
  %u = gpu.subgroup_reduce maxui %b : (i8) -> i8
  %p = gpu.subgroup_reduce mul %h : (f16) -> f16
  return
}

// CHECK-LABEL: func.func @all
// CHECK:         gpu.all_reduce add %{{.*}} {
// CHECK-NEXT:    } : (f32) -> f32
// CHECK:         gpu.all_reduce minsi %{{.*}} uniform {
// CHECK-NEXT:    } : (i64) -> i64
// CHECK:         gpu.all_reduce %{{.*}} uniform {
// CHECK-NEXT:    ^{{.*}}(%[[L:.*]]: f32, %[[R:.*]]: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.mulf %[[L]], %[[R]] : f32
// CHECK-NEXT:      gpu.yield %[[S]] : f32
// CHECK-NEXT:    } : (f32) -> f32
func.func @all(%v: f32, %i: i64) {
  %a = gpu.all_reduce add %v {} : (f32) -> f32
  %b = gpu.all_reduce minsi %i uniform {} : (i64) -> i64
  %c = gpu.all_reduce %v uniform {
  ^bb0(%lhs: f32, %rhs: f32):
    %s = arith.mulf %lhs, %rhs : f32
    gpu.yield %s : f32
  } : (f32) -> (f32)
  return
}

// The generic form (with both attribute spellings) parses to the same ops.
// CHECK-LABEL: func.func @generic
// CHECK:         gpu.subgroup_reduce add %{{.*}} cluster(size = 16) : (f32) -> f32
// CHECK:         gpu.all_reduce maximumf %{{.*}} {
func.func @generic(%v: f32) {
  %a = "gpu.subgroup_reduce"(%v) <{op = #gpu<all_reduce_op<add>>, cluster_size = 16 : i32, cluster_stride = 1 : i32}> : (f32) -> f32
  %b = "gpu.all_reduce"(%v) <{op = #gpu.all_reduce_op<maximumf>}> ({
  }) : (f32) -> f32
  return
}
