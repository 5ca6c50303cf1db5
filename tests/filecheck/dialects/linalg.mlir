// RUN: %roundtrip | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: func.func @contractions
func.func @contractions(%a: tensor<4x8xf32>, %b: tensor<8x5xf32>, %c: tensor<4x5xf32>, %bt: tensor<5x8xf32>, %at: tensor<8x4xf32>,
                        %x: tensor<8xf32>, %y: tensor<4xf32>, %s: tensor<f32>,
                        %ba: tensor<2x4x8xf32>, %bb: tensor<2x8x5xf32>, %bc: tensor<2x4x5xf32>, %ct0: tensor<5x4xf32>) {
  // CHECK: %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  // Default maps written out are not printed back.
  // CHECK: %1 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  %1 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  // Transposed B and transposed A.
  // CHECK: %2 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %bt : tensor<4x8xf32>, tensor<5x8xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  %2 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %bt : tensor<4x8xf32>, tensor<5x8xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  // CHECK: %3 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%at, %b : tensor<8x4xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  %3 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%at, %b : tensor<8x4xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  // Broadcast A (only the reduction dimension) and transposed C, as upstream allows.
  // CHECK: %bcast = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %b : tensor<8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  %bcast = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %b : tensor<8xf32>, tensor<8x5xf32>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  // CHECK: %ct = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d1, d0)>] ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%ct0 : tensor<5x4xf32>) -> tensor<5x4xf32>
  %ct = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d1, d0)>] ins(%a, %b : tensor<4x8xf32>, tensor<8x5xf32>) outs(%ct0 : tensor<5x4xf32>) -> tensor<5x4xf32>
  // CHECK: %4 = linalg.batch_matmul ins(%ba, %bb : tensor<2x4x8xf32>, tensor<2x8x5xf32>) outs(%bc : tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
  %4 = linalg.batch_matmul ins(%ba, %bb : tensor<2x4x8xf32>, tensor<2x8x5xf32>) outs(%bc : tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
  // CHECK: %5 = linalg.matvec ins(%a, %x : tensor<4x8xf32>, tensor<8xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  %5 = linalg.matvec ins(%a, %x : tensor<4x8xf32>, tensor<8xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  // CHECK: %6 = linalg.vecmat ins(%y, %a : tensor<4xf32>, tensor<4x8xf32>) outs(%x : tensor<8xf32>) -> tensor<8xf32>
  %6 = linalg.vecmat ins(%y, %a : tensor<4xf32>, tensor<4x8xf32>) outs(%x : tensor<8xf32>) -> tensor<8xf32>
  // CHECK: %7 = linalg.dot ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%s : tensor<f32>) -> tensor<f32>
  %7 = linalg.dot ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%s : tensor<f32>) -> tensor<f32>
  return
}

// Mixed precision and casts.

// CHECK-LABEL: func.func @mixed_precision
func.func @mixed_precision(%a: tensor<4x8xf16>, %b: tensor<8x5xf16>, %c: tensor<4x5xf32>,
                           %ab: tensor<4x8xbf16>, %bb: tensor<8x5xbf16>,
                           %ai: tensor<4x8xi8>, %bi: tensor<8x5xi8>, %ci: tensor<4x5xi32>, %cl: tensor<4x5xi64>,
                           %ad: tensor<4x8xf64>, %bd: tensor<8x5xf64>, %cd: tensor<4x5xf64>,
                           %p: tensor<4x8xi1>, %q: tensor<8x5xi1>, %r: tensor<4x5xi1>) {
  // CHECK: linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x5xf16>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x5xf16>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  // CHECK: linalg.matmul ins(%ab, %bb : tensor<4x8xbf16>, tensor<8x5xbf16>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  %1 = linalg.matmul ins(%ab, %bb : tensor<4x8xbf16>, tensor<8x5xbf16>) outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>
  // CHECK: linalg.matmul ins(%ai, %bi : tensor<4x8xi8>, tensor<8x5xi8>) outs(%ci : tensor<4x5xi32>) -> tensor<4x5xi32>
  %2 = linalg.matmul ins(%ai, %bi : tensor<4x8xi8>, tensor<8x5xi8>) outs(%ci : tensor<4x5xi32>) -> tensor<4x5xi32>
  // CHECK: linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%ai, %bi : tensor<4x8xi8>, tensor<8x5xi8>) outs(%cl : tensor<4x5xi64>) -> tensor<4x5xi64>
  %3 = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%ai, %bi : tensor<4x8xi8>, tensor<8x5xi8>) outs(%cl : tensor<4x5xi64>) -> tensor<4x5xi64>
  // CHECK: linalg.matmul {cast = #linalg.type_fn<cast_signed>} ins(%ad, %bd : tensor<4x8xf64>, tensor<8x5xf64>) outs(%cd : tensor<4x5xf64>) -> tensor<4x5xf64>
  %4 = linalg.matmul {cast = #linalg.type_fn<cast_signed>} ins(%ad, %bd : tensor<4x8xf64>, tensor<8x5xf64>) outs(%cd : tensor<4x5xf64>) -> tensor<4x5xf64>
  // CHECK: linalg.matmul ins(%p, %q : tensor<4x8xi1>, tensor<8x5xi1>) outs(%r : tensor<4x5xi1>) -> tensor<4x5xi1>
  %5 = linalg.matmul ins(%p, %q : tensor<4x8xi1>, tensor<8x5xi1>) outs(%r : tensor<4x5xi1>) -> tensor<4x5xi1>
  return
}

