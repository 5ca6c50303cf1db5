// RUN: schedir-opt %s -p gpu-module-to-binary | filecheck %s

// A gpu.module lowered to the LLVM/NVVM dialects is compiled for its #nvvm.target to PTX
// (format isa, the default) and replaced by a gpu.binary of the same name; the PTX has
// the kernel as an .entry with its launch bound (upstream:
// mlir/test/Dialect/GPU/module-to-binary-nvvm.mlir).
// CHECK-NOT: gpu.module
// CHECK: gpu.binary @k [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, assembly = "{{.*}}.version 8.0{{.*}}.target sm_90{{.*}}.entry kern({{.*}}.maxntid 32, 1, 1{{.*}}mov.u32 {{.*}}%tid.x{{.*}}bar.sync {{.*}}0{{.*}}">]
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">] {
    llvm.func @kern(%p: !llvm.ptr) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 1, 1>} {
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %f = llvm.sitofp %t : i32 to f32
      nvvm.barrier
      llvm.store %f, %p : f32, !llvm.ptr
      llvm.return
    }
  }
}
