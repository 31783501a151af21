# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "matmul_gelu_softmax"
# spec sha256: "331371396895a9346629f28eb2dd642364a56bbeca18d0797e8ca6d22fd554d8"
# hardware: "h200"
# made: "2026-12-02T13:56:50+00:00"
# candidate: {"run": 1, "number": 52, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 2.7271 ms (IQR 0.0035), 1.01x eager, 1.00x torch.compile, 10% of roofline (compute)"
# variants checked: ["small", "odd", "default"]

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice

@triton.jit
def online_softmax_reduce(lhs_max, lhs_sum, dim, use_fast_math: tl.constexpr):
    out_max = max2(lhs_max, dim)
    out_max_keepdim = tl.expand_dims(out_max, dim)
    delta = tl.where(out_max_keepdim == float('-inf'), 0, lhs_max - out_max_keepdim)
    out_sum = tl.sum(lhs_sum * exp(delta, use_fast_math), dim)
    return (out_max, out_sum)

@triton.jit
def online_softmax_combine(lhs_max, lhs_sum, rhs_max, use_fast_math: tl.constexpr):
    """
    When we do combine, we assume lhs is the accumulator and rhs is the next
    block of data.
    Then rhs_sum is always 1. With that assumption, we can save some registers
    and computation.
    """
    out_max = maximum(lhs_max, rhs_max)
    lhs_scale = tl.where(out_max == float('-inf'), 1.0, exp(lhs_max - out_max, use_fast_math))
    rhs_scale = tl.where(out_max == float('-inf'), 1.0, exp(rhs_max - out_max, use_fast_math))
    out_sum = lhs_sum * lhs_scale + rhs_scale
    return (out_max, out_sum)

@triton.jit
def exp(x, use_fast_math: tl.constexpr):
    if use_fast_math:
        return tl_math.exp(x)
    else:
        return tl.exp2(1.4426950408889634 * (x))

@triton.jit
def max2(a, dim):
    return tl.reduce(a, dim, maximum)

