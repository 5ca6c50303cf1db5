// RUN: schedir-opt %s --emit ptx | filecheck %s

// `--emit ptx` lowers a payload whose schedule mapped it to blocks and threads with the
// cuda pipeline (sm_90, PTX 8.0) and prints the kernels' PTX; no GPU is needed.
// CHECK: .version 8.0
// CHECK: .target sm_90
// CHECK: .visible .entry scale_kernel(
// CHECK: .maxntid 64, 1, 1
// CHECK: mov.u32 {{.*}}%ctaid.x
// CHECK: mov.u32 {{.*}}%tid.x
// CHECK: ld.global
// CHECK: st.global
module attributes {transform.with_named_sequence} {
  func.func @scale(%a: memref<1000xf32>, %b: memref<1000xf32>) {
    %two = arith.constant 2.0 : f32
    %c1000 = arith.constant 1000 : index
    scf.forall (%blk) in (16) {
      scf.forall (%t) in (64) {
        %i0 = affine.apply affine_map<(d0, d1) -> (d0 * 64 + d1)>(%blk, %t)
        %in = arith.cmpi ult, %i0, %c1000 : index
        scf.if %in {
          %v = memref.load %a[%i0] : memref<1000xf32>
          %w = arith.mulf %v, %two : f32
          memref.store %w, %b[%i0] : memref<1000xf32>
        }
      } {mapping = [#gpu.thread<x>]}
    } {mapping = [#gpu.block<x>]}
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.gpu.map_forall_to_blocks %f generate_gpu_launch : (!transform.any_op) -> !transform.any_op
    %m = transform.gpu.map_nested_forall_to_threads %l block_dims = [64, 1, 1] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
