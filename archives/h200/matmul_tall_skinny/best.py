# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "matmul_tall_skinny"
# spec sha256: "14bfbba3f667107b9bbe123110fe7c621fa19cb3d377163f320a18a384465088"
# hardware: "h200"
# made: "2026-11-27T07:11:45+00:00"
# candidate: {"run": 1, "number": 56, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.4937 ms (IQR 0.0013), 1.31x eager, 1.31x torch.compile, 51% of roofline (copy)"
# variants checked: ["small", "odd", "default"]

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice


def _kernelevo_autotune_bench(fn, quantiles):  # the autotune move's trials: 5 + 20 ms, not Triton's default 25 + 100 ms
    return triton.testing.do_bench(fn, warmup=5, rep=20, quantiles=quantiles)

@triton.autotune(configs=[triton.Config({}, num_warps=2, num_stages=1), triton.Config({}, num_warps=2, num_stages=1), triton.Config({}, num_warps=16, num_stages=1), triton.Config({}, num_warps=4, num_stages=2)], key=[], do_bench=_kernelevo_autotune_bench)
@triton.jit
def triton_tem_fused_mm_0_s0(arg_A, arg_B, out_ptr0):
    EVEN_K: tl.constexpr = True
    USE_FAST_ACCUM: tl.constexpr = False
    ACC_TYPE: tl.constexpr = tl.float32
    BLOCK_M: tl.constexpr = 64
    BLOCK_N: tl.constexpr = 64
    BLOCK_K: tl.constexpr = 32
    GROUP_M: tl.constexpr = 8
    ALLOW_TF32: tl.constexpr = False
    INDEX_DTYPE: tl.constexpr = tl.int32
    A = arg_A
    B = arg_B
    M = 16384
    N = 16384
    K = 32
    if M * N == 0:
        return
    stride_am = 32
    stride_ak = 1
    stride_bk = 16384
    stride_bn = 1
    pid = tl.program_id(0).to(INDEX_DTYPE)
    grid_m = (M + BLOCK_M - 1) // BLOCK_M
    grid_n = (N + BLOCK_N - 1) // BLOCK_N
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + pid % group_size
    pid_n = pid % width // group_size
    tl.assume(pid_m >= 0)
    tl.assume(pid_n >= 0)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if (stride_am == 1 and stride_ak == M or (stride_am == K and stride_ak == 1)) and (M >= BLOCK_M and K > 1):
        offs_a_m = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    else:
        offs_a_m = rm % M
    if (stride_bk == 1 and stride_bn == K or (stride_bk == N and stride_bn == 1)) and (N >= BLOCK_N and K > 1):
        offs_b_n = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    else:
        offs_b_n = rn % N
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)
    for k_idx in range(0, tl.cdiv(K, BLOCK_K)):
        a_k_idx_vals = offs_k[None, :] + k_idx * BLOCK_K
        b_k_idx_vals = offs_k[:, None] + k_idx * BLOCK_K
        idx_m = offs_a_m[:, None]
        idx_n = a_k_idx_vals
        xindex = idx_n + 32 * idx_m
        a = tl.load(A + xindex)
        idx_m = b_k_idx_vals
        idx_n = offs_b_n[None, :]
        xindex = idx_n + 16384 * idx_m
        b = tl.load(B + xindex)
        acc += tl.dot(a, b, allow_tf32=ALLOW_TF32, out_dtype=ACC_TYPE)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    idx_m = rm[:, None]
    idx_n = rn[None, :]
    mask = (idx_m < M) & (idx_n < N)
    xindex = idx_n + 16384 * idx_m
    tl.store(out_ptr0 + tl.broadcast_to(xindex, [BLOCK_M, BLOCK_N]), acc, mask)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        sizes = tuple(tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor))
        if sizes == ((16384, 32), (32, 16384)):
            return self._sizes_0(*inputs)
        if sizes == ((64, 8), (8, 64)):
            return self._sizes_1(*inputs)
        if sizes == ((45, 7), (7, 45)):
            return self._sizes_2(*inputs)
        return self._generic(*inputs)

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = inputs[0]
        arg1_1 = inputs[1]
        buf0 = torch.empty_strided((16384, 16384), (16384, 1), dtype=torch.float32, device=device)
        triton_tem_fused_mm_0_s0[(65536, 1, 1)](arg0_1, arg1_1, buf0)
        del arg0_1
        del arg1_1
        return buf0

    def _sizes_1(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        arg1_1 = inputs[1]
        buf0 = torch.empty_strided((64, 64), (64, 1), dtype=torch.float32, device=device)
        torch.mm(arg0_1, arg1_1, out=buf0)
        del arg0_1
        del arg1_1
        return buf0

    def _sizes_2(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        arg1_1 = inputs[1]
        buf0 = torch.empty_strided((45, 45), (45, 1), dtype=torch.float32, device=device)
        torch.mm(arg0_1, arg1_1, out=buf0)
        del arg0_1
        del arg1_1
        return buf0

    def _generic(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0].shape[0]
        arg1_1 = inputs[0].shape[1]
        arg2_1 = inputs[0]
        arg3_1 = inputs[1].shape[1]
        arg4_1 = inputs[1]
        s33 = arg0_1
        s50 = arg1_1
        s81 = arg3_1
        buf0 = torch.empty_strided((s33, s81), (s81, 1), dtype=torch.float32, device=device)
        torch.mm(arg2_1, arg4_1, out=buf0)
        del arg2_1
        del arg4_1
        return buf0
