// RUN: schedir-opt %s --split-input-file --verify-diagnostics

llvm.func @not_a_multiple_of_8() {
  // expected-error @below {{'nvvm.setmaxregister' op 100 is not a multiple of 8 in 24..256}}
  nvvm.setmaxregister increase 100
  llvm.return
}

// -----

llvm.func @below_24() {
  // expected-error @below {{'nvvm.setmaxregister' op 16 is not a multiple of 8 in 24..256}}
  nvvm.setmaxregister decrease 16
  llvm.return
}

// -----

llvm.func @above_256() {
  // expected-error @below {{'nvvm.setmaxregister' op 264 is not a multiple of 8 in 24..256}}
  nvvm.setmaxregister increase 264
  llvm.return
}

// -----

llvm.func @unknown_action() {
  // expected-error @below {{expected `decrease`, or `increase`}}
  nvvm.setmaxregister raise 232
  llvm.return
}
