# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "maxpool3d"
# spec sha256: "6599fc180e58417f1ba7684177dbfa88c7c8b2298d388048704a8d893328e720"
# hardware: "h200"
# made: "2026-11-27T03:37:46+00:00"
# candidate: {"run": 1, "number": 58, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.1945 ms (IQR 0.0009), 2.37x eager, 2.47x torch.compile, 69% of roofline (read)"
# variants checked: ["small", "odd", "default"]

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice

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
def div_floor_integer(a, b):
    quot = a // b
    remainder = a % b
    fixed = tl.where(remainder != 0, quot - 1, quot)
    return tl.where((a < 0) != (b < 0), fixed, quot)

@triton.jit
def triton_per_fused_max_pool3d_with_indices_0_s0(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr):
    xnumel = 13824000
    r0_numel = 27
    R0_BLOCK: tl.constexpr = 32
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    r0_6 = r0_index // 9
    x2 = xindex // 900 % 30
    r0_5 = r0_index // 3 % 3
    x1 = xindex // 30 % 30
    r0_4 = r0_index % 3
    x0 = xindex % 30
    x3 = xindex // 27000
    x12 = xindex
    tmp0 = -1 + 2 * x2 + 3 * r0_6
    tmp1 = tl.full([1, 1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1, 1], 64, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tmp2 & tmp4
    tmp6 = -1 + 2 * x1 + 3 * r0_5
    tmp7 = tmp6 >= tmp1
    tmp8 = tmp6 < tmp3
    tmp9 = tmp7 & tmp8
    tmp10 = -1 + 2 * x0 + 3 * r0_4
    tmp11 = tmp10 >= tmp1
    tmp12 = tmp10 < tmp3
    tmp13 = tmp11 & tmp12
    tmp14 = tmp5 & tmp9
    tmp15 = tmp14 & tmp13
    tmp16 = tl.load(in_ptr0 + (-4161 + 2 * x0 + 3 * r0_4 + 128 * x1 + 192 * r0_5 + 8192 * x2 + 12288 * r0_6 + 262144 * x3), r0_mask & tmp15, other=float('-inf'))
    tmp17 = tl.broadcast_to(tmp16, [XBLOCK, R0_BLOCK])
    tmp19 = tl.where(r0_mask, tmp17, float('-inf'))
    tmp20 = max2(tmp19, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + x12, tmp20, None)

@triton.jit
def triton_per_fused_max_pool3d_with_indices_0_s1(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 32
    r0_numel = 27
    R0_BLOCK: tl.constexpr = 32
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
    r0_6 = r0_index // 9
    x2 = xindex // 4 % 2
    r0_5 = r0_index // 3 % 3
    x1 = xindex // 2 % 2
    r0_4 = r0_index % 3
    x0 = xindex % 2
    x3 = xindex // 8
    x12 = xindex
    tmp0 = -1 + 2 * x2 + 3 * r0_6
    tmp1 = tl.full([1, 1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1, 1], 8, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tmp2 & tmp4
    tmp6 = -1 + 2 * x1 + 3 * r0_5
    tmp7 = tmp6 >= tmp1
    tmp8 = tmp6 < tmp3
    tmp9 = tmp7 & tmp8
    tmp10 = -1 + 2 * x0 + 3 * r0_4
    tmp11 = tmp10 >= tmp1
    tmp12 = tmp10 < tmp3
    tmp13 = tmp11 & tmp12
    tmp14 = tmp5 & tmp9
    tmp15 = tmp14 & tmp13
    tmp16 = tl.load(in_ptr0 + (-73 + 2 * x0 + 3 * r0_4 + 16 * x1 + 24 * r0_5 + 128 * x2 + 192 * r0_6 + 512 * x3), r0_mask & tmp15 & xmask, eviction_policy='evict_last', other=float('-inf'))
    tmp17 = tl.broadcast_to(tmp16, [XBLOCK, R0_BLOCK])
    tmp19 = tl.where(r0_mask & xmask, tmp17, float('-inf'))
    tmp20 = max2(tmp19, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + x12, tmp20, xmask)

@triton.jit
def triton_per_fused_max_pool3d_with_indices_0_s2(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 216
    r0_numel = 27
    R0_BLOCK: tl.constexpr = 32
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
    r0_6 = r0_index // 9
    x2 = xindex // 8 % 3
    r0_5 = r0_index // 3 % 3
    x1 = xindex // 4 % 2
    r0_4 = r0_index % 3
    x0 = xindex % 4
    x3 = xindex // 24
    x12 = xindex
    tmp0 = -1 + 2 * x2 + 3 * r0_6
    tmp1 = tl.full([1, 1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1, 1], 9, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tmp2 & tmp4
    tmp6 = -1 + 2 * x1 + 3 * r0_5
    tmp7 = tmp6 >= tmp1
    tmp8 = tl.full([1, 1], 7, tl.int64)
    tmp9 = tmp6 < tmp8
    tmp10 = tmp7 & tmp9
    tmp11 = -1 + 2 * x0 + 3 * r0_4
    tmp12 = tmp11 >= tmp1
    tmp13 = tl.full([1, 1], 11, tl.int64)
    tmp14 = tmp11 < tmp13
    tmp15 = tmp12 & tmp14
    tmp16 = tmp5 & tmp10
    tmp17 = tmp16 & tmp15
    tmp18 = tl.load(in_ptr0 + (-89 + 2 * x0 + 3 * r0_4 + 22 * x1 + 33 * r0_5 + 154 * x2 + 231 * r0_6 + 693 * x3), r0_mask & tmp17 & xmask, eviction_policy='evict_last', other=float('-inf'))
    tmp19 = tl.broadcast_to(tmp18, [XBLOCK, R0_BLOCK])
    tmp21 = tl.where(r0_mask & xmask, tmp19, float('-inf'))
    tmp22 = max2(tmp21, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + x12, tmp22, xmask)

@triton.jit
def triton_per_fused_max_pool3d_with_indices_0_s3(in_ptr0, out_ptr0, ks0, ks1, ks2, ks3, ks4, ks5, ks6, ks7, xnumel, r0_numel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    r0_numel = 27
    R0_BLOCK: tl.constexpr = 32
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
    r0_6 = r0_index // 9
    x2 = xindex // ks0 % ks1
    r0_5 = r0_index // 3 % 3
    x1 = xindex // ks3 % ks4
    r0_4 = r0_index % 3
    x0 = xindex % ks3
    x3 = xindex // ks7
    tmp0 = -1 + 2 * x2 + 3 * r0_6
    tmp1 = tl.full([1, 1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = ks2
    tmp4 = tmp0 < tmp3
    tmp5 = tmp2 & tmp4
    tmp6 = -1 + 2 * x1 + 3 * r0_5
    tmp7 = tmp6 >= tmp1
    tmp8 = ks5
    tmp9 = tmp6 < tmp8
    tmp10 = tmp7 & tmp9
    tmp11 = -1 + 2 * x0 + 3 * r0_4
    tmp12 = tmp11 >= tmp1
    tmp13 = ks6
    tmp14 = tmp11 < tmp13
    tmp15 = tmp12 & tmp14
    tmp16 = tmp5 & tmp10
    tmp17 = tmp16 & tmp15
    tmp18 = tl.load(in_ptr0 + (-1 + -1 * ks6 + 2 * x0 + 3 * r0_4 + -1 * ks5 * ks6 + 2 * ks6 * x1 + 3 * ks6 * r0_5 + 2 * ks5 * ks6 * x2 + 3 * ks5 * ks6 * r0_6 + ks2 * ks5 * ks6 * x3), r0_mask & tmp17 & xmask, eviction_policy='evict_last', other=float('-inf'))
    tmp19 = tl.broadcast_to(tmp18, [XBLOCK, R0_BLOCK])
    tmp21 = tl.where(r0_mask & xmask, tmp19, float('-inf'))
    tmp22 = max2(tmp21, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + (x0 + x1 * (1 * (1 >= 1 + div_floor_integer(-5 + ks6, 2)) + (1 + div_floor_integer(-5 + ks6, 2)) * (1 + div_floor_integer(-5 + ks6, 2) > 1)) + x2 * (1 * (1 >= 1 + div_floor_integer(-5 + ks5, 2)) + (1 + div_floor_integer(-5 + ks5, 2)) * (1 + div_floor_integer(-5 + ks5, 2) > 1)) * (1 * (1 >= 1 + div_floor_integer(-5 + ks6, 2)) + (1 + div_floor_integer(-5 + ks6, 2)) * (1 + div_floor_integer(-5 + ks6, 2) > 1)) + x3 * (1 * (1 >= 1 + div_floor_integer(-5 + ks2, 2)) + (1 + div_floor_integer(-5 + ks2, 2)) * (1 + div_floor_integer(-5 + ks2, 2) > 1)) * (1 * (1 >= 1 + div_floor_integer(-5 + ks5, 2)) + (1 + div_floor_integer(-5 + ks5, 2)) * (1 + div_floor_integer(-5 + ks5, 2) > 1)) * (1 * (1 >= 1 + div_floor_integer(-5 + ks6, 2)) + (1 + div_floor_integer(-5 + ks6, 2)) * (1 + div_floor_integer(-5 + ks6, 2) > 1))), tmp22, xmask)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        sizes = tuple(tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor))
        if sizes == ((16, 32, 64, 64, 64),):
            return self._sizes_0(*inputs)
        if sizes == ((2, 2, 8, 8, 8),):
            return self._sizes_1(*inputs)
        if sizes == ((3, 3, 9, 7, 11),):
            return self._sizes_2(*inputs)
        return self._generic(*inputs)

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf0 = torch.empty_strided((16, 32, 30, 30, 30), (864000, 27000, 900, 30, 1), dtype=torch.float32, device=device)
        triton_per_fused_max_pool3d_with_indices_0_s0[(triton.cdiv(13824000, 256), 1, 1)](arg0_1, buf0, 13824000, 27, XBLOCK=256, num_warps=4, num_stages=2)
        del arg0_1
        return buf0

    def _sizes_1(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf0 = torch.empty_strided((2, 2, 2, 2, 2), (16, 8, 4, 2, 1), dtype=torch.float32, device=device)
        triton_per_fused_max_pool3d_with_indices_0_s1[(triton.cdiv(32, 8), 1, 1)](arg0_1, buf0, 32, 27, XBLOCK=8, num_warps=2, num_stages=1)
        del arg0_1
        return buf0

    def _sizes_2(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf0 = torch.empty_strided((3, 3, 3, 2, 4), (72, 24, 8, 4, 1), dtype=torch.float32, device=device)
        triton_per_fused_max_pool3d_with_indices_0_s2[(triton.cdiv(216, 128), 1, 1)](arg0_1, buf0, 216, 27, XBLOCK=128, num_warps=8, num_stages=1)
        del arg0_1
        return buf0

    def _generic(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0].shape[0]
        arg1_1 = inputs[0].shape[1]
        arg2_1 = inputs[0].shape[2]
        arg3_1 = inputs[0].shape[3]
        arg4_1 = inputs[0].shape[4]
        arg5_1 = inputs[0]
        s33 = arg0_1
        s50 = arg1_1
        s69 = arg2_1
        s87 = arg3_1
        s35 = arg4_1
        ps0 = (-3 + s35) // 2 * ((-3 + s87) // 2)
        ps1 = (-3 + s69) // 2
        ps2 = (-3 + s35) // 2
        ps3 = (-3 + s87) // 2
        ps4 = (-3 + s35) // 2 * ((-3 + s69) // 2) * ((-3 + s87) // 2)
        buf0 = torch.empty_strided((s33, s50, (-3 + s69) // 2, (-3 + s87) // 2, (-3 + s35) // 2), (s50 * max(1, 1 + (-5 + s35) // 2) * max(1, 1 + (-5 + s69) // 2) * max(1, 1 + (-5 + s87) // 2), max(1, 1 + (-5 + s35) // 2) * max(1, 1 + (-5 + s69) // 2) * max(1, 1 + (-5 + s87) // 2), max(1, 1 + (-5 + s35) // 2) * max(1, 1 + (-5 + s87) // 2), max(1, 1 + (-5 + s35) // 2), 1), dtype=torch.float32, device=device)
        triton_per_fused_max_pool3d_with_indices_0_xnumel = s33 * s50 * ((-3 + s35) // 2) * ((-3 + s69) // 2) * ((-3 + s87) // 2)
        triton_per_fused_max_pool3d_with_indices_0_s3[(triton.cdiv(triton_per_fused_max_pool3d_with_indices_0_xnumel, 128), 1, 1)](arg5_1, buf0, ps0, ps1, s69, ps2, ps3, s87, s35, ps4, triton_per_fused_max_pool3d_with_indices_0_xnumel, 27, XBLOCK=128, num_warps=8, num_stages=1)
        del arg5_1
        return buf0
