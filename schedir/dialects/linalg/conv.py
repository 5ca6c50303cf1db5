"""linalg's named convolution and pooling ops, in upstream syntax.

    %o2 = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>}
            ins(%i, %k : tensor<1x9x9x3xf32>, tensor<3x3x3x8xf32>)
            outs(%o : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>

`strides` and `dilations` are optional (default 1), printed only when given, as upstream.
Bodies are OpDSL's: convolutions multiply-accumulate with signed casts to the output type,
poolings combine the output with the cast input (the second input only shapes the window).
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Mapping, Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import DenseIntElementsAttr, DenseIntOrFPElementsAttr, TensorType, i64
from xdsl.ir import Attribute, Block
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_op_definition, opt_prop_def
from xdsl.utils.exceptions import VerifyException

from schedir.dialects.linalg.base import BinaryFn, binary, cast_to
from schedir.dialects.linalg.generic import YieldOp
from schedir.dialects.linalg.named import (
    NamedStructuredOp,
    affine_maps,
    loop_dims,
    multiply_accumulate,
)


class WindowedOp(NamedStructuredOp, ABC):
    """Convolutions and poolings: optional `strides` / `dilations` (default 1)."""

    strides = opt_prop_def(DenseIntElementsAttr)
    dilations = opt_prop_def(DenseIntElementsAttr)

    SPATIAL: ClassVar[int] = 2

    def _window_params(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        def values(attr: DenseIntElementsAttr | None) -> tuple[int, ...]:
            if attr is None:
                return (1,) * self.SPATIAL
            return tuple(cast(int, v) for v in attr.get_values())

        return values(self.strides), values(self.dilations)

    def verify_(self) -> None:
        for name_, attr in (("strides", self.strides), ("dilations", self.dilations)):
            if attr is not None and len(attr.get_values()) != self.SPATIAL:
                raise VerifyException(
                    f"attribute '{name_}' failed to satisfy constraint: 64-bit signless "
                    f"int elements attribute of shape [{self.SPATIAL}]"
                )
        if 0 in (v for values in self._window_params() for v in values):
            # A zero stride or dilation drops a loop from the input's indexing map; upstream's
            # convolution interface rejects the op with this message.
            raise VerifyException("unexpected loop dimension for convolution op")
        super().verify_()


def window_attr(values: Sequence[int]) -> DenseIntElementsAttr:
    """`dense<[2, 2]> : tensor<2xi64>`, the type upstream gives strides and dilations."""
    return DenseIntOrFPElementsAttr.from_list(TensorType(i64, [len(values)]), list(values))


class _ConvolutionOp(WindowedOp, ABC):
    """Convolutions: `out += in * kernel` over the window (upstream's multiply-accumulate body)."""

    @classmethod
    def fill_body(
        cls, block: Block, num_inputs: int, properties: Mapping[str, Attribute | None]
    ) -> None:
        multiply_accumulate(block, num_inputs, {})


@irdl_op_definition
class Conv2DNhwcHwcfOp(_ConvolutionOp):
    """2-D convolution, input NHWC, kernel HWCF, output NHWF.

    %o2 = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>}
            ins(%i, %k : tensor<1x9x9x3xf32>, tensor<3x3x3x8xf32>)
            outs(%o : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
    """

    name = "linalg.conv_2d_nhwc_hwcf"
    ITERATORS: ClassVar[tuple[str, ...]] = ("parallel",) * 4 + ("reduction",) * 3

    def default_indexing_maps(self) -> tuple[AffineMap, ...]:
        n, oh, ow, f, kh, kw, c = loop_dims(7)
        (sh, sw), (dh, dw) = self._window_params()
        return affine_maps(
            7, (n, oh * sh + kh * dh, ow * sw + kw * dw, c), (kh, kw, c, f), (n, oh, ow, f)
        )


@irdl_op_definition
class Conv2DNhwcFhwcOp(_ConvolutionOp):
    """2-D convolution, input NHWC, kernel FHWC, output NHWF.

    %o2 = linalg.conv_2d_nhwc_fhwc ins(%i, %k : tensor<1x6x6x3xf32>, tensor<8x3x3x3xf32>)
            outs(%o : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
    """

    name = "linalg.conv_2d_nhwc_fhwc"
    ITERATORS: ClassVar[tuple[str, ...]] = ("parallel",) * 4 + ("reduction",) * 3

    def default_indexing_maps(self) -> tuple[AffineMap, ...]:
        n, oh, ow, f, kh, kw, c = loop_dims(7)
        (sh, sw), (dh, dw) = self._window_params()
        return affine_maps(
            7, (n, oh * sh + kh * dh, ow * sw + kw * dw, c), (f, kh, kw, c), (n, oh, ow, f)
        )


@irdl_op_definition
class Conv2DNchwFchwOp(_ConvolutionOp):
    """2-D convolution, input NCHW, kernel FCHW, output NFHW.

    %o2 = linalg.conv_2d_nchw_fchw ins(%i, %k : tensor<1x3x6x6xf32>, tensor<8x3x3x3xf32>)
            outs(%o : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    """

    name = "linalg.conv_2d_nchw_fchw"
    ITERATORS: ClassVar[tuple[str, ...]] = ("parallel",) * 4 + ("reduction",) * 3

    def default_indexing_maps(self) -> tuple[AffineMap, ...]:
        n, f, oh, ow, c, kh, kw = loop_dims(7)
        (sh, sw), (dh, dw) = self._window_params()
        return affine_maps(
            7, (n, c, oh * sh + kh * dh, ow * sw + kw * dw), (f, c, kh, kw), (n, f, oh, ow)
        )


@irdl_op_definition
class DepthwiseConv2DNhwcHwcOp(_ConvolutionOp):
    """Depthwise 2-D convolution, input NHWC, kernel HWC, output NHWC (one filter per channel).

    %o2 = linalg.depthwise_conv_2d_nhwc_hwc ins(%i, %k : tensor<1x6x6x8xf32>, tensor<3x3x8xf32>)
            outs(%o : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
    """

    name = "linalg.depthwise_conv_2d_nhwc_hwc"
    ITERATORS: ClassVar[tuple[str, ...]] = ("parallel",) * 4 + ("reduction",) * 2

    def default_indexing_maps(self) -> tuple[AffineMap, ...]:
        n, oh, ow, c, kh, kw = loop_dims(6)
        (sh, sw), (dh, dw) = self._window_params()
        return affine_maps(
            6, (n, oh * sh + kh * dh, ow * sw + kw * dw, c), (kh, kw, c), (n, oh, ow, c)
        )


class _PoolingOp(WindowedOp, ABC):
    """Pooling: `out = fn(out, cast(in))`; the second input only gives the window."""

    COMBINE: ClassVar[BinaryFn] = BinaryFn.MAX_SIGNED

    @classmethod
    def fill_body(
        cls, block: Block, num_inputs: int, properties: Mapping[str, Attribute | None]
    ) -> None:
        out = block.args[num_inputs]
        value = cast_to(block, block.args[0], out.type)
        block.add_op(YieldOp(binary(block, cls.COMBINE, out, value)))


class _PoolingNchwOp(_PoolingOp, ABC):
    ITERATORS: ClassVar[tuple[str, ...]] = ("parallel",) * 4 + ("reduction",) * 2

    def default_indexing_maps(self) -> tuple[AffineMap, ...]:
        n, c, oh, ow, kh, kw = loop_dims(6)
        (sh, sw), (dh, dw) = self._window_params()
        return affine_maps(
            6, (n, c, oh * sh + kh * dh, ow * sw + kw * dw), (kh, kw), (n, c, oh, ow)
        )


class _PoolingNhwcOp(_PoolingOp, ABC):
    ITERATORS: ClassVar[tuple[str, ...]] = ("parallel",) * 4 + ("reduction",) * 2

    def default_indexing_maps(self) -> tuple[AffineMap, ...]:
        n, oh, ow, c, kh, kw = loop_dims(6)
        (sh, sw), (dh, dw) = self._window_params()
        return affine_maps(
            6, (n, oh * sh + kh * dh, ow * sw + kw * dw, c), (kh, kw), (n, oh, ow, c)
        )


@irdl_op_definition
class PoolingNchwMaxOp(_PoolingNchwOp):
    """Max pooling over NCHW input with a (kh, kw) window.

    %o2 = linalg.pooling_nchw_max ins(%i, %w : tensor<1x3x6x6xf32>, tensor<3x3xf32>)
            outs(%o : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
    """

    name = "linalg.pooling_nchw_max"


@irdl_op_definition
class PoolingNchwSumOp(_PoolingNchwOp):
    """Sum pooling over NCHW input with a (kh, kw) window.

    %o2 = linalg.pooling_nchw_sum ins(%i, %w : tensor<1x3x6x6xf32>, tensor<3x3xf32>)
            outs(%o : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
    """

    name = "linalg.pooling_nchw_sum"
    COMBINE: ClassVar[BinaryFn] = BinaryFn.ADD


@irdl_op_definition
class PoolingNhwcMaxOp(_PoolingNhwcOp):
    """Max pooling over NHWC input with a (kh, kw) window.

    %o2 = linalg.pooling_nhwc_max ins(%i, %w : tensor<1x6x6x3xf32>, tensor<3x3xf32>)
            outs(%o : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
    """

    name = "linalg.pooling_nhwc_max"


@irdl_op_definition
class PoolingNhwcMinOp(_PoolingNhwcOp):
    """Min pooling over NHWC input with a (kh, kw) window.

    %o2 = linalg.pooling_nhwc_min ins(%i, %w : tensor<1x6x6x3xf32>, tensor<3x3xf32>)
            outs(%o : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
    """

    name = "linalg.pooling_nhwc_min"
    COMBINE: ClassVar[BinaryFn] = BinaryFn.MIN_SIGNED


@irdl_op_definition
class PoolingNhwcSumOp(_PoolingNhwcOp):
    """Sum pooling over NHWC input with a (kh, kw) window.

    %o2 = linalg.pooling_nhwc_sum ins(%i, %w : tensor<1x6x6x3xf32>, tensor<3x3xf32>)
            outs(%o : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
    """

    name = "linalg.pooling_nhwc_sum"
    COMBINE: ClassVar[BinaryFn] = BinaryFn.ADD


CONV_OPS = (
    Conv2DNhwcHwcfOp,
    Conv2DNhwcFhwcOp,
    Conv2DNchwFchwOp,
    DepthwiseConv2DNhwcHwcOp,
    PoolingNchwMaxOp,
    PoolingNchwSumOp,
    PoolingNhwcMaxOp,
    PoolingNhwcMinOp,
    PoolingNhwcSumOp,
)
"""Every convolution and pooling op class defined here."""
