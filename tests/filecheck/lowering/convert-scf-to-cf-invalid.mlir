// RUN: schedir-opt %s -p convert-scf-to-cf --split-input-file --verify-diagnostics

func.func @forall(%m: memref<8xf32>, %v: f32) {
  // expected-error @below {{'scf.forall' must be lowered to scf.for (scf-forall-to-for) before convert-scf-to-cf}}
  scf.forall (%i) in (8) {
    memref.store %v, %m[%i] : memref<8xf32>
  }
  return
}
