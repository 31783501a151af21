# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "frobenius_norm"
# spec sha256: "6cdd309fbf4e0c367811089ec237da9254603e9f0fb5ea2c73d5f212c0729516"
# hardware: "h200"
# made: "2026-11-27T00:08:33+00:00"
# candidate: {"run": 1, "number": 35, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.1960 ms (IQR 0.0012), 1.37x eager, 1.01x torch.compile, 65% of roofline (copy)"
# variants checked: ["small", "odd", "default"]

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice

@triton.jit
def triton_red_fused_linalg_vector_norm_0_s0(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    xnumel = 512
    r0_numel = 131072
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
        r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 131072 * x0), xmask, other=0.0)
        tmp1 = tmp0 * tmp0
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp4 = _tmp3 + tmp2
        _tmp3 = tl.where(xmask, tmp4, _tmp3)
    tmp3 = tl.sum(_tmp3, 1)[:, None]
    tl.store(out_ptr0 + x0, tmp3, xmask)

@triton.jit
def triton_per_fused_linalg_vector_norm_1_s0(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr):
    xnumel = 1
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
    r0_0 = r0_index
    tmp0 = tl.load(in_ptr0 + r0_0, None)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.sum(tmp1, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1), tmp3, None)

@triton.jit
def triton_poi_fused_div_linalg_vector_norm_2_s0(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xnumel = 67108864
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + x0, None)
    tmp1 = tl.load(in_ptr1 + 0)
    tmp2 = tl.broadcast_to(tmp1, [XBLOCK])
    tmp3 = tl.sqrt_rn(tmp2)
    tmp4 = tmp0 / tmp3
    tl.store(out_ptr0 + x0, tmp4, None)

@triton.jit
def triton_per_fused_div_linalg_vector_norm_0_s1(in_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 1
    r0_numel = 1024
    R0_BLOCK: tl.constexpr = 1024
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
    tmp1 = tmp0 * tmp0
    tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
    tmp4 = tl.sum(tmp2, 1)[:, None].to(tl.float32)
    tmp5 = tl.sqrt_rn(tmp4)
    tmp6 = tmp0 / tmp5
    tl.store(out_ptr1 + tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK]), tmp6, None)

