// UPSTREAM-LACKS: schedir extends the op (f32 accumulation of f16/bf16, warp tiles of several mma tiles, gpu.lane_id, bounded dynamic sizes); upstream refuses or rewrites these differently.
// RUN: schedir-opt %s --split-input-file --verify-diagnostics -p canonicalize,cse | filecheck %s

// One m16n8k16 tile, f16 x f16 -> f32 (an extension: upstream accumulates f16 only):
// each lane loads its 8 A, 4 B and 4 C elements at the PTX fragment positions (g = lane
// / 4, t = lane % 4), one mma.sync, 4 stores.
// CHECK-LABEL: func.func @one_tile
// CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:   %[[C8:.*]] = arith.constant 8 : index
// CHECK:       %[[LANE:.*]] = gpu.lane_id
// CHECK:       %[[G:.*]] = arith.divui %[[LANE]], %[[C4]] : index
// CHECK:       %[[T:.*]] = arith.remui %[[LANE]], %[[C4]] : index
// CHECK:       %[[T2:.*]] = arith.muli %[[T]], %{{.*}} : index
// CHECK:       %[[C00:.*]] = memref.load %[[CM:.*]][%[[G]], %[[T2]]] : memref<16x8xf32>
// CHECK:       %[[T21:.*]] = arith.addi %[[T2]], %[[C1]] : index
// CHECK:       memref.load %[[CM]][%[[G]], %[[T21]]]
// CHECK:       %[[G8:.*]] = arith.addi %[[G]], %[[C8]] : index
// CHECK:       memref.load %[[CM]][%[[G8]], %[[T2]]]
// CHECK:       memref.load %[[CM]][%[[G8]], %[[T21]]]
// CHECK:       %[[FC:.*]] = vector.from_elements {{.*}} : vector<2x2xf32>
// A: registers (g, 2t), (g + 8, 2t), (g, 2t + 8), (g + 8, 2t + 8), two halves each.
// CHECK:       memref.load %[[A:.*]][%[[G]], %[[T2]]] : memref<16x16xf16>
// CHECK:       memref.load %[[A]][%[[G]], %[[T21]]]
// CHECK:       memref.load %[[A]][%[[G8]], %[[T2]]]
// CHECK:       memref.load %[[A]][%[[G8]], %[[T21]]]
// CHECK:       %[[T28:.*]] = arith.addi %[[T2]], %[[C8]] : index
// CHECK:       memref.load %[[A]][%[[G]], %[[T28]]]
// CHECK:       %[[T29:.*]] = arith.addi %[[T2]], %{{.*}} : index
// CHECK:       memref.load %[[A]][%[[G]], %[[T29]]]
// CHECK:       memref.load %[[A]][%[[G8]], %[[T28]]]
// CHECK:       memref.load %[[A]][%[[G8]], %[[T29]]]
// CHECK:       %[[FA:.*]] = vector.from_elements {{.*}} : vector<4x2xf16>
// B: k = 2t + {0, 1} (+ 8) at column g.
// CHECK:       memref.load %[[B:.*]][%[[T2]], %[[G]]] : memref<16x8xf16>
// CHECK:       memref.load %[[B]][%[[T21]], %[[G]]]
// CHECK:       memref.load %[[B]][%[[T28]], %[[G]]]
// CHECK:       memref.load %[[B]][%[[T29]], %[[G]]]
// CHECK:       %[[FB:.*]] = vector.from_elements {{.*}} : vector<2x2xf16>
// CHECK:       %[[D:.*]] = nvgpu.mma.sync(%[[FA]], %[[FB]], %[[FC]]) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK:       %[[D00:.*]] = vector.extract %[[D]][0, 0] : f32 from vector<2x2xf32>
// CHECK:       memref.store %[[D00]], %[[CM]][%[[G]], %[[T2]]]
// CHECK-COUNT-3: memref.store
// CHECK-NOT:   linalg.matmul
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @one_tile(%a: memref<16x16xf16>, %b: memref<16x8xf16>, %c: memref<16x8xf32>) {
    linalg.matmul ins(%a, %b : memref<16x16xf16>, memref<16x8xf16>) outs(%c : memref<16x8xf32>)
    return
  }
}