@triton.jit
def maximum(a, b):
    mask = a > b
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
def triton_red_fused__softmax_addmm_exp_gelu_prepare_softmax_online_sub_0_s0(in_out_ptr0, in_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    xnumel = 1024
    r0_numel = 8192
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp12_max = tl.full([XBLOCK, R0_BLOCK], float('-inf'), tl.float32)
    _tmp12_sum = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + r0_1, r0_mask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.load(in_out_ptr0 + (r0_1 + 8192 * x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp2 = tmp0 + tmp1
        tmp3 = tl.full([1, 1], 0.5, tl.float32)
        tmp4 = tmp2 * tmp3
        tmp5 = tl.full([1, 1], 0.7071067811865476, tl.float32)
        tmp6 = tmp2 * tmp5
        tmp7 = libdevice.erf(tmp6)
        tmp8 = tl.full([1, 1], 1.0, tl.float32)
        tmp9 = tmp7 + tmp8
        tmp10 = tmp4 * tmp9
        tmp11 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
        _tmp12_max_next, _tmp12_sum_next = online_softmax_combine(_tmp12_max, _tmp12_sum, tmp11, False)
        _tmp12_max = tl.where(r0_mask & xmask, _tmp12_max_next, _tmp12_max)
        _tmp12_sum = tl.where(r0_mask & xmask, _tmp12_sum_next, _tmp12_sum)
    tmp12, tmp13 = online_softmax_reduce(_tmp12_max, _tmp12_sum, 1, False)
    tmp12 = tmp12[:, None]
    tmp13 = tmp13[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp14 = tl.load(in_ptr0 + r0_1, r0_mask, eviction_policy='evict_last', other=0.0)
        tmp15 = tl.load(in_out_ptr0 + (r0_1 + 8192 * x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp16 = tmp14 + tmp15
        tmp17 = tl.full([1, 1], 0.5, tl.float32)
        tmp18 = tmp16 * tmp17
        tmp19 = tl.full([1, 1], 0.7071067811865476, tl.float32)
        tmp20 = tmp16 * tmp19
        tmp21 = libdevice.erf(tmp20)
        tmp22 = tl.full([1, 1], 1.0, tl.float32)
        tmp23 = tmp21 + tmp22
        tmp24 = tmp18 * tmp23
        tmp25 = tmp24 - tmp12
        tmp26 = libdevice.exp(tmp25)
        tmp27 = tmp26 / tmp13
        tl.store(in_out_ptr0 + (r0_1 + 8192 * x0), tmp27, r0_mask & xmask)

@triton.jit
def triton_per_fused__softmax_addmm_exp_gelu_prepare_softmax_online_sub_0_s1(in_out_ptr0, in_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 16
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
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
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + r0_1, None, eviction_policy='evict_last')
    tmp1 = tl.load(in_out_ptr0 + (r0_1 + 64 * x0), xmask, other=0.0)
    tmp2 = tmp0 + tmp1
    tmp3 = tl.full([1, 1], 0.5, tl.float32)
    tmp4 = tmp2 * tmp3
    tmp5 = tl.full([1, 1], 0.7071067811865476, tl.float32)
    tmp6 = tmp2 * tmp5
    tmp7 = libdevice.erf(tmp6)
    tmp8 = tl.full([1, 1], 1.0, tl.float32)
    tmp9 = tmp7 + tmp8
    tmp10 = tmp4 * tmp9
    tmp11 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
    tmp13 = tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK])
    tmp15 = tl.where(xmask, tmp13, float('-inf'))
    tmp16 = max2(tmp15, 1)[:, None].to(tl.float32)
    tmp17 = tmp11 - tmp16
    tmp18 = libdevice.exp(tmp17)
    tmp19 = tl.broadcast_to(tmp18, [XBLOCK, R0_BLOCK])
    tmp21 = tl.where(xmask, tmp19, 0)
    tmp22 = tl.sum(tmp21, 1)[:, None].to(tl.float32)
    tmp23 = tmp10 - tmp16
    tmp24 = libdevice.exp(tmp23)
    tmp25 = tmp24 / tmp22
    tl.store(in_out_ptr0 + (r0_1 + 64 * x0), tmp25, xmask)

@triton.jit
def triton_per_fused__softmax_addmm_exp_gelu_prepare_softmax_online_sub_0_s2(in_out_ptr0, in_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 5
    r0_numel = 45
    R0_BLOCK: tl.constexpr = 64
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
    tmp0 = tl.load(in_ptr0 + r0_1, r0_mask, eviction_policy='evict_last', other=0.0)
    tmp1 = tl.load(in_out_ptr0 + (r0_1 + 45 * x0), r0_mask & xmask, other=0.0)
    tmp2 = tmp0 + tmp1
    tmp3 = tl.full([1, 1], 0.5, tl.float32)
    tmp4 = tmp2 * tmp3
    tmp5 = tl.full([1, 1], 0.7071067811865476, tl.float32)
    tmp6 = tmp2 * tmp5
    tmp7 = libdevice.erf(tmp6)
    tmp8 = tl.full([1, 1], 1.0, tl.float32)
    tmp9 = tmp7 + tmp8
    tmp10 = tmp4 * tmp9
    tmp11 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
    tmp13 = tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK])
    tmp15 = tl.where(r0_mask & xmask, tmp13, float('-inf'))
    tmp16 = max2(tmp15, 1)[:, None].to(tl.float32)
    tmp17 = tmp11 - tmp16
    tmp18 = libdevice.exp(tmp17)
    tmp19 = tl.broadcast_to(tmp18, [XBLOCK, R0_BLOCK])
    tmp21 = tl.where(r0_mask & xmask, tmp19, 0)
    tmp22 = tl.sum(tmp21, 1)[:, None].to(tl.float32)
    tmp23 = tmp10 - tmp16
    tmp24 = libdevice.exp(tmp23)
    tmp25 = tmp24 / tmp22
    tl.store(in_out_ptr0 + (r0_1 + 45 * x0), tmp25, r0_mask & xmask)

@triton.jit
def triton_red_fused__softmax_addmm_exp_gelu_prepare_softmax_online_sub_0_s3(in_out_ptr0, in_ptr0, ks0, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp12 = tl.full([XBLOCK, R0_BLOCK], float('-inf'), tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + r0_1, r0_mask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.load(in_out_ptr0 + (r0_1 + ks0 * x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp2 = tmp0 + tmp1
        tmp3 = tl.full([1, 1], 0.5, tl.float32)
        tmp4 = tmp2 * tmp3
        tmp5 = tl.full([1, 1], 0.7071067811865476, tl.float32)
        tmp6 = tmp2 * tmp5
        tmp7 = libdevice.erf(tmp6)
        tmp8 = tl.full([1, 1], 1.0, tl.float32)
        tmp9 = tmp7 + tmp8
        tmp10 = tmp4 * tmp9
        tmp11 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
        tmp13 = maximum(_tmp12, tmp11)
        _tmp12 = tl.where(r0_mask & xmask, tmp13, _tmp12)
    tmp12 = max2(_tmp12, 1)[:, None]
    _tmp28 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp14 = tl.load(in_ptr0 + r0_1, r0_mask, eviction_policy='evict_last', other=0.0)
        tmp15 = tl.load(in_out_ptr0 + (r0_1 + ks0 * x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp16 = tmp14 + tmp15
        tmp17 = tl.full([1, 1], 0.5, tl.float32)
        tmp18 = tmp16 * tmp17
        tmp19 = tl.full([1, 1], 0.7071067811865476, tl.float32)
        tmp20 = tmp16 * tmp19
        tmp21 = libdevice.erf(tmp20)
        tmp22 = tl.full([1, 1], 1.0, tl.float32)
        tmp23 = tmp21 + tmp22
        tmp24 = tmp18 * tmp23
        tmp25 = tmp24 - tmp12
        tmp26 = libdevice.exp(tmp25)
        tmp27 = tl.broadcast_to(tmp26, [XBLOCK, R0_BLOCK])
        tmp29 = _tmp28 + tmp27
        _tmp28 = tl.where(r0_mask & xmask, tmp29, _tmp28)
    tmp28 = tl.sum(_tmp28, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp30 = tl.load(in_ptr0 + r0_1, r0_mask, eviction_policy='evict_last', other=0.0)
        tmp31 = tl.load(in_out_ptr0 + (r0_1 + ks0 * x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp32 = tmp30 + tmp31
        tmp33 = tl.full([1, 1], 0.5, tl.float32)
        tmp34 = tmp32 * tmp33
        tmp35 = tl.full([1, 1], 0.7071067811865476, tl.float32)
        tmp36 = tmp32 * tmp35
        tmp37 = libdevice.erf(tmp36)
        tmp38 = tl.full([1, 1], 1.0, tl.float32)
        tmp39 = tmp37 + tmp38
        tmp40 = tmp34 * tmp39
        tmp41 = tmp40 - tmp12
        tmp42 = libdevice.exp(tmp41)
        tmp43 = tmp42 / tmp28
        tl.store(in_out_ptr0 + (r0_1 + ks0 * x0), tmp43, r0_mask & xmask)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()
        self.linear = nn.ModuleDict()
        self.linear.weight = nn.Parameter(torch.empty((init[1], init[0])))
        self.linear.bias = nn.Parameter(torch.empty((init[1],)))

    def forward(self, *inputs):
        sizes = tuple(tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor))
        if sizes == ((1024, 8192),):
            return self._sizes_0(*inputs)
        if sizes == ((16, 32),):
            return self._sizes_1(*inputs)
        if sizes == ((5, 35),):
            return self._sizes_2(*inputs)
        return self._generic(*inputs)

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = self.linear.weight
        arg1_1 = self.linear.bias
        arg2_1 = inputs[0]
        buf0 = torch.empty_strided((1024, 8192), (8192, 1), dtype=torch.float32, device=device)
        torch.mm(arg2_1, torch.as_strided(arg0_1, (8192, 8192), (1, 8192), 0), out=buf0)
        del arg0_1
        del arg2_1
        buf3 = buf0
        del buf0
        triton_red_fused__softmax_addmm_exp_gelu_prepare_softmax_online_sub_0_s0[(1024, 1, 1)](buf3, arg1_1, 1024, 8192, XBLOCK=1, R0_BLOCK=2048, num_warps=16, num_stages=1)
        del arg1_1
        return buf3

    def _sizes_1(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = self.linear.weight
        arg1_1 = self.linear.bias
        arg2_1 = inputs[0]
        buf0 = torch.empty_strided((16, 64), (64, 1), dtype=torch.float32, device=device)
        torch.mm(arg2_1, torch.as_strided(arg0_1, (32, 64), (1, 32), 0), out=buf0)
        del arg0_1
        del arg2_1
        buf3 = buf0
        del buf0
        triton_per_fused__softmax_addmm_exp_gelu_prepare_softmax_online_sub_0_s1[(16, 1, 1)](buf3, arg1_1, 16, 64, XBLOCK=1, num_warps=2, num_stages=1)
        del arg1_1
        return buf3

    def _sizes_2(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = self.linear.weight
        arg1_1 = self.linear.bias
        arg2_1 = inputs[0]
        buf0 = torch.empty_strided((5, 45), (45, 1), dtype=torch.float32, device=device)
        torch.mm(arg2_1, torch.as_strided(arg0_1, (35, 45), (1, 35), 0), out=buf0)
        del arg0_1
        del arg2_1
        buf3 = buf0
        del buf0
        triton_per_fused__softmax_addmm_exp_gelu_prepare_softmax_online_sub_0_s2[(5, 1, 1)](buf3, arg1_1, 5, 45, XBLOCK=1, num_warps=2, num_stages=1)
        del arg1_1
        return buf3

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
        buf0 = torch.empty_strided((s21, s33), (s33, 1), dtype=torch.float32, device=device)
        torch.mm(arg5_1, torch.as_strided(arg2_1, (s50, s33), (1, s50), 0), out=buf0)
        del arg2_1
        del arg5_1
        buf3 = buf0
        del buf0
        triton_red_fused__softmax_addmm_exp_gelu_prepare_softmax_online_sub_0_s3[(s21, 1, 1)](buf3, arg3_1, s33, s21, s33, XBLOCK=1, R0_BLOCK=2048, num_warps=16, num_stages=1)
        del arg3_1
        return buf3
