// RUN: schedir-opt %s -p scf-forall-to-for --split-input-file --verify-diagnostics

func.func @not_bufferized(%t: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @below {{'scf.forall' with shared outputs cannot become scf.for: bufferize it first}}
  %r = scf.forall (%i) in (8) shared_outs(%o = %t) -> (tensor<8xf32>) {
  }
  return %r : tensor<8xf32>
}
