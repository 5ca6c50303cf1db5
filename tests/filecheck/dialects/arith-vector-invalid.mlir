// RUN: schedir-opt %s --split-input-file --verify-diagnostics

// Verifier errors of arith ops on vectors and tensors: upstream MLIR gives the same ones on
// the same lines (tests/unit/dialects/test_upstream_oracle.py checks).

func.func @a(%a: vector<4xf32>, %b: vector<4xf32>) {
  // expected-error @below {{failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpf"(%a, %b) <{predicate = 4 : i64}> : (vector<4xf32>, vector<4xf32>) -> vector<8xi1>
  return
}

// -----

func.func @a(%a: vector<4xi32>, %b: vector<4xi32>) {
  // expected-error @below {{failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "arith.cmpi"(%a, %b) <{predicate = 2 : i64}> : (vector<4xi32>, vector<4xi32>) -> i1
  return
}

// -----

func.func @a(%a: vector<4xf32>, %b: vector<8xf32>) {
  // expected-error @below {{requires all operands to have the same type}}
  %0 = "arith.cmpf"(%a, %b) <{predicate = 4 : i64}> : (vector<4xf32>, vector<8xf32>) -> vector<4xi1>
  return
}

// -----

func.func @a(%c: vector<8xi1>, %a: vector<4xf32>, %b: vector<4xf32>) {
  // expected-error @below {{failed to verify that condition is signless i1 or has matching shape}}
  %0 = arith.select %c, %a, %b : vector<8xi1>, vector<4xf32>
  return
}

// -----

func.func @a(%c: tensor<4xi1>, %a: vector<4xf32>, %b: vector<4xf32>) {
  // expected-error @below {{all non-scalar operands/results must have the same shape and base type}}
  %0 = arith.select %c, %a, %b : tensor<4xi1>, vector<4xf32>
  return
}

// -----

func.func @a(%c: vector<4xi1>, %a: f32, %b: f32) {
  // expected-error @below {{failed to verify that condition is signless i1 or has matching shape}}
  %0 = arith.select %c, %a, %b : vector<4xi1>, f32
  return
}

// -----

func.func @a(%a: vector<4xf32>) {
  // expected-error @below {{requires the same shape for all operands and results}}
  %0 = arith.fptosi %a : vector<4xf32> to vector<8xi32>
  return
}

// -----

func.func @a(%a: vector<4xf32>) {
  // expected-error @below {{requires the same shape for all operands and results}}
  %0 = arith.fptosi %a : vector<4xf32> to i32
  return
}

// -----

func.func @a(%a: vector<4xi32>) {
  // expected-error @below {{failed to verify that input and output have the same tensor dimensions}}
  %0 = arith.sitofp %a : vector<4xi32> to tensor<4xf32>
  return
}

// -----

func.func @a(%a: vector<4xi32>) {
  // expected-error @below {{operand type 'vector<4xi32>' and result type 'vector<4xi16>' are cast incompatible}}
  %0 = arith.extsi %a : vector<4xi32> to vector<4xi16>
  return
}

// -----

func.func @a(%a: vector<4xi32>) {
  // expected-error @below {{operand type 'vector<4xi32>' and result type 'vector<4xi64>' are cast incompatible}}
  %0 = arith.trunci %a : vector<4xi32> to vector<4xi64>
  return
}

// -----

func.func @a(%a: vector<4xf32>) {
  // expected-error @below {{operand type 'vector<4xf32>' and result type 'vector<4xf16>' are cast incompatible}}
  %0 = arith.extf %a : vector<4xf32> to vector<4xf16>
  return
}

// -----

func.func @a(%a: vector<4xf32>) {
  // expected-error @below {{operand type 'vector<4xf32>' and result type 'vector<4xf64>' are cast incompatible}}
  %0 = arith.truncf %a : vector<4xf32> to vector<4xf64>
  return
}

// -----

func.func @a(%a: vector<4xi32>) {
  // expected-error @below {{operand type 'vector<4xi32>' and result type 'vector<4xi64>' are cast incompatible}}
  %0 = arith.index_cast %a : vector<4xi32> to vector<4xi64>
  return
}

// -----

func.func @a(%a: vector<4xi32>) {
  // expected-error @below {{requires the same shape for all operands and results}}
  %0 = arith.index_cast %a : vector<4xi32> to vector<8xindex>
  return
}

// -----

func.func @a(%a: vector<4xi32>) {
  // expected-error @below {{requires the same shape for all operands and results}}
  %0 = arith.extui %a : vector<4xi32> to vector<8xi64>
  return
}

// -----

func.func @a(%a: vector<4xi32>) {
  // expected-error @below {{requires the same shape for all operands and results}}
  %0 = arith.extui %a : vector<4xi32> to i64
  return
}
