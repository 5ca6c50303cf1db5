// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: transform.schedir.nvgpu.rewrite_matmul_as_wgmma is schedir's own extension op; edge tiles and the fused f16 store are its generalizations.

// Edge tiles with an f16 result (M = 1000, N = 40, K = 1016: every tile is partial in N,
// the last in M and K): the matmul reads the whole TMA-loaded tiles (zeros past the
// tensors), the block's f32 temporary (a fused matmul's output) is read through its
// whole-buffer subview, and the elementwise truncf into the f16 output is fused into the
// store of the accumulators, bounded by the output's sizes (cast to dynamic ones: 40 is
// less than the tile's 64 columns); the temporary, its fill, the generic and the edge
// subviews are gone.
// CHECK-LABEL: func.func @edge_f16_out
// CHECK:       gpu.launch
// CHECK-NOT:     memref.alloc(%
// CHECK:         %[[INIT:.*]] = nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x64xf32>>
// CHECK:         %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]])
// CHECK:           %[[WA:.*]] = memref.subview %{{.*}}[0, 0] [128, 64] [1, 1]
// CHECK:           %[[WB:.*]] = memref.subview %{{.*}}[0, 0] [64, 64] [1, 1]
// CHECK:           nvgpu.warpgroup.generate.descriptor %[[WA]]
// CHECK-NEXT:      nvgpu.warpgroup.generate.descriptor %[[WB]]
// CHECK-NEXT:      nvgpu.warpgroup.mma
// CHECK:         %[[OUT:.*]] = memref.subview %{{.*}}[%{{.*}}, 0] [%{{.*}}, 40] [1, 1] : memref<1000x40xf16> to memref<?x40xf16, strided<[40, 1], offset: ?>>
// CHECK-NEXT:    %[[DYN:.*]] = memref.cast %[[OUT]] : memref<?x40xf16, strided<[40, 1], offset: ?>> to memref<?x?xf16, strided<[40, 1], offset: ?>>
// CHECK-NEXT:    nvgpu.warpgroup.mma.store %[[R]], %[[DYN]] : <fragmented = vector<128x64xf32>> to memref<?x?xf16, strided<[40, 1], offset: ?>>
// CHECK-NOT:     linalg.
// CHECK-NOT:     memref.dealloc
// CHECK:         gpu.terminator
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @edge_f16_out(%a: memref<1000x1016xf16>, %b: memref<1016x40xf16>, %out: memref<1000x40xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c1016 = arith.constant 1016 : index
    %zero = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c8, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %m0 = affine.apply affine_map<()[s0] -> (s0 * 128)>()[%by]
      %ms = affine.min affine_map<()[s0] -> (s0 * -128 + 1000, 128)>()[%by]
      %t = memref.alloc(%ms) : memref<?x40xf32>
      linalg.fill ins(%zero : f32) outs(%t : memref<?x40xf32>)
      scf.for %k = %c0 to %c1016 step %c64 {
        %ks = affine.min affine_map<(d0) -> (-d0 + 1016, 64)>(%k)
        %va = memref.subview %a[%m0, %k] [%ms, %ks] [1, 1] : memref<1000x1016xf16> to memref<?x?xf16, strided<[1016, 1], offset: ?>>
        %vb = memref.subview %b[%k, 0] [%ks, 40] [1, 1] : memref<1016x40xf16> to memref<?x40xf16, strided<[40, 1], offset: ?>>
        %tc = memref.subview %t[0, 0] [%ms, 40] [1, 1] : memref<?x40xf32> to memref<?x40xf32, strided<[40, 1]>>
        %ra = memref.alloc() : memref<16384xi8, #gpu.address_space<workgroup>>
        %wa = memref.view %ra[%c0][%c128, %c64] : memref<16384xi8, #gpu.address_space<workgroup>> to memref<?x?xf16, #gpu.address_space<workgroup>>
        %sa = memref.subview %wa[0, 0] [%ms, %ks] [1, 1] : memref<?x?xf16, #gpu.address_space<workgroup>> to memref<?x?xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>
        %rb = memref.alloc() : memref<8192xi8, #gpu.address_space<workgroup>>
        %wb = memref.view %rb[%c0][%c64, %c64] : memref<8192xi8, #gpu.address_space<workgroup>> to memref<?x?xf16, #gpu.address_space<workgroup>>
        %sb = memref.subview %wb[0, 0] [%ks, 40] [1, 1] : memref<?x?xf16, #gpu.address_space<workgroup>> to memref<?x40xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>
        linalg.copy ins(%va : memref<?x?xf16, strided<[1016, 1], offset: ?>>) outs(%sa : memref<?x?xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>)
        linalg.copy ins(%vb : memref<?x40xf16, strided<[40, 1], offset: ?>>) outs(%sb : memref<?x40xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>)
        linalg.matmul ins(%sa, %sb : memref<?x?xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>, memref<?x40xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>)
                      outs(%tc : memref<?x40xf32, strided<[40, 1]>>)
      }
      %vo = memref.subview %out[%m0, 0] [%ms, 40] [1, 1] : memref<1000x40xf16> to memref<?x40xf16, strided<[40, 1], offset: ?>>
      linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                      iterator_types = ["parallel", "parallel"]}
          ins(%t : memref<?x40xf32>) outs(%vo : memref<?x40xf16, strided<[40, 1], offset: ?>>) {
      ^bb0(%x: f32, %o: f16):
        %h = arith.truncf %x : f32 to f16
        linalg.yield %h : f16
      }
      memref.dealloc %t : memref<?x40xf32>
      gpu.terminator
    }
    return
  }
}

