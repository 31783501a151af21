"""kernelevo 0.1.0: best kernel for spec 'sum_dim1'
spec sha256: 26e03c469c6349812df9bfeafcae7673620f0579e4ec4e9414b231b3e92105c6
hardware: h100
made: 2026-11-25T22:35:48+00:00
measured on: NVIDIA H100 80GB HBM3 (vm); torch 2.11.0+cu130, triton 3.6.0, python 3.12.3, CUDA 13.0
timings: median 0.3512 ms (IQR 0.0011), 1.05x eager, 1.04x torch.compile, 102% of roofline
variants checked: small, odd, default
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice

@triton.jit
def triton_red_fused_sum_0(in_ptr0, out_ptr0, ks0, ks1, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex % ks0
    x1 = xindex // ks0
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + ks0 * r0_2 + ks0 * ks1 * x1), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = _tmp2 + tmp1
        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)
    tmp2 = tl.sum(_tmp2, 1)[:, None]
    tl.store(out_ptr0 + x3, tmp2, xmask)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        device = inputs[0].device
        arg0_1 = inputs[0].shape[0]
        arg1_1 = inputs[0].shape[1]
        arg2_1 = inputs[0].shape[2]
        arg3_1 = inputs[0]
        s33 = arg0_1
        s50 = arg1_1
        s69 = arg2_1
        buf0 = torch.empty_strided((s33, 1, s69), (s69, s69, 1), dtype=torch.float32, device=device)
        triton_red_fused_sum_0_xnumel = s33 * s69
        triton_red_fused_sum_0[(triton.cdiv(triton_red_fused_sum_0_xnumel, 128), 1, 1)](arg3_1, buf0, s69, s50, triton_red_fused_sum_0_xnumel, s50, XBLOCK=128, R0_BLOCK=128, num_warps=4, num_stages=1)
        del arg3_1
        return buf0