// -----

// Upstream's cases: f16 accumulators, and f32 operands as tf32 m16n8k4 (A 2x1, B 1x1).
// CHECK-LABEL: func.func @f16_acc
// CHECK:       nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
// CHECK-LABEL: func.func @tf32
// CHECK:       %[[LANE:.*]] = gpu.lane_id
// CHECK:       %[[G:.*]] = arith.divui %[[LANE]]
// CHECK:       %[[T:.*]] = arith.remui %[[LANE]]
// C's columns are 2t, A's and B's t.
// CHECK:       %[[T2:.*]] = arith.muli %[[T]]
// CHECK:       memref.load %{{.*}}[%[[G]], %[[T2]]] : memref<16x8xf32>
// CHECK:       memref.load %{{.*}}[%[[G]], %[[T]]] : memref<16x4xf32>
// CHECK:       vector.from_elements %{{.*}}, %{{.*}} : vector<2x1xf32>
// CHECK:       memref.load %{{.*}}[%[[T]], %[[G]]] : memref<4x8xf32>
// CHECK:       nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) mmaShape = [16, 8, 4] tf32Enabled : (vector<2x1xf32>, vector<1x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @f16_acc(%a: memref<16x16xf16>, %b: memref<16x8xf16>, %c: memref<16x8xf16>) {
    linalg.matmul ins(%a, %b : memref<16x16xf16>, memref<16x8xf16>) outs(%c : memref<16x8xf16>)
    return
  }
  func.func @tf32(%a: memref<16x4xf32>, %b: memref<4x8xf32>, %c: memref<16x8xf32>) {
    linalg.matmul ins(%a, %b : memref<16x4xf32>, memref<4x8xf32>) outs(%c : memref<16x8xf32>)
    return
  }
}

// -----

// A 32x16x32 bf16 warp tile: 2 x 2 tiles of C, each accumulating over 2 k tiles.
// CHECK-LABEL: func.func @warp_tile
// CHECK-COUNT-8: nvgpu.mma.sync({{.*}}) mmaShape = [16, 8, 16] : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT:   nvgpu.mma.sync
// CHECK-COUNT-16: memref.store
// CHECK-NOT:   memref.store
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @warp_tile(%a: memref<32x32xbf16, 3>, %b: memref<32x16xbf16, 3>, %c: memref<32x16xf32>) {
    linalg.matmul ins(%a, %b : memref<32x32xbf16, 3>, memref<32x16xbf16, 3>) outs(%c : memref<32x16xf32>)
    return
  }
}

// -----

