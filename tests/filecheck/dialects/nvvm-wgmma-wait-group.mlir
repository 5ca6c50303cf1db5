// RUN: %roundtrip | filecheck %s

// nvvm.wgmma.wait.group.sync.aligned in upstream syntax (NVVMOps.td: `attr-dict $group`).
// CHECK-LABEL: llvm.func @waits
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 1
llvm.func @waits() {
  nvvm.wgmma.wait.group.sync.aligned 0
  nvvm.wgmma.wait.group.sync.aligned 1
  llvm.return
}
