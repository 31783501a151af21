# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "resnet_basic_block"
# spec sha256: "e56a04bb20fe91372d758b33c7e911fffb2571aa1156931a330a61ab45347c38"
# hardware: "h200"
# made: "2026-11-27T07:06:22+00:00"
# candidate: {"run": 1, "number": 38, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.4121 ms (IQR 0.0022), 1.67x eager, 1.01x torch.compile, 23% of roofline (compute)"
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
def welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    delta = mean_2 - mean_1
    new_weight = weight_1 + weight_2
    w2_over_w = tl.where(new_weight == 0.0, 0.0, weight_2 / new_weight)
    return (mean_1 + delta * w2_over_w, m2_1 + m2_2 + delta * delta * weight_1 * w2_over_w, new_weight)

@triton.jit
def welford(mean, m2, weight, dim):
    return tl.reduce((mean, m2, weight), dim, welford_combine)

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
def triton_poi_fused_convolution_0_s0(in_ptr0, out_ptr0, out_ptr1, ynumel, xnumel, YBLOCK: tl.constexpr, XBLOCK: tl.constexpr):
    ynumel = 2048
    xnumel = 12544
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = tl.full([YBLOCK], True, tl.int1)[:, None]
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = yindex % 64
    y1 = yindex // 64
    tmp0 = tl.load(in_ptr0 + (x2 + 12544 * y3), xmask, eviction_policy='evict_last')
    tl.store(out_ptr0 + (y0 + 64 * x2 + 802816 * y1), tmp0, xmask)
    tl.store(out_ptr1 + (y0 + 64 * x2 + 802816 * y1), tmp0, xmask)

