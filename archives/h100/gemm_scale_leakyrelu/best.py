"""kernelevo 0.1.0: best kernel for spec 'gemm_scale_leakyrelu'
spec sha256: 02413ce0cded71bd78f63276f888ec53b5e72f07ec01f118de7d894361db3d3c
hardware: h100
made: 2026-11-25T22:22:19+00:00
measured on: NVIDIA H100 80GB HBM3 (vm); torch 2.11.0+cu130, triton 3.6.0, python 3.12.3, CUDA 13.0
timings: median 0.1825 ms (IQR 0.0009), 1.09x eager, 1.03x torch.compile, 76% of roofline
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


def _scratch(size: int, alignment: int, stream):
    return torch.empty(size, dtype=torch.int8, device="cuda")


triton.set_allocator(_scratch)

@triton.autotune(configs=[triton.Config({}, num_warps=8, num_stages=4), triton.Config({}, num_warps=4, num_stages=4), triton.Config({}, num_warps=16, num_stages=4), triton.Config({}, num_warps=8, num_stages=5)], key=[], do_bench=_kernelevo_autotune_bench)
@triton.jit
def triton_tem_fused_addmm_leaky_relu_mul_t_0_s0(in_ptr0, arg_A, arg_B, out_ptr1, ws_ptr):
    EVEN_K: tl.constexpr = True
    USE_FAST_ACCUM: tl.constexpr = False
    ACC_TYPE: tl.constexpr = tl.float32
    BLOCK_M: tl.constexpr = 128
    BLOCK_N: tl.constexpr = 256
    BLOCK_K: tl.constexpr = 64
    GROUP_M: tl.constexpr = 8
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
def triton_tem_fused_addmm_t_0_s1(in_ptr0, arg_A, arg_B, out_ptr0, ks0, ks1, ks2):  # kernelevo: keep (the timing never runs these sizes)
    EVEN_K: tl.constexpr = False
    USE_FAST_ACCUM: tl.constexpr = False
    ACC_TYPE: tl.constexpr = tl.float32
    BLOCK_M: tl.constexpr = 128
    BLOCK_N: tl.constexpr = 128
    BLOCK_K: tl.constexpr = 64
    GROUP_M: tl.constexpr = 8
    ALLOW_TF32: tl.constexpr = False
    INDEX_DTYPE: tl.constexpr = tl.int32
    A = arg_A
    B = arg_B
    M = ks0
    N = ks1
    K = ks2
    if M * N == 0:
        return
    stride_am = ks2
    stride_ak = 1
    stride_bk = 1
    stride_bn = ks2
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
        a_mask = offs_k[None, :] < K - k_idx * BLOCK_K
        b_mask = offs_k[:, None] < K - k_idx * BLOCK_K
        a_k_idx_vals = offs_k[None, :] + k_idx * BLOCK_K
        b_k_idx_vals = offs_k[:, None] + k_idx * BLOCK_K
        idx_m = offs_a_m[:, None]
        idx_n = a_k_idx_vals
        xindex = idx_n + idx_m * ks2
        a = tl.load(A + xindex, mask=a_mask, other=0.0)
        idx_m = b_k_idx_vals
        idx_n = offs_b_n[None, :]
        xindex = idx_n + idx_m * ks1
        b = tl.load(B + tl.broadcast_to(idx_m + idx_n * ks2, [BLOCK_K, BLOCK_N]).broadcast_to(xindex.shape), mask=b_mask, other=0.0)
        acc += tl.dot(a, b, allow_tf32=ALLOW_TF32, out_dtype=ACC_TYPE)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    idx_m = rm[:, None]
    idx_n = rn[None, :]
    mask = (idx_m < M) & (idx_n < N)
    xindex = idx_n + idx_m * ks1
    tmp0 = tl.load(in_ptr0 + tl.broadcast_to(idx_n, [BLOCK_M, BLOCK_N]), mask, eviction_policy='evict_last').to(tl.float32)
    tmp1 = acc + tmp0
    tl.store(out_ptr0 + tl.broadcast_to(xindex, [BLOCK_M, BLOCK_N]), tmp1, mask)

@triton.jit
def triton_poi_fused_leaky_relu_mul_1_s1(in_out_ptr0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
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
        self.gemm = nn.Module()
        self.gemm.weight = nn.Parameter(torch.empty((init[1], init[0])))
        self.gemm.bias = nn.Parameter(torch.empty((init[1],)))

    def forward(self, *inputs):
        sizes = tuple(tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor))
        if sizes == ((1024, 8192),):
            return self._sizes_0(*inputs)
        return self._generic(*inputs)

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = self.gemm.weight
        arg1_1 = self.gemm.bias
        arg2_1 = inputs[0]
        buf1 = torch.empty_strided((1024, 8192), (8192, 1), dtype=torch.float16, device=device)
        workspace_2 = torch.empty_strided((33792,), (1,), dtype=torch.uint8, device=device)
        triton_tem_fused_addmm_leaky_relu_mul_t_0_s0[(132, 1, 1)](arg1_1, arg2_1, arg0_1, buf1, workspace_2)
        del workspace_2
        del arg0_1
        del arg1_1
        del arg2_1
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
        triton_tem_fused_addmm_t_0_s1[((127 + s21) // 128 * ((127 + s33) // 128), 1, 1)](arg3_1, arg5_1, arg2_1, buf0, s21, s33, s50, num_warps=8, num_stages=5)
        del arg2_1
        del arg3_1
        del arg5_1
        buf1 = buf0
        del buf0
        triton_poi_fused_leaky_relu_mul_1_xnumel = s21 * s33
        triton_poi_fused_leaky_relu_mul_1_s1[(triton.cdiv(triton_poi_fused_leaky_relu_mul_1_xnumel, 1024), 1, 1)](buf1, triton_poi_fused_leaky_relu_mul_1_xnumel, XBLOCK=1024, num_warps=4, num_stages=1)
        return buf1
