// RUN: schedir-opt %s --split-input-file --verify-diagnostics

func.func @forall_missing_upper_bound(%t: tensor<128x64xf32>) {
  // expected-error @below {{expected 2 upper bound values, got 1}}
  scf.forall (%i, %j) in (4) {
  }
  return
}

// -----

func.func @forall_mapping_rank() {
  // expected-error @below {{mapping attribute size must match op rank}}
  scf.forall (%i, %j) in (4, 4) {
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @forall_mapping_not_device() {
  // expected-error @below {{attribute 'mapping' failed to satisfy constraint: Device Mapping array attribute}}
  scf.forall (%i, %j) in (4, 4) {
  } {mapping = [#gpu.block<x>, 1 : i64]}
  return
}

// -----

func.func @forall_results(%t: tensor<8xf32>) {
  // expected-error @below {{type mismatch between 0-th output and corresponding block argument}}
  %r = "scf.forall"(%t) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 4>}> ({
  ^bb0(%i: index, %o: tensor<4xf32>):
    "scf.forall.in_parallel"() ({
    ^bb0:
    }) : () -> ()
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @in_parallel_only_inserts(%t: tensor<8xf32>) {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<8xf32>) {
    // expected-error @below {{expected only ParallelCombiningOpInterface ops}}
    scf.forall.in_parallel {
      %c = arith.constant 0 : index
    }
  }
  return
}

// -----

func.func @in_parallel_parent() {
  // expected-error @below {{expects parent op 'scf.forall'}}
  scf.forall.in_parallel {
  }
  return
}

// -----

func.func @insert_into_non_output(%t: tensor<8xf32>, %s: tensor<2xf32>) {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<8xf32>) {
    scf.forall.in_parallel {
      // expected-error @below {{may only insert into an output block argument}}
      tensor.parallel_insert_slice %s into %t[0] [2] [1] : tensor<2xf32> into tensor<8xf32>
    }
  }
  return
}

// -----

func.func @parallel_step(%a: index, %x: f32) {
  %c0 = arith.constant 0 : index
  // expected-error @below {{constant step operand must be positive}}
  scf.parallel (%i) = (%a) to (%a) step (%c0) {
  }
  return
}

// -----

func.func @parallel_reduction_type(%a: index, %x: f32, %y: i32) {
  %r = scf.parallel (%i) = (%a) to (%a) step (%a) init (%x) -> f32 {
    // expected-error @below {{expects type of 0-th reduction operand: 'i32' to be the same as the 0-th result type: 'f32'}}
    scf.reduce(%y : i32) {
    ^bb0(%l: i32, %r: i32):
      scf.reduce.return %l : i32
    }
  }
  return
}

// -----

func.func @reduce_block_args(%a: index, %x: f32) {
  %r = scf.parallel (%i) = (%a) to (%a) step (%a) init (%x) -> f32 {
    // expected-error @below {{expected two block arguments with type 'f32' in the 0-th reduction region}}
    scf.reduce(%x : f32) {
    ^bb0(%l: f32):
      scf.reduce.return %l : f32
    }
  }
  return
}
