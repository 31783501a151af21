# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "gemm_bias_gelu"
# spec sha256: "a572e6499347dae63cd59f19079c59596e7bd4f04d6ea7c2986e5463c624f312"
# hardware: "h200"
# made: "2026-11-27T10:47:02+00:00"
# candidate: {"run": 1, "number": 104, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.2014 ms (IQR 0.0013), 1.03x eager, 1.03x torch.compile, 69% of roofline (compute)"
# variants checked: ["small", "odd", "default"]

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice

@triton.jit
def triton_poi_fused_gelu_0_s0(in_out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xnumel = 16777216
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + x0, None).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.full([1], 0.5, tl.float32)
    tmp3 = tmp1 * tmp2
    tmp4 = tmp1 * tmp1
    tmp5 = tmp4 * tmp1
    tmp6 = tl.full([1], 0.044715, tl.float32)
    tmp7 = tmp5 * tmp6
    tmp8 = tmp1 + tmp7
    tmp9 = tl.full([1], 0.7978845608028654, tl.float32)
    tmp10 = tmp8 * tmp9
    tmp11 = (1.0 - 2.0 / (1.0 + tl.exp2(2.885390081777927 * (tmp10))))
    tmp12 = tl.full([1], 1.0, tl.float32)
    tmp13 = tmp11 + tmp12
    tmp14 = tmp3 * tmp13
    tmp15 = tmp14.to(tl.float32)
    tl.store(in_out_ptr0 + x0, tmp15, None)

@triton.jit
def triton_poi_fused_gelu_0_s1(in_out_ptr0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 3072
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + x0, xmask).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.full([1], 0.5, tl.float32)
    tmp3 = tmp1 * tmp2
    tmp4 = tmp1 * tmp1
    tmp5 = tmp4 * tmp1
    tmp6 = tl.full([1], 0.044715, tl.float32)
    tmp7 = tmp5 * tmp6
    tmp8 = tmp1 + tmp7
    tmp9 = tl.full([1], 0.7978845608028654, tl.float32)
    tmp10 = tmp8 * tmp9
    tmp11 = libdevice.tanh(tmp10)
    tmp12 = tl.full([1], 1.0, tl.float32)
    tmp13 = tmp11 + tmp12
    tmp14 = tmp3 * tmp13
    tmp15 = tmp14.to(tl.float32)
    tl.store(in_out_ptr0 + x0, tmp15, xmask)

@triton.jit
def triton_poi_fused_gelu_0_s2(in_out_ptr0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 1485
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + x0, xmask).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.full([1], 0.5, tl.float32)
    tmp3 = tmp1 * tmp2
    tmp4 = tmp1 * tmp1
    tmp5 = tmp4 * tmp1
    tmp6 = tl.full([1], 0.044715, tl.float32)
    tmp7 = tmp5 * tmp6
    tmp8 = tmp1 + tmp7
    tmp9 = tl.full([1], 0.7978845608028654, tl.float32)
    tmp10 = tmp8 * tmp9
    tmp11 = libdevice.tanh(tmp10)
    tmp12 = tl.full([1], 1.0, tl.float32)
    tmp13 = tmp11 + tmp12
    tmp14 = tmp3 * tmp13
    tmp15 = tmp14.to(tl.float32)
    tl.store(in_out_ptr0 + x0, tmp15, xmask)