@triton.jit
def triton_red_fused__native_batch_norm_legit_functional_1_s0(in_ptr0, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    xnumel = 100352
    r0_numel = 128
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex % 128
    x1 = xindex // 128
    tmp2_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp2_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp2_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + 128 * r0_2 + 16384 * x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp2_mean_next, tmp2_m2_next, tmp2_weight_next = welford_reduce(tmp1, tmp2_mean, tmp2_m2, tmp2_weight, roffset == 0)
        tmp2_mean = tl.where(r0_mask & xmask, tmp2_mean_next, tmp2_mean)
        tmp2_m2 = tl.where(r0_mask & xmask, tmp2_m2_next, tmp2_m2)
        tmp2_weight = tl.where(r0_mask & xmask, tmp2_weight_next, tmp2_weight)
    tmp3, tmp4, tmp5 = welford(tmp2_mean, tmp2_m2, tmp2_weight, 1)
    tmp2 = tmp3[:, None]
    tmp6 = tmp4[:, None]
    tmp7 = tmp5[:, None]
    tl.store(out_ptr0 + x3, tmp2, xmask)
    tl.store(out_ptr1 + x3, tmp6, xmask)
    tl.store(out_ptr2 + x3, tmp7, xmask)

@triton.jit
def triton_red_fused__native_batch_norm_legit_functional_2_s0(in_ptr0, in_ptr1, in_ptr2, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    xnumel = 896
    r0_numel = 112
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex % 128
    x1 = xindex // 128
    tmp6_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp6_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp6_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + 128 * r0_2 + 14336 * x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.load(in_ptr1 + (x0 + 128 * r0_2 + 14336 * x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp2 = tl.load(in_ptr2 + (x0 + 128 * r0_2 + 14336 * x1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp3 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp4 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp5 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
        tmp6_mean_next, tmp6_m2_next, tmp6_weight_next = welford_combine(tmp6_mean, tmp6_m2, tmp6_weight, tmp3, tmp4, tmp5)
        tmp6_mean = tl.where(r0_mask & xmask, tmp6_mean_next, tmp6_mean)
        tmp6_m2 = tl.where(r0_mask & xmask, tmp6_m2_next, tmp6_m2)
        tmp6_weight = tl.where(r0_mask & xmask, tmp6_weight_next, tmp6_weight)
    tmp7, tmp8, tmp9 = welford(tmp6_mean, tmp6_m2, tmp6_weight, 1)
    tmp6 = tmp7[:, None]
    tmp10 = tmp8[:, None]
    tmp11 = tmp9[:, None]
    tl.store(out_ptr0 + x3, tmp6, xmask)
    tl.store(out_ptr1 + x3, tmp10, xmask)
    tl.store(out_ptr2 + x3, tmp11, xmask)

@triton.jit
def triton_per_fused__native_batch_norm_legit_functional_copy__3_s0(in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, out_ptr0, out_ptr1, out_ptr3, out_ptr5, xnumel, r0_numel, XBLOCK: tl.constexpr):
    xnumel = 128
    r0_numel = 7
    R0_BLOCK: tl.constexpr = 8
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
    tmp0 = tl.load(in_ptr0 + (x0 + 128 * r0_1), r0_mask & xmask, other=0.0)
    tmp1 = tl.load(in_ptr1 + (x0 + 128 * r0_1), r0_mask & xmask, other=0.0)
    tmp2 = tl.load(in_ptr2 + (x0 + 128 * r0_1), r0_mask & xmask, other=0.0)
    tmp18 = tl.load(in_ptr3 + x0, xmask, eviction_policy='evict_last')
    tmp27 = tl.load(in_ptr4 + x0, xmask, eviction_policy='evict_last')
    tmp3 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp4 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp5 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp7 = tl.where(r0_mask & xmask, tmp3, 0)
    tmp8 = tl.where(r0_mask & xmask, tmp4, 0)
    tmp9 = tl.where(r0_mask & xmask, tmp5, 0)
    tmp10, tmp11, tmp12 = welford(tmp7, tmp8, tmp9, 1)
    tmp13 = tmp10[:, None]
    tmp14 = tmp11[:, None]
    tmp15 = tmp12[:, None]
    tmp16 = tl.full([1, 1], 0.1, tl.float32)
    tmp17 = tmp13 * tmp16
    tmp19 = tl.full([1, 1], 0.9, tl.float32)
    tmp20 = tmp18 * tmp19
    tmp21 = tmp17 + tmp20
    tmp22 = tl.full([1, 1], 100352.0, tl.float32)
    tmp23 = tmp14 / tmp22
    tmp24 = tl.full([1, 1], 1.00000996502277, tl.float32)
    tmp25 = tmp23 * tmp24
    tmp26 = tmp25 * tmp16
    tmp28 = tmp27 * tmp19
    tmp29 = tmp26 + tmp28
    tl.store(out_ptr3 + x0, tmp21, xmask)
    tl.store(out_ptr5 + x0, tmp29, xmask)
    tl.store(out_ptr0 + x0, tmp13, xmask)
    tl.store(out_ptr1 + x0, tmp14, xmask)

@triton.jit
def triton_poi_fused_convolution_4_s0(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK: tl.constexpr, XBLOCK: tl.constexpr):
    ynumel = 8192
    xnumel = 9
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = tl.full([YBLOCK], True, tl.int1)[:, None]
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = yindex % 64
    y1 = yindex // 64
    tmp0 = tl.load(in_ptr0 + (x2 + 9 * y3), xmask, eviction_policy='evict_last')
    tl.store(out_ptr0 + (y0 + 64 * x2 + 576 * y1), tmp0, xmask)

@triton.jit
def triton_poi_fused__native_batch_norm_legit_functional_relu_5_s0(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, xnumel, XBLOCK: tl.constexpr):
    xnumel = 12845056
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x2 = xindex
    x0 = xindex % 128
    tmp0 = tl.load(in_out_ptr0 + x2, None)
    tmp1 = tl.load(in_ptr0 + x0, None, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr1 + x0, None, eviction_policy='evict_last')
    tmp10 = tl.load(in_ptr2 + x0, None, eviction_policy='evict_last')
    tmp12 = tl.load(in_ptr3 + x0, None, eviction_policy='evict_last')
    tmp2 = tmp0 - tmp1
    tmp4 = tl.full([1], 100352.0, tl.float32)
    tmp5 = tmp3 / tmp4
    tmp6 = tl.full([1], 1e-05, tl.float32)
    tmp7 = tmp5 + tmp6
    tmp8 = libdevice.rsqrt(tmp7)
    tmp9 = tmp2 * tmp8
    tmp11 = tmp9 * tmp10
    tmp13 = tmp11 + tmp12
    tmp14 = tl.full([1], 0, tl.int32)
    tmp15 = maximum(tmp14, tmp13)
    tl.store(in_out_ptr0 + x2, tmp15, None)

@triton.jit
def triton_poi_fused__native_batch_norm_legit_functional_convolution_relu_6_s0(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK: tl.constexpr, XBLOCK: tl.constexpr):
    ynumel = 16384
    xnumel = 9
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = tl.full([YBLOCK], True, tl.int1)[:, None]
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = yindex % 128
    y1 = yindex // 128
    tmp0 = tl.load(in_ptr0 + (x2 + 9 * y3), xmask, eviction_policy='evict_last')
    tl.store(out_ptr0 + (y0 + 128 * x2 + 1152 * y1), tmp0, xmask)

@triton.jit
def triton_poi_fused__native_batch_norm_legit_functional_add_relu_7_s0(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, out_ptr0, ynumel, xnumel, YBLOCK: tl.constexpr, XBLOCK: tl.constexpr):
    ynumel = 4096
    xnumel = 3136
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = tl.full([YBLOCK], True, tl.int1)[:, None]
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y0 = yindex % 128
    y1 = yindex // 128
    y3 = yindex
    tmp0 = tl.load(in_out_ptr0 + (y0 + 128 * x2 + 401408 * y1), xmask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr0 + y0, None, eviction_policy='evict_last')
    tmp3 = tl.load(in_ptr1 + y0, None, eviction_policy='evict_last')
    tmp10 = tl.load(in_ptr2 + y0, None, eviction_policy='evict_last')
    tmp12 = tl.load(in_ptr3 + y0, None, eviction_policy='evict_last')
    tmp14 = tl.load(in_ptr4 + (y0 + 128 * x2 + 401408 * y1), xmask, eviction_policy='evict_last')
    tmp15 = tl.load(in_ptr5 + y0, None, eviction_policy='evict_last')
    tmp17 = tl.load(in_ptr6 + y0, None, eviction_policy='evict_last')
    tmp22 = tl.load(in_ptr7 + y0, None, eviction_policy='evict_last')
    tmp24 = tl.load(in_ptr8 + y0, None, eviction_policy='evict_last')
    tmp2 = tmp0 - tmp1
    tmp4 = tl.full([1, 1], 100352.0, tl.float32)
    tmp5 = tmp3 / tmp4
    tmp6 = tl.full([1, 1], 1e-05, tl.float32)
    tmp7 = tmp5 + tmp6
    tmp8 = libdevice.rsqrt(tmp7)
    tmp9 = tmp2 * tmp8
    tmp11 = tmp9 * tmp10
    tmp13 = tmp11 + tmp12
    tmp16 = tmp14 - tmp15
    tmp18 = tmp17 / tmp4
    tmp19 = tmp18 + tmp6
    tmp20 = libdevice.rsqrt(tmp19)
    tmp21 = tmp16 * tmp20
    tmp23 = tmp21 * tmp22
    tmp25 = tmp23 + tmp24
    tmp26 = tmp13 + tmp25
    tmp27 = tl.full([1, 1], 0, tl.int32)
    tmp28 = maximum(tmp27, tmp26)
    tl.store(out_ptr0 + (x2 + 3136 * y3), tmp28, xmask)

@triton.jit
def triton_poi_fused_add_copy__8_s0(in_ptr0, out_ptr1, xnumel, XBLOCK: tl.constexpr):
    xnumel = 1
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    tmp0 = tl.load(in_ptr0 + 0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK])
    tmp2 = tl.full([1], 1, tl.int64)
    tmp3 = tmp1 + tmp2
    tl.store(out_ptr1 + tl.full([XBLOCK], 0, tl.int32).broadcast_to(XBLOCK), tmp3, None)

@triton.jit
def triton_poi_fused_convolution_0_s1(in_ptr0, out_ptr0, out_ptr1, ynumel, xnumel, YBLOCK: tl.constexpr, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    ynumel = 6
    xnumel = 64
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = yindex % 3
    y1 = yindex // 3
    tmp0 = tl.load(in_ptr0 + (x2 + 64 * y3), xmask & ymask, eviction_policy='evict_last')
    tl.store(out_ptr0 + (y0 + 3 * x2 + 192 * y1), tmp0, xmask & ymask)
    tl.store(out_ptr1 + (y0 + 3 * x2 + 192 * y1), tmp0, xmask & ymask)

@triton.jit
def triton_poi_fused_convolution_1_s1(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK: tl.constexpr, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    ynumel = 12
    xnumel = 9
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = yindex % 3
    y1 = yindex // 3
    tmp0 = tl.load(in_ptr0 + (x2 + 9 * y3), xmask & ymask, eviction_policy='evict_last')
    tl.store(out_ptr0 + (y0 + 3 * x2 + 27 * y1), tmp0, xmask & ymask)

@triton.jit
def triton_per_fused__native_batch_norm_legit_functional_copy__relu_2_s1(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr3, out_ptr5, xnumel, r0_numel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 4
    r0_numel = 32
    R0_BLOCK: tl.constexpr = 32
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
    tmp0 = tl.load(in_out_ptr0 + (x0 + 4 * r0_1), xmask, other=0.0)
    tmp19 = tl.load(in_ptr0 + x0, xmask, eviction_policy='evict_last')
    tmp28 = tl.load(in_ptr1 + x0, xmask, eviction_policy='evict_last')
    tmp36 = tl.load(in_ptr2 + x0, xmask, eviction_policy='evict_last')
    tmp38 = tl.load(in_ptr3 + x0, xmask, eviction_policy='evict_last')
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(xmask, tmp1, 0)
    tmp4 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp6 = tl.where(xmask, tmp4, 0)
    tmp7 = tl.sum(tmp6, 1)[:, None].to(tl.float32)
    tmp8 = tl.full([1, 1], 32, tl.int32)
    tmp9 = tmp8.to(tl.float32)
    tmp10 = tmp7 / tmp9
    tmp11 = tmp1 - tmp10
    tmp12 = tmp11 * tmp11
    tmp13 = tl.broadcast_to(tmp12, [XBLOCK, R0_BLOCK])
    tmp15 = tl.where(xmask, tmp13, 0)
    tmp16 = tl.sum(tmp15, 1)[:, None].to(tl.float32)
    tmp17 = tl.full([1, 1], 0.1, tl.float32)
    tmp18 = tmp10 * tmp17
    tmp20 = tl.full([1, 1], 0.9, tl.float32)
    tmp21 = tmp19 * tmp20
    tmp22 = tmp18 + tmp21
    tmp23 = tl.full([1, 1], 32.0, tl.float32)
    tmp24 = tmp16 / tmp23
    tmp25 = tl.full([1, 1], 1.032258064516129, tl.float32)
    tmp26 = tmp24 * tmp25
    tmp27 = tmp26 * tmp17
    tmp29 = tmp28 * tmp20
    tmp30 = tmp27 + tmp29
    tmp31 = tmp0 - tmp10
    tmp32 = tl.full([1, 1], 1e-05, tl.float32)
    tmp33 = tmp24 + tmp32
    tmp34 = libdevice.rsqrt(tmp33)
    tmp35 = tmp31 * tmp34
    tmp37 = tmp35 * tmp36
    tmp39 = tmp37 + tmp38
    tmp40 = tl.full([1, 1], 0, tl.int32)
    tmp41 = maximum(tmp40, tmp39)
    tl.store(out_ptr3 + x0, tmp22, xmask)
    tl.store(out_ptr5 + x0, tmp30, xmask)
    tl.store(in_out_ptr0 + (x0 + 4 * r0_1), tmp41, xmask)

@triton.jit
def triton_poi_fused__native_batch_norm_legit_functional_convolution_relu_3_s1(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK: tl.constexpr, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    ynumel = 16
    xnumel = 9
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = yindex % 4
    y1 = yindex // 4
    tmp0 = tl.load(in_ptr0 + (x2 + 9 * y3), xmask & ymask, eviction_policy='evict_last')
    tl.store(out_ptr0 + (y0 + 4 * x2 + 36 * y1), tmp0, xmask & ymask)

@triton.jit
def triton_per_fused__native_batch_norm_legit_functional_add_copy__relu_4_s1(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, out_ptr3, out_ptr5, out_ptr9, out_ptr11, out_ptr12, xnumel, r0_numel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 4
    r0_numel = 32
    R0_BLOCK: tl.constexpr = 32
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
    r0_2 = r0_index % 16
    r0_3 = r0_index // 16
    tmp0 = tl.load(in_ptr0 + (x0 + 4 * r0_1), xmask, other=0.0)
    tmp19 = tl.load(in_ptr1 + x0, xmask, eviction_policy='evict_last')
    tmp28 = tl.load(in_ptr2 + x0, xmask, eviction_policy='evict_last')
    tmp31 = tl.load(in_out_ptr0 + (x0 + 4 * r0_1), xmask, other=0.0)
    tmp47 = tl.load(in_ptr3 + x0, xmask, eviction_policy='evict_last')
    tmp53 = tl.load(in_ptr4 + x0, xmask, eviction_policy='evict_last')
    tmp61 = tl.load(in_ptr5 + x0, xmask, eviction_policy='evict_last')
    tmp63 = tl.load(in_ptr6 + x0, xmask, eviction_policy='evict_last')
    tmp69 = tl.load(in_ptr7 + x0, xmask, eviction_policy='evict_last')
    tmp71 = tl.load(in_ptr8 + x0, xmask, eviction_policy='evict_last')
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(xmask, tmp1, 0)
    tmp4 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp6 = tl.where(xmask, tmp4, 0)
    tmp7 = tl.sum(tmp6, 1)[:, None].to(tl.float32)
    tmp8 = tl.full([1, 1], 32, tl.int32)
    tmp9 = tmp8.to(tl.float32)
    tmp10 = tmp7 / tmp9
    tmp11 = tmp1 - tmp10
    tmp12 = tmp11 * tmp11
    tmp13 = tl.broadcast_to(tmp12, [XBLOCK, R0_BLOCK])
    tmp15 = tl.where(xmask, tmp13, 0)
    tmp16 = tl.sum(tmp15, 1)[:, None].to(tl.float32)
    tmp17 = tl.full([1, 1], 0.1, tl.float32)
    tmp18 = tmp10 * tmp17
    tmp20 = tl.full([1, 1], 0.9, tl.float32)
    tmp21 = tmp19 * tmp20
    tmp22 = tmp18 + tmp21
    tmp23 = tl.full([1, 1], 32.0, tl.float32)
    tmp24 = tmp16 / tmp23
    tmp25 = tl.full([1, 1], 1.032258064516129, tl.float32)
    tmp26 = tmp24 * tmp25
    tmp27 = tmp26 * tmp17
    tmp29 = tmp28 * tmp20
    tmp30 = tmp27 + tmp29
    tmp32 = tl.broadcast_to(tmp31, [XBLOCK, R0_BLOCK])
    tmp34 = tl.where(xmask, tmp32, 0)
    tmp35 = tl.broadcast_to(tmp32, [XBLOCK, R0_BLOCK])
    tmp37 = tl.where(xmask, tmp35, 0)
    tmp38 = tl.sum(tmp37, 1)[:, None].to(tl.float32)
    tmp39 = tmp38 / tmp9
    tmp40 = tmp32 - tmp39
    tmp41 = tmp40 * tmp40
    tmp42 = tl.broadcast_to(tmp41, [XBLOCK, R0_BLOCK])
    tmp44 = tl.where(xmask, tmp42, 0)
    tmp45 = tl.sum(tmp44, 1)[:, None].to(tl.float32)
    tmp46 = tmp39 * tmp17
    tmp48 = tmp47 * tmp20
    tmp49 = tmp46 + tmp48
    tmp50 = tmp45 / tmp23
    tmp51 = tmp50 * tmp25
    tmp52 = tmp51 * tmp17
    tmp54 = tmp53 * tmp20
    tmp55 = tmp52 + tmp54
    tmp56 = tmp31 - tmp39
    tmp57 = tl.full([1, 1], 1e-05, tl.float32)
    tmp58 = tmp50 + tmp57
    tmp59 = libdevice.rsqrt(tmp58)
    tmp60 = tmp56 * tmp59
    tmp62 = tmp60 * tmp61
    tmp64 = tmp62 + tmp63
    tmp65 = tmp0 - tmp10
    tmp66 = tmp24 + tmp57
    tmp67 = libdevice.rsqrt(tmp66)
    tmp68 = tmp65 * tmp67
    tmp70 = tmp68 * tmp69
    tmp72 = tmp70 + tmp71
    tmp73 = tmp64 + tmp72
    tmp74 = tl.full([1, 1], 0, tl.int32)
    tmp75 = maximum(tmp74, tmp73)
    tl.store(out_ptr3 + x0, tmp22, xmask)
    tl.store(out_ptr5 + x0, tmp30, xmask)
    tl.store(out_ptr9 + x0, tmp49, xmask)
    tl.store(out_ptr11 + x0, tmp55, xmask)
    tl.store(out_ptr12 + (r0_2 + 16 * x0 + 64 * r0_3), tmp75, xmask)

@triton.jit
def triton_poi_fused_add_copy__5_s1(in_ptr0, out_ptr1, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 1
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    tmp0 = tl.load(in_ptr0 + 0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK])
    tmp2 = tl.full([1], 1, tl.int64)
    tmp3 = tmp1 + tmp2
    tl.store(out_ptr1 + tl.full([XBLOCK], 0, tl.int32).broadcast_to(XBLOCK), tmp3, None)

@triton.jit
def triton_poi_fused_convolution_0_s2(in_ptr0, out_ptr0, out_ptr1, ynumel, xnumel, YBLOCK: tl.constexpr, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    ynumel = 9
    xnumel = 99
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = yindex % 3
    y1 = yindex // 3
    tmp0 = tl.load(in_ptr0 + (x2 + 99 * y3), xmask & ymask, eviction_policy='evict_last')
    tl.store(out_ptr0 + (y0 + 3 * x2 + 297 * y1), tmp0, xmask & ymask)
    tl.store(out_ptr1 + (y0 + 3 * x2 + 297 * y1), tmp0, xmask & ymask)

@triton.jit
def triton_poi_fused_convolution_1_s2(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK: tl.constexpr, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    ynumel = 15
    xnumel = 9
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = yindex % 3
    y1 = yindex // 3
    tmp0 = tl.load(in_ptr0 + (x2 + 9 * y3), xmask & ymask, eviction_policy='evict_last')
    tl.store(out_ptr0 + (y0 + 3 * x2 + 27 * y1), tmp0, xmask & ymask)

@triton.jit
def triton_red_fused__native_batch_norm_legit_functional_copy__relu_2_s2(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr3, out_ptr5, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 5
    r0_numel = 90
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
        tmp0 = tl.load(in_out_ptr0 + (x0 + 5 * r0_1), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp2_mean_next, tmp2_m2_next, tmp2_weight_next = welford_reduce(tmp1, tmp2_mean, tmp2_m2, tmp2_weight, roffset == 0)
        tmp2_mean = tl.where(r0_mask & xmask, tmp2_mean_next, tmp2_mean)
        tmp2_m2 = tl.where(r0_mask & xmask, tmp2_m2_next, tmp2_m2)
        tmp2_weight = tl.where(r0_mask & xmask, tmp2_weight_next, tmp2_weight)
    tmp3, tmp4, tmp5 = welford(tmp2_mean, tmp2_m2, tmp2_weight, 1)
    tmp2 = tmp3[:, None]
    tmp6 = tmp4[:, None]
    tmp7 = tmp5[:, None]
    tmp10 = tl.load(in_ptr0 + x0, xmask, eviction_policy='evict_last')
    tmp19 = tl.load(in_ptr1 + x0, xmask, eviction_policy='evict_last')
    tmp8 = tl.full([1, 1], 0.1, tl.float32)
    tmp9 = tmp2 * tmp8
    tmp11 = tl.full([1, 1], 0.9, tl.float32)
    tmp12 = tmp10 * tmp11
    tmp13 = tmp9 + tmp12
    tmp14 = tl.full([1, 1], 90.0, tl.float32)
    tmp15 = tmp6 / tmp14
    tmp16 = tl.full([1, 1], 1.0112359550561798, tl.float32)
    tmp17 = tmp15 * tmp16
    tmp18 = tmp17 * tmp8
    tmp20 = tmp19 * tmp11
    tmp21 = tmp18 + tmp20
    tl.store(out_ptr3 + x0, tmp13, xmask)
    tl.store(out_ptr5 + x0, tmp21, xmask)
    tmp28 = tl.load(in_ptr2 + x0, xmask, eviction_policy='evict_last')
    tmp30 = tl.load(in_ptr3 + x0, xmask, eviction_policy='evict_last')
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp22 = tl.load(in_out_ptr0 + (x0 + 5 * r0_1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp23 = tmp22 - tmp2
        tmp24 = tl.full([1, 1], 1e-05, tl.float32)
        tmp25 = tmp15 + tmp24
        tmp26 = libdevice.rsqrt(tmp25)
        tmp27 = tmp23 * tmp26
        tmp29 = tmp27 * tmp28
        tmp31 = tmp29 + tmp30
        tmp32 = tl.full([1, 1], 0, tl.int32)
        tmp33 = maximum(tmp32, tmp31)
        tl.store(in_out_ptr0 + (x0 + 5 * r0_1), tmp33, r0_mask & xmask)

@triton.jit
def triton_poi_fused__native_batch_norm_legit_functional_convolution_relu_3_s2(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK: tl.constexpr, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    ynumel = 25
    xnumel = 9
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = yindex % 5
    y1 = yindex // 5
    tmp0 = tl.load(in_ptr0 + (x2 + 9 * y3), xmask & ymask, eviction_policy='evict_last')
    tl.store(out_ptr0 + (y0 + 5 * x2 + 45 * y1), tmp0, xmask & ymask)

@triton.jit
def triton_red_fused__native_batch_norm_legit_functional_add_copy__relu_4_s2(in_out_ptr0, in_ptr0, in_ptr1, in_ptr2, in_ptr3, in_ptr4, in_ptr5, in_ptr6, in_ptr7, in_ptr8, out_ptr3, out_ptr5, out_ptr9, out_ptr11, out_ptr12, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 5
    r0_numel = 90
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
        tmp0 = tl.load(in_ptr0 + (x0 + 5 * r0_1), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp2_mean_next, tmp2_m2_next, tmp2_weight_next = welford_reduce(tmp1, tmp2_mean, tmp2_m2, tmp2_weight, roffset == 0)
        tmp2_mean = tl.where(r0_mask & xmask, tmp2_mean_next, tmp2_mean)
        tmp2_m2 = tl.where(r0_mask & xmask, tmp2_m2_next, tmp2_m2)
        tmp2_weight = tl.where(r0_mask & xmask, tmp2_weight_next, tmp2_weight)
    tmp3, tmp4, tmp5 = welford(tmp2_mean, tmp2_m2, tmp2_weight, 1)
    tmp2 = tmp3[:, None]
    tmp6 = tmp4[:, None]
    tmp7 = tmp5[:, None]
    tmp10 = tl.load(in_ptr1 + x0, xmask, eviction_policy='evict_last')
    tmp19 = tl.load(in_ptr2 + x0, xmask, eviction_policy='evict_last')
    tmp8 = tl.full([1, 1], 0.1, tl.float32)
    tmp9 = tmp2 * tmp8
    tmp11 = tl.full([1, 1], 0.9, tl.float32)
    tmp12 = tmp10 * tmp11
    tmp13 = tmp9 + tmp12
    tmp14 = tl.full([1, 1], 90.0, tl.float32)
    tmp15 = tmp6 / tmp14
    tmp16 = tl.full([1, 1], 1.0112359550561798, tl.float32)
    tmp17 = tmp15 * tmp16
    tmp18 = tmp17 * tmp8
    tmp20 = tmp19 * tmp11
    tmp21 = tmp18 + tmp20
    tl.store(out_ptr3 + x0, tmp13, xmask)
    tl.store(out_ptr5 + x0, tmp21, xmask)
    tmp24_mean = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp24_m2 = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    tmp24_weight = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp22 = tl.load(in_out_ptr0 + (x0 + 5 * r0_1), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp23 = tl.broadcast_to(tmp22, [XBLOCK, R0_BLOCK])
        tmp24_mean_next, tmp24_m2_next, tmp24_weight_next = welford_reduce(tmp23, tmp24_mean, tmp24_m2, tmp24_weight, roffset == 0)
        tmp24_mean = tl.where(r0_mask & xmask, tmp24_mean_next, tmp24_mean)
        tmp24_m2 = tl.where(r0_mask & xmask, tmp24_m2_next, tmp24_m2)
        tmp24_weight = tl.where(r0_mask & xmask, tmp24_weight_next, tmp24_weight)
    tmp25, tmp26, tmp27 = welford(tmp24_mean, tmp24_m2, tmp24_weight, 1)
    tmp24 = tmp25[:, None]
    tmp28 = tmp26[:, None]
    tmp29 = tmp27[:, None]
    tmp32 = tl.load(in_ptr3 + x0, xmask, eviction_policy='evict_last')
    tmp41 = tl.load(in_ptr4 + x0, xmask, eviction_policy='evict_last')
    tmp30 = tl.full([1, 1], 0.1, tl.float32)
    tmp31 = tmp24 * tmp30
    tmp33 = tl.full([1, 1], 0.9, tl.float32)
    tmp34 = tmp32 * tmp33
    tmp35 = tmp31 + tmp34
    tmp36 = tl.full([1, 1], 90.0, tl.float32)
    tmp37 = tmp28 / tmp36
    tmp38 = tl.full([1, 1], 1.0112359550561798, tl.float32)
    tmp39 = tmp37 * tmp38
    tmp40 = tmp39 * tmp30
    tmp42 = tmp41 * tmp33
    tmp43 = tmp40 + tmp42
    tl.store(out_ptr9 + x0, tmp35, xmask)
    tl.store(out_ptr11 + x0, tmp43, xmask)
    tmp50 = tl.load(in_ptr5 + x0, xmask, eviction_policy='evict_last')
    tmp52 = tl.load(in_ptr6 + x0, xmask, eviction_policy='evict_last')
    tmp60 = tl.load(in_ptr7 + x0, xmask, eviction_policy='evict_last')
    tmp62 = tl.load(in_ptr8 + x0, xmask, eviction_policy='evict_last')
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        r0_2 = r0_index % 30
        r0_3 = r0_index // 30
        tmp44 = tl.load(in_out_ptr0 + (x0 + 5 * r0_1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp54 = tl.load(in_ptr0 + (x0 + 5 * r0_1), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp45 = tmp44 - tmp24
        tmp46 = tl.full([1, 1], 1e-05, tl.float32)
        tmp47 = tmp37 + tmp46
        tmp48 = libdevice.rsqrt(tmp47)
        tmp49 = tmp45 * tmp48
        tmp51 = tmp49 * tmp50
        tmp53 = tmp51 + tmp52
        tmp55 = tmp54 - tmp2
        tmp56 = tmp6 / tmp36
        tmp57 = tmp56 + tmp46
        tmp58 = libdevice.rsqrt(tmp57)
        tmp59 = tmp55 * tmp58
        tmp61 = tmp59 * tmp60
        tmp63 = tmp61 + tmp62
        tmp64 = tmp53 + tmp63
        tmp65 = tl.full([1, 1], 0, tl.int32)
        tmp66 = maximum(tmp65, tmp64)
        tl.store(out_ptr12 + (r0_2 + 30 * x0 + 150 * r0_3), tmp66, r0_mask & xmask)

@triton.jit
def triton_poi_fused_add_copy__5_s2(in_ptr0, out_ptr1, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 1
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    tmp0 = tl.load(in_ptr0 + 0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK])
    tmp2 = tl.full([1], 1, tl.int64)
    tmp3 = tmp1 + tmp2
    tl.store(out_ptr1 + tl.full([XBLOCK], 0, tl.int32).broadcast_to(XBLOCK), tmp3, None)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()
        self.conv1 = nn.ModuleDict()
        self.conv1.weight = nn.Parameter(torch.empty((init[1], init[0], 3, 3)))
        self.bn1 = nn.ModuleDict()
        self.bn1.weight = nn.Parameter(torch.empty((init[1],)))
        self.bn1.bias = nn.Parameter(torch.empty((init[1],)))
        self.conv2 = nn.ModuleDict()
        self.conv2.weight = nn.Parameter(torch.empty((init[1], init[1], 3, 3)))
        self.bn2 = nn.ModuleDict()
        self.bn2.weight = nn.Parameter(torch.empty((init[1],)))
        self.bn2.bias = nn.Parameter(torch.empty((init[1],)))
        self.downsample = nn.ModuleDict()
        self.downsample['0'] = nn.ModuleDict()
        self.downsample['0'].weight = nn.Parameter(torch.empty((init[1], init[0], 1, 1)))
        self.downsample['1'] = nn.ModuleDict()
        self.downsample['1'].weight = nn.Parameter(torch.empty((init[1],)))
        self.downsample['1'].bias = nn.Parameter(torch.empty((init[1],)))
        self.bn1.register_buffer('running_mean', torch.empty((init[1],)))
        self.bn1.register_buffer('running_var', torch.empty((init[1],)))
        self.bn1.register_buffer('num_batches_tracked', torch.empty(()))
        self.bn2.register_buffer('running_mean', torch.empty((init[1],)))
        self.bn2.register_buffer('running_var', torch.empty((init[1],)))
        self.bn2.register_buffer('num_batches_tracked', torch.empty(()))
        self.downsample['1'].register_buffer('running_mean', torch.empty((init[1],)))
        self.downsample['1'].register_buffer('running_var', torch.empty((init[1],)))
        self.downsample['1'].register_buffer('num_batches_tracked', torch.empty(()))

    def forward(self, *inputs):
        sizes = tuple(tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor))
        if sizes == ((32, 64, 112, 112),):
            return self._sizes_0(*inputs)
        if sizes == ((2, 3, 8, 8),):
            return self._sizes_1(*inputs)
        if sizes == ((3, 3, 9, 11),):
            return self._sizes_2(*inputs)
        raise ValueError(f"no kernels were compiled for input sizes {sizes}")

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = self.conv1.weight
        arg1_1 = self.bn1.weight
        arg2_1 = self.bn1.bias
        arg3_1 = self.conv2.weight
        arg4_1 = self.bn2.weight
        arg5_1 = self.bn2.bias
        arg6_1 = self.downsample['0'].weight
        arg7_1 = self.downsample['1'].weight
        arg8_1 = self.downsample['1'].bias
        arg9_1 = self.bn1.running_mean
        arg10_1 = self.bn1.running_var
        arg11_1 = self.bn1.num_batches_tracked
        arg12_1 = self.bn2.running_mean
        arg13_1 = self.bn2.running_var
        arg14_1 = self.bn2.num_batches_tracked
        arg15_1 = self.downsample['1'].running_mean
        arg16_1 = self.downsample['1'].running_var
        arg17_1 = self.downsample['1'].num_batches_tracked
        arg18_1 = inputs[0]
        buf0 = torch.empty_strided((32, 64, 112, 112), (802816, 1, 7168, 64), dtype=torch.float32, device=device)
        buf11 = torch.empty_strided((32, 64, 112, 112), (802816, 1, 7168, 64), dtype=torch.float32, device=device)
        triton_poi_fused_convolution_0_s0[(triton.cdiv(12544, 32), triton.cdiv(2048, 32), 1)](arg18_1, buf0, buf11, 2048, 12544, XBLOCK=32, YBLOCK=32, num_warps=4, num_stages=2)
        del arg18_1
        buf1 = torch.convolution(buf0, arg6_1, None, (2, 2), (0, 0), (1, 1), False, (0, 0), 1)
        del arg6_1
        del buf0
        buf2 = torch.empty_strided((1, 128, 1, 1, 784), (100352, 1, 100352, 100352, 128), dtype=torch.float32, device=device)
        buf3 = torch.empty_strided((1, 128, 1, 1, 784), (100352, 1, 100352, 100352, 128), dtype=torch.float32, device=device)
        buf4 = torch.empty_strided((1, 128, 1, 1, 784), (100352, 1, 100352, 100352, 128), dtype=torch.float32, device=device)
        triton_red_fused__native_batch_norm_legit_functional_1_s0[(triton.cdiv(100352, 64), 1, 1)](buf1, buf2, buf3, buf4, 100352, 128, XBLOCK=64, R0_BLOCK=8, num_warps=4, num_stages=1)
        buf5 = torch.empty_strided((1, 128, 1, 1, 7), (896, 1, 896, 896, 128), dtype=torch.float32, device=device)
        buf6 = torch.empty_strided((1, 128, 1, 1, 7), (896, 1, 896, 896, 128), dtype=torch.float32, device=device)
        buf7 = torch.empty_strided((1, 128, 1, 1, 7), (896, 1, 896, 896, 128), dtype=torch.float32, device=device)
        triton_red_fused__native_batch_norm_legit_functional_2_s0[(triton.cdiv(896, 4), 1, 1)](buf2, buf3, buf4, buf5, buf6, buf7, 896, 112, XBLOCK=4, R0_BLOCK=256, num_warps=4, num_stages=1)
        buf8 = torch.empty_strided((1, 128, 1, 1), (128, 1, 1, 1), dtype=torch.float32, device=device)
        buf9 = torch.empty_strided((1, 128, 1, 1), (128, 1, 128, 128), dtype=torch.float32, device=device)
        triton_per_fused__native_batch_norm_legit_functional_copy__3_s0[(triton.cdiv(128, 64), 1, 1)](buf5, buf6, buf7, arg15_1, arg16_1, buf8, buf9, arg15_1, arg16_1, 128, 7, XBLOCK=64, num_warps=4, num_stages=1)
        del arg15_1
        del arg16_1
        buf12 = torch.empty_strided((128, 64, 3, 3), (576, 1, 192, 64), dtype=torch.float32, device=device)
        triton_poi_fused_convolution_4_s0[(triton.cdiv(9, 16), triton.cdiv(8192, 64), 1)](arg0_1, buf12, 8192, 9, XBLOCK=16, YBLOCK=64, num_warps=4, num_stages=1)
        del arg0_1
        buf13 = torch.convolution(buf11, buf12, None, (2, 2), (1, 1), (1, 1), False, (0, 0), 1)
        del buf11
        del buf12
        buf14 = buf4
        del buf4
        buf15 = buf3
        del buf3
        buf16 = buf2
        del buf2
        triton_red_fused__native_batch_norm_legit_functional_1_s0[(triton.cdiv(100352, 64), 1, 1)](buf13, buf14, buf15, buf16, 100352, 128, XBLOCK=64, R0_BLOCK=2, num_warps=4, num_stages=1)
        buf17 = buf7
        del buf7
        buf18 = buf6
        del buf6
        buf19 = buf5
        del buf5
        triton_red_fused__native_batch_norm_legit_functional_2_s0[(triton.cdiv(896, 4), 1, 1)](buf14, buf15, buf16, buf17, buf18, buf19, 896, 112, XBLOCK=4, R0_BLOCK=128, num_warps=4, num_stages=1)
        buf20 = torch.empty_strided((1, 128, 1, 1), (128, 1, 1, 1), dtype=torch.float32, device=device)
        buf21 = torch.empty_strided((1, 128, 1, 1), (128, 1, 128, 128), dtype=torch.float32, device=device)
        triton_per_fused__native_batch_norm_legit_functional_copy__3_s0[(triton.cdiv(128, 64), 1, 1)](buf17, buf18, buf19, arg9_1, arg10_1, buf20, buf21, arg9_1, arg10_1, 128, 7, XBLOCK=64, num_warps=4, num_stages=1)
        del arg10_1
        del arg9_1
        buf23 = buf13
        del buf13
        triton_poi_fused__native_batch_norm_legit_functional_relu_5_s0[(triton.cdiv(12845056, 512), 1, 1)](buf23, buf20, buf21, arg1_1, arg2_1, 12845056, XBLOCK=512, num_warps=4, num_stages=1)
        del arg1_1
        del arg2_1
        buf24 = torch.empty_strided((128, 128, 3, 3), (1152, 1, 384, 128), dtype=torch.float32, device=device)
        triton_poi_fused__native_batch_norm_legit_functional_convolution_relu_6_s0[(triton.cdiv(9, 16), triton.cdiv(16384, 64), 1)](arg3_1, buf24, 16384, 9, XBLOCK=16, YBLOCK=64, num_warps=4, num_stages=1)
        del arg3_1
        buf25 = torch.convolution(buf23, buf24, None, (1, 1), (1, 1), (1, 1), False, (0, 0), 1)
        del buf24
        buf26 = buf16
        del buf16
        buf27 = buf15
        del buf15
        buf28 = buf14
        del buf14
        triton_red_fused__native_batch_norm_legit_functional_1_s0[(triton.cdiv(100352, 64), 1, 1)](buf25, buf26, buf27, buf28, 100352, 128, XBLOCK=64, R0_BLOCK=8, num_warps=4, num_stages=1)
        buf29 = buf19
        del buf19
        buf30 = buf18
        del buf18
        buf31 = buf17
        del buf17
        triton_red_fused__native_batch_norm_legit_functional_2_s0[(triton.cdiv(896, 4), 1, 1)](buf26, buf27, buf28, buf29, buf30, buf31, 896, 112, XBLOCK=4, R0_BLOCK=128, num_warps=4, num_stages=2)
        del buf26
        del buf27
        del buf28
        buf32 = torch.as_strided(buf21, (1, 128, 1, 1), (128, 1, 1, 1), 0)
        del buf21
        buf33 = torch.as_strided(buf20, (1, 128, 1, 1), (128, 1, 128, 128), 0)
        del buf20
        triton_per_fused__native_batch_norm_legit_functional_copy__3_s0[(triton.cdiv(128, 64), 1, 1)](buf29, buf30, buf31, arg12_1, arg13_1, buf32, buf33, arg12_1, arg13_1, 128, 7, XBLOCK=64, num_warps=4, num_stages=1)
        del arg12_1
        del arg13_1
        del buf29
        del buf30
        del buf31
        buf35 = buf25
        del buf25
        buf36 = torch.as_strided(buf23, (32, 128, 56, 56), (401408, 3136, 56, 1), 0)
        del buf23
        triton_poi_fused__native_batch_norm_legit_functional_add_relu_7_s0[(triton.cdiv(3136, 32), triton.cdiv(4096, 32), 1)](buf35, buf32, buf33, arg4_1, arg5_1, buf1, buf8, buf9, arg7_1, arg8_1, buf36, 4096, 3136, XBLOCK=32, YBLOCK=32, num_warps=4, num_stages=1)
        del arg4_1
        del arg5_1
        del arg7_1
        del arg8_1
        del buf1
        del buf32
        del buf33
        del buf35
        del buf8
        del buf9
        triton_poi_fused_add_copy__8_s0[(1, 1, 1)](arg11_1, arg11_1, 1, XBLOCK=1, num_warps=1, num_stages=1)
        del arg11_1
        triton_poi_fused_add_copy__8_s0[(1, 1, 1)](arg14_1, arg14_1, 1, XBLOCK=1, num_warps=1, num_stages=1)
        del arg14_1
        triton_poi_fused_add_copy__8_s0[(1, 1, 1)](arg17_1, arg17_1, 1, XBLOCK=1, num_warps=1, num_stages=2)
        del arg17_1
        return buf36

    def _sizes_1(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = self.conv1.weight
        arg1_1 = self.bn1.weight
        arg2_1 = self.bn1.bias
        arg3_1 = self.conv2.weight
        arg4_1 = self.bn2.weight
        arg5_1 = self.bn2.bias
        arg6_1 = self.downsample['0'].weight
        arg7_1 = self.downsample['1'].weight
        arg8_1 = self.downsample['1'].bias
        arg9_1 = self.bn1.running_mean
        arg10_1 = self.bn1.running_var
        arg11_1 = self.bn1.num_batches_tracked
        arg12_1 = self.bn2.running_mean
        arg13_1 = self.bn2.running_var
        arg14_1 = self.bn2.num_batches_tracked
        arg15_1 = self.downsample['1'].running_mean
        arg16_1 = self.downsample['1'].running_var
        arg17_1 = self.downsample['1'].num_batches_tracked
        arg18_1 = inputs[0]
        buf0 = torch.empty_strided((2, 3, 8, 8), (192, 1, 24, 3), dtype=torch.float32, device=device)
        buf5 = torch.empty_strided((2, 3, 8, 8), (192, 1, 24, 3), dtype=torch.float32, device=device)
        triton_poi_fused_convolution_0_s1[(triton.cdiv(64, 32), triton.cdiv(6, 8), 1)](arg18_1, buf0, buf5, 6, 64, XBLOCK=32, YBLOCK=8, num_warps=4, num_stages=1)
        del arg18_1
        buf1 = torch.convolution(buf0, arg6_1, None, (2, 2), (0, 0), (1, 1), False, (0, 0), 1)
        del arg6_1
        del buf0
        buf6 = torch.empty_strided((4, 3, 3, 3), (27, 1, 9, 3), dtype=torch.float32, device=device)
        triton_poi_fused_convolution_1_s1[(triton.cdiv(9, 16), triton.cdiv(12, 16), 1)](arg0_1, buf6, 12, 9, XBLOCK=16, YBLOCK=16, num_warps=4, num_stages=1)
        del arg0_1
        buf7 = torch.convolution(buf5, buf6, None, (2, 2), (1, 1), (1, 1), False, (0, 0), 1)
        del buf5
        del buf6
        buf11 = buf7
        del buf7
        triton_per_fused__native_batch_norm_legit_functional_copy__relu_2_s1[(4, 1, 1)](buf11, arg9_1, arg10_1, arg1_1, arg2_1, arg9_1, arg10_1, 4, 32, XBLOCK=1, num_warps=2, num_stages=1)
        del arg10_1
        del arg1_1
        del arg2_1
        del arg9_1
        buf12 = torch.empty_strided((4, 4, 3, 3), (36, 1, 12, 4), dtype=torch.float32, device=device)
        triton_poi_fused__native_batch_norm_legit_functional_convolution_relu_3_s1[(triton.cdiv(9, 16), triton.cdiv(16, 16), 1)](arg3_1, buf12, 16, 9, XBLOCK=16, YBLOCK=16, num_warps=4, num_stages=1)
        del arg3_1
        buf13 = torch.convolution(buf11, buf12, None, (1, 1), (1, 1), (1, 1), False, (0, 0), 1)
        del buf12
        buf17 = buf13
        del buf13
        buf18 = torch.as_strided(buf11, (2, 4, 4, 4), (64, 16, 4, 1), 0)
        del buf11
        triton_per_fused__native_batch_norm_legit_functional_add_copy__relu_4_s1[(4, 1, 1)](buf17, buf1, arg15_1, arg16_1, arg12_1, arg13_1, arg4_1, arg5_1, arg7_1, arg8_1, arg15_1, arg16_1, arg12_1, arg13_1, buf18, 4, 32, XBLOCK=1, num_warps=2, num_stages=1)
        del arg12_1
        del arg13_1
        del arg15_1
        del arg16_1
        del arg4_1
        del arg5_1
        del arg7_1
        del arg8_1
        del buf1
        del buf17
        triton_poi_fused_add_copy__5_s1[(1, 1, 1)](arg11_1, arg11_1, 1, XBLOCK=1, num_warps=1, num_stages=1)
        del arg11_1
        triton_poi_fused_add_copy__5_s1[(1, 1, 1)](arg14_1, arg14_1, 1, XBLOCK=1, num_warps=1, num_stages=1)
        del arg14_1
        triton_poi_fused_add_copy__5_s1[(1, 1, 1)](arg17_1, arg17_1, 1, XBLOCK=1, num_warps=1, num_stages=1)
        del arg17_1
        return buf18

    def _sizes_2(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = self.conv1.weight
        arg1_1 = self.bn1.weight
        arg2_1 = self.bn1.bias
        arg3_1 = self.conv2.weight
        arg4_1 = self.bn2.weight
        arg5_1 = self.bn2.bias
        arg6_1 = self.downsample['0'].weight
        arg7_1 = self.downsample['1'].weight
        arg8_1 = self.downsample['1'].bias
        arg9_1 = self.bn1.running_mean
        arg10_1 = self.bn1.running_var
        arg11_1 = self.bn1.num_batches_tracked
        arg12_1 = self.bn2.running_mean
        arg13_1 = self.bn2.running_var
        arg14_1 = self.bn2.num_batches_tracked
        arg15_1 = self.downsample['1'].running_mean
        arg16_1 = self.downsample['1'].running_var
        arg17_1 = self.downsample['1'].num_batches_tracked
        arg18_1 = inputs[0]
        buf0 = torch.empty_strided((3, 3, 9, 11), (297, 1, 33, 3), dtype=torch.float32, device=device)
        buf5 = torch.empty_strided((3, 3, 9, 11), (297, 1, 33, 3), dtype=torch.float32, device=device)
        triton_poi_fused_convolution_0_s2[(triton.cdiv(99, 128), triton.cdiv(9, 2), 1)](arg18_1, buf0, buf5, 9, 99, XBLOCK=128, YBLOCK=2, num_warps=4, num_stages=1)
        del arg18_1
        buf1 = torch.convolution(buf0, arg6_1, None, (2, 2), (0, 0), (1, 1), False, (0, 0), 1)
        del arg6_1
        del buf0
        buf6 = torch.empty_strided((5, 3, 3, 3), (27, 1, 9, 3), dtype=torch.float32, device=device)
        triton_poi_fused_convolution_1_s2[(triton.cdiv(9, 16), triton.cdiv(15, 16), 1)](arg0_1, buf6, 15, 9, XBLOCK=16, YBLOCK=16, num_warps=4, num_stages=1)
        del arg0_1
        buf7 = torch.convolution(buf5, buf6, None, (2, 2), (1, 1), (1, 1), False, (0, 0), 1)
        del buf5
        del buf6
        buf11 = buf7
        del buf7
        triton_red_fused__native_batch_norm_legit_functional_copy__relu_2_s2[(triton.cdiv(5, 2), 1, 1)](buf11, arg9_1, arg10_1, arg1_1, arg2_1, arg9_1, arg10_1, 5, 90, XBLOCK=2, R0_BLOCK=64, num_warps=2, num_stages=1)
        del arg10_1
        del arg1_1
        del arg2_1
        del arg9_1
        buf12 = torch.empty_strided((5, 5, 3, 3), (45, 1, 15, 5), dtype=torch.float32, device=device)
        triton_poi_fused__native_batch_norm_legit_functional_convolution_relu_3_s2[(triton.cdiv(9, 16), triton.cdiv(25, 32), 1)](arg3_1, buf12, 25, 9, XBLOCK=16, YBLOCK=32, num_warps=4, num_stages=1)
        del arg3_1
        buf13 = torch.convolution(buf11, buf12, None, (1, 1), (1, 1), (1, 1), False, (0, 0), 1)
        del buf12
        buf17 = buf13
        del buf13
        buf18 = torch.as_strided(buf11, (3, 5, 5, 6), (150, 30, 6, 1), 0)
        del buf11
        triton_red_fused__native_batch_norm_legit_functional_add_copy__relu_4_s2[(triton.cdiv(5, 2), 1, 1)](buf17, buf1, arg15_1, arg16_1, arg12_1, arg13_1, arg4_1, arg5_1, arg7_1, arg8_1, arg15_1, arg16_1, arg12_1, arg13_1, buf18, 5, 90, XBLOCK=2, R0_BLOCK=64, num_warps=2, num_stages=1)
        del arg12_1
        del arg13_1
        del arg15_1
        del arg16_1
        del arg4_1
        del arg5_1
        del arg7_1
        del arg8_1
        del buf1
        del buf17
        triton_poi_fused_add_copy__5_s2[(1, 1, 1)](arg11_1, arg11_1, 1, XBLOCK=1, num_warps=1, num_stages=1)
        del arg11_1
        triton_poi_fused_add_copy__5_s2[(1, 1, 1)](arg14_1, arg14_1, 1, XBLOCK=1, num_warps=1, num_stages=1)
        del arg14_1
        triton_poi_fused_add_copy__5_s2[(1, 1, 1)](arg17_1, arg17_1, 1, XBLOCK=1, num_warps=1, num_stages=1)
        del arg17_1
        return buf18
