# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "gemm_subtract_rowmax_gelu"
# spec sha256: "8bf3320801e73810e4897a9e9274f419f71a17f4d5ba95b0d400c026464e81e1"
# hardware: "h200"
# made: "2026-12-03T14:31:33+00:00"
# candidate: {"run": 1, "number": 16, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 1.8950 ms (IQR 0.0031), 1.45x eager, 1.43x torch.compile, 15% of roofline (compute)"
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
def triton_red_fused_gelu_max_sub_0_s0(in_out_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    xnumel = 1024
    r0_numel = 8192
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
        tmp0 = tl.load(in_out_ptr0 + (r0_1 + 8192 * x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = maximum(_tmp2, tmp1)
        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)
    tmp2 = max2(_tmp2, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp4 = tl.load(in_out_ptr0 + (r0_1 + 8192 * x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp5 = tmp4 - tmp2
        tmp6 = tl.full([1, 1], 0.5, tl.float32)
        tmp7 = tmp5 * tmp6
        tmp8 = tl.full([1, 1], 0.7071067811865476, tl.float32)
        tmp9 = tmp5 * tmp8
        tmp10 = libdevice.erf(tmp9)
        tmp11 = tl.full([1, 1], 1.0, tl.float32)
        tmp12 = tmp10 + tmp11
        tmp13 = tmp7 * tmp12
        tl.store(in_out_ptr0 + (r0_1 + 8192 * x0), tmp13, r0_mask & xmask)

@triton.jit
def triton_per_fused_gelu_max_sub_0_s1(in_out_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 16
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
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
    tmp0 = tl.load(in_out_ptr0 + (r0_1 + 64 * x0), xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(xmask, tmp1, float('-inf'))
    tmp4 = max2(tmp3, 1)[:, None].to(tl.float32)
    tmp5 = tmp0 - tmp4
    tmp6 = tl.full([1, 1], 0.5, tl.float32)
    tmp7 = tmp5 * tmp6
    tmp8 = tl.full([1, 1], 0.7071067811865476, tl.float32)
    tmp9 = tmp5 * tmp8
    tmp10 = libdevice.erf(tmp9)
    tmp11 = tl.full([1, 1], 1.0, tl.float32)
    tmp12 = tmp10 + tmp11
    tmp13 = tmp7 * tmp12
    tl.store(in_out_ptr0 + (r0_1 + 64 * x0), tmp13, xmask)

@triton.jit
def triton_per_fused_gelu_max_sub_0_s2(in_out_ptr0, xnumel, r0_numel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 5
    r0_numel = 45
    R0_BLOCK: tl.constexpr = 64
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
    tmp0 = tl.load(in_out_ptr0 + (r0_1 + 45 * x0), r0_mask & xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask & xmask, tmp1, float('-inf'))
    tmp4 = max2(tmp3, 1)[:, None].to(tl.float32)
    tmp5 = tmp0 - tmp4
    tmp6 = tl.full([1, 1], 0.5, tl.float32)
    tmp7 = tmp5 * tmp6
    tmp8 = tl.full([1, 1], 0.7071067811865476, tl.float32)
    tmp9 = tmp5 * tmp8
    tmp10 = libdevice.erf(tmp9)
    tmp11 = tl.full([1, 1], 1.0, tl.float32)
    tmp12 = tmp10 + tmp11
    tmp13 = tmp7 * tmp12
    tl.store(in_out_ptr0 + (r0_1 + 45 * x0), tmp13, r0_mask & xmask)

@triton.jit
def triton_red_fused_gelu_max_sub_0_s3(in_out_ptr0, ks0, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
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
        tmp0 = tl.load(in_out_ptr0 + (r0_1 + ks0 * x0), r0_mask & xmask, eviction_policy='evict_last', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = maximum(_tmp2, tmp1)
        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)
    tmp2 = max2(_tmp2, 1)[:, None]
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp4 = tl.load(in_out_ptr0 + (r0_1 + ks0 * x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp5 = tmp4 - tmp2
        tmp6 = tl.full([1, 1], 0.5, tl.float32)
        tmp7 = tmp5 * tmp6
        tmp8 = tl.full([1, 1], 0.7071067811865476, tl.float32)
        tmp9 = tmp5 * tmp8
        tmp10 = libdevice.erf(tmp9)
        tmp11 = tl.full([1, 1], 1.0, tl.float32)
        tmp12 = tmp10 + tmp11
        tmp13 = tmp7 * tmp12
        tl.store(in_out_ptr0 + (r0_1 + ks0 * x0), tmp13, r0_mask & xmask)



@triton.jit
def _kev_gemm_0(a_ptr, b_ptr, c_ptr, bias_ptr, part_ptr, count_ptr, M, N, K, alpha, beta, stride_ab, stride_am,
        stride_ak, stride_bb, stride_bk, stride_bn, stride_cb, stride_cm, stride_cn, stride_xb, stride_xm, stride_xn,
        HAS_BIAS: tl.constexpr, PRECISION: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
        BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, SPLIT_K: tl.constexpr):
    """c = alpha * a @ b (+ beta * bias), one BLOCK_M x BLOCK_N tile a program, batch on axis 1. With SPLIT_K > 1,
    SPLIT_K programs (axis 2) each sum a slice of K; the last of a tile's to finish adds their partial sums in
    split order (the same sum whichever finishes last) and stores the tile."""
    pid = tl.program_id(0)
    batch = tl.program_id(1)
    split = tl.program_id(2)
    num_m = tl.cdiv(M, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    group = pid // (GROUP_M * num_n)  # GROUP_M rows of tiles walk the columns together: B stays in L2
    first_m = group * GROUP_M
    rows = tl.minimum(num_m - first_m, GROUP_M)
    pid_m = first_m + (pid % (GROUP_M * num_n)) % rows
    pid_n = (pid % (GROUP_M * num_n)) // rows
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    k_tiles = tl.cdiv(K, BLOCK_K)
    k_first = split * tl.cdiv(k_tiles, SPLIT_K)
    k_end = tl.minimum(k_first + tl.cdiv(k_tiles, SPLIT_K), k_tiles)
    a_tile = a_ptr + batch * stride_ab + rm[:, None] * stride_am + (k_first * BLOCK_K + rk[None, :]) * stride_ak
    b_tile = b_ptr + batch * stride_bb + (k_first * BLOCK_K + rk[:, None]) * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(k_first, k_end):
        a = tl.load(a_tile, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BLOCK_K), other=0.0)
        b = tl.load(b_tile, mask=(rk[:, None] < K - k * BLOCK_K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision=PRECISION)
        a_tile += BLOCK_K * stride_ak
        b_tile += BLOCK_K * stride_bk
    inside = (rm[:, None] < M) & (rn[None, :] < N)
    if SPLIT_K > 1:
        batches = tl.num_programs(1)
        tile = (batch.to(tl.int64) * M + rm[:, None]) * N + rn[None, :]  # partial sums: (SPLIT_K, batch, M, N)
        tl.store(part_ptr + split.to(tl.int64) * batches * M * N + tile, acc, mask=inside)
        # acquire and release: the partial sums stored before are seen by whichever program counts last
        done = tl.atomic_add(count_ptr + (batch * num_m + pid_m) * num_n + pid_n, 1)
        # broadcast first: Triton's interpreter returns the count as a 1-element array, which & makes an int mask
        inside = inside & (tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32) + done == SPLIT_K - 1)
        if done == SPLIT_K - 1:
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for s in range(0, SPLIT_K):
                acc += tl.load(part_ptr + s * batches.to(tl.int64) * M * N + tile, mask=inside, other=0.0,
                               cache_modifier=".cg")
    acc = acc * alpha
    if HAS_BIAS:
        bias = tl.load(bias_ptr + batch * stride_xb + rm[:, None] * stride_xm + rn[None, :] * stride_xn,
                       mask=inside, other=0.0)
        acc += beta * bias.to(tl.float32)
    tl.store(c_ptr + batch * stride_cb + rm[:, None] * stride_cm + rn[None, :] * stride_cn,
             acc.to(c_ptr.dtype.element_ty), mask=inside)


def _kev_strides(t, dims):
    """(batch, row, column) strides of t as an operand of dims dimensions: 0 where t is broadcast."""
    strides = [0] * (3 - t.dim()) + list(t.stride())
    sizes = [1] * (3 - t.dim()) + list(t.shape)
    return tuple(0 if size == 1 else stride for size, stride in zip(sizes[-3:], strides[-3:]))


def _kev_split_buffers(out, split_k):
    """A split-K GEMM's partial sums (split_k, batch, M, N) and its tiles' counters, zeroed (tiles of 16 at
    least: a tl.dot takes no less); with one split, none (the output stands in for both, never touched)."""
    if split_k == 1:
        return out, out
    batch, m, n = (out.shape[0] if out.dim() == 3 else 1), out.shape[-2], out.shape[-1]
    return (torch.empty((split_k, batch, m, n), dtype=torch.float32, device=out.device),
            torch.zeros(batch * triton.cdiv(m, 16) * triton.cdiv(n, 16), dtype=torch.int32, device=out.device))


_KEV_X6_MAX_K = 4096  # the longest K one fp32 sum on the tensor cores takes (the move's docstring says why)
_KEV_X6_MAX_BYTES = 8 << 30  # the parts take 3x an fp32 operand's bytes: past 8 GiB of them, no split


@triton.jit
def _kev_bf16x6_split(x_ptr, out_ptr, numel, rows, cols, stride_b, stride_r, stride_c, out_batch, out_row, out_part,
        LEFT: tl.constexpr, BLOCK: tl.constexpr):
    """x (batch, rows, cols) as its bf16 parts h, m, l, six slices out_part apart: [m h l h m h] along the
    columns of a left operand, [m; l; h; m; h; h] along the rows of a right one."""
    idx = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = idx < numel
    batch = idx // (rows * cols)
    row = idx % (rows * cols) // cols
    col = idx % cols
    x = tl.load(x_ptr + batch * stride_b + row * stride_r + col * stride_c, mask=mask, other=0.0)
    h = x.to(tl.bfloat16)
    rest = x - h.to(tl.float32)  # exact in fp32, as is the next rest
    m = rest.to(tl.bfloat16)
    lo = (rest - m.to(tl.float32)).to(tl.bfloat16)
    at = out_ptr + batch * out_batch + row * out_row + col
    if LEFT:
        tl.store(at, m, mask=mask)
        tl.store(at + out_part, h, mask=mask)
        tl.store(at + 2 * out_part, lo, mask=mask)
        tl.store(at + 3 * out_part, h, mask=mask)
        tl.store(at + 4 * out_part, m, mask=mask)
        tl.store(at + 5 * out_part, h, mask=mask)
    else:
        tl.store(at, m, mask=mask)
        tl.store(at + out_part, lo, mask=mask)
        tl.store(at + 2 * out_part, h, mask=mask)
        tl.store(at + 3 * out_part, m, mask=mask)
        tl.store(at + 4 * out_part, h, mask=mask)
        tl.store(at + 5 * out_part, h, mask=mask)


def _kev_bf16x6_parts(x, left):
    """x's bf16 parts as one operand of a GEMM of 6 K: (.., rows, 6 cols) on the left, (.., 6 rows, cols) on the
    right."""
    rows, cols = x.shape[-2], x.shape[-1]
    batch = x.shape[0] if x.dim() == 3 else 1
    shape = (rows, 6 * cols) if left else (6 * rows, cols)
    out = torch.empty(((batch,) if x.dim() == 3 else ()) + shape, dtype=torch.bfloat16, device=x.device)
    _kev_bf16x6_split[(triton.cdiv(x.numel(), 1024),)](
        x, out, x.numel(), rows, cols, *_kev_strides(x, 3), 6 * rows * cols, shape[1], cols if left else rows * cols,
        LEFT=left, BLOCK=1024, num_warps=4)
    return out


def _kev_bf16x6(a, b):
    """(a', b', the output's dtype): fp32 operands of a @ b as bf16 parts, so that a' @ b' in fp32 sums is a @ b
    to about fp32's accuracy (its K split by _kev_x6_split_k); other dtypes and parts past _KEV_X6_MAX_BYTES as
    they are."""
    fp32 = a.dtype == torch.float32 and b.dtype == torch.float32
    small = 0 < a.numel() and 0 < b.numel() and 12 * (a.numel() + b.numel()) <= _KEV_X6_MAX_BYTES
    if not fp32 or not small:
        return a, b, a.dtype
    return _kev_bf16x6_parts(a, True), _kev_bf16x6_parts(b, False), torch.float32


def _kev_x6_split_k(a, dtype, split_k):
    """How many ways a GEMM of _kev_bf16x6's a' splits its K: at least one per _KEV_X6_MAX_K of the fp32 operands'
    K (a' holds 6 K), so that no fp32 sum on the tensor cores runs longer than at K = 4096."""
    if a.dtype != torch.bfloat16 or dtype != torch.float32:  # not split into parts
        return split_k
    return max(split_k, triton.cdiv(a.shape[-1] // 6, _KEV_X6_MAX_K))

class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()
        self.gemm = nn.ModuleDict()
        self.gemm.weight = nn.Parameter(torch.empty((init[1], init[0])))
        self.gemm.bias = nn.Parameter(torch.empty((init[1],)))

    def forward(self, *inputs):
        sizes = tuple(tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor))
        if sizes == ((1024, 8192),):
            return self._sizes_0(*inputs)
        if sizes == ((16, 32),):
            return self._sizes_1(*inputs)
        if sizes == ((5, 35),):
            return self._sizes_2(*inputs)
        return self._generic(*inputs)

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = self.gemm.weight
        arg1_1 = self.gemm.bias
        arg2_1 = inputs[0]
        buf0 = torch.empty_strided((1024, 8192), (8192, 1), dtype=torch.float32, device=device)
        _kev_gemm_0_split_k = 1  # programs that share a tile's K (the template operator tunes it)
        _kev_gemm_0_a, _kev_gemm_0_b, _kev_gemm_0_dtype = _kev_bf16x6(arg2_1, torch.as_strided(arg0_1, (8192, 8192), (1, 8192), 0))
        _kev_gemm_0_bias = arg1_1
        _kev_gemm_0[lambda meta: (triton.cdiv(_kev_gemm_0_a.shape[-2], meta['BLOCK_M']) * triton.cdiv(_kev_gemm_0_b.shape[-1], meta['BLOCK_N']), _kev_gemm_0_a.shape[0] if _kev_gemm_0_a.dim() == 3 else 1, meta['SPLIT_K'])](_kev_gemm_0_a, _kev_gemm_0_b, buf0, _kev_gemm_0_bias, *_kev_split_buffers(buf0, _kev_x6_split_k(_kev_gemm_0_a, _kev_gemm_0_dtype, _kev_gemm_0_split_k)), _kev_gemm_0_a.shape[-2], _kev_gemm_0_b.shape[-1], _kev_gemm_0_a.shape[-1], 1, 1, *_kev_strides(_kev_gemm_0_a, 3), *_kev_strides(_kev_gemm_0_b, 3), *_kev_strides(buf0, 3), *_kev_strides(_kev_gemm_0_bias, 3), HAS_BIAS=True, PRECISION='ieee' if _kev_gemm_0_a.dtype == torch.float32 else 'tf32', BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, GROUP_M=8, SPLIT_K=_kev_x6_split_k(_kev_gemm_0_a, _kev_gemm_0_dtype, _kev_gemm_0_split_k), num_warps=8, num_stages=3)
        del arg0_1
        del arg1_1
        del arg2_1
        buf3 = buf0
        del buf0
        triton_red_fused_gelu_max_sub_0_s0[(1024, 1, 1)](buf3, 1024, 8192, XBLOCK=1, R0_BLOCK=4096, num_warps=8, num_stages=1)
        return buf3

    def _sizes_1(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = self.gemm.weight
        arg1_1 = self.gemm.bias
        arg2_1 = inputs[0]
        buf0 = torch.empty_strided((16, 64), (64, 1), dtype=torch.float32, device=device)
        torch.addmm(arg1_1, arg2_1, torch.as_strided(arg0_1, (32, 64), (1, 32), 0), alpha=1, beta=1, out=buf0)
        del arg0_1
        del arg1_1
        del arg2_1
        buf3 = buf0
        del buf0
        triton_per_fused_gelu_max_sub_0_s1[(triton.cdiv(16, 8), 1, 1)](buf3, 16, 64, XBLOCK=8, num_warps=2, num_stages=1)
        return buf3

    def _sizes_2(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = self.gemm.weight
        arg1_1 = self.gemm.bias
        arg2_1 = inputs[0]
        buf0 = torch.empty_strided((5, 45), (45, 1), dtype=torch.float32, device=device)
        torch.addmm(arg1_1, arg2_1, torch.as_strided(arg0_1, (35, 45), (1, 35), 0), alpha=1, beta=1, out=buf0)
        del arg0_1
        del arg1_1
        del arg2_1
        buf3 = buf0
        del buf0
        triton_per_fused_gelu_max_sub_0_s2[(triton.cdiv(5, 8), 1, 1)](buf3, 5, 45, XBLOCK=8, num_warps=2, num_stages=1)
        return buf3

    def _generic(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = self.gemm.weight.shape[0]
        arg1_1 = self.gemm.weight.shape[1]
        arg2_1 = self.gemm.weight
        arg3_1 = self.gemm.bias
        arg4_1 = inputs[0].shape[0]
        arg5_1 = inputs[0]
        s33 = arg0_1
        s50 = arg1_1
        s21 = arg4_1
        buf0 = torch.empty_strided((s21, s33), (s33, 1), dtype=torch.float32, device=device)
        torch.addmm(arg3_1, arg5_1, torch.as_strided(arg2_1, (s50, s33), (1, s50), 0), alpha=1, beta=1, out=buf0)
        del arg2_1
        del arg3_1
        del arg5_1
        buf3 = buf0
        del buf0
        triton_red_fused_gelu_max_sub_0_s3[(s21, 1, 1)](buf3, s33, s21, s33, XBLOCK=1, R0_BLOCK=2048, num_warps=16, num_stages=1)
        return buf3
