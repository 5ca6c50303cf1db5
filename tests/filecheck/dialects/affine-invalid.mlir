// RUN: schedir-opt %s --split-input-file --verify-diagnostics

func.func @apply_operands(%i: index) {
  // expected-error @below {{operand count and affine map dimension and symbol count must match}}
  %a = "affine.apply"(%i, %i) <{map = affine_map<(d0) -> (d0 * 4)>}> : (index, index) -> index
  return
}

// -----

func.func @apply_results(%i: index) {
  // expected-error @below {{mapping must produce one value}}
  %a = "affine.apply"(%i) <{map = affine_map<(d0) -> (d0, d0)>}> : (index) -> index
  return
}

// -----

func.func @max_operands(%i: index) {
  // expected-error @below {{operand count and affine map dimension and symbol count must match}}
  %a = "affine.max"(%i, %i) <{map = affine_map<(d0) -> (d0 * 4)>}> : (index, index) -> index
  return
}

// -----

func.func @min_no_results(%i: index) {
  // expected-error @below {{affine map expect at least one result}}
  %a = affine.min affine_map<(d0) -> ()>(%i)
  return
}
