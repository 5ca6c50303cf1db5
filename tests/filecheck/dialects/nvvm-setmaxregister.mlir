// RUN: %roundtrip | filecheck %s

// nvvm.setmaxregister in upstream syntax (NVVMOps.td: `$action $regCount attr-dict`).
// CHECK-LABEL: llvm.func @budgets
// CHECK-NEXT:    nvvm.setmaxregister decrease 24
// CHECK-NEXT:    nvvm.setmaxregister decrease 40
// CHECK-NEXT:    nvvm.setmaxregister increase 232
// CHECK-NEXT:    nvvm.setmaxregister increase 256
llvm.func @budgets() {
  nvvm.setmaxregister decrease 24
  nvvm.setmaxregister decrease 40
  nvvm.setmaxregister increase 232
  nvvm.setmaxregister increase 256
  llvm.return
}
