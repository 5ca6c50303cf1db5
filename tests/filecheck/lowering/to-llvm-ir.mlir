// RUN: schedir-opt %s --emit llvm | filecheck %s

// CHECK: @table = private constant [2 x [2 x float]] {{\[}}[2 x float] [float 0x3FF0000000000000, float 0x4000000000000000], [2 x float] [float 0x4008000000000000, float 0x4010000000000000]], align 16
// CHECK: @half_one = internal global bfloat 0xR3F80
// CHECK: @shared = internal addrspace(3) global [64 x float] undef
// CHECK: @msg = internal constant [3 x i8] c"hi\00"
llvm.mlir.global private constant @table(dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>) {addr_space = 0 : i32, alignment = 16 : i64} : !llvm.array<2 x !llvm.array<2 x f32>>
llvm.mlir.global internal @half_one(1.0 : bf16) {addr_space = 0 : i32} : bf16
llvm.mlir.global internal @shared() {addr_space = 3 : i32} : !llvm.array<64 x f32>
llvm.mlir.global internal constant @msg("hi\00") {addr_space = 0 : i32} : !llvm.array<3 x i8>

// A GEP on a non-default address space keeps it (xDSL bitcasts to address space 0).
// CHECK-LABEL: define float @gep_addrspace(ptr addrspace(3) %{{.*}}, i64 %{{.*}})
// CHECK:         %[[P:.*]] = getelementptr inbounds nuw float, ptr addrspace(3) %{{.*}}, i64 %{{.*}}
// CHECK:         load float, ptr addrspace(3) %[[P]], align 4
// CHECK:         getelementptr {ptr, ptr, i64}, ptr addrspace(3) %{{.*}}, i32 0, i32 2
llvm.func @gep_addrspace(%p: !llvm.ptr<3>, %i: i64) -> f32 {
  %q = llvm.getelementptr inbounds|nuw %p[%i] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
  %v = llvm.load %q <alignment = 4> : !llvm.ptr<3> -> f32
  %f = llvm.getelementptr %p[0, 2] : (!llvm.ptr<3>) -> !llvm.ptr<3>, !llvm.struct<(ptr, ptr, i64)>
  llvm.return %v : f32
}

// Intrinsics are mangled per type, so one module can use them at several types.
// CHECK-LABEL: define double @intrinsics(float %{{.*}}, double %{{.*}}, i32 %{{.*}}, half %{{.*}})
// CHECK:         call float @llvm.fabs.f32(float
// CHECK:         call double @llvm.fabs.f64(double
// CHECK:         call fast float @llvm.maximum.f32(
// CHECK:         call i32 @llvm.smax.i32(
// CHECK:         call i32 @llvm.ctlz.i32(i32 %{{.*}}, i1 0)
// CHECK:         call i1 @llvm.is.fpclass.f32(float %{{.*}}, i32 3)
// CHECK:         call float @llvm.powi.f32.i32(
// CHECK:         call half @llvm.exp.f16(
llvm.func @intrinsics(%x: f32, %d: f64, %n: i32, %h: f16) -> f64 {
  %0 = llvm.intr.fabs(%x) : (f32) -> f32
  %1 = llvm.intr.fabs(%d) : (f64) -> f64
  %2 = llvm.intr.maximum(%x, %0) fastmath<fast> : (f32, f32) -> f32
  %3 = llvm.intr.smax(%n, %n) : (i32, i32) -> i32
  %4 = "llvm.intr.ctlz"(%n) <{is_zero_poison = false}> : (i32) -> i32
  %5 = "llvm.intr.is.fpclass"(%x) <{bit = 3 : i32}> : (f32) -> i1
  %6 = llvm.intr.powi(%x, %n) : (f32, i32) -> f32
  %7 = llvm.intr.exp(%h) : (f16) -> f16
  llvm.return %1 : f64
}

// Casts llvmlite lacks, poison, freeze, bf16 constants, vectors.
// CHECK-LABEL: define i32 @casts(
// CHECK:         fptosi float %{{.*}} to i32
// CHECK:         uitofp i32 %{{.*}} to bfloat
// CHECK:         fadd bfloat %{{.*}}, 0xR3FC0
// CHECK:         addrspacecast ptr addrspace(3) %{{.*}} to ptr
// CHECK:         extractelement <4 x float> %{{.*}}, i32 %{{.*}}
// CHECK:         freeze i32 poison
// CHECK:         fcmp uno float
// CHECK:         zext nneg i32
llvm.func @casts(%x: f32, %n: i32, %p: !llvm.ptr<3>, %v: vector<4xf32>) -> i32 {
  %0 = llvm.fptosi %x : f32 to i32
  %1 = llvm.uitofp %n : i32 to bf16
  %c = llvm.mlir.constant(1.5 : bf16) : bf16
  %2 = llvm.fadd %1, %c : bf16
  %3 = llvm.addrspacecast %p : !llvm.ptr<3> to !llvm.ptr
  %4 = llvm.extractelement %v[%n : i32] : vector<4xf32>
  %5 = llvm.mlir.poison : i32
  %6 = llvm.freeze %5 : i32
  %7 = llvm.fcmp "uno" %x, %4 : f32
  %8 = llvm.zext nneg %n : i32 to i64
  llvm.return %0 : i32
}

// Block arguments are phis; a second edge to the same block with other values goes
// through a new block; a switch keeps its cases.
// CHECK-LABEL: define i32 @control(
// CHECK:         br i1 %{{.*}}, label %[[A:.*]], label %[[EDGE:.*]]
// CHECK:         phi i32 [%{{.*}}, %bb0], [%{{.*}}, %[[EDGE]]]
// CHECK:         switch i32 %{{.*}}, label %{{.*}} [i32 1, label %{{.*}} i32 -2, label %{{.*}}]
llvm.func @control(%c: i1, %a: i32, %b: i32) -> i32 {
  llvm.cond_br %c, ^bb1(%a : i32), ^bb1(%b : i32)
^bb1(%x: i32):
  llvm.switch %x : i32, ^bb2 [
    1: ^bb2,
    -2: ^bb3
  ]
^bb2:
  llvm.return %x : i32
^bb3:
  llvm.return %a : i32
}

// Memory: allocas in any address space, memcpy with mangled pointer types, calls.
// CHECK-LABEL: define internal void @memory(ptr noalias %{{.*}}, ptr %{{.*}}, i64 %{{.*}})
// CHECK:         alloca float, i64 %{{.*}}, align 16, addrspace(5)
// CHECK:         call void @llvm.memcpy.p0.p0.i64(ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}}, i1 0)
// CHECK:         call ptr @malloc(i64
// CHECK:         call void @free(ptr
// CHECK:         store volatile float
llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @free(!llvm.ptr)
llvm.func internal @memory(%dst: !llvm.ptr {llvm.noalias}, %src: !llvm.ptr, %n: i64) {
  %0 = llvm.alloca %n x f32 {alignment = 16 : i64} : (i64) -> !llvm.ptr<5>
  "llvm.intr.memcpy"(%dst, %src, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  %1 = llvm.call @malloc(%n) : (i64) -> !llvm.ptr
  llvm.call @free(%1) : (!llvm.ptr) -> ()
  %z = llvm.mlir.constant(0.0 : f32) : f32
  llvm.store volatile %z, %dst : f32, !llvm.ptr
  llvm.return
}
