# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "min_dim1_short"
# spec sha256: "6da58dbf47d753d97331c71bb33f1db901cb64b5e4943ddd69cd997e6d5b49a0"
# hardware: "h200"
# made: "2026-11-27T00:10:35+00:00"
# candidate: {"run": 1, "number": 51, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.2502 ms (IQR 0.0013), 1.94x eager, 1.58x torch.compile, 97% of roofline (read)"
# variants checked: ["small", "odd", "default"]

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice

@triton.jit
def min2(a, dim):
    return tl.reduce(a, dim, minimum)

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

@triton.jit
def triton_per_fused_min_0_s0(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr):
    xnumel = 4194304
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_2 = r0_index
    x0 = xindex % 1024
    x1 = xindex // 1024
    x3 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 1024 * r0_2 + 65536 * x1), None)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = min2(tmp1, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + x3, tmp3, None)

@triton.jit
def triton_per_fused_min_0_s1(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 256
    r0_numel = 16
    R0_BLOCK: tl.constexpr = 16
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_2 = r0_index
    x0 = xindex % 64
    x1 = xindex // 64
    x3 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 64 * r0_2 + 1024 * x1), xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(xmask, tmp1, float('inf'))
    tmp4 = min2(tmp3, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + x3, tmp4, xmask)

@triton.jit
def triton_poi_fused_min_0_s2(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 385
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex % 77
    x1 = xindex // 77
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (x0 + 539 * x1), xmask)
    tmp1 = tl.load(in_ptr0 + (77 + x0 + 539 * x1), xmask)
    tmp3 = tl.load(in_ptr0 + (154 + x0 + 539 * x1), xmask)
    tmp5 = tl.load(in_ptr0 + (231 + x0 + 539 * x1), xmask)
    tmp7 = tl.load(in_ptr0 + (308 + x0 + 539 * x1), xmask)
    tmp9 = tl.load(in_ptr0 + (385 + x0 + 539 * x1), xmask)
    tmp11 = tl.load(in_ptr0 + (462 + x0 + 539 * x1), xmask)
    tmp2 = minimum(tmp0, tmp1)
    tmp4 = minimum(tmp2, tmp3)
    tmp6 = minimum(tmp4, tmp5)
    tmp8 = minimum(tmp6, tmp7)
    tmp10 = minimum(tmp8, tmp9)
    tmp12 = minimum(tmp10, tmp11)
    tl.store(out_ptr0 + x2, tmp12, xmask)

@triton.jit
def triton_red_fused_min_0_s3(in_ptr0, out_ptr0, ks0, ks1, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex % ks0
    x1 = xindex // ks0
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], float('inf'), tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + ks0 * r0_2 + ks0 * ks1 * x1), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = minimum(_tmp2, tmp1)
        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)
    tmp2 = min2(_tmp2, 1)[:, None]
    tl.store(out_ptr0 + x3, tmp2, xmask)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        sizes = tuple(tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor))
        if sizes == ((4096, 64, 1024),):
            return self._sizes_0(*inputs)
        if sizes == ((4, 16, 64),):
            return self._sizes_1(*inputs)
        if sizes == ((5, 7, 77),):
            return self._sizes_2(*inputs)
        return self._generic(*inputs)

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf0 = torch.empty_strided((4096, 1024), (1024, 1), dtype=torch.float32, device=device)
        triton_per_fused_min_0_s0[(triton.cdiv(4194304, 2048), 1, 1)](arg0_1, buf0, 4194304, 64, XBLOCK=2048, num_warps=16, num_stages=1)
        del arg0_1
        return buf0

    def _sizes_1(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf0 = torch.empty_strided((4, 64), (64, 1), dtype=torch.float32, device=device)
        triton_per_fused_min_0_s1[(triton.cdiv(256, 8), 1, 1)](arg0_1, buf0, 256, 16, XBLOCK=8, num_warps=2, num_stages=1)
        del arg0_1
        return buf0

    def _sizes_2(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf0 = torch.empty_strided((5, 77), (77, 1), dtype=torch.float32, device=device)
        triton_poi_fused_min_0_s2[(triton.cdiv(385, 256), 1, 1)](arg0_1, buf0, 385, XBLOCK=256, num_warps=4, num_stages=1)
        del arg0_1
        return buf0

    def _generic(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0].shape[0]
        arg1_1 = inputs[0].shape[1]
        arg2_1 = inputs[0].shape[2]
        arg3_1 = inputs[0]
        s33 = arg0_1
        s50 = arg1_1
        s69 = arg2_1
        buf0 = torch.empty_strided((s33, s69), (s69, 1), dtype=torch.float32, device=device)
        triton_red_fused_min_0_xnumel = s33 * s69
        triton_red_fused_min_0_s3[(triton.cdiv(triton_red_fused_min_0_xnumel, 64), 1, 1)](arg3_1, buf0, s69, s50, triton_red_fused_min_0_xnumel, s50, XBLOCK=64, R0_BLOCK=8, num_warps=4, num_stages=1)
        del arg3_1
        return buf0
