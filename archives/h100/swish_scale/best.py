"""kernelevo 0.1.0: best kernel for spec 'swish_scale'
spec sha256: 6d16efdccebfa370f6db790fa0db632519a4dab9b51be102caf72eeb7bc2498b
hardware: h100
made: 2026-11-25T15:50:21+00:00
measured on: NVIDIA H100 80GB HBM3 (vm); torch 2.11.0+cu130, triton 3.6.0, python 3.12.3, CUDA 13.0
timings: median 0.1774 ms (IQR 0.0010), 4.55x eager, 1.01x torch.compile, 100% of roofline
variants checked: small, odd, default
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice

@triton.jit
def triton_poi_fused_add_mul_sigmoid_0(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + x0, xmask)
    tmp1 = tl.sigmoid(tmp0)
    tmp2 = tmp0 * tmp1
    tmp3 = tl.full([1], 2.0, tl.float32)
    tmp4 = tmp2 * tmp3
    tmp5 = tl.full([1], 1.0, tl.float32)
    tmp6 = tmp4 + tmp5
    tl.store(out_ptr0 + x0, tmp6, xmask)


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        device = inputs[0].device
        arg0_1 = inputs[0].shape[0]
        arg1_1 = inputs[0].shape[1]
        arg2_1 = inputs[0]
        s33 = arg0_1
        s50 = arg1_1
        buf0 = torch.empty_strided((s33, s50), (s50, 1), dtype=torch.float32, device=device)
        triton_poi_fused_add_mul_sigmoid_0_xnumel = s33 * s50
        triton_poi_fused_add_mul_sigmoid_0[(triton.cdiv(triton_poi_fused_add_mul_sigmoid_0_xnumel, 4096), 1, 1)](arg2_1, buf0, triton_poi_fused_add_mul_sigmoid_0_xnumel, XBLOCK=4096, num_warps=32, num_stages=2)
        del arg2_1
        return buf0
