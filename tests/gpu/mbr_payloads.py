"""Payloads of examples/matmul_bias_relu_f16_cuda.mlir's form for the CPU and GPU tests:
relu(A * B + bias) rounded to f16, the bias f16 or f32, broadcast over the rows (indexed
by column, the example's) or over the columns (indexed by row)."""

from __future__ import annotations


def bias_relu_payload(m: int, n: int, k: int, bias: str = "f16", by: str = "column") -> str:
    """The f16 matmul + bias + relu + truncf at M x N x K (`by`: "column" or "row")."""
    length, index = (n, "j") if by == "column" else (m, "i")
    c, h = f"tensor<{m}x{n}xf32>", f"tensor<{m}x{n}xf16>"
    a, b, v = f"tensor<{m}x{k}xf16>", f"tensor<{k}x{n}xf16>", f"tensor<{length}x{bias}>"
    widen = (
        "%bf = arith.extf %b : f16 to f32\n    %s = arith.addf %x, %bf : f32"
        if bias == "f16"
        else "%s = arith.addf %x, %b : f32"
    )
    return f"""func.func @matmul_bias_relu(%A: {a}, %B: {b}, %bias: {v}) -> {h} {{
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : {c}
  %acc = linalg.fill ins(%zero : f32) outs(%init : {c}) -> {c}
  %mm = linalg.matmul ins(%A, %B : {a}, {b}) outs(%acc : {c}) -> {c}
  %init16 = tensor.empty() : {h}
  %out = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                          affine_map<(i, j) -> ({index})>,
                                          affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}}
      ins(%mm, %bias : {c}, {v}) outs(%init16 : {h}) {{
  ^bb0(%x: f32, %b: {bias}, %o: f16):
    {widen}
    %r = arith.maximumf %s, %zero : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  }} -> {h}
  return %out : {h}
}}
"""
