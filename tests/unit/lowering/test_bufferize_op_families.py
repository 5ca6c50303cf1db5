"""One-shot bufferization (the transform op, with and without function boundaries) takes
every tensor op family upstream's takes, and the bufferized payload computes what the
reference computes.

Each case is a small payload of one family (linalg named ops incl. softmax, conv,
batch_matmul, matvec, transpose, broadcast, reduce, map; tensor pad, concat, expand,
collapse, insert / extract, from_elements, generate; vector transfers and `vector.mask`
around transfers on tensors; scf.forall / for / if) bufferized by
`transform.bufferization.one_shot_bufferize` and compiled for the CPU. Payloads of vector
ops are compared with the reference of an equivalent linalg payload (the reference
evaluator does not run vector IR).
"""

from __future__ import annotations

import pytest

import schedir
from tests.helpers import check_kernel

T35 = "tensor<3x5xf32>"

CASES: dict[str, tuple[str, str, str]] = {
    "softmax": (
        "%A: tensor<5x7xf32>, %C: tensor<5x7xf32>",
        "tensor<5x7xf32>",
        "%r = linalg.softmax dimension(0) ins(%A : tensor<5x7xf32>) outs(%C : tensor<5x7xf32>)"
        " -> tensor<5x7xf32>",
    ),
    "conv": (
        "%A: tensor<1x7x9x3xf32>, %B: tensor<3x3x3x5xf32>, %C: tensor<1x5x7x5xf32>",
        "tensor<1x5x7x5xf32>",
        "%r = linalg.conv_2d_nhwc_hwcf ins(%A, %B : tensor<1x7x9x3xf32>, tensor<3x3x3x5xf32>)"
        " outs(%C : tensor<1x5x7x5xf32>) -> tensor<1x5x7x5xf32>",
    ),
    "batch_matmul": (
        "%A: tensor<2x3x5xf32>, %B: tensor<2x5x7xf32>, %C: tensor<2x3x7xf32>",
        "tensor<2x3x7xf32>",
        "%r = linalg.batch_matmul ins(%A, %B : tensor<2x3x5xf32>, tensor<2x5x7xf32>)"
        " outs(%C : tensor<2x3x7xf32>) -> tensor<2x3x7xf32>",
    ),
    "matvec": (
        "%A: tensor<3x5xf32>, %B: tensor<5xf32>, %C: tensor<3xf32>",
        "tensor<3xf32>",
        "%r = linalg.matvec ins(%A, %B : tensor<3x5xf32>, tensor<5xf32>)"
        " outs(%C : tensor<3xf32>) -> tensor<3xf32>",
    ),
    "transpose": (
        f"%A: {T35}, %C: tensor<5x3xf32>",
        "tensor<5x3xf32>",
        f"%r = linalg.transpose ins(%A : {T35}) outs(%C : tensor<5x3xf32>) permutation = [1, 0]",
    ),
    "broadcast": (
        f"%A: tensor<3xf32>, %C: {T35}",
        T35,
        f"%r = linalg.broadcast ins(%A : tensor<3xf32>) outs(%C : {T35}) dimensions = [1]",
    ),
    "reduce": (
        f"%A: {T35}, %C: tensor<3xf32>",
        "tensor<3xf32>",
        f"%r = linalg.reduce ins(%A : {T35}) outs(%C : tensor<3xf32>) dimensions = [1]\n"
        "      (%x: f32, %o: f32) {\n"
        "        %s = arith.addf %x, %o : f32\n"
        "        linalg.yield %s : f32\n"
        "      }",
    ),
    "map": (
        f"%A: {T35}, %B: {T35}, %C: {T35}",
        T35,
        f"%r = linalg.map ins(%A, %B : {T35}, {T35}) outs(%C : {T35})\n"
        "      (%x: f32, %y: f32, %o: f32) {\n"
        "        %s = arith.mulf %x, %y : f32\n"
        "        linalg.yield %s : f32\n"
        "      }",
    ),
    "pad": (
        f"%A: {T35}",
        "tensor<6x8xf32>",
        "%z = arith.constant 0.5 : f32\n"
        "    %r = tensor.pad %A low[1, 2] high[2, 1] {\n"
        "    ^bb0(%i: index, %j: index):\n"
        "      tensor.yield %z : f32\n"
        f"    }} : {T35} to tensor<6x8xf32>",
    ),
    "concat": (
        f"%A: {T35}, %B: tensor<2x5xf32>",
        "tensor<5x5xf32>",
        f"%r = tensor.concat dim(0) %A, %B : ({T35}, tensor<2x5xf32>) -> tensor<5x5xf32>",
    ),
    "expand": (
        "%A: tensor<15xf32>",
        T35,
        f"%r = tensor.expand_shape %A [[0, 1]] output_shape [3, 5] : tensor<15xf32> into {T35}",
    ),
    "collapse": (
        f"%A: {T35}",
        "tensor<15xf32>",
        f"%r = tensor.collapse_shape %A [[0, 1]] : {T35} into tensor<15xf32>",
    ),
    "insert_extract": (
        f"%A: {T35}",
        T35,
        "%c1 = arith.constant 1 : index\n"
        "    %c2 = arith.constant 2 : index\n"
        f"    %e = tensor.extract %A[%c1, %c2] : {T35}\n"
        "    %d = arith.addf %e, %e : f32\n"
        f"    %r = tensor.insert %d into %A[%c2, %c1] : {T35}",
    ),
    "from_elements": (
        "%a: f32, %b: f32",
        "tensor<2xf32>",
        "%r = tensor.from_elements %a, %b : tensor<2xf32>",
    ),
    "generate": (
        "%A: tensor<3xf32>",
        "tensor<3x4xf32>",
        "%r = tensor.generate {\n"
        "    ^bb0(%i: index, %j: index):\n"
        "      %e = tensor.extract %A[%i] : tensor<3xf32>\n"
        "      tensor.yield %e : f32\n"
        "    } : tensor<3x4xf32>",
    ),
    "forall": (
        "%A: tensor<6xf32>, %C: tensor<6xf32>",
        "tensor<6xf32>",
        "%r = scf.forall (%i) in (3) shared_outs(%o = %C) -> (tensor<6xf32>) {\n"
        "      %s = tensor.extract_slice %A[%i] [2] [3] : tensor<6xf32> to tensor<2xf32>\n"
        "      scf.forall.in_parallel {\n"
        "        tensor.parallel_insert_slice %s into %o[%i] [2] [3]"
        " : tensor<2xf32> into tensor<6xf32>\n"
        "      }\n"
        "    }",
    ),
    "for": (
        "%A: tensor<6xf32>, %C: tensor<6xf32>",
        "tensor<6xf32>",
        "%c0 = arith.constant 0 : index\n"
        "    %c1 = arith.constant 1 : index\n"
        "    %c6 = arith.constant 6 : index\n"
        "    %r = scf.for %i = %c0 to %c6 step %c1 iter_args(%o = %C) -> (tensor<6xf32>) {\n"
        "      %e = tensor.extract %A[%i] : tensor<6xf32>\n"
        "      %n = tensor.insert %e into %o[%i] : tensor<6xf32>\n"
        "      scf.yield %n : tensor<6xf32>\n"
        "    }",
    ),
    "if": (
        "%A: tensor<6xf32>, %C: tensor<6xf32>, %c: i1",
        "tensor<6xf32>",
        "%r = scf.if %c -> (tensor<6xf32>) {\n"
        "      scf.yield %A : tensor<6xf32>\n"
        "    } else {\n"
        "      scf.yield %C : tensor<6xf32>\n"
        "    }",
    ),
}

