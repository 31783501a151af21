# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "gemm_scale_leakyrelu"
# spec sha256: "02413ce0cded71bd78f63276f888ec53b5e72f07ec01f118de7d894361db3d3c"
# hardware: "h200"
# made: "2026-11-27T10:50:51+00:00"
# candidate: {"run": 1, "number": 72, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.1854 ms (IQR 0.0013), 1.08x eager, 1.06x torch.compile, 75% of roofline (compute)"
# variants checked: ["small", "odd", "default"]

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice


def _scratch(size: int, alignment: int, stream):
    return torch.empty(size, dtype=torch.int8, device="cuda")


triton.set_allocator(_scratch)

@triton.jit
def triton_tem_fused_addmm_leaky_relu_mul_t_0_s0(in_ptr0, arg_A, arg_B, out_ptr1, ws_ptr):
    EVEN_K: tl.constexpr = True
    USE_FAST_ACCUM: tl.constexpr = False
    ACC_TYPE: tl.constexpr = tl.float32
    BLOCK_M: tl.constexpr = 128
    BLOCK_N: tl.constexpr = 256
    BLOCK_K: tl.constexpr = 64
    GROUP_M: tl.constexpr = 16
    A_ROW_MAJOR: tl.constexpr = True
    B_ROW_MAJOR: tl.constexpr = False
    NUM_SMS: tl.constexpr = 132
    TMA_SIZE: tl.constexpr = 128
    TMA_EXPERIMENTAL_API: tl.constexpr = False
    ALLOW_TF32: tl.constexpr = False
    INDEX_DTYPE: tl.constexpr = tl.int32
    A = arg_A
    B = arg_B
    M = 1024
    N = 8192
    K = 8192
    if M == 0 or N == 0:
        return
    start_pid = tl.program_id(0).to(INDEX_DTYPE)
    grid_m = tl.cdiv(M, BLOCK_M)
    grid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = grid_m * grid_n
    width = GROUP_M * grid_n
    stride_am = 8192
    stride_ak = 1
    stride_bk = 1
    stride_bn = 8192
    a_desc = triton.language.make_tensor_descriptor(base=A, shape=[M, K] if A_ROW_MAJOR else [K, M], strides=[stride_am, 1] if A_ROW_MAJOR else [stride_ak, 1], block_shape=[BLOCK_M, BLOCK_K] if A_ROW_MAJOR else [BLOCK_K, BLOCK_M])
    b_desc = triton.language.make_tensor_descriptor(base=B, shape=[K, N] if B_ROW_MAJOR else [N, K], strides=[stride_bk, 1] if B_ROW_MAJOR else [stride_bn, 1], block_shape=[BLOCK_K, BLOCK_N] if B_ROW_MAJOR else [BLOCK_N, BLOCK_K])
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS):
        group_id = tile_id // width
        group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
        pid_m = group_id * GROUP_M + tile_id % group_size
        pid_n = tile_id % width // group_size
        rm = pid_m * BLOCK_M
        rn = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)
        for rk in tl.range(0, K, BLOCK_K):
            a = tl.load_tensor_descriptor(a_desc, [rm, rk] if A_ROW_MAJOR else [rk, rm])
            b = tl.load_tensor_descriptor(b_desc, [rk, rn] if B_ROW_MAJOR else [rn, rk])
            if USE_FAST_ACCUM:
                acc = tl.dot(a if A_ROW_MAJOR else a.T, b if B_ROW_MAJOR else b.T, acc, allow_tf32=ALLOW_TF32)
            else:
                acc += tl.dot(a if A_ROW_MAJOR else a.T, b if B_ROW_MAJOR else b.T, allow_tf32=ALLOW_TF32)
        rm = pid_m * BLOCK_M
        rn = pid_n * BLOCK_N
        _tmp_var1 = rm
        _tmp_var0 = (_tmp_var1 + tl.arange(0, BLOCK_M))[:, None]
        _tmp_var2 = _tmp_var0 < 1024
        _tmp_var4 = rn
        _tmp_var3 = (_tmp_var4 + tl.arange(0, BLOCK_N))[None, :]
        _tmp_var5 = _tmp_var3 < 8192
        _tmp_var6 = _tmp_var2 & _tmp_var5
        xindex = _tmp_var3 + 8192 * _tmp_var0
        tmp0 = tl.load(in_ptr0 + tl.broadcast_to(_tmp_var3, [BLOCK_M, BLOCK_N]), _tmp_var6, eviction_policy='evict_last').to(tl.float32)
        tmp1 = acc + tmp0
        tmp2 = tl.full([1], 2.0, tl.float32)
        tmp3 = tmp1 * tmp2
        tmp4 = tmp3.to(tl.float32)
        tmp5 = tl.full([1], 0.0, tl.float32)
        tmp6 = tmp4 > tmp5
        tmp7 = tl.full([1], 0.1, tl.float32)
        tmp8 = tmp4 * tmp7
        tmp9 = tl.where(tmp6, tmp4, tmp8)
        tmp10 = tmp9.to(tl.float32)
        tl.store(out_ptr1 + tl.broadcast_to(xindex, [BLOCK_M, BLOCK_N]), tmp10, _tmp_var6)

