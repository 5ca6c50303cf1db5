"""Hand-written NVPTX LLVM IR kernels shared by the PTX tests and the GPU runtime tests.

Kernels named `*_desc` take memrefs in the kernel ABI of `schedir.gpu.function`
(descriptor fields expanded: allocated, aligned, offset, sizes, strides); the others take
bare global pointers and are launched with `schedir.gpu.launch`.
"""

from __future__ import annotations

SREGS = """
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
declare void @llvm.nvvm.barrier0()
"""

# out = a * x + y on memref<?xf32> descriptors; element i is at aligned[offset + i * stride].
SAXPY_DESC = (
    SREGS
    + """
define ptx_kernel void @saxpy_desc(float %a,
    ptr addrspace(1) %x_alloc, ptr addrspace(1) %x, i64 %x_off, i64 %n, i64 %x_stride,
    ptr addrspace(1) %y_alloc, ptr addrspace(1) %y, i64 %y_off, i64 %y_n, i64 %y_stride,
    ptr addrspace(1) %o_alloc, ptr addrspace(1) %o, i64 %o_off, i64 %o_n, i64 %o_stride)
    "nvvm.maxntid"="256" {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bd = mul i32 %b, %d
  %i32 = add i32 %bd, %t
  %i = zext i32 %i32 to i64
  %in = icmp slt i64 %i, %n
  br i1 %in, label %body, label %exit
body:
  %xs = mul i64 %i, %x_stride
  %xo = add i64 %x_off, %xs
  %xp = getelementptr float, ptr addrspace(1) %x, i64 %xo
  %xv = load float, ptr addrspace(1) %xp
  %ys = mul i64 %i, %y_stride
  %yo = add i64 %y_off, %ys
  %yp = getelementptr float, ptr addrspace(1) %y, i64 %yo
  %yv = load float, ptr addrspace(1) %yp
  %ax = fmul float %a, %xv
  %r = fadd float %ax, %yv
  %os = mul i64 %i, %o_stride
  %oo = add i64 %o_off, %os
  %op = getelementptr float, ptr addrspace(1) %o, i64 %oo
  store float %r, ptr addrspace(1) %op
  br label %exit
exit:
  ret void
}
"""
)

# out[i, j] = a[i, j] + b[j, i] on memref<?x?xf32> descriptors; x runs over j, y over i.
ADD_TRANSPOSED_DESC = (
    SREGS
    + """
define ptx_kernel void @add_transposed_desc(
    ptr %a_alloc, ptr %a, i64 %a_off, i64 %m, i64 %n, i64 %a_s0, i64 %a_s1,
    ptr %b_alloc, ptr %b, i64 %b_off, i64 %b_n, i64 %b_m, i64 %b_s0, i64 %b_s1,
    ptr %o_alloc, ptr %o, i64 %o_off, i64 %o_m, i64 %o_n, i64 %o_s0, i64 %o_s1) {
entry:
  %tx = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ty = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %dx = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %dy = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %jx = mul i32 %bx, %dx
  %j32 = add i32 %jx, %tx
  %iy = mul i32 %by, %dy
  %i32 = add i32 %iy, %ty
  %j = zext i32 %j32 to i64
  %i = zext i32 %i32 to i64
  %in_i = icmp slt i64 %i, %m
  %in_j = icmp slt i64 %j, %n
  %in = and i1 %in_i, %in_j
  br i1 %in, label %body, label %exit
body:
  %a_i = mul i64 %i, %a_s0
  %a_j = mul i64 %j, %a_s1
  %a_ij = add i64 %a_i, %a_j
  %a_k = add i64 %a_ij, %a_off
  %ap = getelementptr float, ptr %a, i64 %a_k
  %av = load float, ptr %ap
  %b_j = mul i64 %j, %b_s0
  %b_i = mul i64 %i, %b_s1
  %b_ji = add i64 %b_j, %b_i
  %b_k = add i64 %b_ji, %b_off
  %bp = getelementptr float, ptr %b, i64 %b_k
  %bv = load float, ptr %bp
  %sum = fadd float %av, %bv
  %o_i = mul i64 %i, %o_s0
  %o_j = mul i64 %j, %o_s1
  %o_ij = add i64 %o_i, %o_j
  %o_k = add i64 %o_ij, %o_off
  %op = getelementptr float, ptr %o, i64 %o_k
  store float %sum, ptr %op
  br label %exit
exit:
  ret void
}
"""
)