COPY = f"%r = linalg.copy ins(%A : {T35}) outs(%C : {T35}) -> {T35}"

VECTOR_CASES: dict[str, tuple[str, str, str, str]] = {
    "transfer": (
        f"%A: {T35}, %C: {T35}",
        T35,
        "%c0 = arith.constant 0 : index\n"
        "    %p = arith.constant 0.0 : f32\n"
        f"    %v = vector.transfer_read %A[%c0, %c0], %p : {T35}, vector<3x5xf32>\n"
        f"    %r = vector.transfer_write %v, %C[%c0, %c0] : vector<3x5xf32>, {T35}",
        COPY,
    ),
    "masked_transfers": (
        f"%A: {T35}, %C: {T35}",
        T35,
        "%c0 = arith.constant 0 : index\n"
        "    %c3 = arith.constant 3 : index\n"
        "    %c5 = arith.constant 5 : index\n"
        "    %p = arith.constant 0.0 : f32\n"
        "    %m = vector.create_mask %c3, %c5 : vector<4x8xi1>\n"
        "    %v = vector.mask %m { vector.transfer_read %A[%c0, %c0], %p"
        f" : {T35}, vector<4x8xf32> }} : vector<4x8xi1> -> vector<4x8xf32>\n"
        "    %r = vector.mask %m { vector.transfer_write %v, %C[%c0, %c0]"
        f" : vector<4x8xf32>, {T35} }} : vector<4x8xi1> -> {T35}",
        COPY,
    ),
    "masked_partial_write": (
        f"%A: {T35}, %C: {T35}",
        T35,
        "%c0 = arith.constant 0 : index\n"
        "    %c2 = arith.constant 2 : index\n"
        "    %c3 = arith.constant 3 : index\n"
        "    %p = arith.constant 0.0 : f32\n"
        "    %m = vector.create_mask %c2, %c3 : vector<4x8xi1>\n"
        "    %v = vector.mask %m { vector.transfer_read %A[%c0, %c0], %p"
        f" : {T35}, vector<4x8xf32> }} : vector<4x8xi1> -> vector<4x8xf32>\n"
        "    %r = vector.mask %m { vector.transfer_write %v, %C[%c0, %c0]"
        f" : vector<4x8xf32>, {T35} }} : vector<4x8xi1> -> {T35}",
        # rows 0-1, columns 0-2 of A into C
        "%s = tensor.extract_slice %A[0, 0] [2, 3] [1, 1] : tensor<3x5xf32> to tensor<2x3xf32>\n"
        "    %r = tensor.insert_slice %s into %C[0, 0] [2, 3] [1, 1]"
        f" : tensor<2x3xf32> into {T35}",
    ),
}


