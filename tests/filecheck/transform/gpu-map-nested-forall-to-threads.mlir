// RUN: schedir-opt %s --mlir-print-local-scope --split-input-file --verify-diagnostics | filecheck %s

// transform.gpu.map_nested_forall_to_threads (upstream: mlir/test/Dialect/GPU/transform-gpu.mlir
// and transform-gpu-failing.mlir, checked against iree-opt 3.13's diagnostics).

// A forall as large as the block: %i (mapped to y) becomes thread_id y, %j thread_id x;
// the launch gets the block sizes and a barrier follows the loop's body.
// CHECK-LABEL: func.func @exact_fit
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}}) threads({{.*}}) in ({{.*}} = %[[C32]], {{.*}} = %[[C8]], {{.*}} = %{{.*}})
// CHECK:           %[[TX:.*]] = gpu.thread_id x
// CHECK:           %[[TY:.*]] = gpu.thread_id y
// CHECK-NOT:       scf.if
// CHECK:           memref.store %{{.*}}, %{{.*}}[%[[TY]], %[[TX]]] : memref<8x32xf32>
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      gpu.terminator
module attributes {transform.with_named_sequence} {
  func.func @exact_fit(%a: memref<8x32xf32>, %v: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      scf.forall (%i, %j) in (8, 32) {
        memref.store %v, %a[%i, %j] : memref<8x32xf32>
      } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.gpu.map_nested_forall_to_threads %l block_dims = [32, 8, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Two sibling foralls smaller than the block are predicated on the thread ids (the
// second one, of size 5 x 1, on x < 5 and y < 1); without sync_after_distribute no
// barrier is added.
// CHECK-LABEL: func.func @predicated_siblings
// CHECK:         %[[TX:.*]] = gpu.thread_id x
// CHECK:         %[[TY:.*]] = gpu.thread_id y
// CHECK:         %[[PX:.*]] = arith.cmpi ult, %[[TX]], %{{.*}} : index
// CHECK:         %[[PY:.*]] = arith.cmpi ult, %[[TY]], %{{.*}} : index
// CHECK:         %[[P:.*]] = arith.andi %[[PX]], %[[PY]] : i1
// CHECK:         scf.if %[[P]] {
// CHECK:           memref.store %{{.*}}, %{{.*}}[%[[TY]], %[[TX]]] : memref<7x9xf32>
// CHECK:         }
// CHECK-NOT:     gpu.barrier
// CHECK:         %[[TX2:.*]] = gpu.thread_id x
// CHECK:         %[[TY2:.*]] = gpu.thread_id y
// CHECK:         %[[QX:.*]] = arith.cmpi ult, %[[TX2]], %{{.*}} : index
// CHECK:         %[[QY:.*]] = arith.cmpi ult, %[[TY2]], %{{.*}} : index
// CHECK:         %[[Q:.*]] = arith.andi %[[QX]], %[[QY]] : i1
// CHECK:         scf.if %[[Q]] {
// CHECK:           memref.store %{{.*}}, %{{.*}}[%[[TX2]]] : memref<5xf32>
// CHECK-NOT:     gpu.barrier
// CHECK:         gpu.terminator
module attributes {transform.with_named_sequence} {
  func.func @predicated_siblings(%a: memref<7x9xf32>, %b: memref<5xf32>, %v: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      scf.forall (%i, %j) in (7, 9) {
        memref.store %v, %a[%i, %j] : memref<7x9xf32>
      } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
      scf.forall (%i) in (5) {
        memref.store %v, %b[%i] : memref<5xf32>
      } {mapping = [#gpu.thread<x>]}
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.gpu.map_nested_forall_to_threads %l block_dims = [32, 8, 1] sync_after_distribute = false : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Warps in 3-D mode: warp x is thread_id x floordiv 32; 2 warps of 64 threads in x are
// all used, so there is no predication.
// CHECK-LABEL: func.func @warps
// CHECK:         %[[TX:.*]] = gpu.thread_id x
// CHECK:         %[[W:.*]] = affine.apply {{.*}}floordiv 32{{.*}}%[[TX]]
// CHECK-NOT:     scf.if
// CHECK:         memref.store %{{.*}}, %{{.*}}[%[[W]]] : memref<2xf32>
module attributes {transform.with_named_sequence} {
  func.func @warps(%a: memref<2xf32>, %v: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      scf.forall (%i) in (2) {
        memref.store %v, %a[%i] : memref<2xf32>
      } {mapping = [#gpu.warp<x>]}
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.gpu.map_nested_forall_to_threads %l block_dims = [64, 1, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Linear thread ids: tx + ty * 16 delinearized over (4, 8) (linear_dim_0 fastest); 32
// of the 64 threads work, predicated on the linear id.
// CHECK-LABEL: func.func @linear_threads
// CHECK:         %[[TX:.*]] = gpu.thread_id x
// CHECK:         %[[TY:.*]] = gpu.thread_id y
// CHECK:         %[[LIN:.*]] = affine.apply {{.*}}(%[[TX]], %[[TY]]{{.*}})
// CHECK:         %[[J:.*]] = affine.apply {{.*}}mod 8{{.*}}(%[[LIN]])
// CHECK:         %[[I:.*]] = affine.apply {{.*}}floordiv 8{{.*}}(%[[LIN]])
// CHECK:         %[[P:.*]] = arith.cmpi ult, %[[LIN]], %{{.*}} : index
// CHECK:         scf.if %[[P]] {
// CHECK:           memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]] : memref<4x8xf32>
module attributes {transform.with_named_sequence} {
  func.func @linear_threads(%a: memref<4x8xf32>, %v: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      scf.forall (%i, %j) in (4, 8) {
        memref.store %v, %a[%i, %j] : memref<4x8xf32>
      } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.gpu.map_nested_forall_to_threads %l block_dims = [16, 4, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @not_a_launch(%a: memref<8xf32>, %v: f32) {
    scf.forall (%i) in (8) {
      memref.store %v, %a[%i] : memref<8xf32>
    } {mapping = [#gpu.thread<x>]}
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{Given target is not a gpu.launch}}
    %m = transform.gpu.map_nested_forall_to_threads %f block_dims = [32, 1, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @too_many_iterations(%a: memref<7x900xf32>, %v: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      scf.forall (%i, %j) in (7, 900) {
        memref.store %v, %a[%i, %j] : memref<7x900xf32>
      } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the number of required parallel resources (blocks or threads) 6300 overflows the number of available resources 512}}
    %m = transform.gpu.map_nested_forall_to_threads %l block_dims = [128, 4, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @block_dims_too_large(%a: memref<8xf32>, %v: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      scf.forall (%i) in (8) {
        memref.store %v, %a[%i] : memref<8xf32>
      } {mapping = [#gpu.thread<x>]}
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{Trying to launch a GPU kernel with grid_dims = (1, 1, 1) block_dims = (1200, 9, 1). It is larger than the limits.}}
    // expected-note @below {{"block_dims" is too large}}
    %m = transform.gpu.map_nested_forall_to_threads %l block_dims = [1200, 9, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @block_mapping_inside_launch(%a: memref<8xf32>, %v: f32) {
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
    // expected-error @below {{scf.forall op requires a mapping attribute of kind 'thread' or 'warp'}}
    %m = transform.gpu.map_nested_forall_to_threads %l block_dims = [32, 1, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @warp_x_not_multiple(%a: memref<2xf32>, %v: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      scf.forall (%i) in (1) {
        memref.store %v, %a[%i] : memref<2xf32>
      } {mapping = [#gpu.warp<x>]}
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{3-D mapping: size of threadIdx.x must be a multiple of 32}}
    %m = transform.gpu.map_nested_forall_to_threads %l block_dims = [48, 1, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @dynamic_trip_count(%a: memref<?xf32>, %n: index, %v: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      scf.forall (%i) in (%n) {
        memref.store %v, %a[%i] : memref<?xf32>
      } {mapping = [#gpu.thread<x>]}
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{requires statically sized, normalized forall op}}
    %m = transform.gpu.map_nested_forall_to_threads %l block_dims = [32, 1, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @mixed_mapping(%a: memref<2x2xf32>, %v: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      scf.forall (%i, %j) in (2, 2) {
        memref.store %v, %a[%i, %j] : memref<2x2xf32>
      } {mapping = [#gpu.thread<x>, #gpu.warp<y>]}
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cannot mix different mapping types, use nesting}}
    %m = transform.gpu.map_nested_forall_to_threads %l block_dims = [64, 2, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A buffer allocated by the block-level code and used by the thread-mapped loops is one
// buffer per block: it is marked for shared memory (schedir.workgroup_buffer, honoured by
// convert-gpu-to-nvvm); a buffer allocated inside a thread loop stays per-thread.
// CHECK-LABEL: func.func @block_buffers
// CHECK:         %[[SHARED:.*]] = memref.alloc() {schedir.workgroup_buffer} : memref<32xf32>
// CHECK:         %[[PRIVATE:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NOT:     schedir.workgroup_buffer
module attributes {transform.with_named_sequence} {
  func.func @block_buffers(%a: memref<32xf32>, %v: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %s = memref.alloc() : memref<32xf32>
      scf.forall (%i) in (32) {
        %p = memref.alloc() : memref<4xf32>
        memref.store %v, %p[%c0] : memref<4xf32>
        %x = memref.load %p[%c0] : memref<4xf32>
        memref.store %x, %s[%i] : memref<32xf32>
      } {mapping = [#gpu.thread<x>]}
      scf.forall (%i) in (32) {
        %x = memref.load %s[%i] : memref<32xf32>
        memref.store %x, %a[%i] : memref<32xf32>
      } {mapping = [#gpu.thread<x>]}
      gpu.terminator
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %l = transform.structured.match ops{["gpu.launch"]} in %root : (!transform.any_op) -> !transform.any_op
    %m = transform.gpu.map_nested_forall_to_threads %l block_dims = [32, 1, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