# out[i] = neg ? -h : h on a memref<?xf16> descriptor: i1 and f16 scalar parameters.
FILL_HALF_DESC = (
    SREGS
    + """
define ptx_kernel void @fill_half_desc(
    ptr addrspace(1) %o_alloc, ptr addrspace(1) %o, i64 %o_off, i64 %n, i64 %o_stride,
    half %h, i1 %neg) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bd = mul i32 %b, %d
  %i32 = add i32 %bd, %t
  %i = zext i32 %i32 to i64
  %in = icmp slt i64 %i, %n
  br i1 %in, label %body, label %exit
body:
  %minus = fneg half %h
  %v = select i1 %neg, half %minus, half %h
  %os = mul i64 %i, %o_stride
  %oo = add i64 %o_off, %os
  %op = getelementptr half, ptr addrspace(1) %o, i64 %oo
  store half %v, ptr addrspace(1) %op
  br label %exit
exit:
  ret void
}
"""
)

# out[i] = x[i] on 16-bit elements (bfloat16 bits), rank-1 descriptors.
COPY16_DESC = (
    SREGS
    + """
define ptx_kernel void @copy16_desc(
    ptr addrspace(1) %x_alloc, ptr addrspace(1) %x, i64 %x_off, i64 %n, i64 %x_stride,
    ptr addrspace(1) %o_alloc, ptr addrspace(1) %o, i64 %o_off, i64 %o_n, i64 %o_stride) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bd = mul i32 %b, %d
  %i32 = add i32 %bd, %t
  %i = zext i32 %i32 to i64
  %in = icmp slt i64 %i, %n
  br i1 %in, label %body, label %exit
body:
  %xp = getelementptr i16, ptr addrspace(1) %x, i64 %i
  %v = load i16, ptr addrspace(1) %xp
  %op = getelementptr i16, ptr addrspace(1) %o, i64 %i
  store i16 %v, ptr addrspace(1) %op
  br label %exit
exit:
  ret void
}
"""
)

# out[block] = sum of x[block * 256 .. block * 256 + 255] (zeros past n): a tree reduction
# in a static shared-memory array; needs blocks of exactly 256 threads.
BLOCK_SUM = (
    SREGS
    + """
@smem = internal addrspace(3) global [256 x float] undef, align 4

define ptx_kernel void @block_sum(ptr addrspace(1) %x, ptr addrspace(1) %out, i32 %n)
    "nvvm.maxntid"="256" {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bd = mul i32 %b, %d
  %i = add i32 %bd, %t
  %in = icmp slt i32 %i, %n
  br i1 %in, label %load, label %store
load:
  %ie = sext i32 %i to i64
  %p = getelementptr float, ptr addrspace(1) %x, i64 %ie
  %v = load float, ptr addrspace(1) %p
  br label %store
store:
  %val = phi float [ %v, %load ], [ 0.0, %entry ]
  %te = zext i32 %t to i64
  %s = getelementptr [256 x float], ptr addrspace(3) @smem, i64 0, i64 %te
  store float %val, ptr addrspace(3) %s
  call void @llvm.nvvm.barrier0()
  br label %loop
loop:
  %stride = phi i32 [ 128, %store ], [ %next, %sync ]
  %active = icmp ult i32 %t, %stride
  br i1 %active, label %add, label %sync
add:
  %o = add i32 %t, %stride
  %oe = zext i32 %o to i64
  %q = getelementptr [256 x float], ptr addrspace(3) @smem, i64 0, i64 %oe
  %mine = load float, ptr addrspace(3) %s
  %other = load float, ptr addrspace(3) %q
  %sum = fadd float %mine, %other
  store float %sum, ptr addrspace(3) %s
  br label %sync
sync:
  call void @llvm.nvvm.barrier0()
  %next = lshr i32 %stride, 1
  %more = icmp ne i32 %next, 0
  br i1 %more, label %loop, label %done
done:
  %first = icmp eq i32 %t, 0
  br i1 %first, label %write, label %exit
write:
  %r = load float, ptr addrspace(3) @smem, align 4
  %be = zext i32 %b to i64
  %outp = getelementptr float, ptr addrspace(1) %out, i64 %be
  store float %r, ptr addrspace(1) %outp
  br label %exit
exit:
  ret void
}
"""
)

