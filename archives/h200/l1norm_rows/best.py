# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "l1norm_rows"
# spec sha256: "3af696de2d36287c4cf538123633953be09a94e2c3a551a0ea7f9b98de02d0c7"
# hardware: "h200"
# made: "2026-11-27T07:05:35+00:00"
# candidate: {"run": 1, "number": 38, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.2473 ms (IQR 0.0016), 3.27x eager, 1.01x torch.compile, 102% of roofline (copy)"
# variants checked: ["small", "odd", "default"]

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice

@triton.jit
def triton_red_fused_abs_div_sum_0_s0(in_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    xnumel = 16384
    r0_numel = 8192
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp3 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 8192 * x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl_math.abs(tmp0)
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp4 = _tmp3 + tmp2
        _tmp3 = tl.where(r0_mask, tmp4, _tmp3)
    tmp3 = tl.sum(_tmp3, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp5 = tl.load(in_ptr0 + (r0_1 + 8192 * x0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp6 = tmp5 / tmp3
        tl.store(out_ptr1 + (r0_1 + 8192 * x0), tmp6, r0_mask)

@triton.jit
def triton_per_fused_abs_div_sum_0_s1(in_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 8
    r0_numel = 1000
    R0_BLOCK: tl.constexpr = 1024
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 1000 * x0), r0_mask & xmask, other=0.0)
    tmp1 = tl_math.abs(tmp0)
    tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp4 = tl.where(r0_mask & xmask, tmp2, 0)
    tmp5 = tl.sum(tmp4, 1)[:, None].to(tl.float32)
    tmp6 = tmp0 / tmp5
    tl.store(out_ptr1 + (r0_1 + 1000 * x0), tmp6, r0_mask & xmask)

@triton.jit
def triton_red_fused_abs_div_sum_0_s2(in_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 5
    r0_numel = 1531
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp3 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 1531 * x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl_math.abs(tmp0)
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp4 = _tmp3 + tmp2
        _tmp3 = tl.where(r0_mask & xmask, tmp4, _tmp3)
    tmp3 = tl.sum(_tmp3, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp5 = tl.load(in_ptr0 + (r0_1 + 1531 * x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp6 = tmp5 / tmp3
        tl.store(out_ptr1 + (r0_1 + 1531 * x0), tmp6, r0_mask & xmask)

@triton.jit
def triton_red_fused_abs_div_sum_0_s3(in_ptr0, out_ptr1, ks0, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp3 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + ks0 * x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl_math.abs(tmp0)
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp4 = _tmp3 + tmp2
        _tmp3 = tl.where(r0_mask & xmask, tmp4, _tmp3)
    tmp3 = tl.sum(_tmp3, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp5 = tl.load(in_ptr0 + (r0_1 + ks0 * x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp6 = tmp5 / tmp3
        tl.store(out_ptr1 + (r0_1 + ks0 * x0), tmp6, r0_mask & xmask)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        sizes = tuple(tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor))
        if sizes == ((16384, 8192),):
            return self._sizes_0(*inputs)
        if sizes == ((8, 1000),):
            return self._sizes_1(*inputs)
        if sizes == ((5, 1531),):
            return self._sizes_2(*inputs)
        return self._generic(*inputs)

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf1 = torch.empty_strided((16384, 8192), (8192, 1), dtype=torch.float32, device=device)
        triton_red_fused_abs_div_sum_0_s0[(16384, 1, 1)](arg0_1, buf1, 16384, 8192, XBLOCK=1, R0_BLOCK=4096, num_warps=32, num_stages=2)
        del arg0_1
        return buf1

    def _sizes_1(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf1 = torch.empty_strided((8, 1000), (1000, 1), dtype=torch.float32, device=device)
        triton_per_fused_abs_div_sum_0_s1[(8, 1, 1)](arg0_1, buf1, 8, 1000, XBLOCK=1, num_warps=8, num_stages=1)
        del arg0_1
        return buf1

    def _sizes_2(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf1 = torch.empty_strided((5, 1531), (1531, 1), dtype=torch.float32, device=device)
        triton_red_fused_abs_div_sum_0_s2[(triton.cdiv(5, 2), 1, 1)](arg0_1, buf1, 5, 1531, XBLOCK=2, R0_BLOCK=2048, num_warps=16, num_stages=1)
        del arg0_1
        return buf1

    def _generic(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0].shape[0]
        arg1_1 = inputs[0].shape[1]
        arg2_1 = inputs[0]
        s33 = arg0_1
        s50 = arg1_1
        buf1 = torch.empty_strided((s33, s50), (s50, 1), dtype=torch.float32, device=device)
        triton_red_fused_abs_div_sum_0_s3[(s33, 1, 1)](arg2_1, buf1, s50, s33, s50, XBLOCK=1, R0_BLOCK=2048, num_warps=16, num_stages=1)
        del arg2_1
        return buf1
