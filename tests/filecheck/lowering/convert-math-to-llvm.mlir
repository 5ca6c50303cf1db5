// RUN: schedir-opt %s -p convert-math-to-llvm | filecheck %s

// libm functions are declared once, at the top of the module, in order of first use.
// CHECK:       llvm.func @tanhf(f32) -> f32
// CHECK-NEXT:  llvm.func @erff(f32) -> f32
// CHECK-NEXT:  llvm.func @log1p(f64) -> f64
// CHECK-NEXT:  llvm.func @atan2f(f32, f32) -> f32
// CHECK-NOT:   llvm.func @tanhf

// Ops with an LLVM intrinsic become it, fastmath flags included.
// CHECK-LABEL: func.func @intrinsics
// CHECK:         llvm.intr.exp(%x) fastmath<fast> : (f32) -> f32
// CHECK:         llvm.intr.exp2(%x) : (f32) -> f32
// CHECK:         llvm.intr.log(%x) : (f32) -> f32
// CHECK:         llvm.intr.log10(%x) : (f32) -> f32
// CHECK:         llvm.intr.log2(%x) : (f32) -> f32
// CHECK:         llvm.intr.sqrt(%x) : (f32) -> f32
// CHECK:         llvm.intr.fabs(%x) : (f32) -> f32
// CHECK:         llvm.intr.floor(%x) : (f32) -> f32
// CHECK:         llvm.intr.ceil(%x) : (f32) -> f32
// CHECK:         llvm.intr.round(%x) : (f32) -> f32
// CHECK:         llvm.intr.roundeven(%x) : (f32) -> f32
// CHECK:         llvm.intr.trunc(%x) : (f32) -> f32
// CHECK:         llvm.intr.sin(%x) : (f32) -> f32
// CHECK:         llvm.intr.cos(%x) : (f32) -> f32
// CHECK:         llvm.intr.pow(%x, %y) : (f32, f32) -> f32
// CHECK:         llvm.intr.copysign(%x, %y) : (f32, f32) -> f32
// CHECK:         llvm.intr.fma(%x, %y, %x) : (f32, f32, f32) -> f32
// CHECK:         llvm.intr.powi(%x, %n) : (f32, i32) -> f32
func.func @intrinsics(%x: f32, %y: f32, %n: i32) -> f32 {
  %0 = math.exp %x fastmath<fast> : f32
  %1 = math.exp2 %x : f32
  %2 = math.log %x : f32
  %3 = math.log10 %x : f32
  %4 = math.log2 %x : f32
  %5 = math.sqrt %x : f32
  %6 = math.absf %x : f32
  %7 = math.floor %x : f32
  %8 = math.ceil %x : f32
  %9 = math.round %x : f32
  %10 = math.roundeven %x : f32
  %11 = math.trunc %x : f32
  %12 = math.sin %x : f32
  %13 = math.cos %x : f32
  %14 = math.powf %x, %y : f32
  %15 = math.copysign %x, %y : f32
  %16 = math.fma %x, %y, %x : f32
  %17 = math.fpowi %x, %n : f32, i32
  return %17 : f32
}

// rsqrt is 1 / sqrt; the integer ops say that zero / INT_MIN is not poison.
// CHECK-LABEL: func.func @expansions
// CHECK:         %[[S:.*]] = llvm.intr.sqrt(%x) : (f64) -> f64
// CHECK:         %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f64) : f64
// CHECK:         llvm.fdiv %[[ONE]], %[[S]] : f64
// CHECK:         "llvm.intr.ctlz"(%i) <{is_zero_poison = false}> : (i32) -> i32
// CHECK:         "llvm.intr.cttz"(%i) <{is_zero_poison = false}> : (i32) -> i32
// CHECK:         llvm.intr.ctpop(%i) : (i32) -> i32
// CHECK:         "llvm.intr.abs"(%i) <{is_int_min_poison = false}> : (i32) -> i32
// CHECK:         llvm.call @__schedir_ipowi_i32(%i, %i) : (i32, i32) -> i32
func.func @expansions(%x: f64, %i: i32) -> f64 {
  %0 = math.rsqrt %x : f64
  %1 = math.ctlz %i : i32
  %2 = math.cttz %i : i32
  %3 = math.ctpop %i : i32
  %4 = math.absi %i : i32
  %5 = math.ipowi %i, %i : i32
  return %0 : f64
}

// The rest calls libm: the f suffix for f32, none for f64; f16/bf16 go through f32;
// vectors are unrolled.
// CHECK-LABEL: func.func @libm
// CHECK:         llvm.call @tanhf(%x) : (f32) -> f32
// CHECK:         %[[E:.*]] = llvm.fpext %h : f16 to f32
// CHECK:         %[[T:.*]] = llvm.call @tanhf(%[[E]]) : (f32) -> f32
// CHECK:         llvm.fptrunc %[[T]] : f32 to f16
// CHECK:         llvm.fpext %b : bf16 to f32
// CHECK:         llvm.call @erff
// CHECK:         llvm.fptrunc %{{.*}} : f32 to bf16
// CHECK:         llvm.call @log1p(%d) : (f64) -> f64
// CHECK:         llvm.mlir.poison : vector<2xf32>
// CHECK-COUNT-2: llvm.call @atan2f
// CHECK:         llvm.insertelement
func.func @libm(%x: f32, %h: f16, %b: bf16, %d: f64, %v: vector<2xf32>) -> f32 {
  %0 = math.tanh %x : f32
  %1 = math.tanh %h : f16
  %2 = math.erf %b : bf16
  %3 = math.log1p %d : f64
  %4 = math.atan2 %v, %v : vector<2xf32>
  return %0 : f32
}

// math.ipowi calls a private helper, exponentiation by squaring, added once per type.
// CHECK-LABEL: llvm.func internal @__schedir_ipowi_i32(
// CHECK:         llvm.cond_br
// CHECK:         llvm.mul
// CHECK:         llvm.return
// CHECK-NOT:   llvm.func internal @__schedir_ipowi_i32(
