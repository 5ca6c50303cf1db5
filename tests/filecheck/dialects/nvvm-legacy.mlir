// RUN: %roundtrip | filecheck %s

// Spellings upstream dropped that schedir still reads (NVVM written for LLVM 21 and
// older): `nvvm.barrier0` becomes `nvvm.barrier`, and the shuffle's unit attribute
// `{return_value_and_is_valid}` becomes the keyword. What schedir prints is today's syntax.

// CHECK-LABEL: llvm.func @legacy
// CHECK-NEXT:    nvvm.barrier
// CHECK-NOT:     nvvm.barrier0
// CHECK-NEXT:    %{{.*}} = nvvm.shfl.sync idx %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} return_value_and_is_valid : i32 -> !llvm.struct<(i32, i1)>
// CHECK-NEXT:    llvm.return
llvm.func @legacy(%m: i32, %o: i32, %c: i32) {
  nvvm.barrier0
  %0 = nvvm.shfl.sync idx %m, %m, %o, %c {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
  llvm.return
}