// In a k loop, with C (and the view it is) independent of the loop: the C fragments are
// loaded before the loop, carried as iter_args and stored after it. A's rows are an edge
// tile (at most 16, bounded by affine.min): its elements past the rows load as 0 (in an
// scf.if: an empty view's base may lie past the buffer) and C's are not stored.
// CHECK-LABEL: func.func @k_loop
// CHECK:       %[[M:.*]] = affine.min
// CHECK:       %[[VC:.*]] = memref.subview %{{.*}}[%{{.*}}, 0] [%[[M]], 8] [1, 1]
// CHECK:       %[[G:.*]] = arith.divui
// CHECK:       %[[IN:.*]] = arith.cmpi ult, %[[G]], %[[M]] : index
// CHECK:       scf.if %[[IN]] -> (f32) {
// CHECK-NEXT:    memref.load %[[VC]]
// CHECK:       %[[C0:.*]] = vector.from_elements {{.*}} : vector<2x2xf32>
// CHECK:       %[[ACC:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[CARRIED:.*]] = %[[C0]]) -> (vector<2x2xf32>) {
// CHECK:         scf.if %[[IN]] -> (f16) {
// CHECK-NEXT:      memref.load %{{.*}} : memref<?x16xf16
// CHECK:         %[[D:.*]] = nvgpu.mma.sync(%{{.*}}, %{{.*}}, %[[CARRIED]])
// CHECK-NEXT:    scf.yield %[[D]] : vector<2x2xf32>
// CHECK:       %[[E:.*]] = vector.extract %[[ACC]][0, 0]
// CHECK-NEXT:  scf.if %[[IN]] {
// CHECK-NEXT:    memref.store %[[E]], %[[VC]]
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @k_loop(%a: memref<64x256xf16, 3>, %b: memref<256x8xf16, 3>, %c: memref<64x8xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %warp = gpu.thread_id y
    scf.for %k = %c0 to %c256 step %c16 {
      %m = affine.min affine_map<()[s0] -> (16, s0)>()[%n]
      %row = affine.apply affine_map<()[s0] -> (s0 * 16)>()[%warp]
      %va = memref.subview %a[%row, %k] [%m, 16] [1, 1] : memref<64x256xf16, 3> to memref<?x16xf16, strided<[256, 1], offset: ?>, 3>
      %vb = memref.subview %b[%k, 0] [16, 8] [1, 1] : memref<256x8xf16, 3> to memref<16x8xf16, strided<[8, 1], offset: ?>, 3>
      %vc = memref.subview %c[%row, 0] [%m, 8] [1, 1] : memref<64x8xf32> to memref<?x8xf32, strided<[8, 1], offset: ?>>
      linalg.matmul ins(%va, %vb : memref<?x16xf16, strided<[256, 1], offset: ?>, 3>, memref<16x8xf16, strided<[8, 1], offset: ?>, 3>)
                    outs(%vc : memref<?x8xf32, strided<[8, 1], offset: ?>>)
    }
    return
  }
}

// -----

// C is read in the loop besides the matmul: it stays in memory (loaded and stored around
// each mma.sync in the loop).
// CHECK-LABEL: func.func @c_used_in_loop
// CHECK:       scf.for
// CHECK:         memref.load %{{.*}} : memref<16x8xf32>
// CHECK:         nvgpu.mma.sync
// CHECK:         memref.store %{{.*}} : memref<16x8xf32>
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @c_used_in_loop(%a: memref<16x16xf16>, %b: memref<16x8xf16>, %c: memref<16x8xf32>, %o: memref<4x16x8xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      linalg.matmul ins(%a, %b : memref<16x16xf16>, memref<16x8xf16>) outs(%c : memref<16x8xf32>)
      %slice = memref.subview %o[%i, 0, 0] [1, 16, 8] [1, 1, 1] : memref<4x16x8xf32> to memref<16x8xf32, strided<[8, 1], offset: ?>>
      memref.copy %c, %slice : memref<16x8xf32> to memref<16x8xf32, strided<[8, 1], offset: ?>>
    }
    return
  }
}

// -----

