// RUN: schedir-opt %s --emit llvm | filecheck %s

// NVVM ops become NVPTX intrinsics; a kernel is a ptx_kernel function whose launch bound
// is a function attribute (LLVM 20+ spelling, upstream's NVVM translation).
// CHECK: define ptx_kernel void @kern(ptr %{{.*}}, float %{{.*}}) "nvvm.maxntid"="32,4,1"
// CHECK:   call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
// CHECK:   call i32 @llvm.nvvm.read.ptx.sreg.nctaid.y()
// CHECK:   call i32 @llvm.nvvm.read.ptx.sreg.laneid()
// CHECK:   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
// CHECK:   call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %{{.*}}, i32 1, i32 31)
// CHECK:   call {float, i1} @llvm.nvvm.shfl.sync.down.f32p(i32 -1, float %{{.*}}, i32 1, i32 31)
// CHECK:   call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
llvm.func @kern(%p: !llvm.ptr, %v: f32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 4, 1>} {
  %m = llvm.mlir.constant(-1 : i32) : i32
  %o = llvm.mlir.constant(1 : i32) : i32
  %c = llvm.mlir.constant(31 : i32) : i32
  %t = nvvm.read.ptx.sreg.tid.x : i32
  %n = nvvm.read.ptx.sreg.nctaid.y : i32
  %l = nvvm.read.ptx.sreg.laneid : i32
  nvvm.barrier
  %s = nvvm.shfl.sync bfly %m, %v, %o, %c : f32 -> f32
  %d = nvvm.shfl.sync down %m, %s, %o, %c return_value_and_is_valid : f32 -> !llvm.struct<(f32, i1)>
  nvvm.barrier0
  llvm.store %s, %p : f32, !llvm.ptr
  llvm.return
}
