// RUN: schedir-opt %s -p gpu-to-llvm --split-input-file --verify-diagnostics

module attributes {gpu.container_module} {
  // expected-error @below {{gpu-to-llvm: gpu.module @k was not compiled (run convert-gpu-to-nvvm and gpu-module-to-binary first)}}
  gpu.module @k {
    gpu.func @kern(%a: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func @no_binary(%a: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @k [#gpu.object<#nvvm.target, assembly = "PTX">]
  func.func @async_launch(%a: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error @below {{gpu-to-llvm: 'gpu.launch_func' is not supported: asynchronous launches}}
    %t2 = gpu.launch_func async @k::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{gpu-to-llvm: 'gpu.binary' @k: the requested target object couldn't be found}}
  gpu.binary @k <#gpu.select_object<1>> [#gpu.object<#nvvm.target, assembly = "PTX">]
  func.func @missing_object(%a: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
    return
  }
}
