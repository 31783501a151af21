# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "gemm_groupnorm_swish_multiply_swish"
# spec sha256: "4ea25fb962719f87fa21b737449e2dc1e4fa48f1b37dfc1a732c644a92560437"
# hardware: "h200"
# made: "2026-12-02T13:52:08+00:00"
# candidate: {"run": 1, "number": 57, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 2.7092 ms (IQR 0.0034), 1.08x eager, 1.00x torch.compile, 10% of roofline (compute)"
# variants checked: ["small", "odd", "default"]

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice

@triton.jit
def welford_reduce(value, mean, m2, weight, first_iteration):
    if first_iteration:
        new_weight = tl.full(weight.shape, 1, weight.dtype)
        new_mean = value
        new_m2 = tl.zeros_like(m2)
    else:
        delta = value - mean
        new_weight = weight + 1
        new_mean = mean + delta / new_weight
        new_m2 = m2 + delta * (value - new_mean)
    return (new_mean, new_m2, new_weight)

@triton.jit
def welford(mean, m2, weight, dim):
    return tl.reduce((mean, m2, weight), dim, welford_combine)

@triton.jit
def welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    delta = mean_2 - mean_1
    new_weight = weight_1 + weight_2
    w2_over_w = tl.where(new_weight == 0.0, 0.0, weight_2 / new_weight)
    return (mean_1 + delta * w2_over_w, m2_1 + m2_2 + delta * delta * weight_1 * w2_over_w, new_weight)

@triton.jit
def triton_per_fused_native_group_norm_0_s0(in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr):
    xnumel = 16384
    r0_numel = 512
    R0_BLOCK: tl.constexpr = 512
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
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 512 * x0), None)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp5 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tmp6 = tl.full([1, 1], 512, tl.int32)
    tmp7 = tmp6.to(tl.float32)
    tmp8 = tmp5 / tmp7
    tmp9 = tmp1 - tmp8
    tmp10 = tmp9 * tmp9
    tmp11 = tl.broadcast_to(tmp10, [XBLOCK, R0_BLOCK])
    tmp13 = tl.sum(tmp11, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + x0, tmp8, None)
    tl.store(out_ptr1 + x0, tmp13, None)

