"""kernelevo 0.1.0: best kernel for spec 'l2norm_rows'
spec sha256: 4f2f17440eb629c06d1540a750ee4cf3348d2991fbb040b9c917a081f6db2a40
hardware: h100
made: 2026-11-25T22:49:37+00:00
measured on: NVIDIA H100 80GB HBM3 (vm); torch 2.11.0+cu130, triton 3.6.0, python 3.12.3, CUDA 13.0
timings: median 0.3524 ms (IQR 0.0013), 1.80x eager, 1.01x torch.compile, 101% of roofline
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

@triton.autotune(configs=[triton.Config({}, num_warps=32, num_stages=4), triton.Config({}, num_warps=8, num_stages=1), triton.Config({}, num_warps=32, num_stages=4)], key=['xnumel', 'r0_numel', 'XBLOCK', 'R0_BLOCK'], do_bench=_kernelevo_autotune_bench)
@triton.jit
def triton_red_fused_div_linalg_vector_norm_0_s0(in_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
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
        r0_1 = r0_index
        tmp5 = tl.load(in_ptr0 + (r0_1 + 8192 * x0), r0_mask, eviction_policy='evict_first', other=0.0)
        tmp6 = tl.sqrt_rn(tmp3)
        tmp7 = tmp5 / tmp6
        tl.store(out_ptr1 + (r0_1 + 8192 * x0), tmp7, r0_mask)

@triton.jit
def triton_red_fused_div_linalg_vector_norm_0_s1(in_ptr0, out_ptr1, ks0, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
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
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp5 = tl.load(in_ptr0 + (r0_1 + ks0 * x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp6 = tl.sqrt_rn(tmp3)
        tmp7 = tmp5 / tmp6
        tl.store(out_ptr1 + (r0_1 + ks0 * x0), tmp7, r0_mask & xmask)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        sizes = tuple(tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor))
        if sizes == ((16384, 8192),):
            return self._sizes_0(*inputs)
        return self._generic(*inputs)

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = inputs[0]
        buf1 = torch.empty_strided((16384, 8192), (8192, 1), dtype=torch.float32, device=device)
        triton_red_fused_div_linalg_vector_norm_0_s0[(16384, 1, 1)](arg0_1, buf1, 16384, 8192, XBLOCK=1, R0_BLOCK=8192)
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
        triton_red_fused_div_linalg_vector_norm_0_s1[(s33, 1, 1)](arg2_1, buf1, s50, s33, s50, XBLOCK=1, R0_BLOCK=2048, num_warps=16, num_stages=1)
        del arg2_1
        return buf1
