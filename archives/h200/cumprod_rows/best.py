# -*- coding: utf-8 -*-
# kernelevo 0.1.0: the best kernel of a search, as a drop-in module; provenance below, one JSON value a line
# spec: "cumprod_rows"
# spec sha256: "d87cad8387b71c2c996888184ca45cc8d4b34dba39fdc2e2ea6dfd1e595f6157"
# hardware: "h200"
# made: "2026-11-27T07:07:02+00:00"
# candidate: {"run": 1, "number": 128, "operator": "template", "model": null}
# measured on: {"device": "NVIDIA H200", "host": "vm", "torch": "2.11.0+cu130", "triton": "3.6.0", "python": "3.12.3", "cuda": "13.0"}
# timings: "median 0.1300 ms (IQR 0.0011), 3.11x eager, 1.24x torch.compile, 97% of roofline (copy)"
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

@triton.jit
def select_one(x, mask, dim, keep_dims=False):
    idtype = tl.core.get_int_dtype(x.dtype.primitive_bitwidth, signed=False)
    ix = x.to(idtype, bitcast=True)
    iy = tl.sum(ix * mask, dim, keep_dims=keep_dims)
    return iy.to(x.dtype, bitcast=True)

@triton.jit
def _triton_helper_fn_mul0(arg0_0, arg1_0):
    tmp0 = arg0_0 * arg1_0
    return tmp0

@triton.autotune(configs=[triton.Config({}, num_warps=8, num_stages=1), triton.Config({}, num_warps=4, num_stages=1), triton.Config({}, num_warps=16, num_stages=1), triton.Config({}, num_warps=8, num_stages=2)], key=['ks0', 'xnumel', 'r0_numel', 'XBLOCK', 'R0_BLOCK'], do_bench=_kernelevo_autotune_bench)
@triton.jit
def triton_red_fused_cumprod_0(in_ptr0, out_ptr0, ks0, xnumel, r0_numel, XBLOCK: tl.constexpr, R0_BLOCK: tl.constexpr):
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    tmp3 = tl.full([XBLOCK, 1], float('nan'), tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + ks0 * x0), r0_mask & xmask, other=0.0)
        tmp1 = tmp0.to(tl.float32)
        tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
        tmp4, = tl.associative_scan((tmp2,), 1, _triton_helper_fn_mul0)
        tmp5 = select_one(tmp4, rbase == RBLOCK - 1, dim=-1, keep_dims=True)
        tmp6 = tmp3 * tmp5
        tmp7 = tmp3 * tmp4
        tmp8 = tl.where(roffset > 0, tmp7, tmp4)
        tmp3 = tl.where(roffset > 0, tmp6, tmp5)
        tl.store(out_ptr0 + (r0_1 + ks0 * x0), tmp8, r0_mask & xmask)


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
        triton_red_fused_cumprod_0[(s33, 1, 1)](arg2_1, buf0, s50, s33, s50, XBLOCK=1, R0_BLOCK=8192)
        del arg2_1
        return buf0
