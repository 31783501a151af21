# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "gelu_erf"
# spec sha256: "64e80d6b8ebd74f880d57e5c01f3332069042bc75108a4984b98d20b9d6d5596"
# hardware: "h200"
# made: "2026-11-27T00:09:47+00:00"
# candidate: {"run": 1, "number": 2, "operator": "seed", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.2533 ms (IQR 0.0016), 1.00x eager, 1.00x torch.compile, 100% of roofline (copy)"
# variants checked: ["small", "odd", "default"]

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice

@triton.jit
def triton_poi_fused_gelu_0_s0(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xnumel = 134217728
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(tl.make_block_ptr(in_ptr0, shape=[134217728], strides=[1], block_shape=[XBLOCK], order=[0], offsets=[xoffset]))
    tmp1 = tl.full([1], 0.5, tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = tl.full([1], 0.7071067811865476, tl.float32)
    tmp4 = tmp0 * tmp3
    tmp5 = libdevice.erf(tmp4)
    tmp6 = tl.full([1], 1.0, tl.float32)
    tmp7 = tmp5 + tmp6
    tmp8 = tmp2 * tmp7
    tl.store(tl.make_block_ptr(out_ptr0, shape=[134217728], strides=[1], block_shape=[XBLOCK], order=[0], offsets=[xoffset]), tl.broadcast_to(tmp8, [XBLOCK]).to(tl.float32))

@triton.jit
def triton_poi_fused_gelu_0_s1(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 8000
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + x0, xmask)
    tmp1 = tl.full([1], 0.5, tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = tl.full([1], 0.7071067811865476, tl.float32)
    tmp4 = tmp0 * tmp3
    tmp5 = libdevice.erf(tmp4)
    tmp6 = tl.full([1], 1.0, tl.float32)
    tmp7 = tmp5 + tmp6
    tmp8 = tmp2 * tmp7
    tl.store(out_ptr0 + x0, tmp8, xmask)

@triton.jit
def triton_poi_fused_gelu_0_s2(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 7655
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + x0, xmask)
    tmp1 = tl.full([1], 0.5, tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = tl.full([1], 0.7071067811865476, tl.float32)
    tmp4 = tmp0 * tmp3
    tmp5 = libdevice.erf(tmp4)
    tmp6 = tl.full([1], 1.0, tl.float32)
    tmp7 = tmp5 + tmp6
    tmp8 = tmp2 * tmp7
    tl.store(out_ptr0 + x0, tmp8, xmask)

@triton.jit
def triton_poi_fused_gelu_0_s3(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + x0, xmask)
    tmp1 = tl.full([1], 0.5, tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = tl.full([1], 0.7071067811865476, tl.float32)
    tmp4 = tmp0 * tmp3
    tmp5 = libdevice.erf(tmp4)
    tmp6 = tl.full([1], 1.0, tl.float32)
    tmp7 = tmp5 + tmp6
    tmp8 = tmp2 * tmp7
    tl.store(out_ptr0 + x0, tmp8, xmask)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        sizes = tuple(tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor))
        if sizes == ((8192, 16384),):
            return self._sizes_0(*inputs)
        if sizes == ((8, 1000),):
            return self._sizes_1(*inputs)
        if sizes == ((5, 1531),):
            return self._sizes_2(*inputs)
        return self._generic(*inputs)

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf0 = torch.empty_strided((8192, 16384), (16384, 1), dtype=torch.float32, device=device)
        triton_poi_fused_gelu_0_s0[(triton.cdiv(134217728, 1024), 1, 1)](arg0_1, buf0, 134217728, XBLOCK=1024, num_warps=4, num_stages=1)
        del arg0_1
        return buf0

    def _sizes_1(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf0 = torch.empty_strided((8, 1000), (1000, 1), dtype=torch.float32, device=device)
        triton_poi_fused_gelu_0_s1[(triton.cdiv(8000, 256), 1, 1)](arg0_1, buf0, 8000, XBLOCK=256, num_warps=4, num_stages=1)
        del arg0_1
        return buf0

    def _sizes_2(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf0 = torch.empty_strided((5, 1531), (1531, 1), dtype=torch.float32, device=device)
        triton_poi_fused_gelu_0_s2[(triton.cdiv(7655, 128), 1, 1)](arg0_1, buf0, 7655, XBLOCK=128, num_warps=4, num_stages=1)
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
        triton_poi_fused_gelu_0_xnumel = s33 * s50
        triton_poi_fused_gelu_0_s3[(triton.cdiv(triton_poi_fused_gelu_0_xnumel, 512), 1, 1)](arg2_1, buf0, triton_poi_fused_gelu_0_xnumel, XBLOCK=512, num_warps=8, num_stages=1)
        del arg2_1
        return buf0
