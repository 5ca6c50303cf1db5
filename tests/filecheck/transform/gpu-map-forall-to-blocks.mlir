// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s

// transform.gpu.map_forall_to_blocks (upstream: mlir/test/Dialect/GPU/transform-gpu.mlir
// and transform-gpu-failing.mlir, checked against iree-opt 3.13's diagnostics).

// generate_gpu_launch: the forall moves into a new gpu.launch whose grid is the forall's
// trip counts sorted by mapping id (x = 16, y = 8, z = 1); the induction variables become
// block ids (%i mapped to y, %j to x).
// CHECK-LABEL: func.func @generate_launch
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %[[C16]], {{.*}} = %[[C8]], {{.*}} = %{{.*}}) threads({{.*}}) in ({{.*}} = %{{.*}}, {{.*}} = %{{.*}}, {{.*}} = %{{.*}})
// CHECK:           %[[BX:.*]] = gpu.block_id x
// CHECK:           %[[BY:.*]] = gpu.block_id y
// CHECK:           memref.store %{{.*}}, %{{.*}}[%[[BY]], %[[BX]]] : memref<8x16xf32>
// CHECK:           gpu.terminator
// CHECK-NOT:     scf.forall
module attributes {transform.with_named_sequence} {
  func.func @generate_launch(%a: memref<8x16xf32>, %v: f32) {
    scf.forall (%i, %j) in (8, 16) {
      memref.store %v, %a[%i, %j] : memref<8x16xf32>
    } {mapping = [#gpu.block<y>, #gpu.block<x>]}
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.gpu.map_forall_to_blocks %f generate_gpu_launch : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A forall target is its own top-level forall (its thread forall is nested in it), so a
// function with two grids maps them one at a time, each into its own launch (as
// iree-opt does).
// CHECK-LABEL: func.func @two_grids
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %[[C8]], {{.*}}) threads
// CHECK:           %[[I:.*]] = gpu.block_id x
// CHECK:           scf.forall (%[[J:.*]]) in (16) {
// CHECK:             memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]] : memref<8x16xf32>
// CHECK:           } {mapping = [#gpu.thread<x>]}
// CHECK:           gpu.terminator
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %[[C4]], {{.*}}) threads
// CHECK:           %[[K:.*]] = gpu.block_id x
// CHECK:           memref.store %{{.*}}, %{{.*}}[%[[K]]] : memref<4xf32>
// CHECK-NOT:     scf.forall
module attributes {transform.with_named_sequence} {
  func.func @two_grids(%a: memref<8x16xf32>, %b: memref<4xf32>, %v: f32) {
    scf.forall (%i) in (8) {
      scf.forall (%j) in (16) {
        memref.store %v, %a[%i, %j] : memref<8x16xf32>
      } {mapping = [#gpu.thread<x>]}
    } {mapping = [#gpu.block<x>]}
    scf.forall (%k) in (4) {
      memref.store %v, %b[%k] : memref<4xf32>
    } {mapping = [#gpu.block<x>]}
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %grids = transform.structured.match ops{["scf.forall"]} attributes {mapping = [#gpu.block<x>]} in %root : (!transform.any_op) -> !transform.any_op
    %g1, %g2 = transform.split_handle %grids : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %l1 = transform.gpu.map_forall_to_blocks %g1 generate_gpu_launch : (!transform.any_op) -> !transform.any_op
    %l2 = transform.gpu.map_forall_to_blocks %g2 generate_gpu_launch : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An existing launch with grid_dims larger than the forall: the body is predicated on
// the block ids (blockIdx.x < 7, blockIdx.y < 3) and the grid becomes grid_dims.
// CHECK-LABEL: func.func @predicated_blocks
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %[[C8]], {{.*}} = %[[C4]], {{.*}} = %{{.*}})
// CHECK:           %[[BX:.*]] = gpu.block_id x
// CHECK:           %[[BY:.*]] = gpu.block_id y
// CHECK:           %[[PX:.*]] = arith.cmpi ult, %[[BX]], %{{.*}} : index
// CHECK:           %[[PY:.*]] = arith.cmpi ult, %[[BY]], %{{.*}} : index
// CHECK:           %[[P:.*]] = arith.andi %[[PX]], %[[PY]] : i1
// CHECK:           scf.if %[[P]] {
// CHECK:             memref.store %{{.*}}, %{{.*}}[%[[BX]], %[[BY]]] : memref<7x3xf32>
module attributes {transform.with_named_sequence} {
  func.func @predicated_blocks(%a: memref<7x3xf32>, %v: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      scf.forall (%i, %j) in (7, 3) {
        memref.store %v, %a[%i, %j] : memref<7x3xf32>
      } {mapping = [#gpu.block<x>, #gpu.block<y>]}
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.gpu.map_forall_to_blocks %l grid_dims = [8, 4, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Linear mapping: the linear block id (x + y * 12) is delinearized over the sizes (4, 3):
// linear_dim_0 is the fastest-varying.
// CHECK-LABEL: func.func @linear_blocks
// CHECK:         gpu.launch
// CHECK:           %[[BX:.*]] = gpu.block_id x
// CHECK:           %[[BY:.*]] = gpu.block_id y
// CHECK:           affine.apply {{.*}}%[[BX]]
// CHECK:           memref.store
module attributes {transform.with_named_sequence} {
  func.func @linear_blocks(%a: memref<3x4xf32>, %v: f32) {
    scf.forall (%i, %j) in (3, 4) {
      memref.store %v, %a[%i, %j] : memref<3x4xf32>
    } {mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>]}
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.gpu.map_forall_to_blocks %f generate_gpu_launch : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  // expected-note @below {{when applied to this payload op}}
  func.func @not_a_launch(%a: memref<8xf32>, %v: f32) {
    scf.forall (%i) in (8) {
      memref.store %v, %a[%i] : memref<8xf32>
    } {mapping = [#gpu.block<x>]}
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{Given target is not gpu.launch, set `generate_gpu_launch` attribute}}
    %l = transform.gpu.map_forall_to_blocks %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  // expected-note @below {{when applied to this payload op}}
  func.func @two_top_level_foralls(%a: memref<8xf32>, %v: f32) {
    scf.forall (%i) in (8) {
      memref.store %v, %a[%i] : memref<8xf32>
    } {mapping = [#gpu.block<x>]}
    scf.forall (%i) in (8) {
      memref.store %v, %a[%i] : memref<8xf32>
    } {mapping = [#gpu.block<x>]}
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not find a unique topLevel scf.forall}}
    %l = transform.gpu.map_forall_to_blocks %f generate_gpu_launch : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @thread_mapping_for_blocks(%a: memref<8xf32>, %v: f32) {
    scf.forall (%i) in (8) {
      memref.store %v, %a[%i] : memref<8xf32>
    } {mapping = [#gpu.thread<x>]}
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{scf.forall op requires a mapping attribute of kind 'block'}}
    %l = transform.gpu.map_forall_to_blocks %f generate_gpu_launch : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @duplicate_mapping(%a: memref<8x8xf32>, %v: f32) {
    scf.forall (%i, %j) in (8, 8) {
      memref.store %v, %a[%i, %j] : memref<8x8xf32>
    } {mapping = [#gpu.block<x>, #gpu.block<x>]}
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{duplicate attribute, cannot map different loops to the same mapping id}}
    %l = transform.gpu.map_forall_to_blocks %f generate_gpu_launch : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @not_bufferized(%t: tensor<8xf32>, %v: f32) -> tensor<8xf32> {
    %r = scf.forall (%i) in (8) shared_outs(%o = %t) -> (tensor<8xf32>) {
      %s = tensor.extract_slice %o[%i] [1] [1] : tensor<8xf32> to tensor<1xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %s into %o[%i] [1] [1] : tensor<1xf32> into tensor<8xf32>
      }
    } {mapping = [#gpu.block<x>]}
    return %r : tensor<8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{only bufferized scf.forall can be mapped}}
    %l = transform.gpu.map_forall_to_blocks %f generate_gpu_launch : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @grid_too_large(%a: memref<65536x65536xf32>, %v: f32) {
    scf.forall (%i, %j) in (65536, 65536) {
      memref.store %v, %a[%i, %j] : memref<65536x65536xf32>
    } {mapping = [#gpu.block<x>, #gpu.block<y>]}
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{Trying to launch a GPU kernel with grid_dims = (65536, 65536, 1) block_dims = (1, 1, 1). It is larger than the limits.}}
    %l = transform.gpu.map_forall_to_blocks %f generate_gpu_launch : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @launch_without_grid_dims(%a: memref<8xf32>, %v: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      scf.forall (%i) in (8) {
        memref.store %v, %a[%i] : memref<8xf32>
      } {mapping = [#gpu.block<x>]}
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{transform require size-3 mapping}}
    %m = transform.gpu.map_forall_to_blocks %l : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @overprovisioned_blocks(%a: memref<9xf32>, %v: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      scf.forall (%i) in (9) {
        memref.store %v, %a[%i] : memref<9xf32>
      } {mapping = [#gpu.block<x>]}
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{Trying to map to fewer GPU threads than loop iterations but overprovisioning is not yet supported. Try additional tiling before mapping or map to more threads.}}
    %m = transform.gpu.map_forall_to_blocks %l grid_dims = [8, 1, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
