// RUN: %roundtrip | filecheck %s

// nvvm.cp.async.bulk.wait_group's `read` in the attribute dictionary (before upstream's
// strict properties) is read; the current form is printed.
// CHECK-LABEL: llvm.func @waits
// CHECK-NEXT:    nvvm.cp.async.bulk.wait_group 2 read
// CHECK-NEXT:    nvvm.cp.async.bulk.wait_group 0 read
llvm.func @waits() {
  nvvm.cp.async.bulk.wait_group 2 {read}
  nvvm.cp.async.bulk.wait_group 0 read
  llvm.return
}
