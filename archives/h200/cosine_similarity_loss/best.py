# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "cosine_similarity_loss"
# spec sha256: "651e274bf5baf27b32f0f14aa0499905766195389bfca45dcbcbd8d712b8a8d6"
# hardware: "h200"
# made: "2026-11-27T00:06:40+00:00"
# candidate: {"run": 1, "number": 50, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.1303 ms (IQR 0.0009), 6.40x eager, 1.03x torch.compile, 92% of roofline (read)"
# variants checked: ["small", "odd", "default"]

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice

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
def triton_red_fused_clamp_min_div_linalg_vector_norm_mul_scalar_tensor_sum_0_s0(in_out_ptr0, in_ptr0, in_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    xnumel = 16384
    r0_numel = 4096
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
        tmp0 = tl.load(in_ptr0 + (r0_1 + 4096 * x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp1 = tmp0 * tmp0
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp4 = _tmp3 + tmp2
        _tmp3 = tl.where(r0_mask, tmp4, _tmp3)
    tmp3 = tl.sum(_tmp3, 1)[:, None]
    _tmp8 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp5 = tl.load(in_ptr1 + (r0_1 + 4096 * x0), r0_mask, eviction_policy='evict_last', other=0.0)
        tmp6 = tmp5 * tmp5
        tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
        tmp9 = _tmp8 + tmp7
        _tmp8 = tl.where(r0_mask, tmp9, _tmp8)
    tmp8 = tl.sum(_tmp8, 1)[:, None]
    _tmp21 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp10 = tl.load(in_ptr0 + (r0_1 + 4096 * x0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp15 = tl.load(in_ptr1 + (r0_1 + 4096 * x0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp11 = tl.sqrt_rn(tmp3)
        tmp12 = tl.full([1, 1], 9.99999993922529e-09, tl.float32)
        tmp13 = maximum(tmp11, tmp12)
        tmp14 = tmp10 / tmp13
        tmp16 = tl.sqrt_rn(tmp8)
        tmp17 = maximum(tmp16, tmp12)
        tmp18 = tmp15 / tmp17
        tmp19 = tmp14 * tmp18
        tmp20 = tl.broadcast_to(tmp19, [XBLOCK, R0_BLOCK])
        tmp22 = _tmp21 + tmp20
        _tmp21 = tl.where(r0_mask, tmp22, _tmp21)
    tmp21 = tl.sum(_tmp21, 1)[:, None]
    tl.store(in_out_ptr0 + x0, tmp21, None)

@triton.jit
def triton_red_fused_mean_rsub_1_s0(in_out_ptr0, in_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    xnumel = 1
    r0_numel = 16384
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    _tmp4 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_0 = r0_index
        tmp0 = tl.load(in_ptr0 + r0_0, r0_mask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.full([1, 1], 1.0, tl.float32)
        tmp2 = tmp1 - tmp0
        tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
        tmp5 = _tmp4 + tmp3
        _tmp4 = tl.where(r0_mask, tmp5, _tmp4)
    tmp4 = tl.sum(_tmp4, 1)[:, None]
    tmp6 = tl.full([1, 1], 16384.0, tl.float32)
    tmp7 = tmp4 / tmp6
    tl.debug_barrier()
    tl.store(in_out_ptr0 + tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1), tmp7, None)

@triton.jit
def triton_per_fused_clamp_min_div_linalg_vector_norm_mul_scalar_tensor_sum_0_s1(in_out_ptr0, in_ptr0, in_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 8
    r0_numel = 500
    R0_BLOCK: tl.constexpr = 512
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
    tmp0 = tl.load(in_ptr0 + (r0_1 + 500 * x0), r0_mask & xmask, other=0.0)
    tmp6 = tl.load(in_ptr1 + (r0_1 + 500 * x0), r0_mask & xmask, other=0.0)
    tmp1 = tmp0 * tmp0
    tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp4 = tl.where(r0_mask & xmask, tmp2, 0)
    tmp5 = tl.sum(tmp4, 1)[:, None].to(tl.float32)
    tmp7 = tmp6 * tmp6
    tmp8 = tl.broadcast_to(tmp7, [XBLOCK, R0_BLOCK])
    tmp10 = tl.where(r0_mask & xmask, tmp8, 0)
    tmp11 = tl.sum(tmp10, 1)[:, None].to(tl.float32)
    tmp12 = tl.sqrt_rn(tmp5)
    tmp13 = tl.full([1, 1], 9.99999993922529e-09, tl.float32)
    tmp14 = maximum(tmp12, tmp13)
    tmp15 = tmp0 / tmp14
    tmp16 = tl.sqrt_rn(tmp11)
    tmp17 = maximum(tmp16, tmp13)
    tmp18 = tmp6 / tmp17
    tmp19 = tmp15 * tmp18
    tmp20 = tl.broadcast_to(tmp19, [XBLOCK, R0_BLOCK])
    tmp22 = tl.where(r0_mask & xmask, tmp20, 0)
    tmp23 = tl.sum(tmp22, 1)[:, None].to(tl.float32)
    tl.store(in_out_ptr0 + x0, tmp23, xmask)

@triton.jit
def triton_per_fused_mean_rsub_1_s1(in_out_ptr0, in_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 1
    r0_numel = 8
    R0_BLOCK: tl.constexpr = 8
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
    r0_0 = r0_index
    tmp0 = tl.load(in_ptr0 + r0_0, None)
    tmp1 = tl.full([1, 1], 1.0, tl.float32)
    tmp2 = tmp1 - tmp0
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp5 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tmp6 = tl.full([1, 1], 8.0, tl.float32)
    tmp7 = tmp5 / tmp6
    tl.debug_barrier()
    tl.store(in_out_ptr0 + tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1), tmp7, None)

@triton.jit
def triton_red_fused_clamp_min_div_linalg_vector_norm_mul_scalar_tensor_sum_0_s2(in_out_ptr0, in_ptr0, in_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
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
        tmp1 = tmp0 * tmp0
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp4 = _tmp3 + tmp2
        _tmp3 = tl.where(r0_mask & xmask, tmp4, _tmp3)
    tmp3 = tl.sum(_tmp3, 1)[:, None]
    _tmp8 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp5 = tl.load(in_ptr1 + (r0_1 + 1531 * x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp6 = tmp5 * tmp5
        tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
        tmp9 = _tmp8 + tmp7
        _tmp8 = tl.where(r0_mask & xmask, tmp9, _tmp8)
    tmp8 = tl.sum(_tmp8, 1)[:, None]
    _tmp21 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp10 = tl.load(in_ptr0 + (r0_1 + 1531 * x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp15 = tl.load(in_ptr1 + (r0_1 + 1531 * x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp11 = tl.sqrt_rn(tmp3)
        tmp12 = tl.full([1, 1], 9.99999993922529e-09, tl.float32)
        tmp13 = maximum(tmp11, tmp12)
        tmp14 = tmp10 / tmp13
        tmp16 = tl.sqrt_rn(tmp8)
        tmp17 = maximum(tmp16, tmp12)
        tmp18 = tmp15 / tmp17
        tmp19 = tmp14 * tmp18
        tmp20 = tl.broadcast_to(tmp19, [XBLOCK, R0_BLOCK])
        tmp22 = _tmp21 + tmp20
        _tmp21 = tl.where(r0_mask & xmask, tmp22, _tmp21)
    tmp21 = tl.sum(_tmp21, 1)[:, None]
    tl.store(in_out_ptr0 + x0, tmp21, xmask)

@triton.jit
def triton_poi_fused_mean_rsub_1_s2(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 1
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    tmp0 = tl.load(in_ptr0 + 0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK])
    tmp4 = tl.load(in_ptr0 + 1)
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK])
    tmp8 = tl.load(in_ptr0 + 2)
    tmp9 = tl.broadcast_to(tmp8, [XBLOCK])
    tmp12 = tl.load(in_ptr0 + 3)
    tmp13 = tl.broadcast_to(tmp12, [XBLOCK])
    tmp16 = tl.load(in_ptr0 + 4)
    tmp17 = tl.broadcast_to(tmp16, [XBLOCK])
    tmp2 = tl.full([1], 1.0, tl.float32)
    tmp3 = tmp2 - tmp1
    tmp6 = tmp2 - tmp5
    tmp7 = tmp3 + tmp6
    tmp10 = tmp2 - tmp9
    tmp11 = tmp7 + tmp10
    tmp14 = tmp2 - tmp13
    tmp15 = tmp11 + tmp14
    tmp18 = tmp2 - tmp17
    tmp19 = tmp15 + tmp18
    tmp20 = tl.full([1], 5.0, tl.float32)
    tmp21 = tmp19 / tmp20
    tl.store(out_ptr0 + tl.full([XBLOCK], 0, tl.int32).broadcast_to(XBLOCK), tmp21, None)

@triton.jit
def triton_red_fused_clamp_min_div_linalg_vector_norm_mul_scalar_tensor_sum_0_s3(in_out_ptr0, in_ptr0, in_ptr1, ks0, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
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
        tmp1 = tmp0 * tmp0
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp4 = _tmp3 + tmp2
        _tmp3 = tl.where(r0_mask & xmask, tmp4, _tmp3)
    tmp3 = tl.sum(_tmp3, 1)[:, None]
    _tmp8 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp5 = tl.load(in_ptr1 + (r0_1 + ks0 * x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp6 = tmp5 * tmp5
        tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
        tmp9 = _tmp8 + tmp7
        _tmp8 = tl.where(r0_mask & xmask, tmp9, _tmp8)
    tmp8 = tl.sum(_tmp8, 1)[:, None]
    _tmp21 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp10 = tl.load(in_ptr0 + (r0_1 + ks0 * x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp15 = tl.load(in_ptr1 + (r0_1 + ks0 * x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp11 = tl.sqrt_rn(tmp3)
        tmp12 = tl.full([1, 1], 9.99999993922529e-09, tl.float32)
        tmp13 = maximum(tmp11, tmp12)
        tmp14 = tmp10 / tmp13
        tmp16 = tl.sqrt_rn(tmp8)
        tmp17 = maximum(tmp16, tmp12)
        tmp18 = tmp15 / tmp17
        tmp19 = tmp14 * tmp18
        tmp20 = tl.broadcast_to(tmp19, [XBLOCK, R0_BLOCK])
        tmp22 = _tmp21 + tmp20
        _tmp21 = tl.where(r0_mask & xmask, tmp22, _tmp21)
    tmp21 = tl.sum(_tmp21, 1)[:, None]
    tl.store(in_out_ptr0 + x0, tmp21, xmask)

@triton.jit
def triton_red_fused_mean_rsub_1_s3(in_ptr0, out_ptr0, ks0, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 2
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp9 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = r0_1 + x0 * ((1 + ks0) // 2)
        tmp1 = ks0
        tmp2 = tmp0 < tmp1
        tmp3 = tl.load(in_ptr0 + (r0_1 + x0 * ((1 + ks0) // 2)), r0_mask & tmp2 & xmask, eviction_policy='evict_first', other=0.0)
        tmp4 = tl.full([1, 1], 1.0, tl.float32)
        tmp5 = tmp4 - tmp3
        tmp6 = tl.full(tmp5.shape, 0, tmp5.dtype)
        tmp7 = tl.where(tmp2, tmp5, tmp6)
        tmp8 = tl.broadcast_to(tmp7, [XBLOCK, R0_BLOCK])
        tmp10 = _tmp9 + tmp8
        _tmp9 = tl.where(r0_mask & xmask, tmp10, _tmp9)
    tmp9 = tl.sum(_tmp9, 1)[:, None]
    tl.store(out_ptr0 + x0, tmp9, xmask)

@triton.jit
def triton_per_fused_mean_rsub_2_s3(in_out_ptr0, in_ptr0, ks0, xnumel, r0_numel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 1
    r0_numel = 2
    R0_BLOCK: tl.constexpr = 2
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
    r0_0 = r0_index
    tmp0 = tl.load(in_ptr0 + r0_0, None)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.sum(tmp1, 1)[:, None].to(tl.float32)
    tmp4 = ks0
    tmp5 = tmp4.to(tl.float32)
    tmp6 = tmp3 / tmp5
    tl.debug_barrier()
    tl.store(in_out_ptr0 + tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1), tmp6, None)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        sizes = tuple(tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor))
        if sizes == ((16384, 4096), (16384, 4096)):
            return self._sizes_0(*inputs)
        if sizes == ((8, 500), (8, 500)):
            return self._sizes_1(*inputs)
        if sizes == ((5, 1531), (5, 1531)):
            return self._sizes_2(*inputs)
        return self._generic(*inputs)

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = inputs[0]
        arg1_1 = inputs[1]
        buf0 = torch.empty_strided((16384, 1), (1, 16384), dtype=torch.float32, device=device)
        buf2 = torch.as_strided(buf0, (16384,), (1,), 0)
        del buf0
        triton_red_fused_clamp_min_div_linalg_vector_norm_mul_scalar_tensor_sum_0_s0[(16384, 1, 1)](buf2, arg0_1, arg1_1, 16384, 4096, XBLOCK=1, R0_BLOCK=2048, num_warps=16, num_stages=1)
        del arg0_1
        del arg1_1
        buf3 = torch.empty_strided((), (), dtype=torch.float32, device=device)
        buf4 = buf3
        del buf3
        triton_red_fused_mean_rsub_1_s0[(1, 1, 1)](buf4, buf2, 1, 16384, XBLOCK=1, R0_BLOCK=4096, num_warps=16, num_stages=1)
        del buf2
        return buf4

    def _sizes_1(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        arg1_1 = inputs[1]
        buf0 = torch.empty_strided((8, 1), (1, 8), dtype=torch.float32, device=device)
        buf2 = torch.as_strided(buf0, (8,), (1,), 0)
        del buf0
        triton_per_fused_clamp_min_div_linalg_vector_norm_mul_scalar_tensor_sum_0_s1[(8, 1, 1)](buf2, arg0_1, arg1_1, 8, 500, XBLOCK=1, num_warps=4, num_stages=1)
        del arg0_1
        del arg1_1
        buf3 = torch.empty_strided((), (), dtype=torch.float32, device=device)
        buf4 = buf3
        del buf3
        triton_per_fused_mean_rsub_1_s1[(1, 1, 1)](buf4, buf2, 1, 8, XBLOCK=1, num_warps=2, num_stages=1)
        del buf2
        return buf4

    def _sizes_2(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        arg1_1 = inputs[1]
        buf0 = torch.empty_strided((5, 1), (1, 5), dtype=torch.float32, device=device)
        buf2 = torch.as_strided(buf0, (5,), (1,), 0)
        del buf0
        triton_red_fused_clamp_min_div_linalg_vector_norm_mul_scalar_tensor_sum_0_s2[(triton.cdiv(5, 2), 1, 1)](buf2, arg0_1, arg1_1, 5, 1531, XBLOCK=2, R0_BLOCK=2048, num_warps=16, num_stages=1)
        del arg0_1
        del arg1_1
        buf3 = torch.empty_strided((), (), dtype=torch.float32, device=device)
        triton_poi_fused_mean_rsub_1_s2[(1, 1, 1)](buf2, buf3, 1, XBLOCK=1, num_warps=1, num_stages=1)
        del buf2
        return buf3

    def _generic(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0].shape[0]
        arg1_1 = inputs[0].shape[1]
        arg2_1 = inputs[0]
        arg3_1 = inputs[1]
        s33 = arg0_1
        s50 = arg1_1
        buf0 = torch.empty_strided((s33, 1), (1, s33), dtype=torch.float32, device=device)
        buf2 = torch.as_strided(buf0, (s33,), (1,), 0)
        del buf0
        triton_red_fused_clamp_min_div_linalg_vector_norm_mul_scalar_tensor_sum_0_s3[(s33, 1, 1)](buf2, arg2_1, arg3_1, s50, s33, s50, XBLOCK=1, R0_BLOCK=1024, num_warps=16, num_stages=1)
        del arg2_1
        del arg3_1
        buf4 = torch.empty_strided((2,), (1,), dtype=torch.float32, device=device)
        triton_red_fused_mean_rsub_1_r0_numel = (1 + s33) // 2
        triton_red_fused_mean_rsub_1_s3[(2, 1, 1)](buf2, buf4, s33, 2, triton_red_fused_mean_rsub_1_r0_numel, XBLOCK=1, R0_BLOCK=2048, num_warps=16, num_stages=1)
        del buf2
        buf5 = torch.empty_strided((), (), dtype=torch.float32, device=device)
        buf6 = buf5
        del buf5
        triton_per_fused_mean_rsub_2_s3[(1, 1, 1)](buf6, buf4, s33, 1, 2, XBLOCK=1, num_warps=2, num_stages=1)
        del buf4
        return buf6
