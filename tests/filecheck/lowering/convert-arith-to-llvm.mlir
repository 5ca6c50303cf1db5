// RUN: schedir-opt %s -p convert-arith-to-llvm | filecheck %s
// RUN: schedir-opt %s -p convert-arith-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts | filecheck %s --check-prefix=FULL

// Index arithmetic becomes i64; the old index users see casts back.
// CHECK-LABEL: func.func @index_math
// CHECK-DAG:     %[[A:.*]] = builtin.unrealized_conversion_cast %a : index to i64
// CHECK-DAG:     %[[B:.*]] = builtin.unrealized_conversion_cast %b : index to i64
// CHECK:         %[[S:.*]] = llvm.add %[[A]], %[[B]] : i64
// CHECK:         %[[C:.*]] = llvm.mlir.constant(3) : i64
// CHECK:         %[[M:.*]] = llvm.mul %[[S]], %[[C]] overflow<nsw> : i64
// CHECK:         %[[R:.*]] = builtin.unrealized_conversion_cast %[[M]] : i64 to index
// CHECK:         return %[[R]] : index
// FULL-LABEL:  llvm.func @index_math(%a: i64, %b: i64) -> i64
// FULL-NOT:      unrealized_conversion_cast
// FULL:          llvm.return
func.func @index_math(%a: index, %b: index) -> index {
  %s = arith.addi %a, %b : index
  %c = arith.constant 3 : index
  %m = arith.muli %s, %c overflow<nsw> : index
  return %m : index
}

// Float arithmetic keeps fastmath flags; min/max keep their NaN semantics.
// CHECK-LABEL: func.func @floats
// CHECK:         llvm.fadd %x, %y fastmath<fast> : f32
// CHECK:         llvm.fsub %x, %y : f32
// CHECK:         llvm.fmul %x, %y : f32
// CHECK:         llvm.fdiv %x, %y : f32
// CHECK:         llvm.fneg %x : f32
// CHECK:         llvm.intr.maximum(%x, %y) : (f32, f32) -> f32
// CHECK:         llvm.intr.minimum(%x, %y) : (f32, f32) -> f32
// CHECK:         llvm.intr.maxnum(%x, %y) : (f32, f32) -> f32
// CHECK:         llvm.intr.minnum(%x, %y) : (f32, f32) -> f32
// CHECK:         llvm.fcmp "olt" %x, %y : f32
// CHECK:         llvm.fcmp "uno" %x, %y : f32
// CHECK:         llvm.select %{{.*}}, %x, %y : i1, f32
func.func @floats(%x: f32, %y: f32) -> f32 {
  %0 = arith.addf %x, %y fastmath<fast> : f32
  %1 = arith.subf %x, %y : f32
  %2 = arith.mulf %x, %y : f32
  %3 = arith.divf %x, %y : f32
  %4 = arith.negf %x : f32
  %5 = arith.maximumf %x, %y : f32
  %6 = arith.minimumf %x, %y : f32
  %7 = arith.maxnumf %x, %y : f32
  %8 = arith.minnumf %x, %y : f32
  %9 = arith.cmpf olt, %x, %y : f32
  %10 = arith.cmpf uno, %x, %y : f32
  %11 = arith.select %9, %x, %y : f32
  return %11 : f32
}

// Integer ops, comparisons and min/max intrinsics.
// CHECK-LABEL: func.func @integers
// CHECK:         llvm.sdiv %a, %b : i32
// CHECK:         llvm.udiv %a, %b : i32
// CHECK:         llvm.srem %a, %b : i32
// CHECK:         llvm.urem %a, %b : i32
// CHECK:         llvm.and %a, %b : i32
// CHECK:         llvm.or %a, %b : i32
// CHECK:         llvm.xor %a, %b : i32
// CHECK:         llvm.shl %a, %b : i32
// CHECK:         llvm.lshr %a, %b : i32
// CHECK:         llvm.ashr %a, %b : i32
// CHECK:         llvm.intr.smax(%a, %b) : (i32, i32) -> i32
// CHECK:         llvm.intr.smin(%a, %b) : (i32, i32) -> i32
// CHECK:         llvm.intr.umax(%a, %b) : (i32, i32) -> i32
// CHECK:         llvm.intr.umin(%a, %b) : (i32, i32) -> i32
// CHECK:         llvm.icmp "ult" %a, %b : i32
func.func @integers(%a: i32, %b: i32) -> i1 {
  %0 = arith.divsi %a, %b : i32
  %1 = arith.divui %a, %b : i32
  %2 = arith.remsi %a, %b : i32
  %3 = arith.remui %a, %b : i32
  %4 = arith.andi %a, %b : i32
  %5 = arith.ori %a, %b : i32
  %6 = arith.xori %a, %b : i32
  %7 = arith.shli %a, %b : i32
  %8 = arith.shrui %a, %b : i32
  %9 = arith.shrsi %a, %b : i32
  %10 = arith.maxsi %a, %b : i32
  %11 = arith.minsi %a, %b : i32
  %12 = arith.maxui %a, %b : i32
  %13 = arith.minui %a, %b : i32
  %14 = arith.cmpi ult, %a, %b : i32
  return %14 : i1
}

