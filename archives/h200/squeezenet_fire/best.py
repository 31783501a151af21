# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "squeezenet_fire"
# spec sha256: "2a5c64d5833b4e7adee09bb450f3a5a2635a40e0c55fdc50f226bcb53cb5dce7"
# hardware: "h200"
# made: "2026-12-02T18:11:23+00:00"
# candidate: {"run": 1, "number": 26, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.3614 ms (IQR 0.0014), 1.96x eager, 1.01x torch.compile, 17% of roofline (copy)"
# variants checked: ["default"]

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
def triton_poi_fused_convolution_0(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK: tl.constexpr, XBLOCK: tl.constexpr):
    ynumel = 30
    xnumel = 50176
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
    tmp0 = tl.load(in_ptr0 + (x2 + 50176 * y3), xmask & ymask, eviction_policy='evict_last')
    tl.store(out_ptr0 + (y0 + 3 * x2 + 150528 * y1), tmp0, xmask & ymask)

@triton.jit
def triton_poi_fused_convolution_relu_1(in_out_ptr0, in_ptr0, xnumel, XBLOCK: tl.constexpr):
    xnumel = 3010560
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x2 = xindex
    x0 = xindex % 6
    tmp0 = tl.load(in_out_ptr0 + x2, None)
    tmp1 = tl.load(in_ptr0 + x0, None, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp3 = tl.full([1], 0, tl.int32)
    tmp4 = maximum(tmp3, tmp2)
    tl.store(in_out_ptr0 + x2, tmp4, None)

@triton.jit
def triton_poi_fused_convolution_2(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK: tl.constexpr, XBLOCK: tl.constexpr):
    ynumel = 384
    xnumel = 9
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = yindex % 6
    y1 = yindex // 6
    tmp0 = tl.load(in_ptr0 + (x2 + 9 * y3), xmask & ymask, eviction_policy='evict_last')
    tl.store(out_ptr0 + (y0 + 6 * x2 + 54 * y1), tmp0, xmask & ymask)

@triton.jit
def triton_poi_fused_cat_convolution_relu_3(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, ynumel, xnumel, YBLOCK: tl.constexpr, XBLOCK: tl.constexpr):
    ynumel = 1280
    xnumel = 50176
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    y0 = yindex % 128
    x2 = xindex
    y1 = yindex // 128
    y3 = yindex
    tmp0 = y0
    tmp1 = tl.full([1, 1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1, 1], 64, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tl.load(in_ptr0 + (64 * x2 + 3211264 * y1 + y0), tmp4 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp6 = tl.load(in_ptr1 + tl.broadcast_to(y0, [YBLOCK, XBLOCK]), tmp4 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp7 = tmp5 + tmp6
    tmp8 = tl.full([1, 1], 0, tl.int32)
    tmp9 = maximum(tmp8, tmp7)
    tmp10 = tl.full(tmp9.shape, 0.0, tmp9.dtype)
    tmp11 = tl.where(tmp4, tmp9, tmp10)
    tmp12 = tmp0 >= tmp3
    tmp13 = tl.full([1, 1], 128, tl.int64)
    tmp14 = tmp0 < tmp13
    tmp15 = tl.load(in_ptr2 + (64 * x2 + 3211264 * y1 + (-64 + y0)), tmp12 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp16 = tl.load(in_ptr3 + tl.broadcast_to(-64 + y0, [YBLOCK, XBLOCK]), tmp12 & xmask & ymask, eviction_policy='evict_last', other=0.0)
    tmp17 = tmp15 + tmp16
    tmp18 = tl.full([1, 1], 0, tl.int32)
    tmp19 = maximum(tmp18, tmp17)
    tmp20 = tl.full(tmp19.shape, 0.0, tmp19.dtype)
    tmp21 = tl.where(tmp12, tmp19, tmp20)
    tmp22 = tl.where(tmp4, tmp11, tmp21)
    tl.store(out_ptr0 + (x2 + 50176 * y3), tmp22, xmask & ymask)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()
        self.squeeze = nn.ModuleDict()
        self.squeeze.weight = nn.Parameter(torch.empty((6, 3, 1, 1)))
        self.squeeze.bias = nn.Parameter(torch.empty((6,)))
        self.expand1x1 = nn.ModuleDict()
        self.expand1x1.weight = nn.Parameter(torch.empty((64, 6, 1, 1)))
        self.expand1x1.bias = nn.Parameter(torch.empty((64,)))
        self.expand3x3 = nn.ModuleDict()
        self.expand3x3.weight = nn.Parameter(torch.empty((64, 6, 3, 3)))
        self.expand3x3.bias = nn.Parameter(torch.empty((64,)))

    def forward(self, *inputs):
        device = inputs[0].device
        arg0_1 = self.squeeze.weight
        arg1_1 = self.squeeze.bias
        arg2_1 = self.expand1x1.weight
        arg3_1 = self.expand1x1.bias
        arg4_1 = self.expand3x3.weight
        arg5_1 = self.expand3x3.bias
        arg6_1 = inputs[0]
        buf0 = torch.empty_strided((10, 3, 224, 224), (150528, 1, 672, 3), dtype=torch.float32, device=device)
        triton_poi_fused_convolution_0[(triton.cdiv(50176, 32), triton.cdiv(30, 32), 1)](arg6_1, buf0, 30, 50176, XBLOCK=32, YBLOCK=32, num_warps=8, num_stages=1)
        del arg6_1
        buf1 = torch.convolution(buf0, arg0_1, None, (1, 1), (0, 0), (1, 1), False, (0, 0), 1)
        del arg0_1
        del buf0
        buf2 = buf1
        del buf1
        triton_poi_fused_convolution_relu_1[(triton.cdiv(3010560, 512), 1, 1)](buf2, arg1_1, 3010560, XBLOCK=512, num_warps=8, num_stages=2)
        del arg1_1
        buf3 = torch.convolution(buf2, arg2_1, None, (1, 1), (0, 0), (1, 1), False, (0, 0), 1)
        del arg2_1
        buf4 = torch.empty_strided((64, 6, 3, 3), (54, 1, 18, 6), dtype=torch.float32, device=device)
        triton_poi_fused_convolution_2[(triton.cdiv(9, 16), triton.cdiv(384, 64), 1)](arg4_1, buf4, 384, 9, XBLOCK=16, YBLOCK=64, num_warps=4, num_stages=1)
        del arg4_1
        buf5 = torch.convolution(buf2, buf4, None, (1, 1), (1, 1), (1, 1), False, (0, 0), 1)
        del buf2
        del buf4
        buf6 = torch.empty_strided((10, 128, 224, 224), (6422528, 50176, 224, 1), dtype=torch.float32, device=device)
        triton_poi_fused_cat_convolution_relu_3[(triton.cdiv(50176, 32), triton.cdiv(1280, 32), 1)](buf3, arg3_1, buf5, arg5_1, buf6, 1280, 50176, XBLOCK=32, YBLOCK=32, num_warps=4, num_stages=1)
        del arg3_1
        del arg5_1
        del buf3
        del buf5
        return buf6
