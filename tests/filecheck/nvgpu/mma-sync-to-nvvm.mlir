// RUN: schedir-opt %s -p convert-gpu-to-nvvm | filecheck %s
// RUN: schedir-opt %s -p 'convert-gpu-to-nvvm,nvvm-attach-target{chip=sm_80 features="+ptx70"},gpu-module-to-binary{format=isa}' | filecheck %s --check-prefix=PTX
// RUN: schedir-opt %s -p 'convert-gpu-to-nvvm,nvvm-attach-target{chip=sm_80 features="+ptx70"},gpu-module-to-binary{format=bin}' | filecheck %s --check-prefix=BIN
// RUN: schedir-opt %s -p 'convert-gpu-to-nvvm,nvvm-attach-target{chip=sm_90 features="+ptx80"},gpu-module-to-binary{format=bin}' | filecheck %s --check-prefix=BIN

// convert-gpu-to-nvvm lowers nvgpu.ldmatrix to the ldmatrix intrinsics (one 32-bit
// register per 8x8 tile, bitcast to the fragment row) and nvgpu.mma.sync to inline PTX
// mma.sync on the fragments' registers; the module compiles and assembles for sm_80 and
// sm_90 (LLVM knows every intrinsic, ptxas every instruction).

// BIN: gpu.binary @ldmatrix [#gpu.object<#nvvm.target<chip = "sm_{{[89]}}0"{{.*}}bin = "\7FELF
// BIN: gpu.binary @mma [#gpu.object<#nvvm.target<chip = "sm_{{[89]}}0"{{.*}}bin = "\7FELF

// CHECK-LABEL: gpu.module @ldmatrix
// CHECK:         %[[X4:.*]] = llvm.call_intrinsic "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16"(%{{.*}}) : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK:         %[[R0:.*]] = llvm.extractvalue %[[X4]][0] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-3: llvm.extractvalue %[[X4]]
// CHECK:         %[[V0:.*]] = llvm.bitcast %[[R0]] : i32 to vector<2xf16>
// CHECK-COUNT-3: llvm.bitcast %{{.*}} : i32 to vector<2xf16>
// CHECK:         %[[U:.*]] = llvm.mlir.undef : !llvm.array<4 x vector<2xf16>>
// CHECK:         llvm.insertvalue %[[V0]], %[[U]][0] : !llvm.array<4 x vector<2xf16>>
// CHECK:         llvm.call_intrinsic "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.trans.b16"(%{{.*}}) : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// CHECK:         %[[X1:.*]] = llvm.call_intrinsic "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x1.trans.b16"(%{{.*}}) : (!llvm.ptr<3>) -> i32
// CHECK:         llvm.bitcast %[[X1]] : i32 to vector<2xbf16>
// CHECK:         llvm.call_intrinsic "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x4.b16"(%{{.*}}) : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-4: llvm.bitcast %{{.*}} : i32 to vector<4xi8>
// CHECK:         llvm.call_intrinsic "llvm.nvvm.ldmatrix.sync.aligned.m8n8.x2.b16"(%{{.*}}) : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// CHECK-COUNT-2: llvm.bitcast %{{.*}} : i32 to vector<1xf32>
// PTX:         ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}];
// PTX:         ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r{{[0-9]+}}, %r{{[0-9]+}}}, [%rd{{[0-9]+}}];
// PTX:         ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%r{{[0-9]+}}}, [%rd{{[0-9]+}}];
gpu.module @ldmatrix {
  gpu.func @ldmatrix(%i: index, %j: index, %o1: memref<4x2xf16>, %o2: memref<2x2xf16>,
                     %o3: memref<1x2xbf16>, %o4: memref<4x4xi8>, %o5: memref<2x1xf32>) kernel {
    %c0 = arith.constant 0 : index
    %s = memref.alloc() : memref<64x32xf16, 3>
    %sb = memref.alloc() : memref<16x16xbf16, 3>
    %s8 = memref.alloc() : memref<16x64xi8, 3>
    %s32 = memref.alloc() : memref<16x8xf32, 3>
    %a = nvgpu.ldmatrix %s[%i, %j] numTiles = 4 transpose = false : memref<64x32xf16, 3> -> vector<4x2xf16>
    %b = nvgpu.ldmatrix %s[%i, %j] numTiles = 2 transpose = true : memref<64x32xf16, 3> -> vector<2x2xf16>
    %c = nvgpu.ldmatrix %sb[%i, %j] numTiles = 1 transpose = true : memref<16x16xbf16, 3> -> vector<1x2xbf16>
    %d = nvgpu.ldmatrix %s8[%i, %j] numTiles = 4 transpose = false : memref<16x64xi8, 3> -> vector<4x4xi8>
    %e = nvgpu.ldmatrix %s32[%i, %j] numTiles = 2 transpose = false : memref<16x8xf32, 3> -> vector<2x1xf32>
    vector.transfer_write %a, %o1[%c0, %c0] : vector<4x2xf16>, memref<4x2xf16>
    vector.transfer_write %b, %o2[%c0, %c0] : vector<2x2xf16>, memref<2x2xf16>
    vector.transfer_write %c, %o3[%c0, %c0] : vector<1x2xbf16>, memref<1x2xbf16>
    vector.transfer_write %d, %o4[%c0, %c0] : vector<4x4xi8>, memref<4x4xi8>
    vector.transfer_write %e, %o5[%c0, %c0] : vector<2x1xf32>, memref<2x1xf32>
    gpu.return
  }
}

