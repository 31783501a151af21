# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "tensor4d_matmul"
# spec sha256: "5fd91cc211e40006b71a3d3ccfd83c021f2404c72106f1af46cf10f7d3096eeb"
# hardware: "h200"
# made: "2026-11-27T00:06:07+00:00"
# candidate: {"run": 1, "number": 0, "operator": "seed", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 2.1753 ms (IQR 0.0033), 1.00x eager, 1.00x torch.compile, 12% of roofline (copy)"
# variants checked: ["small", "odd", "default"]

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language import math as tl_math
from triton.language.extra import libdevice


class ModelNew(nn.Module):
    """The reference as torch.compile compiled it; parameters under the reference's names."""

    def __init__(self, *init):
        super().__init__()

    def forward(self, *inputs):
        sizes = tuple(tuple(x.shape) for x in inputs if isinstance(x, torch.Tensor))
        if sizes == ((8, 128, 256, 256), (256, 768)):
            return self._sizes_0(*inputs)
        if sizes == ((2, 4, 8, 16), (16, 24)):
            return self._sizes_1(*inputs)
        if sizes == ((3, 5, 7, 9), (9, 11)):
            return self._sizes_2(*inputs)
        return self._generic(*inputs)

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = inputs[0]
        arg1_1 = inputs[1]
        buf0 = torch.empty_strided((262144, 768), (768, 1), dtype=torch.float32, device=device)
        torch.mm(torch.as_strided(arg0_1, (262144, 256), (256, 1), 0), arg1_1, out=buf0)
        del arg0_1
        del arg1_1
        return torch.as_strided(buf0, (8, 128, 256, 768), (25165824, 196608, 768, 1), 0)

    def _sizes_1(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        arg1_1 = inputs[1]
        buf0 = torch.empty_strided((64, 24), (24, 1), dtype=torch.float32, device=device)
        torch.mm(torch.as_strided(arg0_1, (64, 16), (16, 1), 0), arg1_1, out=buf0)
        del arg0_1
        del arg1_1
        return torch.as_strided(buf0, (2, 4, 8, 24), (768, 192, 24, 1), 0)

    def _sizes_2(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        arg1_1 = inputs[1]
        buf0 = torch.empty_strided((105, 11), (11, 1), dtype=torch.float32, device=device)
        torch.mm(torch.as_strided(arg0_1, (105, 9), (9, 1), 0), arg1_1, out=buf0)
        del arg0_1
        del arg1_1
        return torch.as_strided(buf0, (3, 5, 7, 11), (385, 77, 11, 1), 0)

    def _generic(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0].shape[0]
        arg1_1 = inputs[0].shape[1]
        arg2_1 = inputs[0].shape[2]
        arg3_1 = inputs[0].shape[3]
        arg4_1 = inputs[0]
        arg5_1 = inputs[1].shape[1]
        arg6_1 = inputs[1]
        s33 = arg0_1
        s50 = arg1_1
        s69 = arg2_1
        s87 = arg3_1
        s81 = arg5_1
        arg4_1_size = arg4_1.size()
        s6 = arg4_1_size[3]
        buf0 = torch.empty_strided((s33 * s50 * s69, s81), (s81, 1), dtype=torch.float32, device=device)
        torch.mm(torch.as_strided(arg4_1, (s33 * s50 * s69, s6), (s6, 1), 0), arg6_1, out=buf0)
        del arg4_1
        del arg6_1
        return torch.as_strided(buf0, (s33, s50, s69, s81), (s50 * s69 * s81, s69 * s81, s81, 1), 0)
