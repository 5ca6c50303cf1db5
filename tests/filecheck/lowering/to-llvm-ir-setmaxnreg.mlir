// RUN: schedir-opt %s --emit llvm | filecheck %s

// nvvm.setmaxregister becomes the setmaxnreg intrinsic of its direction; the kernel's
// launch bounds (what fixes the register budget setmaxnreg needs) are function attributes.
// CHECK: define ptx_kernel void @roles() "nvvm.maxntid"="384,1,1" "nvvm.minctasm"="1"
// CHECK:   call void @llvm.nvvm.setmaxnreg.dec.sync.aligned.u32(i32 40)
// CHECK:   call void @llvm.nvvm.setmaxnreg.inc.sync.aligned.u32(i32 232)
llvm.func @roles() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32} {
  nvvm.setmaxregister decrease 40
  nvvm.setmaxregister increase 232
  llvm.return
}