// -----

// An edge k size that is not min(64, K - k) (here min(32, K - k)): the MMAs over the
// whole 64-wide k of the tile would add elements past the matmul's; the TMA rewrite
// already refuses the copy, at the copy.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{could not rewrite the copies as TMA loads}}
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @short_k(%a: memref<128x1016xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c1016 = arith.constant 1016 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      scf.for %k = %c0 to %c1016 step %c64 {
        %ks = affine.min affine_map<(d0) -> (-d0 + 1016, 32)>(%k)
        %va = memref.subview %a[0, %k] [128, %ks] [1, 1] : memref<128x1016xf16> to memref<128x?xf16, strided<[1016, 1], offset: ?>>
        %ra = memref.alloc() : memref<16384xi8, #gpu.address_space<workgroup>>
        %wa = memref.view %ra[%c0][%c128, %c64] : memref<16384xi8, #gpu.address_space<workgroup>> to memref<?x?xf16, #gpu.address_space<workgroup>>
        %sa = memref.subview %wa[0, 0] [128, %ks] [1, 1] : memref<?x?xf16, #gpu.address_space<workgroup>> to memref<128x?xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>
        // expected-error @below {{'linalg.copy' op copy of an edge tile (memref<128x?xf16, strided<[1016, 1], offset: ?>> to memref<128x?xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>): the size of dimension 1 is not min(64, 1016 - offset)}}
        linalg.copy ins(%va : memref<128x?xf16, strided<[1016, 1], offset: ?>>) outs(%sa : memref<128x?xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>)
      }
      gpu.terminator
    }
    return
  }
}

// -----

