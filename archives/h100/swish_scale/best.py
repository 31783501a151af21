"""kernelevo 0.1.0: best kernel for spec 'swish_scale'
spec sha256: 6d16efdccebfa370f6db790fa0db632519a4dab9b51be102caf72eeb7bc2498b
hardware: h100
made: 2026-11-25T13:05:29+00:00
measured on: NVIDIA H100 80GB HBM3 (vm); torch 2.11.0+cu130, triton 3.6.0, python 3.12.3, CUDA 13.0
timings: median 0.1787 ms (IQR 0.0008), 4.52x eager, 1.00x torch.compile, 100% of roofline
variants checked: small, odd, default
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice


def _kernelevo_autotune_bench(fn, quantiles):  # the autotune move's trials: 5 + 20 ms, not Triton's default 25 + 100 ms
    return triton.testing.do_bench(fn, warmup=5, rep=20, quantiles=quantiles)

@triton.autotune(configs=[triton.Config({}, num_warps=4, num_stages=1), triton.Config({}, num_warps=2, num_stages=1), triton.Config({}, num_warps=8, num_stages=1)], key=['xnumel', 'XBLOCK'], do_bench=_kernelevo_autotune_bench)
@triton.jit
def triton_poi_fused_add_mul_sigmoid_0_s0(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xnumel = 67108864
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(tl.make_block_ptr(in_ptr0, shape=[67108864], strides=[1], block_shape=[XBLOCK], order=[0], offsets=[xoffset]))
    tmp1 = tl.sigmoid(tmp0)
    tmp2 = tmp0 * tmp1
    tmp3 = tl.full([1], 2.0, tl.float32)
    tmp4 = tmp2 * tmp3
    tmp5 = tl.full([1], 1.0, tl.float32)
    tmp6 = tmp4 + tmp5
    tl.store(tl.make_block_ptr(out_ptr0, shape=[67108864], strides=[1], block_shape=[XBLOCK], order=[0], offsets=[xoffset]), tl.broadcast_to(tmp6, [XBLOCK]).to(tl.float32))

@triton.jit
def triton_poi_fused_add_mul_sigmoid_0_s1(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + x0, xmask)
    tmp1 = tl.sigmoid(tmp0)
    tmp2 = tmp0 * tmp1
    tmp3 = tl.full([1], 2.0, tl.float32)
    tmp4 = tmp2 * tmp3
    tmp5 = tl.full([1], 1.0, tl.float32)
    tmp6 = tmp4 + tmp5
    tl.store(out_ptr0 + x0, tmp6, xmask)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        sizes = tuple(tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor))
        if sizes == ((8192, 8192),):
            return self._sizes_0(*inputs)
        return self._generic(*inputs)

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf0 = torch.empty_strided((8192, 8192), (8192, 1), dtype=torch.float32, device=device)
        triton_poi_fused_add_mul_sigmoid_0_s0[(triton.cdiv(67108864, 1024), 1, 1)](arg0_1, buf0, 67108864, XBLOCK=1024)
        del arg0_1
        return buf0

    def _generic(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0].shape[0]
        arg1_1 = inputs[0].shape[1]
        arg2_1 = inputs[0]
        s33 = arg0_1
        s50 = arg1_1
        buf0 = torch.empty_strided((s33, s50), (s50, 1), dtype=torch.float32, device=device)
        triton_poi_fused_add_mul_sigmoid_0_xnumel = s33 * s50
        triton_poi_fused_add_mul_sigmoid_0_s1[(triton.cdiv(triton_poi_fused_add_mul_sigmoid_0_xnumel, 512), 1, 1)](arg2_1, buf0, triton_poi_fused_add_mul_sigmoid_0_xnumel, XBLOCK=512, num_warps=8, num_stages=1)
        del arg2_1
        return buf0
