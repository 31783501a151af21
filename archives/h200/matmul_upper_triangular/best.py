# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "matmul_upper_triangular"
# spec sha256: "cf9b8abcfe008e5a3e28f1bb98212d8e2b87d185b750afd1bb1677d6684d77f7"
# hardware: "h200"
# made: "2026-11-27T00:06:12+00:00"
# candidate: {"run": 1, "number": 6, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 2.7104 ms (IQR 0.0014), 1.01x eager, 1.00x torch.compile, 10% of roofline (compute)"
# variants checked: ["small", "odd", "default"]

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice

@triton.jit
def triton_poi_fused_triu_0(in_out_ptr0, ks0, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex % ks0
    x1 = xindex // ks0
    x2 = xindex
    tmp3 = tl.load(in_out_ptr0 + x2, xmask, eviction_policy='evict_last')
    tmp0 = x0 + -1 * x1
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp4 = tl.full([1], 0.0, tl.float32)
    tmp5 = tl.where(tmp2, tmp3, tmp4)
    tl.store(in_out_ptr0 + x2, tmp5, xmask)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
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
        buf1 = buf0
        del buf0
        triton_poi_fused_triu_0_xnumel = s33 * s81
        triton_poi_fused_triu_0[(triton.cdiv(triton_poi_fused_triu_0_xnumel, 512), 1, 1)](buf1, s81, triton_poi_fused_triu_0_xnumel, XBLOCK=512, num_warps=4, num_stages=2)
        return buf1
