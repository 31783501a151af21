"""kernelevo 0.1.0: best kernel for spec 'cross_entropy'
spec sha256: 3edb5d7dbb8ca342d93f36fe21331425096f85a36e667f465fccab4a3a5a2f3a
hardware: h100
made: 2026-11-25T22:34:31+00:00
measured on: NVIDIA H100 80GB HBM3 (vm); torch 2.11.0+cu130, triton 3.6.0, python 3.12.3, CUDA 13.0
timings: median 0.1903 ms (IQR 0.0010), 2.48x eager, 1.47x torch.compile, 94% of roofline
variants checked: small, odd, default
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice

@triton.jit
def online_softmax_reduce(lhs_max, lhs_sum, dim, use_fast_math: tl.constexpr):
    out_max = max2(lhs_max, dim)
    out_max_keepdim = tl.expand_dims(out_max, dim)
    delta = tl.where(out_max_keepdim == float('-inf'), 0, lhs_max - out_max_keepdim)
    out_sum = tl.sum(lhs_sum * exp(delta, use_fast_math), dim)
    return (out_max, out_sum)

@triton.jit
def max2(a, dim):
    return tl.reduce(a, dim, maximum)

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
def exp(x, use_fast_math: tl.constexpr):
    if use_fast_math:
        return tl_math.exp(x)
    else:
        return tl.exp2(1.4426950408889634 * (x))

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
def triton_red_fused_prepare_softmax_online_0_s0(in_ptr0, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    xnumel = 32768
    r0_numel = 4096
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = tl.full([XBLOCK], True, tl.int1)[:, None]
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    block_ptr0 = tl.make_block_ptr(in_ptr0, shape=[32768, 4096], strides=[4096, 1], block_shape=[XBLOCK, R0_BLOCK], order=[1, 0], offsets=[xoffset, 0])
    _tmp2_max = tl.full([XBLOCK, R0_BLOCK], float('-inf'), tl.float32)
    _tmp2_sum = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(block_ptr0, boundary_check=[1], padding_option='zero', eviction_policy='evict_first')
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        _tmp2_max_next, _tmp2_sum_next = online_softmax_combine(_tmp2_max, _tmp2_sum, tmp1, False)
        _tmp2_max = tl.where(r0_mask, _tmp2_max_next, _tmp2_max)
        _tmp2_sum = tl.where(r0_mask, _tmp2_sum_next, _tmp2_sum)
        block_ptr0 = tl.advance(block_ptr0, [0, R0_BLOCK])
    tmp2, tmp3 = online_softmax_reduce(_tmp2_max, _tmp2_sum, 1, False)
    tmp2 = tmp2[:, None]
    tmp3 = tmp3[:, None]
    tl.store(tl.make_block_ptr(out_ptr0, shape=[32768], strides=[1], block_shape=[XBLOCK], order=[0], offsets=[xoffset]), tl.reshape(tl.broadcast_to(tmp2, [XBLOCK, 1]), [XBLOCK]).to(tl.float32), boundary_check=[])
    tl.store(tl.make_block_ptr(out_ptr1, shape=[32768], strides=[1], block_shape=[XBLOCK], order=[0], offsets=[xoffset]), tl.reshape(tl.broadcast_to(tmp3, [XBLOCK, 1]), [XBLOCK]).to(tl.float32), boundary_check=[])

@triton.jit
def triton_red_fused__log_softmax_nll_loss_forward_sub_1_s0(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    xnumel = 4
    r0_numel = 8192
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    block_ptr0 = tl.make_block_ptr(in_ptr0, shape=[4, 8192], strides=[8192, 1], block_shape=[XBLOCK, R0_BLOCK], order=[1, 0], offsets=[xoffset, 0])
    block_ptr1 = tl.make_block_ptr(in_ptr2, shape=[4, 8192], strides=[8192, 1], block_shape=[XBLOCK, R0_BLOCK], order=[1, 0], offsets=[xoffset, 0])
    block_ptr2 = tl.make_block_ptr(in_ptr3, shape=[4, 8192], strides=[8192, 1], block_shape=[XBLOCK, R0_BLOCK], order=[1, 0], offsets=[xoffset, 0])
    _tmp20 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    _tmp24 = tl.full([XBLOCK, R0_BLOCK], 0, tl.int64)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(block_ptr0, boundary_check=[0, 1], padding_option='zero', eviction_policy='evict_first')
        tmp11 = tl.load(block_ptr1, boundary_check=[0, 1], padding_option='zero', eviction_policy='evict_first')
        tmp13 = tl.load(block_ptr2, boundary_check=[0, 1], padding_option='zero', eviction_policy='evict_first')
        tmp1 = tl.full([1, 1], -100, tl.int64)
        tmp2 = tmp0 != tmp1
        tmp3 = tl.full([1, 1], 0, tl.int64)
        tmp4 = tl.where(tmp2, tmp0, tmp3)
        tmp5 = tl.full([1, 1], 4096, tl.int32)
        tmp6 = tmp4 + tmp5
        tmp7 = tmp4 < 0
        tmp8 = tl.where(tmp7, tmp6, tmp4)
        tl.device_assert((0 <= tmp8) & (tmp8 < 4096) | ~(r0_mask & xmask), 'index out of bounds: 0 <= tmp8 < 4096')
        tmp10 = tl.load(in_ptr1 + (tmp8 + 4096 * r0_1 + 33554432 * x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp12 = tmp10 - tmp11
        tmp14 = tl_math.log(tmp13)
        tmp15 = tmp12 - tmp14
        tmp16 = -tmp15
        tmp17 = tl.full([1, 1], 0.0, tl.float32)
        tmp18 = tl.where(tmp2, tmp16, tmp17)
        tmp19 = tl.broadcast_to(tmp18, [XBLOCK, R0_BLOCK])
        tmp21 = _tmp20 + tmp19
        _tmp20 = tl.where(r0_mask & xmask, tmp21, _tmp20)
        tmp22 = tmp2.to(tl.int64)
        tmp23 = tl.broadcast_to(tmp22, [XBLOCK, R0_BLOCK])
        tmp25 = _tmp24 + tmp23
        _tmp24 = tl.where(r0_mask & xmask, tmp25, _tmp24)
        block_ptr0 = tl.advance(block_ptr0, [0, R0_BLOCK])
        block_ptr1 = tl.advance(block_ptr1, [0, R0_BLOCK])
        block_ptr2 = tl.advance(block_ptr2, [0, R0_BLOCK])
    tmp20 = tl.sum(_tmp20, 1)[:, None]
    tmp24 = tl.sum(_tmp24, 1)[:, None]
    tl.store(tl.make_block_ptr(out_ptr0, shape=[4], strides=[1], block_shape=[XBLOCK], order=[0], offsets=[xoffset]), tl.reshape(tl.broadcast_to(tmp20, [XBLOCK, 1]), [XBLOCK]).to(tl.float32), boundary_check=[0])
    tl.store(tl.make_block_ptr(out_ptr1, shape=[4], strides=[1], block_shape=[XBLOCK], order=[0], offsets=[xoffset]), tl.reshape(tl.broadcast_to(tmp24, [XBLOCK, 1]), [XBLOCK]).to(tl.int64), boundary_check=[0])

@triton.jit
def triton_per_fused__log_softmax_nll_loss_forward_sub_2_s0(in_out_ptr0, in_ptr0, in_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr):
    xnumel = 1
    r0_numel = 4
    R0_BLOCK: tl.constexpr = 4
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
    tmp0 = tl.load(tl.make_block_ptr(in_ptr0, shape=[4], strides=[1], block_shape=[R0_BLOCK], order=[0], offsets=[r0_offset]), boundary_check=[0], padding_option='zero', eviction_policy='evict_first')[None, :]
    tmp4 = tl.load(tl.make_block_ptr(in_ptr1, shape=[4], strides=[1], block_shape=[R0_BLOCK], order=[0], offsets=[r0_offset]), boundary_check=[0], padding_option='zero', eviction_policy='evict_first')[None, :]
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.sum(tmp1, 1)[:, None].to(tl.float32)
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp7 = tl.sum(tmp5, 1)[:, None].to(tl.int64)
    tmp8 = tmp7.to(tl.float32)
    tmp9 = tmp3 / tmp8
    tl.debug_barrier()
    tl.store(in_out_ptr0 + tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1), tmp9, None)

@triton.jit
def triton_red_fused_prepare_softmax_online_0_s1(in_ptr0, out_ptr0, out_ptr1, ks0, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
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
    tl.store(out_ptr0 + x0, tmp2, xmask)
    _tmp8 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp4 = tl.load(in_ptr0 + (r0_1 + ks0 * x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp5 = tmp4 - tmp2
        tmp6 = libdevice.exp(tmp5)
        tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])
        tmp9 = _tmp8 + tmp7
        _tmp8 = tl.where(r0_mask & xmask, tmp9, _tmp8)
    tmp8 = tl.sum(_tmp8, 1)[:, None]
    tl.store(out_ptr1 + x0, tmp8, xmask)

@triton.jit
def triton_red_fused__log_softmax_nll_loss_forward_sub_1_s1(in_ptr0, in_ptr1, in_ptr2, in_ptr3, out_ptr0, out_ptr1, ks0, ks1, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 4
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp25 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    _tmp31 = tl.full([XBLOCK, R0_BLOCK], 0, tl.int64)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = r0_1 + x0 * ((3 + ks0) // 4)
        tmp1 = ks0
        tmp2 = tmp0 < tmp1
        tmp3 = tl.load(in_ptr0 + (r0_1 + x0 * ((3 + ks0) // 4)), r0_mask & tmp2 & xmask, eviction_policy='evict_first', other=0.0)
        tmp4 = tl.full([1, 1], -100, tl.int64)
        tmp5 = tmp3 != tmp4
        tmp6 = tl.full([1, 1], 0, tl.int64)
        tmp7 = tl.where(tmp5, tmp3, tmp6)
        tmp8 = tl.broadcast_to(ks1, [XBLOCK, R0_BLOCK])
        tmp9 = tmp7 + tmp8
        tmp10 = tmp7 < 0
        tmp11 = tl.where(tmp10, tmp9, tmp7)
        tl.device_assert((0 <= tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK])) & (tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK]) < ks1) | ~(r0_mask & tmp2 & xmask), 'index out of bounds: 0 <= tl.broadcast_to(tmp11, [XBLOCK, R0_BLOCK]) < ks1')
        tmp13 = tl.load(in_ptr1 + (tmp11 + ks1 * r0_1 + ks1 * x0 * ((3 + ks0) // 4)), r0_mask & tmp2 & xmask, eviction_policy='evict_last', other=0.0)
        tmp14 = tl.load(in_ptr2 + (r0_1 + x0 * ((3 + ks0) // 4)), r0_mask & tmp2 & xmask, eviction_policy='evict_first', other=0.0)
        tmp15 = tmp13 - tmp14
        tmp16 = tl.load(in_ptr3 + (r0_1 + x0 * ((3 + ks0) // 4)), r0_mask & tmp2 & xmask, eviction_policy='evict_first', other=0.0)
        tmp17 = tl_math.log(tmp16)
        tmp18 = tmp15 - tmp17
        tmp19 = -tmp18
        tmp20 = tl.full([1, 1], 0.0, tl.float32)
        tmp21 = tl.where(tmp5, tmp19, tmp20)
        tmp22 = tl.full(tmp21.shape, 0, tmp21.dtype)
        tmp23 = tl.where(tmp2, tmp21, tmp22)
        tmp24 = tl.broadcast_to(tmp23, [XBLOCK, R0_BLOCK])
        tmp26 = _tmp25 + tmp24
        _tmp25 = tl.where(r0_mask & xmask, tmp26, _tmp25)
        tmp27 = tmp5.to(tl.int64)
        tmp28 = tl.full(tmp27.shape, 0, tmp27.dtype)
        tmp29 = tl.where(tmp2, tmp27, tmp28)
        tmp30 = tl.broadcast_to(tmp29, [XBLOCK, R0_BLOCK])
        tmp32 = _tmp31 + tmp30
        _tmp31 = tl.where(r0_mask & xmask, tmp32, _tmp31)
    tmp25 = tl.sum(_tmp25, 1)[:, None]
    tmp31 = tl.sum(_tmp31, 1)[:, None]
    tl.store(out_ptr0 + x0, tmp25, xmask)
    tl.store(out_ptr1 + x0, tmp31, xmask)

@triton.jit
def triton_per_fused__log_softmax_nll_loss_forward_sub_2_s1(in_out_ptr0, in_ptr0, in_ptr1, xnumel, r0_numel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 1
    r0_numel = 4
    R0_BLOCK: tl.constexpr = 4
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
    tmp4 = tl.load(in_ptr1 + r0_0, None)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.sum(tmp1, 1)[:, None].to(tl.float32)
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp7 = tl.sum(tmp5, 1)[:, None].to(tl.int64)
    tmp8 = tmp7.to(tl.float32)
    tmp9 = tmp3 / tmp8
    tl.debug_barrier()
    tl.store(in_out_ptr0 + tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1), tmp9, None)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        sizes = tuple(tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor))
        if sizes == ((32768, 4096), (32768,)):
            return self._sizes_0(*inputs)
        return self._generic(*inputs)

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = inputs[0]
        arg1_1 = inputs[1]
        buf0 = torch.empty_strided((32768, 1), (1, 32768), dtype=torch.float32, device=device)
        buf1 = torch.empty_strided((32768, 1), (1, 32768), dtype=torch.float32, device=device)
        triton_red_fused_prepare_softmax_online_0_s0[(32768, 1, 1)](arg0_1, buf0, buf1, 32768, 4096, XBLOCK=1, R0_BLOCK=2048, num_warps=16, num_stages=1)
        buf3 = torch.empty_strided((4,), (1,), dtype=torch.float32, device=device)
        buf6 = torch.empty_strided((4,), (1,), dtype=torch.int64, device=device)
        triton_red_fused__log_softmax_nll_loss_forward_sub_1_s0[(4, 1, 1)](arg1_1, arg0_1, buf0, buf1, buf3, buf6, 4, 8192, XBLOCK=1, R0_BLOCK=1024, num_warps=32, num_stages=1)
        del arg0_1
        del arg1_1
        del buf0
        del buf1
        buf4 = torch.empty_strided((), (), dtype=torch.float32, device=device)
        buf8 = buf4
        del buf4
        triton_per_fused__log_softmax_nll_loss_forward_sub_2_s0[(1, 1, 1)](buf8, buf3, buf6, 1, 4, XBLOCK=1, num_warps=4, num_stages=2)
        del buf3
        del buf6
        return buf8

    def _generic(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0].shape[0]
        arg1_1 = inputs[0].shape[1]
        arg2_1 = inputs[0]
        arg3_1 = inputs[1]
        s33 = arg0_1
        s50 = arg1_1
        buf0 = torch.empty_strided((s33, 1), (1, s33), dtype=torch.float32, device=device)
        buf1 = torch.empty_strided((s33, 1), (1, s33), dtype=torch.float32, device=device)
        triton_red_fused_prepare_softmax_online_0_s1[(s33, 1, 1)](arg2_1, buf0, buf1, s50, s33, s50, XBLOCK=1, R0_BLOCK=2048, num_warps=16, num_stages=1)
        buf3 = torch.empty_strided((4,), (1,), dtype=torch.float32, device=device)
        buf6 = torch.empty_strided((4,), (1,), dtype=torch.int64, device=device)
        triton_red_fused__log_softmax_nll_loss_forward_sub_1_r0_numel = (3 + s33) // 4
        triton_red_fused__log_softmax_nll_loss_forward_sub_1_s1[(4, 1, 1)](arg3_1, arg2_1, buf0, buf1, buf3, buf6, s33, s50, 4, triton_red_fused__log_softmax_nll_loss_forward_sub_1_r0_numel, XBLOCK=1, R0_BLOCK=2048, num_warps=16, num_stages=1)
        del arg2_1
        del arg3_1
        del buf0
        del buf1
        buf4 = torch.empty_strided((), (), dtype=torch.float32, device=device)
        buf8 = buf4
        del buf4
        triton_per_fused__log_softmax_nll_loss_forward_sub_2_s1[(1, 1, 1)](buf8, buf3, buf6, 1, 4, XBLOCK=1, num_warps=2, num_stages=1)
        del buf3
        del buf6
        return buf8
