// RUN: schedir-opt %s --split-input-file -p cse | filecheck %s

// Commutative operands compare as a multiset; a read merges with an equal earlier read
// of the same block unless a write lies between them; dead ops go.
// CHECK-LABEL: func.func @reads_and_writes
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[X:.*]] = arith.addi %{{.*}}, %[[C1]] : index
// CHECK-NEXT:    %[[V0:.*]] = memref.load %{{.*}}[%[[X]]] : memref<8xf32>
// CHECK-NEXT:    memref.store %[[V0]], %{{.*}}[%{{.*}}] : memref<8xf32>
// CHECK-NEXT:    %[[V2:.*]] = memref.load %{{.*}}[%[[X]]] : memref<8xf32>
// CHECK-NEXT:    %[[S0:.*]] = arith.addf %[[V0]], %[[V0]] : f32
// CHECK-NEXT:    %[[S1:.*]] = arith.addf %[[V2]], %[[V2]] : f32
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[S0]], %[[S1]] : f32
// CHECK-NEXT:    return %[[S]], %[[X]], %[[X]]
func.func @reads_and_writes(%a: memref<8xf32>, %i: index, %j: index) -> (f32, index, index) {
  %c1 = arith.constant 1 : index
  %c1b = arith.constant 1 : index
  %x = arith.addi %i, %c1 : index
  %y = arith.addi %c1b, %i : index
  %v0 = memref.load %a[%x] : memref<8xf32>
  %v1 = memref.load %a[%y] : memref<8xf32>
  memref.store %v0, %a[%j] : memref<8xf32>
  %v2 = memref.load %a[%y] : memref<8xf32>
  %v3 = memref.load %a[%x] : memref<8xf32>
  %s0 = arith.addf %v0, %v1 : f32
  %s1 = arith.addf %v2, %v3 : f32
  %s = arith.addf %s0, %s1 : f32
  %dead = arith.muli %x, %y : index
  return %s, %x, %y : f32, index, index
}

// -----

// A loop that writes memory ends the read window; a loop that only reads does not.
// CHECK-LABEL: func.func @nested_effects
// CHECK:         %[[A:.*]] = memref.load
// CHECK:         scf.for
// CHECK:         %[[B:.*]] = memref.load
// CHECK:         %[[S:.*]] = scf.for
// CHECK:         }
// CHECK-NEXT:    return %[[A]], %[[B]], %[[B]], %[[S]]
func.func @nested_effects(%m: memref<?xf32>, %o: memref<?xf32>, %n: index, %v: f32) -> (f32, f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.load %m[%c0] : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %a, %m[%i] : memref<?xf32>
  }
  %b = memref.load %m[%c0] : memref<?xf32>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %v) -> (f32) {
    %r = memref.load %m[%i] : memref<?xf32>
    %x = arith.addf %acc, %r : f32
    scf.yield %x : f32
  }
  %c = memref.load %m[%c0] : memref<?xf32>
  return %a, %b, %c, %s : f32, f32, f32, f32
}

// -----

// Multi-block regions are walked along the dominator tree: a value computed in the entry
// block serves both successors, a value of one branch does not serve the other.
// CHECK-LABEL: func.func @dominance
// CHECK:         %[[X:.*]] = arith.addi
// CHECK:       ^bb1:
// CHECK-NEXT:    %[[P:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    %[[Y:.*]] = arith.addi %[[P]], %[[X]] : index
// CHECK-NEXT:    return %[[Y]]
// CHECK:       ^bb2:
// CHECK-NEXT:    %[[Q:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    %[[Z:.*]] = arith.subi %[[Q]], %[[X]] : index
// CHECK-NEXT:    return %[[Z]]
func.func @dominance(%a: index, %b: index, %c: i1, %m: memref<index>) -> index {
  %x = arith.addi %a, %b : index
  memref.store %x, %m[] : memref<index>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x1 = arith.addi %a, %b : index
  %p = arith.muli %a, %a : index
  %y = arith.addi %p, %x1 : index
  return %y : index
^bb2:
  %x2 = arith.addi %b, %a : index
  %q = arith.muli %a, %a : index
  %z = arith.subi %q, %x2 : index
  return %z : index
}
