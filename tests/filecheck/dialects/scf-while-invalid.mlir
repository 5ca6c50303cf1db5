// RUN: schedir-opt %s --split-input-file --verify-diagnostics

func.func @inputs_without_inits() {
  // expected-error @below {{expected as many input types as operands (expected 0 got 1)}}
  scf.while : (i32) -> () {
    %c = arith.constant true
    scf.condition(%c)
  } do {
    scf.yield
  }
  return
}