def module(args: str, result: str, body: str, boundaries: bool | None) -> str:
    """`body` in `@k`, with a schedule that bufferizes it (none when `boundaries` is None)."""
    schedule = ""
    if boundaries is not None:
        flag = "true" if boundaries else "false"
        target = "%root" if boundaries else "%f"
        match = (
            ""
            if boundaries
            else '    %f = transform.structured.match ops{["func.func"]} in %root'
            " : (!transform.any_op) -> !transform.any_op\n"
        )
        schedule = (
            "  transform.named_sequence @__transform_main(%root: !transform.any_op"
            " {transform.consumed}) {\n"
            f"{match}"
            f"    %b = transform.bufferization.one_shot_bufferize {target}"
            f" <{{bufferize_function_boundaries = {flag}}}>"
            " : (!transform.any_op) -> !transform.any_op\n"
            "    transform.yield\n  }\n"
        )
    return (
        "module attributes {transform.with_named_sequence} {\n"
        f"  func.func @k({args}) -> {result} {{\n    {body}\n    return %r : {result}\n  }}\n"
        f"{schedule}}}\n"
    )


@pytest.mark.parametrize("boundaries", [True, False])
@pytest.mark.parametrize("name", sorted(CASES))
def test_one_shot_bufferize_family(name: str, boundaries: bool) -> None:
    args, result, body = CASES[name]
    payload = module(args, result, body, None)
    kernel = schedir.compile(module(args, result, body, boundaries))
    check_kernel(kernel, payload, reduction=None)


@pytest.mark.parametrize("boundaries", [True, False])
@pytest.mark.parametrize("name", sorted(VECTOR_CASES))
def test_one_shot_bufferize_vector_family(name: str, boundaries: bool) -> None:
    args, result, body, equivalent = VECTOR_CASES[name]
    kernel = schedir.compile(module(args, result, body, boundaries))
    check_kernel(kernel, module(args, result, equivalent, None))