@triton.jit
def triton_red_fused_div_linalg_vector_norm_0_s2(in_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 1
    r0_numel = 3465
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    _tmp3 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_0 = r0_index
        tmp0 = tl.load(in_ptr0 + r0_0, r0_mask, eviction_policy='evict_last', other=0.0)
        tmp1 = tmp0 * tmp0
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp4 = _tmp3 + tmp2
        _tmp3 = tl.where(r0_mask, tmp4, _tmp3)
    tmp3 = tl.sum(_tmp3, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_0 = r0_index
        tmp5 = tl.load(in_ptr0 + r0_0, r0_mask, eviction_policy='evict_first', other=0.0)
        tmp6 = tl.sqrt_rn(tmp3)
        tmp7 = tmp5 / tmp6
        tl.store(out_ptr1 + tl.broadcast_to(r0_0, [XBLOCK, R0_BLOCK]), tmp7, r0_mask)

@triton.jit
def triton_red_fused_linalg_vector_norm_0_s3(in_ptr0, out_ptr0, ks0, ks1, ks2, ks3, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 512
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp8 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = r0_1 + x0 * ((511 + ks0 * ks1 * ks2 * ks3) // 512)
        tmp1 = ks0 * ks1 * ks2 * ks3
        tmp2 = tmp0 < tmp1
        tmp3 = tl.load(in_ptr0 + (r0_1 + x0 * ((511 + ks0 * ks1 * ks2 * ks3) // 512)) % (ks0 * ks1 * ks2 * ks3), r0_mask & tmp2 & xmask, eviction_policy='evict_last', other=0.0)
        tmp4 = tmp3 * tmp3
        tmp5 = tl.full(tmp4.shape, 0, tmp4.dtype)
        tmp6 = tl.where(tmp2, tmp4, tmp5)
        tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
        tmp9 = _tmp8 + tmp7
        _tmp8 = tl.where(r0_mask & xmask, tmp9, _tmp8)
    tmp8 = tl.sum(_tmp8, 1)[:, None]
    tl.store(out_ptr0 + x0, tmp8, xmask)

@triton.jit
def triton_per_fused_linalg_vector_norm_1_s3(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 1
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
    r0_0 = r0_index
    tmp0 = tl.load(in_ptr0 + r0_0, None)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.sum(tmp1, 1)[:, None].to(tl.float32)
    tl.store(out_ptr0 + tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1), tmp3, None)

@triton.jit
def triton_poi_fused_div_linalg_vector_norm_2_s3(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + x0, xmask)
    tmp1 = tl.load(in_ptr1 + 0)
    tmp2 = tl.broadcast_to(tmp1, [XBLOCK])
    tmp3 = tl.sqrt_rn(tmp2)
    tmp4 = tmp0 / tmp3
    tl.store(out_ptr0 + x0, tmp4, xmask)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        sizes = tuple(tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor))
        if sizes == ((16, 64, 256, 256),):
            return self._sizes_0(*inputs)
        if sizes == ((2, 4, 8, 16),):
            return self._sizes_1(*inputs)
        if sizes == ((3, 5, 7, 33),):
            return self._sizes_2(*inputs)
        return self._generic(*inputs)

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf1 = torch.empty_strided((512,), (1,), dtype=torch.float32, device=device)
        triton_red_fused_linalg_vector_norm_0_s0[(512, 1, 1)](arg0_1, buf1, 512, 131072, XBLOCK=1, R0_BLOCK=2048, num_warps=16, num_stages=2)
        buf2 = torch.empty_strided((), (), dtype=torch.float32, device=device)
        triton_per_fused_linalg_vector_norm_1_s0[(1, 1, 1)](buf1, buf2, 1, 512, XBLOCK=1, num_warps=2, num_stages=1)
        del buf1
        buf3 = torch.empty_strided((16, 64, 256, 256), (4194304, 65536, 256, 1), dtype=torch.float32, device=device)
        triton_poi_fused_div_linalg_vector_norm_2_s0[(triton.cdiv(67108864, 512), 1, 1)](arg0_1, buf2, buf3, 67108864, XBLOCK=512, num_warps=4, num_stages=1)
        del arg0_1
        del buf2
        return buf3

    def _sizes_1(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf1 = torch.empty_strided((2, 4, 8, 16), (512, 128, 16, 1), dtype=torch.float32, device=device)
        triton_per_fused_div_linalg_vector_norm_0_s1[(1, 1, 1)](arg0_1, buf1, 1, 1024, XBLOCK=1, num_warps=8, num_stages=1)
        del arg0_1
        return buf1

    def _sizes_2(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf1 = torch.empty_strided((3, 5, 7, 33), (1155, 231, 33, 1), dtype=torch.float32, device=device)
        triton_red_fused_div_linalg_vector_norm_0_s2[(1, 1, 1)](arg0_1, buf1, 1, 3465, XBLOCK=1, R0_BLOCK=2048, num_warps=16, num_stages=1)
        del arg0_1
        return buf1

    def _generic(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0].shape[0]
        arg1_1 = inputs[0].shape[1]
        arg2_1 = inputs[0].shape[2]
        arg3_1 = inputs[0].shape[3]
        arg4_1 = inputs[0]
        s33 = arg0_1
        s50 = arg1_1
        s69 = arg2_1
        s87 = arg3_1
        buf1 = torch.empty_strided((512,), (1,), dtype=torch.float32, device=device)
        triton_red_fused_linalg_vector_norm_0_r0_numel = (511 + s33 * s50 * s69 * s87) // 512
        triton_red_fused_linalg_vector_norm_0_s3[(512, 1, 1)](arg4_1, buf1, s33, s50, s69, s87, 512, triton_red_fused_linalg_vector_norm_0_r0_numel, XBLOCK=1, R0_BLOCK=2048, num_warps=16, num_stages=1)
        buf2 = torch.empty_strided((), (), dtype=torch.float32, device=device)
        triton_per_fused_linalg_vector_norm_1_s3[(1, 1, 1)](buf1, buf2, 1, 512, XBLOCK=1, num_warps=4, num_stages=1)
        del buf1
        buf3 = torch.empty_strided((s33, s50, s69, s87), (s50 * s69 * s87, s69 * s87, s87, 1), dtype=torch.float32, device=device)
        triton_poi_fused_div_linalg_vector_norm_2_xnumel = s33 * s50 * s69 * s87
        triton_poi_fused_div_linalg_vector_norm_2_s3[(triton.cdiv(triton_poi_fused_div_linalg_vector_norm_2_xnumel, 512), 1, 1)](arg4_1, buf2, buf3, triton_poi_fused_div_linalg_vector_norm_2_xnumel, XBLOCK=512, num_warps=8, num_stages=1)
        del arg4_1
        del buf2
        return buf3