// Operands in shared memory: A through ldmatrix x4 (lane l at row l % 16, column
// 8 (l / 16)), B (k-major, 16x16: two n tiles) through one ldmatrix x4 .trans split into
// two fragments, under a warp-uniform check of the row addresses' 16-byte alignment (both
// checks first, then a k tile's fragments); the element loads in the other branch.
// CHECK-LABEL: func.func @shared_operands
// CHECK:       %[[LANE:.*]] = gpu.lane_id
// CHECK:       memref.extract_strided_metadata %{{.*}} : memref<16x16xf16, 3{{.*}}>
// CHECK:       memref.extract_aligned_pointer_as_index
// CHECK:       %[[OK:.*]] = arith.andi
// CHECK-NEXT:  %[[OK2:.*]] = arith.andi %[[OK]]
// CHECK:       memref.extract_strided_metadata %{{.*}} : memref<16x16xf16, 3{{.*}}>
// CHECK:       scf.if %[[OK2]] -> (vector<4x2xf16>) {
// CHECK:         %[[ROW:.*]] = arith.remui %[[LANE]], %{{.*}} : index
// CHECK:         %[[HALF:.*]] = arith.divui %[[LANE]], %{{.*}} : index
// CHECK:         %[[COL:.*]] = arith.muli %[[HALF]], %{{.*}} : index
// CHECK:         nvgpu.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}] numTiles = 4 transpose = false : memref<16x16xf16, 3{{.*}}> -> vector<4x2xf16>
// CHECK:       } else {
// CHECK-COUNT-8: memref.load
// CHECK:       scf.if %{{.*}} -> (vector<2x2xf16>, vector<2x2xf16>) {
// CHECK:         %[[PAIR:.*]] = nvgpu.ldmatrix %{{.*}}[%{{.*}}, %{{.*}}] numTiles = 4 transpose = true : memref<16x16xf16, 3{{.*}}> -> vector<4x2xf16>
// CHECK:         vector.extract %[[PAIR]][0]
// CHECK:         vector.extract %[[PAIR]][1]
// CHECK:         vector.extract %[[PAIR]][2]
// CHECK:         vector.extract %[[PAIR]][3]
// CHECK:       } else {
// CHECK-COUNT-8: memref.load
// CHECK-COUNT-2: nvgpu.mma.sync
// CHECK-NOT:   nvgpu.mma.sync
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @shared_operands(%a: memref<16x16xf16, 3>, %b: memref<16x16xf16, 3>, %c: memref<16x16xf32>) {
    linalg.matmul ins(%a, %b : memref<16x16xf16, 3>, memref<16x16xf16, 3>) outs(%c : memref<16x16xf32>)
    return
  }
}

// -----

// C filled with a constant right before the k loop (a barrier and index code between; the
// fill's view and C's are distinct subviews at offsets that compute the same, one
// affine.apply on a dim, the other on a symbol): the accumulators start as the constant,
// the fill goes and C is not loaded (the stores after the loop write every element the
// fill wrote). An edge tile (rows bounded by affine.min) keeps its masked stores.
// CHECK-LABEL: func.func @filled
// CHECK-NOT:   linalg.fill
// CHECK-NOT:   memref.load %{{.*}} : memref<?x8xf32
// CHECK:       %[[C0:.*]] = arith.constant dense<1.500000e+00> : vector<2x2xf32>
// CHECK:       %[[ACC:.*]] = scf.for %{{.*}} iter_args(%[[CARRIED:.*]] = %[[C0]]) -> (vector<2x2xf32>) {
// CHECK:         nvgpu.mma.sync(%{{.*}}, %{{.*}}, %[[CARRIED]])
// CHECK:       %[[E:.*]] = vector.extract %[[ACC]][0, 0]
// CHECK:       scf.if %{{.*}} {
// CHECK-NEXT:    memref.store %[[E]]
// CHECK-NOT:   linalg.fill
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @filled(%a: memref<64x256xf16, 3>, %b: memref<256x8xf16, 3>, %c: memref<64x8xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %init = arith.constant 1.5 : f32
    %warp = gpu.thread_id y
    %m0 = affine.min affine_map<()[s0] -> (16, s0)>()[%n]
    %row0 = affine.apply affine_map<()[s0] -> (s0 * 16)>()[%warp]
    %vf = memref.subview %c[%row0, 0] [%m0, 8] [1, 1] : memref<64x8xf32> to memref<?x8xf32, strided<[8, 1], offset: ?>>
    linalg.fill ins(%init : f32) outs(%vf : memref<?x8xf32, strided<[8, 1], offset: ?>>)
    gpu.barrier
    scf.for %k = %c0 to %c256 step %c16 {
      %m = affine.min affine_map<()[s0] -> (16, s0)>()[%n]
      %row = affine.apply affine_map<(d0) -> (d0 * 16)>(%warp)
      %va = memref.subview %a[%row, %k] [%m, 16] [1, 1] : memref<64x256xf16, 3> to memref<?x16xf16, strided<[256, 1], offset: ?>, 3>
      %vb = memref.subview %b[%k, 0] [16, 8] [1, 1] : memref<256x8xf16, 3> to memref<16x8xf16, strided<[8, 1], offset: ?>, 3>
      %vc = memref.subview %c[%row, 0] [%m, 8] [1, 1] : memref<64x8xf32> to memref<?x8xf32, strided<[8, 1], offset: ?>>
      linalg.matmul ins(%va, %vb : memref<?x16xf16, strided<[256, 1], offset: ?>, 3>, memref<16x8xf16, strided<[8, 1], offset: ?>, 3>)
                    outs(%vc : memref<?x8xf32, strided<[8, 1], offset: ?>>)
    }
    return
  }
}