// CHECK-LABEL: func.func @fill_copy
func.func @fill_copy(%t: tensor<4x8xf32>, %f: f32, %i: i32, %ti: tensor<4xi32>, %m: memref<4x8xf32>, %h: tensor<4x8xf16>) {
  // CHECK: %0 = linalg.fill ins(%f : f32) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = linalg.fill ins(%f : f32) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: %1 = linalg.fill ins(%i : i32) outs(%ti : tensor<4xi32>) -> tensor<4xi32>
  %1 = linalg.fill ins(%i : i32) outs(%ti : tensor<4xi32>) -> tensor<4xi32>
  // Buffer semantics: no result.
  // CHECK: linalg.fill ins(%f : f32) outs(%m : memref<4x8xf32>){{$}}
  linalg.fill ins(%f : f32) outs(%m : memref<4x8xf32>)
  // CHECK: %2 = linalg.copy ins(%t : tensor<4x8xf32>) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = linalg.copy ins(%t : tensor<4x8xf32>) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: %3 = linalg.copy {tag} ins(%h : tensor<4x8xf16>) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = linalg.copy {tag} ins(%h : tensor<4x8xf16>) outs(%t : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.copy ins(%m : memref<4x8xf32>) outs(%m : memref<4x8xf32>){{$}}
  linalg.copy ins(%m : memref<4x8xf32>) outs(%m : memref<4x8xf32>)
  return
}

