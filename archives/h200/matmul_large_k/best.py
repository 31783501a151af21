# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "matmul_large_k"
# spec sha256: "83d4d7993d2ff8990fb19517944143c16d62c8dfa61b7c8e4710b03d127b32d3"
# hardware: "h200"
# made: "2026-11-26T23:42:17+00:00"
# candidate: {"run": 1, "number": 0, "operator": "seed", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.6665 ms (IQR 0.0016), 1.00x eager, 1.00x torch.compile, 18% of roofline (read)"
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
        if sizes == ((256, 262144), (262144, 256)):
            return self._sizes_0(*inputs)
        if sizes == ((8, 256), (256, 8)):
            return self._sizes_1(*inputs)
        if sizes == ((7, 333), (333, 5)):
            return self._sizes_2(*inputs)
        return self._generic(*inputs)

    def _sizes_0(self, *inputs):
        device = inputs[0].device
        arg0_1 = inputs[0]
        arg1_1 = inputs[1]
        buf0 = torch.empty_strided((256, 256), (256, 1), dtype=torch.float32, device=device)
        torch.mm(arg0_1, arg1_1, out=buf0)
        del arg0_1
        del arg1_1
        return buf0

    def _sizes_1(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        arg1_1 = inputs[1]
        buf0 = torch.empty_strided((8, 8), (8, 1), dtype=torch.float32, device=device)
        torch.mm(arg0_1, arg1_1, out=buf0)
        del arg0_1
        del arg1_1
        return buf0

    def _sizes_2(self, *inputs):  # kernelevo: keep (the timing never runs these sizes)
        device = inputs[0].device
        arg0_1 = inputs[0]
        arg1_1 = inputs[1]
        buf0 = torch.empty_strided((7, 5), (5, 1), dtype=torch.float32, device=device)
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
