# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "matmul_diag"
# spec sha256: "9ad076640a6d532fe8f3cc1decb238c5fba8ca3a53abb59a807183104d139d3b"
# hardware: "h200"
# made: "2026-11-27T00:06:36+00:00"
# candidate: {"run": 1, "number": 33, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 5.3718 ms (IQR 0.0041), 1.00x eager, 1.00x torch.compile, 10% of roofline (compute)"
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

@triton.autotune(configs=[triton.Config({}, num_warps=4, num_stages=2), triton.Config({}, num_warps=2, num_stages=2), triton.Config({}, num_warps=8, num_stages=2)], key=['xnumel', 'XBLOCK'], do_bench=_kernelevo_autotune_bench)
@triton.jit
def triton_poi_fused_diag_embed_0_s0(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xnumel = 16777216
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x0 = xindex % 4096
    x1 = xindex // 4096
    x2 = xindex
    tmp3 = tl.load(in_ptr0 + x0, None, eviction_policy='evict_last')
    tmp0 = x0
    tmp1 = x1
    tmp2 = tmp0 == tmp1
    tmp4 = tl.full([1], 0.0, tl.float32)
    tmp5 = tl.where(tmp2, tmp3, tmp4)
    tl.store(out_ptr0 + x2, tmp5, None)

@triton.jit
def triton_poi_fused_diag_embed_0_s1(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 1024
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex % 32
    x1 = xindex // 32
    x2 = xindex
    tmp3 = tl.load(in_ptr0 + x0, xmask, eviction_policy='evict_last')
    tmp0 = x0
    tmp1 = x1
    tmp2 = tmp0 == tmp1
    tmp4 = tl.full([1], 0.0, tl.float32)
    tmp5 = tl.where(tmp2, tmp3, tmp4)
    tl.store(out_ptr0 + x2, tmp5, xmask)

@triton.jit
def triton_poi_fused_diag_embed_0_s2(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xnumel = 1089
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex % 33
    x1 = xindex // 33
    x2 = xindex
    tmp3 = tl.load(in_ptr0 + x0, xmask, eviction_policy='evict_last')
    tmp0 = x0
    tmp1 = x1
    tmp2 = tmp0 == tmp1
    tmp4 = tl.full([1], 0.0, tl.float32)
    tmp5 = tl.where(tmp2, tmp3, tmp4)
    tl.store(out_ptr0 + x2, tmp5, xmask)

@triton.jit
def triton_poi_fused_diag_embed_0_s3(in_ptr0, out_ptr0, ks0, xnumel, XBLOCK: tl.constexpr):  # kernelevo: keep (the timing never runs these sizes)
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex % ks0
    x1 = xindex // ks0
    x2 = xindex
    tmp3 = tl.load(in_ptr0 + x0, xmask, eviction_policy='evict_last')
    tmp0 = x0
    tmp1 = x1
    tmp2 = tmp0 == tmp1
    tmp4 = tl.full([1], 0.0, tl.float32)
    tmp5 = tl.where(tmp2, tmp3, tmp4)
    tl.store(out_ptr0 + x2, tmp5, xmask)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        sizes = tuple(tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor))
        if sizes == ((4096,), (4096, 8192)):
            return self._sizes_0(*inputs)
        if sizes == ((32,), (32, 64)):
            return self._sizes_1(*inputs)
        if sizes == ((33,), (33, 45)):
            return self._sizes_2(*inputs)
        return self._generic(*inputs)

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = inputs[0]
        arg1_1 = inputs[1]
        buf0 = torch.empty_strided((4096, 4096), (4096, 1), dtype=torch.float32, device=device)
        triton_poi_fused_diag_embed_0_s0[(triton.cdiv(16777216, 1024), 1, 1)](arg0_1, buf0, 16777216, XBLOCK=1024)
        del arg0_1
        buf1 = torch.empty_strided((4096, 8192), (8192, 1), dtype=torch.float32, device=device)
        torch.mm(buf0, arg1_1, out=buf1)
        del arg1_1
        del buf0
        return buf1

    def _sizes_1(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        arg1_1 = inputs[1]
        buf0 = torch.empty_strided((32, 32), (32, 1), dtype=torch.float32, device=device)
        triton_poi_fused_diag_embed_0_s1[(triton.cdiv(1024, 128), 1, 1)](arg0_1, buf0, 1024, XBLOCK=128, num_warps=4, num_stages=1)
        del arg0_1
        buf1 = torch.empty_strided((32, 64), (64, 1), dtype=torch.float32, device=device)
        torch.mm(buf0, arg1_1, out=buf1)
        del arg1_1
        del buf0
        return buf1

    def _sizes_2(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        arg1_1 = inputs[1]
        buf0 = torch.empty_strided((33, 33), (33, 1), dtype=torch.float32, device=device)
        triton_poi_fused_diag_embed_0_s2[(triton.cdiv(1089, 256), 1, 1)](arg0_1, buf0, 1089, XBLOCK=256, num_warps=4, num_stages=1)
        del arg0_1
        buf1 = torch.empty_strided((33, 45), (45, 1), dtype=torch.float32, device=device)
        torch.mm(buf0, arg1_1, out=buf1)
        del arg1_1
        del buf0
        return buf1

    def _generic(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0].shape[0]
        arg1_1 = inputs[0]
        arg2_1 = inputs[1].shape[1]
        arg3_1 = inputs[1]
        s33 = arg0_1
        s81 = arg2_1
        buf0 = torch.empty_strided((s33, s33), (s33, 1), dtype=torch.float32, device=device)
        triton_poi_fused_diag_embed_0_xnumel = s33 * s33
        triton_poi_fused_diag_embed_0_s3[(triton.cdiv(triton_poi_fused_diag_embed_0_xnumel, 512), 1, 1)](arg1_1, buf0, s33, triton_poi_fused_diag_embed_0_xnumel, XBLOCK=512, num_warps=8, num_stages=1)
        del arg1_1
        buf1 = torch.empty_strided((s33, s81), (s81, 1), dtype=torch.float32, device=device)
        torch.mm(buf0, arg3_1, out=buf1)
        del arg3_1
        del buf0
        return buf1
