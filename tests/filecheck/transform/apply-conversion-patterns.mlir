// RUN: schedir-opt %s --split-input-file --verify-diagnostics | filecheck %s
// UPSTREAM-LACKS: iree-opt does not load the memref ConvertToLLVMPatternInterface extension.
// (iree-opt 3.13 does not load the memref ConvertToLLVMPatternInterface extension, so it
// rejects `dialect_to_llvm "memref"`; schedir runs its finalize-memref-to-llvm conversion.)

// The memref conversion to LLVM under an LLVM type converter: the allocation becomes a
// malloc call building the descriptor; func and llvm are legal, so the conversion is
// complete.
// CHECK-LABEL: func.func @alloc_to_malloc
// CHECK-NOT:     memref.alloc
// CHECK:         llvm.call @malloc
func.func @alloc_to_malloc() {
  %0 = memref.alloc() : memref<37xi8>
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    transform.apply_conversion_patterns to %f {
      transform.apply_conversion_patterns.dialect_to_llvm "memref"
    } with type_converter {
      transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter index_bitwidth = 64
    } <{legal_dialects = ["func", "llvm"], preserve_handles}> : !transform.any_op
    transform.yield
  }
}

// -----

// A full conversion fails when an op stays illegal (arith is neither converted nor legal).
// expected-note @below {{target op}}
func.func @arith_left(%a: i32) -> i32 {
  // expected-note @below {{failed to legalize operation 'arith.addi'}}
  %0 = arith.addi %a, %a : i32
  %1 = memref.alloca() : memref<3xf32>
  return %0 : i32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{dialect conversion failed}}
    transform.apply_conversion_patterns to %f {
      transform.apply_conversion_patterns.dialect_to_llvm "memref"
    } with type_converter {
      transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter
    } <{legal_dialects = ["func", "llvm"], preserve_handles}> : !transform.any_op
    transform.yield
  }
}

// -----

// A partial conversion leaves the ops that are not illegal.
// CHECK-LABEL: func.func @partial
// CHECK:         arith.addi
// CHECK-NOT:     memref.alloca
// CHECK:         llvm.alloca
func.func @partial(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = memref.alloca() : memref<3xf32>
  return %0 : i32
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    transform.apply_conversion_patterns to %f {
      transform.apply_conversion_patterns.dialect_to_llvm "memref"
    } with type_converter {
      transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter
    } <{illegal_dialects = ["memref"], partial_conversion, preserve_handles}> : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @f() {
    return
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{schedir's LLVM type converter implements only upstream's default options, not index_bitwidth}}
    transform.apply_conversion_patterns to %f {
      transform.apply_conversion_patterns.dialect_to_llvm "memref"
    } with type_converter {
      // expected-note @below {{type converter}}
      transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter index_bitwidth = 32
    } <{preserve_handles}> : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @g() {
    return
  }
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %arg0 : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{pattern descriptor does not specify type converter and apply_conversion_patterns op has no default type converter}}
    transform.apply_conversion_patterns to %f {
      // expected-note @below {{pattern descriptor op}}
      transform.apply_conversion_patterns.dialect_to_llvm "memref"
    } <{preserve_handles}> : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    // expected-error @below {{expected pattern children ops to implement ConversionPatternDescriptorOpInterface}}
    transform.apply_conversion_patterns to %arg0 {
      transform.apply_patterns.canonicalization
    } <{preserve_handles}> : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%arg0: !transform.any_op {transform.readonly}) {
    transform.apply_conversion_patterns to %arg0 {
    } with type_converter {
      // expected-error @below {{duplicate 'use_aligned_alloc' option}}
      transform.apply_conversion_patterns.memref.memref_to_llvm_type_converter use_aligned_alloc = true use_aligned_alloc = false
    } <{preserve_handles}> : !transform.any_op
    transform.yield
  }
}
