// RUN: %roundtrip | filecheck %s

// nvvm.cp.async.bulk.wait_group in upstream syntax (NVVMOps.td: `$group (`read` $read^)?
// attr-dict`); the form before strict properties: nvvm-cp-async-bulk-wait-group-legacy.mlir.
// CHECK-LABEL: llvm.func @waits
// CHECK-NEXT:    nvvm.cp.async.bulk.wait_group 0 read
// CHECK-NEXT:    nvvm.cp.async.bulk.wait_group 1
// CHECK-NEXT:    nvvm.cp.async.bulk.wait_group 3 read
llvm.func @waits() {
  nvvm.cp.async.bulk.wait_group 0 read
  nvvm.cp.async.bulk.wait_group 1
  nvvm.cp.async.bulk.wait_group 3 read
  llvm.return
}
