// RUN: schedir-opt %s -p convert-cf-to-llvm | filecheck %s
// RUN: schedir-opt %s -p convert-arith-to-llvm,convert-func-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts | filecheck %s --check-prefix=FULL

// The message of cf.assert is a global; puts and abort are declared.
// CHECK:       llvm.func @puts(!llvm.ptr) -> i32
// CHECK:       llvm.func @abort()
// CHECK:       llvm.mlir.global internal constant @assert_msg_0("n must be positive\00") {addr_space = 0 : i32} : !llvm.array<19 x i8>

// Branches become llvm.br/llvm.cond_br; non-entry block arguments get LLVM types.
// CHECK-LABEL: func.func @loop
// CHECK:         %[[Z:.*]] = builtin.unrealized_conversion_cast %{{.*}} : index to i64
// CHECK:         llvm.br ^[[H:.*]](%[[Z]] : i64)
// CHECK:       ^[[H]](%[[I:.*]]: i64):
// CHECK:         %[[IX:.*]] = builtin.unrealized_conversion_cast %[[I]] : i64 to index
// CHECK:         llvm.cond_br %{{.*}}, ^[[B:.*]], ^[[E:.*]]
// CHECK:         llvm.br ^[[H]](%{{.*}} : i64)
// FULL-LABEL:  llvm.func @loop(%n: i64) -> i64
// FULL:          llvm.br ^head(%{{.*}} : i64)
// FULL:        ^head(%{{.*}}: i64):
// FULL-NOT:      unrealized_conversion_cast
// FULL:          llvm.return
func.func @loop(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^head(%c0 : index)
^head(%i: index):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^body, ^exit
^body:
  %next = arith.addi %i, %c1 : index
  cf.br ^head(%next : index)
^exit:
  return %i : index
}

// A switch on an index flag switches on i64; case operands are kept per case.
// CHECK-LABEL: func.func @switch
// CHECK:         llvm.switch %{{.*}} : i64, ^{{.*}}(%{{.*}} : i32) [
// CHECK-NEXT:      1: ^{{.*}}(%{{.*}} : i32),
// CHECK-NEXT:      -4: ^{{.*}}(%{{.*}} : i32)
// CHECK-NEXT:    ]
func.func @switch(%flag: index, %a: i32, %b: i32) -> i32 {
  cf.switch %flag : index, [
    default: ^bb1(%a : i32),
    1: ^bb1(%b : i32),
    -4: ^bb2(%b : i32)
  ]
^bb1(%x: i32):
  return %x : i32
^bb2(%y: i32):
  return %y : i32
}

// cf.assert prints its message with puts and aborts when the condition is false (below).
// CHECK-LABEL: func.func @check
// CHECK:         llvm.cond_br %c, ^[[OK:.*]], ^[[FAIL:.*]]
// CHECK:       ^[[OK]]:
// CHECK-NEXT:    return
// CHECK:       ^[[FAIL]]:
// CHECK-NEXT:    %[[MSG:.*]] = llvm.mlir.addressof @assert_msg_0 : !llvm.ptr
// CHECK-NEXT:    llvm.call @puts(%[[MSG]]) : (!llvm.ptr) -> i32
// CHECK-NEXT:    llvm.call @abort() : () -> ()
// CHECK-NEXT:    llvm.unreachable
func.func @check(%c: i1) {
  cf.assert %c, "n must be positive"
  return
}
