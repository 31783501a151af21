"""kernelevo 0.1.0: best kernel for spec 'softmax_rows'
spec sha256: 0aeea8e581458a2743afcbdb47f1e09a32f7a538d9019d7622ac57594a086ce4
hardware: h100
made: 2026-11-25T22:49:06+00:00
measured on: NVIDIA H100 80GB HBM3 (vm); torch 2.11.0+cu130, triton 3.6.0, python 3.12.3, CUDA 13.0
timings: median 0.3523 ms (IQR 0.0009), 1.62x eager, 1.01x torch.compile, 101% of roofline
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

@triton.jit
def online_softmax_reduce(lhs_max, lhs_sum, dim, use_fast_math: tl.constexpr):
    out_max = max2(lhs_max, dim)
    out_max_keepdim = tl.expand_dims(out_max, dim)
    delta = tl.where(out_max_keepdim == float('-inf'), 0, lhs_max - out_max_keepdim)
    out_sum = tl.sum(lhs_sum * exp(delta, use_fast_math), dim)
    return (out_max, out_sum)

@triton.jit
def exp(x, use_fast_math: tl.constexpr):
    if use_fast_math:
        return tl_math.exp(x)
    else:
        return libdevice.exp(x)

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

@triton.autotune(configs=[triton.Config({}, num_warps=16, num_stages=1), triton.Config({}, num_warps=8, num_stages=3), triton.Config({}, num_warps=32, num_stages=1), triton.Config({}, num_warps=8, num_stages=1)], key=['xnumel', 'r0_numel', 'XBLOCK', 'R0_BLOCK'], do_bench=_kernelevo_autotune_bench)
@triton.jit
def triton_red_fused__softmax_exp_prepare_softmax_online_sub_0_s0(in_ptr0, out_ptr2, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
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
    block_ptr0 = tl.make_block_ptr(in_ptr0, shape=[16384, 8192], strides=[8192, 1], block_shape=[XBLOCK, R0_BLOCK], order=[1, 0], offsets=[xoffset, 0])
    _tmp2_max = tl.full([XBLOCK, R0_BLOCK], float('-inf'), tl.float32)
    _tmp2_sum = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(block_ptr0, boundary_check=[1], padding_option='zero', eviction_policy='evict_last')
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        _tmp2_max_next, _tmp2_sum_next = online_softmax_combine(_tmp2_max, _tmp2_sum, tmp1, False)
        _tmp2_max = tl.where(r0_mask, _tmp2_max_next, _tmp2_max)
        _tmp2_sum = tl.where(r0_mask, _tmp2_sum_next, _tmp2_sum)
        block_ptr0 = tl.advance(block_ptr0, [0, R0_BLOCK])
    tmp2, tmp3 = online_softmax_reduce(_tmp2_max, _tmp2_sum, 1, False)
    tmp2 = tmp2[:, None]
    tmp3 = tmp3[:, None]
    block_ptr1 = tl.make_block_ptr(in_ptr0, shape=[16384, 8192], strides=[8192, 1], block_shape=[XBLOCK, R0_BLOCK], order=[1, 0], offsets=[xoffset, 0])
    block_ptr2 = tl.make_block_ptr(out_ptr2, shape=[16384, 8192], strides=[8192, 1], block_shape=[XBLOCK, R0_BLOCK], order=[1, 0], offsets=[xoffset, 0])
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp4 = tl.load(block_ptr1, boundary_check=[1], padding_option='zero', eviction_policy='evict_first')
        tmp5 = tmp4 - tmp2
        tmp6 = libdevice.exp(tmp5)
        tmp7 = tmp6 / tmp3
        tl.store(block_ptr2, tl.broadcast_to(tmp7, [XBLOCK, R0_BLOCK]).to(tl.float32), boundary_check=[1])
        block_ptr0 = tl.advance(block_ptr0, [0, R0_BLOCK])
        block_ptr1 = tl.advance(block_ptr1, [0, R0_BLOCK])
        block_ptr2 = tl.advance(block_ptr2, [0, R0_BLOCK])

@triton.jit
def triton_red_fused__softmax_exp_prepare_softmax_online_sub_0_s1(in_ptr0, out_ptr2, ks0, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp2 = tl.full([XBLOCK, R0_BLOCK], float('-inf'), tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + ks0 * x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = maximum(_tmp2, tmp1)
        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)
    tmp2 = max2(_tmp2, 1)[:, None]
    _tmp8 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp4 = tl.load(in_ptr0 + (r0_1 + ks0 * x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp5 = tmp4 - tmp2
        tmp6 = libdevice.exp(tmp5)
        tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
        tmp9 = _tmp8 + tmp7
        _tmp8 = tl.where(r0_mask & xmask, tmp9, _tmp8)
    tmp8 = tl.sum(_tmp8, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp10 = tl.load(in_ptr0 + (r0_1 + ks0 * x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp11 = tmp10 - tmp2
        tmp12 = libdevice.exp(tmp11)
        tmp13 = tmp12 / tmp8
        tl.store(out_ptr2 + (r0_1 + ks0 * x0), tmp13, r0_mask & xmask)


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
        buf2 = torch.empty_strided((16384, 8192), (8192, 1), dtype=torch.float32, device=device)
        triton_red_fused__softmax_exp_prepare_softmax_online_sub_0_s0[(16384, 1, 1)](arg0_1, buf2, 16384, 8192, XBLOCK=1, R0_BLOCK=2048)
        del arg0_1
        return buf2

    def _generic(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0].shape[0]
        arg1_1 = inputs[0].shape[1]
        arg2_1 = inputs[0]
        s33 = arg0_1
        s50 = arg1_1
        buf2 = torch.empty_strided((s33, s50), (s50, 1), dtype=torch.float32, device=device)
        triton_red_fused__softmax_exp_prepare_softmax_online_sub_0_s1[(s33, 1, 1)](arg2_1, buf2, s50, s33, s50, XBLOCK=1, R0_BLOCK=2048, num_warps=16, num_stages=1)
        del arg2_1
        return buf2