# out[w] = sum of x[32 w .. 32 w + 31] (zeros past n) by a butterfly of warp shuffles;
# blocks must be a multiple of 32 threads.
WARP_SUM = (
    SREGS
    + """
declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32)

define ptx_kernel void @warp_sum(ptr addrspace(1) %x, ptr addrspace(1) %out, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bd = mul i32 %b, %d
  %i = add i32 %bd, %t
  %in = icmp slt i32 %i, %n
  br i1 %in, label %load, label %reduce
load:
  %ie = sext i32 %i to i64
  %p = getelementptr float, ptr addrspace(1) %x, i64 %ie
  %v = load float, ptr addrspace(1) %p
  br label %reduce
reduce:
  %v0 = phi float [ %v, %load ], [ 0.0, %entry ]
  %s16 = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %v0, i32 16, i32 31)
  %v1 = fadd float %v0, %s16
  %s8 = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %v1, i32 8, i32 31)
  %v2 = fadd float %v1, %s8
  %s4 = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %v2, i32 4, i32 31)
  %v3 = fadd float %v2, %s4
  %s2 = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %v3, i32 2, i32 31)
  %v4 = fadd float %v3, %s2
  %s1 = call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %v4, i32 1, i32 31)
  %v5 = fadd float %v4, %s1
  %lane = and i32 %t, 31
  %lead = icmp eq i32 %lane, 0
  br i1 %lead, label %write, label %exit
write:
  %w = lshr i32 %i, 5
  %we = zext i32 %w to i64
  %outp = getelementptr float, ptr addrspace(1) %out, i64 %we
  store float %v5, ptr addrspace(1) %outp
  br label %exit
exit:
  ret void
}
"""
)

# y[i] = expf(x[i]) through libdevice.
EXP = (
    SREGS
    + """
declare float @__nv_expf(float)

define ptx_kernel void @exp(ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bd = mul i32 %b, %d
  %i = add i32 %bd, %t
  %in = icmp slt i32 %i, %n
  br i1 %in, label %body, label %exit
body:
  %ie = sext i32 %i to i64
  %p = getelementptr float, ptr addrspace(1) %x, i64 %ie
  %v = load float, ptr addrspace(1) %p
  %e = call float @__nv_expf(float %v)
  %q = getelementptr float, ptr addrspace(1) %y, i64 %ie
  store float %e, ptr addrspace(1) %q
  br label %exit
exit:
  ret void
}
"""
)

# Dynamic shared memory: each thread stores x[i] at smem[t * 100], then reads its right
# neighbour's slot (cyclically in the block). Needs 400 * blockDim bytes of shared memory.
ROTATE_DYNAMIC_SHARED = (
    SREGS
    + """
@dyn = external addrspace(3) global [0 x float], align 16

define ptx_kernel void @rotate_shared(ptr addrspace(1) %x, ptr addrspace(1) %out) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %bd = mul i32 %b, %d
  %i = add i32 %bd, %t
  %ie = zext i32 %i to i64
  %p = getelementptr float, ptr addrspace(1) %x, i64 %ie
  %v = load float, ptr addrspace(1) %p
  %slot = mul i32 %t, 100
  %se = zext i32 %slot to i64
  %s = getelementptr float, ptr addrspace(3) @dyn, i64 %se
  store float %v, ptr addrspace(3) %s
  call void @llvm.nvvm.barrier0()
  %t1 = add i32 %t, 1
  %nb = urem i32 %t1, %d
  %nslot = mul i32 %nb, 100
  %ne = zext i32 %nslot to i64
  %q = getelementptr float, ptr addrspace(3) @dyn, i64 %ne
  %w = load float, ptr addrspace(3) %q
  %o = getelementptr float, ptr addrspace(1) %out, i64 %ie
  store float %w, ptr addrspace(1) %o
  ret void
}
"""
)

# Writes 4 TiB past its argument: an illegal address on any GPU.
OUT_OF_BOUNDS = (
    SREGS
    + """
define ptx_kernel void @out_of_bounds(ptr addrspace(1) %x) {
entry:
  %p = getelementptr float, ptr addrspace(1) %x, i64 1099511627776
  store volatile float 1.0, ptr addrspace(1) %p
  ret void
}
"""
)

ALL = {
    "saxpy_desc": SAXPY_DESC,
    "add_transposed_desc": ADD_TRANSPOSED_DESC,
    "fill_half_desc": FILL_HALF_DESC,
    "copy16_desc": COPY16_DESC,
    "block_sum": BLOCK_SUM,
    "warp_sum": WARP_SUM,
    "exp": EXP,
    "rotate_shared": ROTATE_DYNAMIC_SHARED,
    "out_of_bounds": OUT_OF_BOUNDS,
}
"""Kernel name -> LLVM IR module text."""