// Casts: each arith cast is the LLVM cast of the same meaning; index_cast between index
// and i64 is nothing at all.
// CHECK-LABEL: func.func @casts
// CHECK:         llvm.fpext %h : f16 to f32
// CHECK:         llvm.fptrunc %d : f64 to bf16
// CHECK:         llvm.sext %i : i32 to i64
// CHECK:         llvm.zext %i : i32 to i64
// CHECK:         llvm.trunc %i : i32 to i8
// CHECK:         llvm.sitofp %i : i32 to f32
// CHECK:         llvm.uitofp %i : i32 to f32
// CHECK:         llvm.fptosi %d : f64 to i32
// CHECK:         llvm.fptoui %d : f64 to i32
// CHECK:         llvm.bitcast %f : f32 to i32
// CHECK:         llvm.sext %i : i32 to i64
// CHECK:         llvm.trunc %{{.*}} : i64 to i32
// CHECK-NOT:     llvm.sext %l
// CHECK:         return
func.func @casts(%h: f16, %d: f64, %i: i32, %f: f32, %n: index, %l: i64) -> index {
  %0 = arith.extf %h : f16 to f32
  %1 = arith.truncf %d : f64 to bf16
  %2 = arith.extsi %i : i32 to i64
  %3 = arith.extui %i : i32 to i64
  %4 = arith.trunci %i : i32 to i8
  %5 = arith.sitofp %i : i32 to f32
  %6 = arith.uitofp %i : i32 to f32
  %7 = arith.fptosi %d : f64 to i32
  %8 = arith.fptoui %d : f64 to i32
  %9 = arith.bitcast %f : f32 to i32
  %10 = arith.index_cast %i : i32 to index
  %11 = arith.index_cast %n : index to i32
  %12 = arith.index_cast %l : i64 to index
  return %12 : index
}

// Constants, including i1, bf16 and dense vectors (index vectors become i64).
// CHECK-LABEL: func.func @constants
// CHECK:         llvm.mlir.constant(true) : i1
// CHECK:         llvm.mlir.constant(1.500000e+00 : bf16) : bf16
// CHECK:         llvm.mlir.constant(dense<[1.000000e+00, 2.000000e+00]> : vector<2xf32>) : vector<2xf32>
// CHECK:         llvm.mlir.constant(dense<[4, 5]> : vector<2xi64>) : vector<2xi64>
// CHECK:         llvm.fadd %{{.*}}, %{{.*}} : vector<2xf32>
func.func @constants() -> vector<2xf32> {
  %t = arith.constant true
  %b = arith.constant 1.5 : bf16
  %v = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
  %iv = arith.constant dense<[4, 5]> : vector<2xindex>
  %s = arith.addf %v, %v : vector<2xf32>
  return %s : vector<2xf32>
}

// floordivsi / ceildivsi / ceildivui are expanded as upstream's arith-expand does.
// CHECK-LABEL: func.func @rounding_division
// CHECK:         %[[Q:.*]] = llvm.sdiv %a, %b : i32
// CHECK:         %[[P:.*]] = llvm.mul %[[Q]], %b : i32
// CHECK:         llvm.icmp "ne" %a, %[[P]] : i32
// CHECK:         llvm.sub %[[Q]], %{{.*}} : i32
// CHECK:         llvm.select
// CHECK:         llvm.sdiv %a, %b : i32
// CHECK:         llvm.add
// CHECK:         llvm.select
// CHECK:         llvm.icmp "eq" %a, %{{.*}} : i32
// CHECK:         llvm.udiv
// CHECK:         llvm.select
func.func @rounding_division(%a: i32, %b: i32) -> i32 {
  %0 = arith.floordivsi %a, %b : i32
  %1 = arith.ceildivsi %a, %b : i32
  %2 = arith.ceildivui %a, %b : i32
  return %2 : i32
}

// Extended arithmetic: double-width products and the carry of an unsigned add.
// CHECK-LABEL: func.func @extended
// CHECK:         llvm.add %a, %b : i32
// CHECK:         llvm.icmp "ult"
// CHECK:         llvm.sext %a : i32 to i64
// CHECK:         llvm.mul %{{.*}}, %{{.*}} : i64
// CHECK:         llvm.lshr
// CHECK:         llvm.zext %a : i32 to i64
func.func @extended(%a: i32, %b: i32) -> (i32, i1, i32, i32, i32, i32) {
  %s, %o = arith.addui_extended %a, %b : i32, i1
  %l, %h = arith.mulsi_extended %a, %b : i32
  %ul, %uh = arith.mului_extended %a, %b : i32
  return %s, %o, %l, %h, %ul, %uh : i32, i1, i32, i32, i32, i32
}
