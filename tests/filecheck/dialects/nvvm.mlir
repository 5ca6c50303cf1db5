// RUN: %roundtrip | filecheck %s

// The nvvm ops convert-gpu-to-nvvm produces, in upstream syntax (NVVMOps.td); the legacy
// spellings are in nvvm-legacy.mlir.

// CHECK-LABEL: llvm.func @registers_barriers_shuffles
// CHECK:         %{{.*}} = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %{{.*}} = nvvm.read.ptx.sreg.ntid.y : i32
// CHECK:         %{{.*}} = nvvm.read.ptx.sreg.ctaid.z : i32
// CHECK:         %{{.*}} = nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK:         %{{.*}} = nvvm.read.ptx.sreg.laneid range <i32, 0, 32> : i32
// CHECK:         nvvm.barrier
// CHECK:         %{{.*}} = nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32 -> f32
// CHECK:         %{{.*}} = nvvm.shfl.sync down %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} return_value_and_is_valid : f32 -> !llvm.struct<(f32, i1)>
// CHECK:         %{{.*}} = nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} return_value_and_is_valid : i32 -> !llvm.struct<(i32, i1)>
llvm.func @registers_barriers_shuffles(%m: i32, %v: f32, %o: i32, %c: i32) {
  %0 = nvvm.read.ptx.sreg.tid.x : i32
  %1 = nvvm.read.ptx.sreg.ntid.y : i32
  %2 = nvvm.read.ptx.sreg.ctaid.z : i32
  %3 = nvvm.read.ptx.sreg.nctaid.x : i32
  %4 = nvvm.read.ptx.sreg.laneid range <i32, 0, 32> : i32
  nvvm.barrier
  %5 = nvvm.shfl.sync bfly %m, %v, %o, %c : f32 -> f32
  %6 = nvvm.shfl.sync down %m, %v, %o, %c return_value_and_is_valid : f32 -> !llvm.struct<(f32, i1)>
  %7 = nvvm.shfl.sync idx %m, %m, %o, %c return_value_and_is_valid : i32 -> !llvm.struct<(i32, i1)>
  llvm.return
}
