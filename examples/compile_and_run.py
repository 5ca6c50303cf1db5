"""Compile a payload from Python, run it on numpy arrays and check it against the reference.

python examples/compile_and_run.py
"""

from pathlib import Path

import numpy as np

import schedir

payload = Path(__file__).with_name("matmul_bias_relu.mlir")
kernel = schedir.compile(payload)

rng = np.random.default_rng(0)
a = rng.uniform(-1, 1, (61, 47)).astype(np.float32)
b = rng.uniform(-1, 1, (47, 35)).astype(np.float32)
bias = rng.uniform(-1, 1, (35,)).astype(np.float32)

out = kernel(a, b, bias)  # the result as a new array; the inputs are never modified
# A checked run starts every output as NaN, so an element the kernel never writes fails.
(checked,) = kernel.run(a, b, bias, prefill_nan=True)
np.testing.assert_array_equal(checked, out)
# The reference's value and, per element, the error bound of a correct f32 computation.
(expected,) = schedir.reference.evaluate_with_bounds(payload, None, [a, b, bias])
check = schedir.reference.compare(checked, expected, np.dtype(np.float32))
print(f"{kernel.name}: {out.shape} {out.dtype}")
print(check.line())
print("stages:", ", ".join(kernel.stages))
assert check.ok
