# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "hardtanh"
# spec sha256: "2ff91c12c1940ff41f1ac0f6f0b9582bc502e92d6bcc8fc92b6af9fab81be66e"
# hardware: "h200"
# made: "2026-11-27T00:10:04+00:00"
# candidate: {"run": 1, "number": 26, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.2524 ms (IQR 0.0018), 1.01x eager, 1.01x torch.compile, 100% of roofline (copy)"
# variants checked: ["small", "odd", "default"]

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice


def _kernelevo_autotune_bench(fn, quantiles):  # the autotune move's trials: 5 + 20 ms, not Triton's default 25 + 100 ms
    return triton.testing.do_bench(fn, warmup=5, rep=20, quantiles=quantiles)

@triton.jit
def maximum(a, b):
    mask = a > b
    if is_floating(a):
        mask |= a != a
    return tl.where(mask, a, b)

@triton.jit
def minimum(a, b):
    mask = a < b
    if is_floating(a):
        mask |= a != a
    return tl.where(mask, a, b)

@triton.jit
def is_floating(x):
    return promote_to_tensor(x).dtype.is_floating()

@triton.jit
def promote_to_tensor(x):
    return x + tl.zeros((1,), tl.int1)

@triton.autotune(configs=[triton.Config({}, num_warps=4, num_stages=1), triton.Config({}, num_warps=2, num_stages=1), triton.Config({}, num_warps=8, num_stages=1)], key=['xnumel', 'XBLOCK'], do_bench=_kernelevo_autotune_bench)
@triton.jit
def triton_poi_fused_hardtanh_0_s0(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xnumel = 134217728
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + x0, None)
    tmp1 = tl.full([1], -1.0, tl.float32)
    tmp2 = maximum(tmp0, tmp1)
    tmp3 = tl.full([1], 1.0, tl.float32)
    tmp4 = minimum(tmp2, tmp3)
    tl.store(out_ptr0 + x0, tmp4, None)

@triton.jit
def triton_poi_fused_hardtanh_0_s1(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 8000
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + x0, xmask)
    tmp1 = tl.full([1], -1.0, tl.float32)
    tmp2 = maximum(tmp0, tmp1)
    tmp3 = tl.full([1], 1.0, tl.float32)
    tmp4 = minimum(tmp2, tmp3)
    tl.store(out_ptr0 + x0, tmp4, xmask)

@triton.jit
def triton_poi_fused_hardtanh_0_s2(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 7655
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + x0, xmask)
    tmp1 = tl.full([1], -1.0, tl.float32)
    tmp2 = maximum(tmp0, tmp1)
    tmp3 = tl.full([1], 1.0, tl.float32)
    tmp4 = minimum(tmp2, tmp3)
    tl.store(out_ptr0 + x0, tmp4, xmask)

@triton.jit
def triton_poi_fused_hardtanh_0_s3(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + x0, xmask)
    tmp1 = tl.full([1], -1.0, tl.float32)
    tmp2 = maximum(tmp0, tmp1)
    tmp3 = tl.full([1], 1.0, tl.float32)
    tmp4 = minimum(tmp2, tmp3)
    tl.store(out_ptr0 + x0, tmp4, xmask)


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
        triton_poi_fused_hardtanh_0_s0[(triton.cdiv(134217728, 512), 1, 1)](arg0_1, buf0, 134217728, XBLOCK=512)
        del arg0_1
        return buf0

    def _sizes_1(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf0 = torch.empty_strided((8, 1000), (1000, 1), dtype=torch.float32, device=device)
        triton_poi_fused_hardtanh_0_s1[(triton.cdiv(8000, 256), 1, 1)](arg0_1, buf0, 8000, XBLOCK=256, num_warps=4, num_stages=1)
        del arg0_1
        return buf0

    def _sizes_2(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf0 = torch.empty_strided((5, 1531), (1531, 1), dtype=torch.float32, device=device)
        triton_poi_fused_hardtanh_0_s2[(triton.cdiv(7655, 256), 1, 1)](arg0_1, buf0, 7655, XBLOCK=256, num_warps=4, num_stages=1)
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
        triton_poi_fused_hardtanh_0_xnumel = s33 * s50
        triton_poi_fused_hardtanh_0_s3[(triton.cdiv(triton_poi_fused_hardtanh_0_xnumel, 1024), 1, 1)](arg2_1, buf0, triton_poi_fused_hardtanh_0_xnumel, XBLOCK=1024, num_warps=4, num_stages=1)
        del arg2_1
        return buf0