// -----

// The filled memory is read before the loop (or the fill covers other rows): the fill
// stays and C's fragments are loaded.
// CHECK-LABEL: func.func @filled_and_read
// CHECK:       linalg.fill
// CHECK:       memref.copy
// CHECK:       memref.load %{{.*}} : memref<16x8xf32
// CHECK:       scf.for
// CHECK-LABEL: func.func @filled_elsewhere
// CHECK:       linalg.fill
// CHECK:       memref.load %{{.*}} : memref<16x8xf32
// CHECK:       scf.for
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %mm : (!transform.any_op) -> ()
    transform.yield
  }
  func.func @filled_and_read(%a: memref<16x256xf16>, %b: memref<256x8xf16>, %c: memref<32x8xf32>, %o: memref<16x8xf32>) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %vf = memref.subview %c[0, 0] [16, 8] [1, 1] : memref<32x8xf32> to memref<16x8xf32, strided<[8, 1]>>
    linalg.fill ins(%zero : f32) outs(%vf : memref<16x8xf32, strided<[8, 1]>>)
    memref.copy %vf, %o : memref<16x8xf32, strided<[8, 1]>> to memref<16x8xf32>
    %vc = memref.subview %c[0, 0] [16, 8] [1, 1] : memref<32x8xf32> to memref<16x8xf32, strided<[8, 1]>>
    scf.for %k = %c0 to %c256 step %c16 {
      %va = memref.subview %a[0, %k] [16, 16] [1, 1] : memref<16x256xf16> to memref<16x16xf16, strided<[256, 1], offset: ?>>
      %vb = memref.subview %b[%k, 0] [16, 8] [1, 1] : memref<256x8xf16> to memref<16x8xf16, strided<[8, 1], offset: ?>>
      linalg.matmul ins(%va, %vb : memref<16x16xf16, strided<[256, 1], offset: ?>>, memref<16x8xf16, strided<[8, 1], offset: ?>>)
                    outs(%vc : memref<16x8xf32, strided<[8, 1]>>)
    }
    return
  }
  func.func @filled_elsewhere(%a: memref<16x256xf16>, %b: memref<256x8xf16>, %c: memref<32x8xf32>) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %vf = memref.subview %c[16, 0] [16, 8] [1, 1] : memref<32x8xf32> to memref<16x8xf32, strided<[8, 1], offset: 128>>
    linalg.fill ins(%zero : f32) outs(%vf : memref<16x8xf32, strided<[8, 1], offset: 128>>)
    %vc = memref.subview %c[0, 0] [16, 8] [1, 1] : memref<32x8xf32> to memref<16x8xf32, strided<[8, 1]>>
    scf.for %k = %c0 to %c256 step %c16 {
      %va = memref.subview %a[0, %k] [16, 16] [1, 1] : memref<16x256xf16> to memref<16x16xf16, strided<[256, 1], offset: ?>>
      %vb = memref.subview %b[%k, 0] [16, 8] [1, 1] : memref<256x8xf16> to memref<16x8xf16, strided<[8, 1], offset: ?>>
      linalg.matmul ins(%va, %vb : memref<16x16xf16, strided<[256, 1], offset: ?>>, memref<16x8xf16, strided<[8, 1], offset: ?>>)
                    outs(%vc : memref<16x8xf32, strided<[8, 1]>>)
    }
    return
  }
}