// CHECK-LABEL: gpu.module @mma
// The A and B rows are 32-bit registers; f32 accumulators one register per element.
// CHECK:         llvm.inline_asm "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f" {{.*}} : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// f16 accumulators: a pair per register.
// CHECK:         llvm.inline_asm "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {$0, $1}, {$2, $3, $4, $5}, {$6, $7}, {$8, $9};", "=r,=r,r,r,r,r,r,r,r,r" {{.*}} : (i32, i32, i32, i32, i32, i32, i32, i32) -> !llvm.struct<(i32, i32)>
// CHECK:         llvm.bitcast %{{.*}} : i32 to vector<2xf16>
// CHECK:         llvm.inline_asm "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};"
// CHECK:         llvm.inline_asm "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};"
// CHECK:         llvm.inline_asm "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {$0, $1, $2, $3}, {$4, $5}, {$6}, {$7, $8, $9, $10};"
// CHECK:         llvm.inline_asm "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=r,=r,=r,=r,r,r,r,r,r,r,r,r,r,r"
// CHECK:         llvm.inline_asm "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {$0, $1}, {$2}, {$3}, {$4, $5};", "=d,=d,d,d,d,d" {{.*}} : (f64, f64, f64, f64) -> !llvm.struct<(f64, f64)>
// PTX:         mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX:         mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16
// PTX:         mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX:         mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// PTX:         mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32
// PTX:         mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
// PTX:         mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64
gpu.module @mma {
  gpu.func @mma(%a: vector<4x2xf16>, %b: vector<2x2xf16>, %c: vector<2x2xf32>, %c16: vector<2x2xf16>,
                %ab: vector<4x2xbf16>, %bb: vector<2x2xbf16>,
                %at: vector<4x1xf32>, %bt: vector<2x1xf32>, %at4: vector<2x1xf32>, %bt4: vector<1x1xf32>,
                %a8: vector<4x4xi8>, %b8: vector<2x4xi8>, %c8: vector<2x2xi32>,
                %a64: vector<1x1xf64>, %b64: vector<1x1xf64>, %c64: vector<1x2xf64>,
                %out: memref<7x2x2xf32>, %o16: memref<2x2xf16>, %o8: memref<2x2xi32>, %o64: memref<1x2xf64>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %d = nvgpu.mma.sync(%a, %b, %c) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %d16 = nvgpu.mma.sync(%a, %b, %c16) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
    %db = nvgpu.mma.sync(%ab, %bb, %c) mmaShape = [16, 8, 16] : (vector<4x2xbf16>, vector<2x2xbf16>, vector<2x2xf32>) -> vector<2x2xf32>
    %dt = nvgpu.mma.sync(%at, %bt, %c) mmaShape = [16, 8, 8] tf32Enabled : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
    %dt4 = nvgpu.mma.sync(%at4, %bt4, %c) mmaShape = [16, 8, 4] tf32Enabled : (vector<2x1xf32>, vector<1x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
    %d8 = nvgpu.mma.sync(%a8, %b8, %c8) mmaShape = [16, 8, 32] : (vector<4x4xi8>, vector<2x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>
    %d64 = nvgpu.mma.sync(%a64, %b64, %c64) mmaShape = [8, 8, 4] : (vector<1x1xf64>, vector<1x1xf64>, vector<1x2xf64>) -> vector<1x2xf64>
    vector.transfer_write %d, %out[%c0, %c0, %c0] : vector<2x2xf32>, memref<7x2x2xf32>
    vector.transfer_write %db, %out[%c1, %c0, %c0] : vector<2x2xf32>, memref<7x2x2xf32>
    vector.transfer_write %dt, %out[%c2, %c0, %c0] : vector<2x2xf32>, memref<7x2x2xf32>
    vector.transfer_write %dt4, %out[%c3, %c0, %c0] : vector<2x2xf32>, memref<7x2x2xf32>
    vector.transfer_write %d16, %o16[%c0, %c0] : vector<2x2xf16>, memref<2x2xf16>
    vector.transfer_write %d8, %o8[%c0, %c0] : vector<2x2xi32>, memref<2x2xi32>
    vector.transfer_write %d64, %o64[%c0, %c0] : vector<1x2xf64>, memref<1x2xf64>
    gpu.return
  }
}
