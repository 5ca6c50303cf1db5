// RUN: schedir-opt %s -p gpu-module-to-binary --verify-diagnostics

module attributes {gpu.container_module} {
  // expected-error @below {{gpu-module-to-binary: the module has no target attributes (run nvvm-attach-target)}}
  gpu.module @k {
  }
}
