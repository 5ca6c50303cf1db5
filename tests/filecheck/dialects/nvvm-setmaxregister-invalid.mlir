// RUN: schedir-opt %s --split-input-file --verify-diagnostics

llvm.func @not_a_multiple_of_8() {
  // expected-error @below {{'nvvm.setmaxregister' op new register size must be multiple of 8}}
  nvvm.setmaxregister increase 100
  llvm.return
}

// -----

llvm.func @below_24() {
  // expected-error @below {{'nvvm.setmaxregister' op new register size must be in between 24 to 256}}
  nvvm.setmaxregister decrease 16
  llvm.return
}

// -----

llvm.func @above_256() {
  // expected-error @below {{'nvvm.setmaxregister' op new register size must be in between 24 to 256}}
  nvvm.setmaxregister increase 264
  llvm.return
}

// -----

llvm.func @unknown_action() {
  // expected-error @below {{custom op 'nvvm.setmaxregister' expected string or keyword containing one of the following enum values for attribute 'action' [decrease, increase]}}
  nvvm.setmaxregister raise 232
  llvm.return
}