// A bias (broadcast over the rows: read by column) and relu before the rounding: the
// generic's body becomes the store's epilogue region, the bias loaded at the element's
// column, applied to each accumulator in registers; the temporary and the generic go.
// CHECK-LABEL: func.func @edge_bias_relu
// CHECK-SAME:    %[[BIAS:[^:]*]]: memref<40xf16>
// CHECK:       gpu.launch
// CHECK-NOT:     memref.alloc(%
// CHECK:         nvgpu.warpgroup.mma
// CHECK:         nvgpu.warpgroup.mma.store %{{.*}}, %{{.*}} epilogue {
// CHECK-NEXT:    ^bb{{.*}}(%[[X:.*]]: f32, %[[I:.*]]: index, %[[J:.*]]: index):
// CHECK-NEXT:      %[[B:.*]] = memref.load %[[BIAS]][%[[J]]] : memref<40xf16>
// CHECK-NEXT:      %[[BF:.*]] = arith.extf %[[B]] : f16 to f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[X]], %[[BF]] : f32
// CHECK-NEXT:      %[[R:.*]] = arith.maximumf %[[S]], %{{.*}} : f32
// CHECK-NEXT:      %[[H:.*]] = arith.truncf %[[R]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[H]] : f16
// CHECK-NEXT:    } : <fragmented = vector<128x64xf32>> to memref<?x?xf16, strided<[40, 1], offset: ?>>
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     memref.dealloc
// CHECK:         gpu.terminator
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies {swizzle = "swizzle_128b"} : (!transform.any_op) -> ()
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %w = transform.schedir.nvgpu.rewrite_matmul_as_wgmma %mm : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
  func.func @edge_bias_relu(%a: memref<1000x1016xf16>, %b: memref<1016x40xf16>, %bias: memref<40xf16>, %out: memref<1000x40xf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c1016 = arith.constant 1016 : index
    %zero = arith.constant 0.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c8, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %m0 = affine.apply affine_map<()[s0] -> (s0 * 128)>()[%by]
      %ms = affine.min affine_map<()[s0] -> (s0 * -128 + 1000, 128)>()[%by]
      %t = memref.alloc(%ms) : memref<?x40xf32>
      linalg.fill ins(%zero : f32) outs(%t : memref<?x40xf32>)
      scf.for %k = %c0 to %c1016 step %c64 {
        %ks = affine.min affine_map<(d0) -> (-d0 + 1016, 64)>(%k)
        %va = memref.subview %a[%m0, %k] [%ms, %ks] [1, 1] : memref<1000x1016xf16> to memref<?x?xf16, strided<[1016, 1], offset: ?>>
        %vb = memref.subview %b[%k, 0] [%ks, 40] [1, 1] : memref<1016x40xf16> to memref<?x40xf16, strided<[40, 1], offset: ?>>
        %tc = memref.subview %t[0, 0] [%ms, 40] [1, 1] : memref<?x40xf32> to memref<?x40xf32, strided<[40, 1]>>
        %ra = memref.alloc() : memref<16384xi8, #gpu.address_space<workgroup>>
        %wa = memref.view %ra[%c0][%c128, %c64] : memref<16384xi8, #gpu.address_space<workgroup>> to memref<?x?xf16, #gpu.address_space<workgroup>>
        %sa = memref.subview %wa[0, 0] [%ms, %ks] [1, 1] : memref<?x?xf16, #gpu.address_space<workgroup>> to memref<?x?xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>
        %rb = memref.alloc() : memref<8192xi8, #gpu.address_space<workgroup>>
        %wb = memref.view %rb[%c0][%c64, %c64] : memref<8192xi8, #gpu.address_space<workgroup>> to memref<?x?xf16, #gpu.address_space<workgroup>>
        %sb = memref.subview %wb[0, 0] [%ks, 40] [1, 1] : memref<?x?xf16, #gpu.address_space<workgroup>> to memref<?x40xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>
        linalg.copy ins(%va : memref<?x?xf16, strided<[1016, 1], offset: ?>>) outs(%sa : memref<?x?xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>)
        linalg.copy ins(%vb : memref<?x40xf16, strided<[40, 1], offset: ?>>) outs(%sb : memref<?x40xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>)
        linalg.matmul ins(%sa, %sb : memref<?x?xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>, memref<?x40xf16, strided<[?, 1]>, #gpu.address_space<workgroup>>)
                      outs(%tc : memref<?x40xf32, strided<[40, 1]>>)
      }
      %vo = memref.subview %out[%m0, 0] [%ms, 40] [1, 1] : memref<1000x40xf16> to memref<?x40xf16, strided<[40, 1], offset: ?>>
      linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                      iterator_types = ["parallel", "parallel"]}
          ins(%t, %bias : memref<?x40xf32>, memref<40xf16>) outs(%vo : memref<?x40xf16, strided<[40, 1], offset: ?>>) {
      ^bb0(%x: f32, %bv: f16, %o: f16):
        %bf = arith.extf %bv : f16 to f32
        %s = arith.addf %x, %bf : f32
        %r = arith.maximumf %s, %zero : f32
        %h = arith.truncf %r : f32 to f16
        linalg.yield %h : f16
      }
      memref.dealloc %t : memref<?x40xf32>
      gpu.terminator
    }
    return
  }
}

