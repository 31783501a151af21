"""kernelevo 0.1.0: best kernel for spec 'rmsnorm_dim1'
spec sha256: c839ad21cad3a5e0f974efe6dccde7312b6b74d8a3b1dcd9e596cc69a208df10
hardware: h100
made: 2026-11-25T22:46:49+00:00
measured on: NVIDIA H100 80GB HBM3 (vm); torch 2.11.0+cu130, triton 3.6.0, python 3.12.3, CUDA 13.0
timings: median 0.1802 ms (IQR 0.0007), 2.90x eager, 1.04x torch.compile, 99% of roofline
variants checked: small, odd, default
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice


def _kernelevo_autotune_bench(fn, quantiles):  # the autotune move's trials: 5 + 20 ms, not Triton's default 25 + 100 ms
    return triton.testing.do_bench(fn, warmup=5, rep=20, quantiles=quantiles)

@triton.autotune(configs=[triton.Config({}, num_warps=32, num_stages=4), triton.Config({}, num_warps=1, num_stages=1), triton.Config({}, num_warps=16, num_stages=2), triton.Config({}, num_warps=16, num_stages=2)], key=['xnumel', 'r0_numel', 'XBLOCK', 'R0_BLOCK'], do_bench=_kernelevo_autotune_bench)
@triton.jit
def triton_red_fused_add_div_mean_pow_sqrt_0_s0(in_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    xnumel = 1048576
    r0_numel = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex % 65536
    x1 = xindex // 65536
    _tmp3 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + 65536 * r0_2 + 4194304 * x1), r0_mask, eviction_policy='evict_last', other=0.0)
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
        r0_2 = r0_index
        tmp5 = tl.load(in_ptr0 + (x0 + 65536 * r0_2 + 4194304 * x1), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp6 = tl.full([1, 1], 64.0, tl.float32)
        tmp7 = tmp3 / tmp6
        tmp8 = tl.full([1, 1], 1e-05, tl.float32)
        tmp9 = tmp7 + tmp8
        tmp10 = tl.sqrt_rn(tmp9)
        tmp11 = tmp5 / tmp10
        tl.store(out_ptr1 + (x0 + 65536 * r0_2 + 4194304 * x1), tmp11, r0_mask)

@triton.jit
def triton_red_fused_mean_pow_0_s1(in_ptr0, out_ptr0, ks0, ks1, ks2, ks3, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex % ks0
    x1 = xindex // ks0
    _tmp3 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    x3 = xindex
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_2 = r0_index
        tmp0 = tl.load(in_ptr0 + (x0 + ks2 * ks3 * r0_2 + ks1 * ks2 * ks3 * x1), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tmp0 * tmp0
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp4 = _tmp3 + tmp2
        _tmp3 = tl.where(r0_mask & xmask, tmp4, _tmp3)
    tmp3 = tl.sum(_tmp3, 1)[:, None]
    tl.store(out_ptr0 + x3, tmp3, xmask)

@triton.jit
def triton_poi_fused_add_div_mean_pow_sqrt_1_s1(in_ptr0, in_ptr1, out_ptr0, ks0, ks1, ks2, ks3, ks4, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x3 = xindex
    x0 = xindex % ks0
    x2 = xindex // ks1
    tmp0 = tl.load(in_ptr0 + x3, xmask, eviction_policy='evict_last')
    tmp1 = tl.load(in_ptr1 + (x0 + ks2 * ks3 * x2), xmask, eviction_policy='evict_last')
    tmp2 = ks4
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tmp1 / tmp3
    tmp5 = tl.full([1], 1e-05, tl.float32)
    tmp6 = tmp4 + tmp5
    tmp7 = tl.sqrt_rn(tmp6)
    tmp8 = tmp0 / tmp7
    tl.store(out_ptr0 + x3, tmp8, xmask)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        sizes = tuple(tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor))
        if sizes == ((16, 64, 256, 256),):
            return self._sizes_0(*inputs)
        return self._generic(*inputs)

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf1 = torch.empty_strided((16, 64, 256, 256), (4194304, 65536, 256, 1), dtype=torch.float32, device=device)
        triton_red_fused_add_div_mean_pow_sqrt_0_s0[(triton.cdiv(1048576, 64), 1, 1)](arg0_1, buf1, 1048576, 64, XBLOCK=64, R0_BLOCK=64)
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
        ps0 = s69 * s87
        buf0 = torch.empty_strided((s33, 1, s69, s87), (s69 * s87, s33 * s69 * s87, s87, 1), dtype=torch.float32, device=device)
        triton_red_fused_mean_pow_0_xnumel = s33 * s69 * s87
        triton_red_fused_mean_pow_0_s1[(triton.cdiv(triton_red_fused_mean_pow_0_xnumel, 64), 1, 1)](arg4_1, buf0, ps0, s50, s69, s87, triton_red_fused_mean_pow_0_xnumel, s50, XBLOCK=64, R0_BLOCK=8, num_warps=4, num_stages=1)
        ps1 = s50 * s69 * s87
        buf1 = torch.empty_strided((s33, s50, s69, s87), (s50 * s69 * s87, s69 * s87, s87, 1), dtype=torch.float32, device=device)
        triton_poi_fused_add_div_mean_pow_sqrt_1_xnumel = s33 * s50 * s69 * s87
        triton_poi_fused_add_div_mean_pow_sqrt_1_s1[(triton.cdiv(triton_poi_fused_add_div_mean_pow_sqrt_1_xnumel, 1024), 1, 1)](arg4_1, buf0, buf1, ps0, ps1, s69, s87, s50, triton_poi_fused_add_div_mean_pow_sqrt_1_xnumel, XBLOCK=1024, num_warps=4, num_stages=1)
        del arg4_1
        del buf0
        return buf1