@triton.jit
def triton_poi_fused_leaky_relu_mul_0_s1(in_out_ptr0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 3072
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + x0, xmask).to(tl.float32)
    tmp1 = tl.full([1], 2.0, tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tl.full([1], 0.0, tl.float32)
    tmp5 = tmp3 > tmp4
    tmp6 = tl.full([1], 0.1, tl.float32)
    tmp7 = tmp3 * tmp6
    tmp8 = tl.where(tmp5, tmp3, tmp7)
    tmp9 = tmp8.to(tl.float32)
    tl.store(in_out_ptr0 + x0, tmp9, xmask)

@triton.jit
def triton_poi_fused_leaky_relu_mul_0_s2(in_out_ptr0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 1485
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + x0, xmask).to(tl.float32)
    tmp1 = tl.full([1], 2.0, tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tl.full([1], 0.0, tl.float32)
    tmp5 = tmp3 > tmp4
    tmp6 = tl.full([1], 0.1, tl.float32)
    tmp7 = tmp3 * tmp6
    tmp8 = tl.where(tmp5, tmp3, tmp7)
    tmp9 = tmp8.to(tl.float32)
    tl.store(in_out_ptr0 + x0, tmp9, xmask)

@triton.jit
def triton_poi_fused_leaky_relu_mul_0_s3(in_out_ptr0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + x0, xmask).to(tl.float32)
    tmp1 = tl.full([1], 2.0, tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = tmp2.to(tl.float32)
    tmp4 = tl.full([1], 0.0, tl.float32)
    tmp5 = tmp3 > tmp4
    tmp6 = tl.full([1], 0.1, tl.float32)
    tmp7 = tmp3 * tmp6
    tmp8 = tl.where(tmp5, tmp3, tmp7)
    tmp9 = tmp8.to(tl.float32)
    tl.store(in_out_ptr0 + x0, tmp9, xmask)


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
        if sizes == ((64, 80),):
            return self._sizes_1(*inputs)
        if sizes == ((33, 70),):
            return self._sizes_2(*inputs)
        return self._generic(*inputs)

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = self.gemm.weight
        arg1_1 = self.gemm.bias
        arg2_1 = inputs[0]
        buf1 = torch.empty_strided((1024, 8192), (8192, 1), dtype=torch.float16, device=device)
        workspace_2 = torch.empty_strided((33792,), (1,), dtype=torch.uint8, device=device)
        triton_tem_fused_addmm_leaky_relu_mul_t_0_s0[(132, 1, 1)](arg1_1, arg2_1, arg0_1, buf1, workspace_2, num_warps=8, num_stages=4)
        del workspace_2
        del arg0_1
        del arg1_1
        del arg2_1
        return buf1

    def _sizes_1(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = self.gemm.weight
        arg1_1 = self.gemm.bias
        arg2_1 = inputs[0]
        buf0 = torch.empty_strided((64, 48), (48, 1), dtype=torch.float16, device=device)
        torch.addmm(arg1_1, arg2_1, torch.as_strided(arg0_1, (80, 48), (1, 80), 0), alpha=1, beta=1, out=buf0)
        del arg0_1
        del arg1_1
        del arg2_1
        buf1 = buf0
        del buf0
        triton_poi_fused_leaky_relu_mul_0_s1[(triton.cdiv(3072, 256), 1, 1)](buf1, 3072, XBLOCK=256, num_warps=4, num_stages=1)
        return buf1

    def _sizes_2(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = self.gemm.weight
        arg1_1 = self.gemm.bias
        arg2_1 = inputs[0]
        buf0 = torch.empty_strided((33, 45), (45, 1), dtype=torch.float16, device=device)
        torch.addmm(arg1_1, arg2_1, torch.as_strided(arg0_1, (70, 45), (1, 70), 0), alpha=1, beta=1, out=buf0)
        del arg0_1
        del arg1_1
        del arg2_1
        buf1 = buf0
        del buf0
        triton_poi_fused_leaky_relu_mul_0_s2[(triton.cdiv(1485, 256), 1, 1)](buf1, 1485, XBLOCK=256, num_warps=4, num_stages=1)
        return buf1

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
        buf0 = torch.empty_strided((s21, s33), (s33, 1), dtype=torch.float16, device=device)
        torch.addmm(arg3_1, arg5_1, torch.as_strided(arg2_1, (s50, s33), (1, s50), 0), alpha=1, beta=1, out=buf0)
        del arg2_1
        del arg3_1
        del arg5_1
        buf1 = buf0
        del buf0
        triton_poi_fused_leaky_relu_mul_0_xnumel = s21 * s33
        triton_poi_fused_leaky_relu_mul_0_s3[(triton.cdiv(triton_poi_fused_leaky_relu_mul_0_xnumel, 512), 1, 1)](buf1, triton_poi_fused_leaky_relu_mul_0_xnumel, XBLOCK=512, num_warps=8, num_stages=1)
        return buf1