// CHECK-LABEL: func.func @generic
func.func @generic(%a: tensor<4x8xf32>, %r: tensor<4xf32>, %d: tensor<?x?xf32>) -> (tensor<4x8xf32>, tensor<4xf32>) {
  // CHECK:      %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {
  // CHECK-NEXT: ^bb0(%x: f32, %y: f32):
  // CHECK-NEXT:   %i = linalg.index 0 : index
  // CHECK-NEXT:   %ii = arith.index_cast %i : index to i32
  // CHECK-NEXT:   %fi = arith.sitofp %ii : i32 to f32
  // CHECK-NEXT:   %z = arith.addf %x, %fi : f32
  // CHECK-NEXT:   linalg.yield %z : f32
  // CHECK-NEXT: } -> tensor<4x8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %z = arith.addf %x, %fi : f32
    linalg.yield %z : f32
  } -> tensor<4x8xf32>
  // CHECK: %1 = linalg.generic {doc = "row sums", indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], library_call = "row_sum"} ins(%a : tensor<4x8xf32>) outs(%r : tensor<4xf32>) attrs = {tag = 1 : i32} {
  // CHECK: } -> tensor<4xf32>
  %1 = linalg.generic {doc = "row sums", indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"], library_call = "row_sum"} ins(%a : tensor<4x8xf32>) outs(%r : tensor<4xf32>) attrs = {tag = 1 : i32} {
  ^bb0(%x: f32, %acc: f32):
    %z = arith.addf %acc, %x : f32
    linalg.yield %z : f32
  } -> tensor<4xf32>
  // Two results, printed as a parenthesized list.
  // CHECK: %{{.*}}:2 = linalg.generic
  // CHECK: } -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %2:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%a, %a : tensor<4x8xf32>, tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %w: f32):
    linalg.yield %x, %x : f32, f32
  } -> (tensor<4x8xf32>, tensor<4x8xf32>)
  // Dynamic shapes.
  // CHECK: linalg.generic {{.*}} ins(%d : tensor<?x?xf32>) outs(%d : tensor<?x?xf32>) {
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%d : tensor<?x?xf32>) outs(%d : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<?x?xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @shape_ops
func.func @shape_ops(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %r: tensor<4xf32>, %m: memref<4x8xf32>, %mt: memref<8x4xf32>) {
  // CHECK: %0 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%b : tensor<8x4xf32>) permutation = [1, 0]
  %0 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%b : tensor<8x4xf32>) permutation = [1, 0]
  // CHECK: linalg.transpose ins(%m : memref<4x8xf32>) outs(%mt : memref<8x4xf32>) permutation = [1, 0]
  linalg.transpose ins(%m : memref<4x8xf32>) outs(%mt : memref<8x4xf32>) permutation = [1, 0]
  // CHECK: %1 = linalg.broadcast ins(%r : tensor<4xf32>) outs(%a : tensor<4x8xf32>) dimensions = [1]
  %1 = linalg.broadcast ins(%r : tensor<4xf32>) outs(%a : tensor<4x8xf32>) dimensions = [1]
  return
}

// CHECK-LABEL: func.func @reduce_map
func.func @reduce_map(%a: tensor<4x8xf32>, %r: tensor<4xf32>, %ai: tensor<4x8xi32>, %ri: tensor<8xi32>, %b: tensor<4x8xf32>) {
  // Short forms.
  // CHECK: %0 = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf32>) outs(%r : tensor<4xf32>) dimensions = [1]
  %0 = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf32>) outs(%r : tensor<4xf32>) dimensions = [1]
  // CHECK: %1 = linalg.reduce { arith.maxsi } ins(%ai : tensor<4x8xi32>) outs(%ri : tensor<8xi32>) dimensions = [0]
  %1 = linalg.reduce { arith.maxsi } ins(%ai : tensor<4x8xi32>) outs(%ri : tensor<8xi32>) dimensions = [0]
  // CHECK: %2 = linalg.reduce { arith.addf {fastmath = #arith.fastmath<fast>} } ins(%a : tensor<4x8xf32>) outs(%r : tensor<4xf32>) dimensions = [1]
  %2 = linalg.reduce { arith.addf {fastmath = #arith.fastmath<fast>} } ins(%a : tensor<4x8xf32>) outs(%r : tensor<4xf32>) dimensions = [1]
  // A body in (init, input) order is the short form; another body is printed in full.
  // CHECK: %3 = linalg.reduce { arith.maximumf } ins(%a : tensor<4x8xf32>) outs(%r : tensor<4xf32>) dimensions = [1]
  %3 = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%r : tensor<4xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %m = arith.maximumf %init, %in : f32
      linalg.yield %m : f32
    }
  // CHECK:      %4 = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%r : tensor<4xf32>) dimensions = [1]
  // CHECK-NEXT:   ([[IN:%.+]]: f32, [[INIT:%.+]]: f32) {
  // CHECK-NEXT:     [[M:%.+]] = arith.maximumf [[IN]], [[INIT]] : f32
  // CHECK-NEXT:     linalg.yield [[M]] : f32
  // CHECK-NEXT:   }
  %4 = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%r : tensor<4xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %m = arith.maximumf %in, %init : f32
      linalg.yield %m : f32
    }
  // CHECK: %5 = linalg.map { arith.addf } ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>)
  %5 = linalg.map { arith.addf } ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>)
  // CHECK: %6 = linalg.map { math.exp } ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>)
  %6 = linalg.map { math.exp } ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>)
  // CHECK:      %7 = linalg.map ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>)
  // CHECK-NEXT:   (%x: f32, %y: f32, %out: f32) {
  // CHECK-NEXT:     %s = arith.subf %y, %x : f32
  // CHECK-NEXT:     linalg.yield %s : f32
  // CHECK-NEXT:   }
  %7 = linalg.map ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>)
    (%x: f32, %y: f32, %out: f32) {
      %s = arith.subf %y, %x : f32
      linalg.yield %s : f32
    }
  return
}