@triton.jit
def triton_poi_fused_gelu_0_s3(in_out_ptr0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + x0, xmask).to(tl.float32)
    tmp1 = tmp0.to(tl.float32)
    tmp2 = tl.full([1], 0.5, tl.float32)
    tmp3 = tmp1 * tmp2
    tmp4 = tmp1 * tmp1
    tmp5 = tmp4 * tmp1
    tmp6 = tl.full([1], 0.044715, tl.float32)
    tmp7 = tmp5 * tmp6
    tmp8 = tmp1 + tmp7
    tmp9 = tl.full([1], 0.7978845608028654, tl.float32)
    tmp10 = tmp8 * tmp9
    tmp11 = libdevice.tanh(tmp10)
    tmp12 = tl.full([1], 1.0, tl.float32)
    tmp13 = tmp11 + tmp12
    tmp14 = tmp3 * tmp13
    tmp15 = tmp14.to(tl.float32)
    tl.store(in_out_ptr0 + x0, tmp15, xmask)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()
        self.linear = nn.ModuleDict()
        self.linear.weight = nn.Parameter(torch.empty((init[1], init[0])))
        self.linear.bias = nn.Parameter(torch.empty((init[1],)))

    def forward(self, *inputs):
        sizes = tuple(tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor))
        if sizes == ((4096, 4096),):
            return self._sizes_0(*inputs)
        if sizes == ((64, 80),):
            return self._sizes_1(*inputs)
        if sizes == ((33, 70),):
            return self._sizes_2(*inputs)
        return self._generic(*inputs)

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = self.linear.weight
        arg1_1 = self.linear.bias
        arg2_1 = inputs[0]
        buf0 = torch.empty_strided((4096, 4096), (4096, 1), dtype=torch.float16, device=device)
        torch.addmm(arg1_1, arg2_1, torch.as_strided(arg0_1, (4096, 4096), (1, 4096), 0), alpha=1, beta=1, out=buf0)
        del arg0_1
        del arg1_1
        del arg2_1
        buf1 = buf0
        del buf0
        triton_poi_fused_gelu_0_s0[(triton.cdiv(16777216, 2048), 1, 1)](buf1, 16777216, XBLOCK=2048, num_warps=4, num_stages=2)
        return buf1

    def _sizes_1(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = self.linear.weight
        arg1_1 = self.linear.bias
        arg2_1 = inputs[0]
        buf0 = torch.empty_strided((64, 48), (48, 1), dtype=torch.float16, device=device)
        torch.addmm(arg1_1, arg2_1, torch.as_strided(arg0_1, (80, 48), (1, 80), 0), alpha=1, beta=1, out=buf0)
        del arg0_1
        del arg1_1
        del arg2_1
        buf1 = buf0
        del buf0
        triton_poi_fused_gelu_0_s1[(triton.cdiv(3072, 256), 1, 1)](buf1, 3072, XBLOCK=256, num_warps=4, num_stages=1)
        return buf1

    def _sizes_2(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = self.linear.weight
        arg1_1 = self.linear.bias
        arg2_1 = inputs[0]
        buf0 = torch.empty_strided((33, 45), (45, 1), dtype=torch.float16, device=device)
        torch.addmm(arg1_1, arg2_1, torch.as_strided(arg0_1, (70, 45), (1, 70), 0), alpha=1, beta=1, out=buf0)
        del arg0_1
        del arg1_1
        del arg2_1
        buf1 = buf0
        del buf0
        triton_poi_fused_gelu_0_s2[(triton.cdiv(1485, 128), 1, 1)](buf1, 1485, XBLOCK=128, num_warps=4, num_stages=1)
        return buf1

    def _generic(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = self.linear.weight.shape[0]
        arg1_1 = self.linear.weight.shape[1]
        arg2_1 = self.linear.weight
        arg3_1 = self.linear.bias
        arg4_1 = inputs[0].shape[0]
        arg5_1 = inputs[0]
        s33 = arg0_1
        s50 = arg1_1
        s21 = arg4_1
        buf0 = torch.empty_strided((s21, s33), (s33, 1), dtype=torch.float16, device=device)
        torch.addmm(arg3_1, arg5_1, torch.as_strided(arg2_1, (s50, s33), (1, s50), 0), alpha=1, beta=1, out=buf0)
        del arg2_1
        del arg3_1
        del arg5_1
        buf1 = buf0
        del buf0
        triton_poi_fused_gelu_0_xnumel = s21 * s33
        triton_poi_fused_gelu_0_s3[(triton.cdiv(triton_poi_fused_gelu_0_xnumel, 512), 1, 1)](buf1, triton_poi_fused_gelu_0_xnumel, XBLOCK=512, num_warps=8, num_stages=1)
        return buf1