@triton.jit
def triton_poi_fused_mul_native_group_norm_sigmoid_1_s0(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, xnumel, XBLOCK: tl.constexpr):
    xnumel = 8388608
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x2 = xindex
    x0 = xindex % 8192
    tmp0 = tl.load(in_out_ptr0 + x2, None)
    tmp1 = tl.load(in_ptr0 + x2 // 512, None, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr1 + x2 // 512, None, eviction_policy='evict_last')
    tmp10 = tl.load(in_ptr2 + x0, None, eviction_policy='evict_last')
    tmp12 = tl.load(in_ptr3 + x0, None, eviction_policy='evict_last')
    tmp16 = tl.load(in_ptr4 + x0, None, eviction_policy='evict_last')
    tmp2 = tmp0 - tmp1
    tmp4 = tl.full([1], 512.0, tl.float32)
    tmp5 = tmp3 / tmp4
    tmp6 = tl.full([1], 1e-05, tl.float32)
    tmp7 = tmp5 + tmp6
    tmp8 = libdevice.rsqrt(tmp7)
    tmp9 = tmp2 * tmp8
    tmp11 = tmp9 * tmp10
    tmp13 = tmp11 + tmp12
    tmp14 = tl.sigmoid(tmp13)
    tmp15 = tmp13 * tmp14
    tmp17 = tmp15 * tmp16
    tmp18 = tl.sigmoid(tmp17)
    tmp19 = tmp17 * tmp18
    tl.store(in_out_ptr0 + x2, tmp19, None)

@triton.jit
def triton_per_fused_native_group_norm_0_s1(in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 64
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
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 16 * x0), xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(xmask, tmp1, 0)
    tmp4 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp6 = tl.where(xmask, tmp4, 0)
    tmp7 = tl.sum(tmp6, 1)[:, None].to(tl.float32)
    tmp8 = tl.full([1, 1], 16, tl.int32)
    tmp9 = tmp8.to(tl.float32)
    tmp10 = tmp7 / tmp9
    tmp11 = tmp1 - tmp10
    tmp12 = tmp11 * tmp11
    tmp13 = tl.broadcast_to(tmp12, [XBLOCK, R0_BLOCK])
    tmp15 = tl.where(xmask, tmp13, 0)
    tmp16 = tl.sum(tmp15, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + x0, tmp10, xmask)
    tl.store(out_ptr1 + x0, tmp16, xmask)

@triton.jit
def triton_poi_fused_mul_native_group_norm_sigmoid_1_s1(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 1024
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = xindex
    x0 = xindex % 64
    tmp0 = tl.load(in_out_ptr0 + x2, xmask)
    tmp1 = tl.load(in_ptr0 + x2 // 16, xmask, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr1 + x2 // 16, xmask, eviction_policy='evict_last')
    tmp10 = tl.load(in_ptr2 + x0, xmask, eviction_policy='evict_last')
    tmp12 = tl.load(in_ptr3 + x0, xmask, eviction_policy='evict_last')
    tmp16 = tl.load(in_ptr4 + x0, xmask, eviction_policy='evict_last')
    tmp2 = tmp0 - tmp1
    tmp4 = tl.full([1], 16.0, tl.float32)
    tmp5 = tmp3 / tmp4
    tmp6 = tl.full([1], 1e-05, tl.float32)
    tmp7 = tmp5 + tmp6
    tmp8 = libdevice.rsqrt(tmp7)
    tmp9 = tmp2 * tmp8
    tmp11 = tmp9 * tmp10
    tmp13 = tmp11 + tmp12
    tmp14 = tl.sigmoid(tmp13)
    tmp15 = tmp13 * tmp14
    tmp17 = tmp15 * tmp16
    tmp18 = tl.sigmoid(tmp17)
    tmp19 = tmp17 * tmp18
    tl.store(in_out_ptr0 + x2, tmp19, xmask)

@triton.jit
def triton_per_fused_native_group_norm_0_s2(in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 15
    r0_numel = 15
    R0_BLOCK: tl.constexpr = 16
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
    tmp0 = tl.load(in_ptr0 + (r0_1 + 15 * x0), r0_mask & xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask & xmask, tmp1, 0)
    tmp4 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp6 = tl.where(r0_mask & xmask, tmp4, 0)
    tmp7 = tl.sum(tmp6, 1)[:, None].to(tl.float32)
    tmp8 = tl.full([1, 1], 15, tl.int32)
    tmp9 = tmp8.to(tl.float32)
    tmp10 = tmp7 / tmp9
    tmp11 = tmp1 - tmp10
    tmp12 = tmp11 * tmp11
    tmp13 = tl.broadcast_to(tmp12, [XBLOCK, R0_BLOCK])
    tmp15 = tl.where(r0_mask & xmask, tmp13, 0)
    tmp16 = tl.sum(tmp15, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + x0, tmp10, xmask)
    tl.store(out_ptr1 + x0, tmp16, xmask)

@triton.jit
def triton_poi_fused_mul_native_group_norm_sigmoid_1_s2(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 225
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = xindex
    x0 = xindex % 45
    tmp0 = tl.load(in_out_ptr0 + x2, xmask)
    tmp1 = tl.load(in_ptr0 + x2 // 15, xmask, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr1 + x2 // 15, xmask, eviction_policy='evict_last')
    tmp10 = tl.load(in_ptr2 + x0, xmask, eviction_policy='evict_last')
    tmp12 = tl.load(in_ptr3 + x0, xmask, eviction_policy='evict_last')
    tmp16 = tl.load(in_ptr4 + x0, xmask, eviction_policy='evict_last')
    tmp2 = tmp0 - tmp1
    tmp4 = tl.full([1], 15.0, tl.float32)
    tmp5 = tmp3 / tmp4
    tmp6 = tl.full([1], 1e-05, tl.float32)
    tmp7 = tmp5 + tmp6
    tmp8 = libdevice.rsqrt(tmp7)
    tmp9 = tmp2 * tmp8
    tmp11 = tmp9 * tmp10
    tmp13 = tmp11 + tmp12
    tmp14 = tl.sigmoid(tmp13)
    tmp15 = tmp13 * tmp14
    tmp17 = tmp15 * tmp16
    tmp18 = tl.sigmoid(tmp17)
    tmp19 = tmp17 * tmp18
    tl.store(in_out_ptr0 + x2, tmp19, xmask)

@triton.jit
def triton_red_fused_native_group_norm_0_s3(in_ptr0, out_ptr0, out_ptr1, ks0, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    tmp2_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp2_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp2_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + x0 * (ks0 // 16)), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp2_mean_next, tmp2_m2_next, tmp2_weight_next = welford_reduce(tmp1, tmp2_mean, tmp2_m2, tmp2_weight, roffset == 0)
        tmp2_mean = tl.where(r0_mask & xmask, tmp2_mean_next, tmp2_mean)
        tmp2_m2 = tl.where(r0_mask & xmask, tmp2_m2_next, tmp2_m2)
        tmp2_weight = tl.where(r0_mask & xmask, tmp2_weight_next, tmp2_weight)
    tmp3, tmp4, tmp5 = welford(tmp2_mean, tmp2_m2, tmp2_weight, 1)
    tmp2 = tmp3[:, None]
    tmp6 = tmp4[:, None]
    tmp7 = tmp5[:, None]
    tl.store(out_ptr0 + x0, tmp2, xmask)
    tl.store(out_ptr1 + x0, tmp6, xmask)

@triton.jit
def triton_poi_fused_mul_native_group_norm_sigmoid_1_s3(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, out_ptr1, ks0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex % ks0
    x1 = xindex // ks0
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + (16 * x1 * (ks0 // 16) + x0 % (16 * (ks0 // 16))), xmask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr1 + (16 * x1 + x0 // (ks0 // 16) % 16), xmask, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr2 + (16 * x1 + x0 // (ks0 // 16) % 16), xmask, eviction_policy='evict_last')
    tmp11 = tl.load(in_ptr3 + x0, xmask, eviction_policy='evict_last')
    tmp13 = tl.load(in_ptr4 + x0, xmask, eviction_policy='evict_last')
    tmp17 = tl.load(in_ptr5 + x0, xmask, eviction_policy='evict_last')
    tmp2 = tmp0 - tmp1
    tmp4 = ks0 // 16
    tmp5 = tmp4.to(tl.float32)
    tmp6 = tmp3 / tmp5
    tmp7 = tl.full([1], 1e-05, tl.float32)
    tmp8 = tmp6 + tmp7
    tmp9 = libdevice.rsqrt(tmp8)
    tmp10 = tmp2 * tmp9
    tmp12 = tmp10 * tmp11
    tmp14 = tmp12 + tmp13
    tmp15 = tl.sigmoid(tmp14)
    tmp16 = tmp14 * tmp15
    tmp18 = tmp16 * tmp17
    tmp19 = tl.sigmoid(tmp18)
    tmp20 = tmp18 * tmp19
    tl.store(out_ptr1 + (x0 + x1 * (1 * (1 >= 16 * (ks0 // 16)) + 16 * (ks0 // 16) * (16 * (ks0 // 16) > 1))), tmp20, xmask)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()
        self.multiply_weight = nn.Parameter(torch.empty((init[1],)))
        self.gemm = nn.ModuleDict()
        self.gemm.weight = nn.Parameter(torch.empty((init[1], init[0])))
        self.gemm.bias = nn.Parameter(torch.empty((init[1],)))
        self.group_norm = nn.ModuleDict()
        self.group_norm.weight = nn.Parameter(torch.empty((init[1],)))
        self.group_norm.bias = nn.Parameter(torch.empty((init[1],)))

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
        arg0_1 = self.multiply_weight
        arg1_1 = self.gemm.weight
        arg2_1 = self.gemm.bias
        arg3_1 = self.group_norm.weight
        arg4_1 = self.group_norm.bias
        arg5_1 = inputs[0]
        buf0 = torch.empty_strided((1024, 8192), (8192, 1), dtype=torch.float32, device=device)
        torch.addmm(arg2_1, arg5_1, torch.as_strided(arg1_1, (8192, 8192), (1, 8192), 0), alpha=1, beta=1, out=buf0)
        del arg1_1
        del arg2_1
        del arg5_1
        buf1 = torch.empty_strided((1024, 16, 1, 1), (16, 1, 16384, 16384), dtype=torch.float32, device=device)
        buf2 = torch.empty_strided((1024, 16, 1, 1), (16, 1, 16384, 16384), dtype=torch.float32, device=device)
        triton_per_fused_native_group_norm_0_s0[(triton.cdiv(16384, 2), 1, 1)](buf0, buf1, buf2, 16384, 512, XBLOCK=2, num_warps=1, num_stages=2)
        buf4 = buf0
        del buf0
        buf5 = buf4
        del buf4
        triton_poi_fused_mul_native_group_norm_sigmoid_1_s0[(triton.cdiv(8388608, 1024), 1, 1)](buf5, buf1, buf2, arg3_1, arg4_1, arg0_1, 8388608, XBLOCK=1024, num_warps=4, num_stages=4)
        del arg0_1
        del arg3_1
        del arg4_1
        del buf1
        del buf2
        return buf5

    def _sizes_1(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = self.multiply_weight
        arg1_1 = self.gemm.weight
        arg2_1 = self.gemm.bias
        arg3_1 = self.group_norm.weight
        arg4_1 = self.group_norm.bias
        arg5_1 = inputs[0]
        buf0 = torch.empty_strided((16, 64), (64, 1), dtype=torch.float32, device=device)
        torch.addmm(arg2_1, arg5_1, torch.as_strided(arg1_1, (32, 64), (1, 32), 0), alpha=1, beta=1, out=buf0)
        del arg1_1
        del arg2_1
        del arg5_1
        buf1 = torch.empty_strided((16, 4, 1, 1), (4, 1, 64, 64), dtype=torch.float32, device=device)
        buf2 = torch.empty_strided((16, 4, 1, 1), (4, 1, 64, 64), dtype=torch.float32, device=device)
        triton_per_fused_native_group_norm_0_s1[(triton.cdiv(64, 8), 1, 1)](buf0, buf1, buf2, 64, 16, XBLOCK=8, num_warps=2, num_stages=1)
        buf4 = buf0
        del buf0
        buf5 = buf4
        del buf4
        triton_poi_fused_mul_native_group_norm_sigmoid_1_s1[(triton.cdiv(1024, 128), 1, 1)](buf5, buf1, buf2, arg3_1, arg4_1, arg0_1, 1024, XBLOCK=128, num_warps=4, num_stages=1)
        del arg0_1
        del arg3_1
        del arg4_1
        del buf1
        del buf2
        return buf5

    def _sizes_2(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = self.multiply_weight
        arg1_1 = self.gemm.weight
        arg2_1 = self.gemm.bias
        arg3_1 = self.group_norm.weight
        arg4_1 = self.group_norm.bias
        arg5_1 = inputs[0]
        buf0 = torch.empty_strided((5, 45), (45, 1), dtype=torch.float32, device=device)
        torch.addmm(arg2_1, arg5_1, torch.as_strided(arg1_1, (35, 45), (1, 35), 0), alpha=1, beta=1, out=buf0)
        del arg1_1
        del arg2_1
        del arg5_1
        buf1 = torch.empty_strided((5, 3, 1, 1), (3, 1, 15, 15), dtype=torch.float32, device=device)
        buf2 = torch.empty_strided((5, 3, 1, 1), (3, 1, 15, 15), dtype=torch.float32, device=device)
        triton_per_fused_native_group_norm_0_s2[(triton.cdiv(15, 8), 1, 1)](buf0, buf1, buf2, 15, 15, XBLOCK=8, num_warps=2, num_stages=1)
        buf4 = buf0
        del buf0
        buf5 = buf4
        del buf4
        triton_poi_fused_mul_native_group_norm_sigmoid_1_s2[(triton.cdiv(225, 128), 1, 1)](buf5, buf1, buf2, arg3_1, arg4_1, arg0_1, 225, XBLOCK=128, num_warps=4, num_stages=1)
        del arg0_1
        del arg3_1
        del arg4_1
        del buf1
        del buf2
        return buf5

    def _generic(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = self.multiply_weight.shape[0]
        arg1_1 = self.multiply_weight
        arg2_1 = self.gemm.weight.shape[0]
        arg3_1 = self.gemm.weight.shape[1]
        arg4_1 = self.gemm.weight
        arg5_1 = self.gemm.bias
        arg6_1 = self.group_norm.weight
        arg7_1 = self.group_norm.bias
        arg8_1 = inputs[0].shape[0]
        arg9_1 = inputs[0]
        s33 = arg0_1
        s6 = arg2_1
        s81 = arg3_1
        s50 = arg8_1
        arg4_1_size = arg4_1.size()
        s21 = arg4_1_size[0]
        s66 = arg4_1_size[1]
        buf0 = torch.empty_strided((s50, s21), (s21, 1), dtype=torch.float32, device=device)
        torch.addmm(arg5_1, arg9_1, torch.as_strided(arg4_1, (s66, s21), (1, s66), 0), alpha=1, beta=1, out=buf0)
        del arg4_1
        del arg5_1
        del arg9_1
        buf1 = torch.empty_strided((s50, 16, 1, 1), (16, 1, 16 * s50, 16 * s50), dtype=torch.float32, device=device)
        buf2 = torch.empty_strided((s50, 16, 1, 1), (16, 1, 16 * s50, 16 * s50), dtype=torch.float32, device=device)
        triton_red_fused_native_group_norm_0_xnumel = 16 * s50
        triton_red_fused_native_group_norm_0_r0_numel = s21 // 16
        triton_red_fused_native_group_norm_0_s3[(triton.cdiv(triton_red_fused_native_group_norm_0_xnumel, 2), 1, 1)](buf0, buf1, buf2, s21, triton_red_fused_native_group_norm_0_xnumel, triton_red_fused_native_group_norm_0_r0_numel, XBLOCK=2, R0_BLOCK=256, num_warps=4, num_stages=1)
        buf5 = torch.empty_strided((s50, s21), (max(1, 16 * (s21 // 16)), 1), dtype=torch.float32, device=device)
        triton_poi_fused_mul_native_group_norm_sigmoid_1_xnumel = s21 * s50
        triton_poi_fused_mul_native_group_norm_sigmoid_1_s3[(triton.cdiv(triton_poi_fused_mul_native_group_norm_sigmoid_1_xnumel, 512), 1, 1)](buf0, buf1, buf2, arg6_1, arg7_1, arg1_1, buf5, s21, triton_poi_fused_mul_native_group_norm_sigmoid_1_xnumel, XBLOCK=512, num_warps=8, num_stages=1)
        del arg1_1
        del arg6_1
        del arg7_1
        del buf0
        del buf1
        del buf2
        return buf5