// CHECK-LABEL: func.func @softmax
func.func @softmax(%a: tensor<4x8xf32>, %h: tensor<2x?x8xf16>) -> (tensor<4x8xf32>, tensor<2x?x8xf16>) {
  // CHECK: %0 = linalg.softmax dimension(1) ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = linalg.softmax dimension(1) ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: %1 = linalg.softmax dimension(2) ins(%h : tensor<2x?x8xf16>) outs(%h : tensor<2x?x8xf16>) -> tensor<2x?x8xf16>
  %1 = linalg.softmax dimension(2) ins(%h : tensor<2x?x8xf16>) outs(%h : tensor<2x?x8xf16>) -> tensor<2x?x8xf16>
  return %0, %1 : tensor<4x8xf32>, tensor<2x?x8xf16>
}

// CHECK-LABEL: func.func @convolutions
func.func @convolutions(%i: tensor<1x10x10x3xf32>, %k: tensor<3x3x3x8xf32>, %o: tensor<1x8x8x8xf32>, %o2: tensor<1x4x4x8xf32>,
                        %i2: tensor<1x3x10x10xf32>, %k2: tensor<8x3x3x3xf32>, %w: tensor<3x3xf32>, %o3: tensor<1x3x8x8xf32>,
                        %kf: tensor<8x3x3x3xf32>, %ih: tensor<1x10x10x3xf16>, %kh: tensor<3x3x3x8xf16>,
                        %kd: tensor<3x3x3xf32>, %od: tensor<1x4x4x3xf32>, %on: tensor<1x8x8x3xf32>) {
  // CHECK: linalg.conv_2d_nhwc_hwcf ins(%i, %k : tensor<1x10x10x3xf32>, tensor<3x3x3x8xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %0 = linalg.conv_2d_nhwc_hwcf ins(%i, %k : tensor<1x10x10x3xf32>, tensor<3x3x3x8xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  // CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %k : tensor<1x10x10x3xf32>, tensor<3x3x3x8xf32>) outs(%o2 : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %k : tensor<1x10x10x3xf32>, tensor<3x3x3x8xf32>) outs(%o2 : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  // CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 3]> : tensor<2xi64>} ins(%i, %k : tensor<1x10x10x3xf32>, tensor<3x3x3x8xf32>) outs(%o2 : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 3]> : tensor<2xi64>} ins(%i, %k : tensor<1x10x10x3xf32>, tensor<3x3x3x8xf32>) outs(%o2 : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  // CHECK: linalg.conv_2d_nhwc_hwcf ins(%ih, %kh : tensor<1x10x10x3xf16>, tensor<3x3x3x8xf16>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %3 = linalg.conv_2d_nhwc_hwcf ins(%ih, %kh : tensor<1x10x10x3xf16>, tensor<3x3x3x8xf16>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  // CHECK: linalg.conv_2d_nhwc_fhwc ins(%i, %kf : tensor<1x10x10x3xf32>, tensor<8x3x3x3xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %4 = linalg.conv_2d_nhwc_fhwc ins(%i, %kf : tensor<1x10x10x3xf32>, tensor<8x3x3x3xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  // CHECK: linalg.conv_2d_nchw_fchw ins(%i2, %k2 : tensor<1x3x10x10xf32>, tensor<8x3x3x3xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %5 = linalg.conv_2d_nchw_fchw ins(%i2, %k2 : tensor<1x3x10x10xf32>, tensor<8x3x3x3xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  // CHECK: linalg.pooling_nchw_max ins(%i2, %w : tensor<1x3x10x10xf32>, tensor<3x3xf32>) outs(%o3 : tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %6 = linalg.pooling_nchw_max ins(%i2, %w : tensor<1x3x10x10xf32>, tensor<3x3xf32>) outs(%o3 : tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: linalg.pooling_nchw_sum ins(%i2, %w : tensor<1x3x10x10xf32>, tensor<3x3xf32>) outs(%o3 : tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %7 = linalg.pooling_nchw_sum ins(%i2, %w : tensor<1x3x10x10xf32>, tensor<3x3xf32>) outs(%o3 : tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: linalg.depthwise_conv_2d_nhwc_hwc {strides = dense<2> : tensor<2xi64>} ins(%i, %kd : tensor<1x10x10x3xf32>, tensor<3x3x3xf32>) outs(%od : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %8 = linalg.depthwise_conv_2d_nhwc_hwc {strides = dense<2> : tensor<2xi64>} ins(%i, %kd : tensor<1x10x10x3xf32>, tensor<3x3x3xf32>) outs(%od : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  // CHECK: linalg.pooling_nhwc_max ins(%i, %w : tensor<1x10x10x3xf32>, tensor<3x3xf32>) outs(%on : tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32>
  %9 = linalg.pooling_nhwc_max ins(%i, %w : tensor<1x10x10x3xf32>, tensor<3x3xf32>) outs(%on : tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32>
  // CHECK: linalg.pooling_nhwc_min ins(%i, %w : tensor<1x10x10x3xf32>, tensor<3x3xf32>) outs(%on : tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32>
  %10 = linalg.pooling_nhwc_min ins(%i, %w : tensor<1x10x10x3xf32>, tensor<3x3xf32>) outs(%on : tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32>
  // CHECK: linalg.pooling_nhwc_sum ins(%i, %w : tensor<1x10x10x3xf32>, tensor<3x3xf32>) outs(%on : tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32>
  %11 = linalg.pooling_nhwc_sum ins(%i, %w : tensor<1x10x10x3xf32>, tensor<3x3xf32>) outs(%on : tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32>
  return
}

// Element types across the elementwise forms.

// CHECK-LABEL: func.func @element_types
func.func @element_types(%f64: tensor<4xf64>, %f16: tensor<4xf16>, %bf16: tensor<4xbf16>, %i64: tensor<4xi64>, %i8: tensor<4xi8>, %i1: tensor<4xi1>) {
  // CHECK: linalg.map { arith.addf } ins(%f64, %f64 : tensor<4xf64>, tensor<4xf64>) outs(%f64 : tensor<4xf64>)
  %0 = linalg.map { arith.addf } ins(%f64, %f64 : tensor<4xf64>, tensor<4xf64>) outs(%f64 : tensor<4xf64>)
  // CHECK: linalg.map { arith.mulf } ins(%f16, %f16 : tensor<4xf16>, tensor<4xf16>) outs(%f16 : tensor<4xf16>)
  %1 = linalg.map { arith.mulf } ins(%f16, %f16 : tensor<4xf16>, tensor<4xf16>) outs(%f16 : tensor<4xf16>)
  // CHECK: linalg.map { arith.maximumf } ins(%bf16, %bf16 : tensor<4xbf16>, tensor<4xbf16>) outs(%bf16 : tensor<4xbf16>)
  %2 = linalg.map { arith.maximumf } ins(%bf16, %bf16 : tensor<4xbf16>, tensor<4xbf16>) outs(%bf16 : tensor<4xbf16>)
  // As upstream, only a `fastmath = none` flag is elided from a short-form payload.
  // CHECK: linalg.map { arith.addi {overflowFlags = #arith.overflow<none>} } ins(%i64, %i64 : tensor<4xi64>, tensor<4xi64>) outs(%i64 : tensor<4xi64>)
  %3 = linalg.map { arith.addi } ins(%i64, %i64 : tensor<4xi64>, tensor<4xi64>) outs(%i64 : tensor<4xi64>)
  // CHECK: linalg.copy ins(%i8 : tensor<4xi8>) outs(%i64 : tensor<4xi64>) -> tensor<4xi64>
  %4 = linalg.copy ins(%i8 : tensor<4xi8>) outs(%i64 : tensor<4xi64>) -> tensor<4xi64>
  // CHECK: linalg.map { arith.xori } ins(%i1, %i1 : tensor<4xi1>, tensor<4xi1>) outs(%i1 : tensor<4xi1>)
  %5 = linalg.map { arith.xori } ins(%i1, %i1 : tensor<4xi1>, tensor<4xi1>) outs(%i1 : tensor<4xi1>)
  return
}
