// RUN: schedir-opt %s -p 'nvvm-attach-target{chip=sm_90 features="+ptx80" O=3 module="k.*"}' | filecheck %s

// Every gpu.module whose name matches `module` gets the #nvvm.target; the others keep
// theirs (upstream: mlir/test/Dialect/LLVMIR/nvvm-target.mlir). Default-valued
// parameters are not printed.
// CHECK: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">] {
// CHECK: gpu.module @other {
// CHECK: gpu.module @k2 [#nvvm.target<chip = "sm_80">, #nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">] {
module attributes {gpu.container_module} {
  gpu.module @kernels {
  }
  gpu.module @other {
  }
  gpu.module @k2 [#nvvm.target<chip = "sm_80">] {
  }
}
