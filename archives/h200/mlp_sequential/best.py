# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "mlp_sequential"
# spec sha256: "f165bbd60aefca075cfcf674c23613d98aae58d7254b4bcb35afdf8103ad800f"
# hardware: "h200"
# made: "2026-12-02T13:53:54+00:00"
# candidate: {"run": 1, "number": 11, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 1.6322 ms (IQR 0.0070), 0.99x eager, 1.00x torch.compile, 10% of roofline (compute)"
# variants checked: ["small", "odd", "default"]

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice

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
def triton_poi_fused_addmm_relu_0(in_out_ptr0, in_ptr0, ks0, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex % ks0
    x2 = xindex
    tmp0 = tl.load(in_ptr0 + x0, xmask, eviction_policy='evict_last')
    tmp1 = tl.load(in_out_ptr0 + x2, xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp3 = tl.full([1], 0, tl.int32)
    tmp4 = maximum(tmp3, tmp2)
    tl.store(in_out_ptr0 + x2, tmp4, xmask)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()
        self.network = nn.ModuleDict()
        self.network['0'] = nn.ModuleDict()
        self.network['0'].weight = nn.Parameter(torch.empty((init[1], init[0])))
        self.network['0'].bias = nn.Parameter(torch.empty((init[1],)))
        self.network['2'] = nn.ModuleDict()
        self.network['2'].weight = nn.Parameter(torch.empty((init[2], init[1])))
        self.network['2'].bias = nn.Parameter(torch.empty((init[2],)))
        self.network['4'] = nn.ModuleDict()
        self.network['4'].weight = nn.Parameter(torch.empty((init[3], init[2])))
        self.network['4'].bias = nn.Parameter(torch.empty((init[3],)))

    def forward(self, *inputs):
        device = inputs[0].device
        arg0_1 = self.network['0'].weight.shape[0]
        arg1_1 = self.network['0'].weight.shape[1]
        arg2_1 = self.network['0'].weight
        arg3_1 = self.network['0'].bias
        arg4_1 = self.network['2'].weight.shape[0]
        arg5_1 = self.network['2'].weight
        arg6_1 = self.network['2'].bias
        arg7_1 = self.network['4'].weight.shape[0]
        arg8_1 = self.network['4'].weight
        arg9_1 = self.network['4'].bias
        arg10_1 = inputs[0].shape[0]
        arg11_1 = inputs[0]
        s33 = arg0_1
        s50 = arg1_1
        s21 = arg4_1
        s93 = arg7_1
        s40 = arg10_1
        arg2_1_size = arg2_1.size()
        s10 = arg2_1_size[1]
        arg8_1_size = arg8_1.size()
        s51 = arg8_1_size[0]
        buf0 = torch.empty_strided((s40, s33), (s33, 1), dtype=torch.float32, device=device)
        torch.mm(arg11_1, torch.as_strided(arg2_1, (s10, s33), (1, s10), 0), out=buf0)
        del arg11_1
        del arg2_1
        buf1 = buf0
        del buf0
        triton_poi_fused_addmm_relu_0_xnumel = s33 * s40
        triton_poi_fused_addmm_relu_0[(triton.cdiv(triton_poi_fused_addmm_relu_0_xnumel, 1024), 1, 1)](buf1, arg3_1, s33, triton_poi_fused_addmm_relu_0_xnumel, XBLOCK=1024, num_warps=4, num_stages=1)
        del arg3_1
        buf2 = torch.empty_strided((s40, s21), (s21, 1), dtype=torch.float32, device=device)
        torch.mm(buf1, torch.as_strided(arg5_1, (s33, s21), (1, s33), 0), out=buf2)
        del arg5_1
        del buf1
        buf3 = buf2
        del buf2
        triton_poi_fused_addmm_relu_0_xnumel = s21 * s40
        triton_poi_fused_addmm_relu_0[(triton.cdiv(triton_poi_fused_addmm_relu_0_xnumel, 1024), 1, 1)](buf3, arg6_1, s21, triton_poi_fused_addmm_relu_0_xnumel, XBLOCK=1024, num_warps=2, num_stages=2)
        del arg6_1
        buf4 = torch.empty_strided((s40, s51), (s51, 1), dtype=torch.float32, device=device)
        torch.addmm(arg9_1, buf3, torch.as_strided(arg8_1, (s21, s51), (1, s21), 0), alpha=1, beta=1, out=buf4)
        del arg8_1
        del arg9_1
        del buf3
        return buf4
