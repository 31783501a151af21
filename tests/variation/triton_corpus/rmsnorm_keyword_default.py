"""RMSNorm over channels, one position per program; style: tile size and warps as keyword defaults of a host helper.

Spec: examples/rmsnorm/spec.py

Each program normalises the C channel values of one (b, h, w) position, strided by H*W,
in two passes over chunks of BLOCK channels. The chunks are masked against C, so any
block works, from one channel at a time to all of them at once.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rmsnorm_position_kernel(x_ptr, w_ptr, out_ptr, C, HW, eps, BLOCK: tl.constexpr):
    pos = tl.program_id(axis=0).to(tl.int64)  # b * HW + hw
    base = (pos // HW) * C * HW + pos % HW
    chans = tl.arange(0, BLOCK)

    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for c0 in range(0, C, BLOCK):
        c = c0 + chans
        xv = tl.load(x_ptr + base + c.to(tl.int64) * HW, mask=c < C, other=0.0)
        acc += xv * xv
    inv_rms = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / C + eps)

    for c0 in range(0, C, BLOCK):
        c = c0 + chans
        c_mask = c < C
        offs = base + c.to(tl.int64) * HW
        xv = tl.load(x_ptr + offs, mask=c_mask, other=0.0)
        w = tl.load(w_ptr + c, mask=c_mask, other=0.0)
        tl.store(out_ptr + offs, xv * inv_rms * w, mask=c_mask)


def _launch(x, w, eps, block=512, warps=4):
    x = x.contiguous()
    B, C, H, W = x.shape
    HW = H * W
    out = torch.empty_like(x)
    rmsnorm_position_kernel[(B * HW,)](x, w, out, C, HW, eps, BLOCK=block, num_warps=warps)
    return out


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        # same name and shape as the reference's, so the evaluator copies its values in
        self.weight = nn.Parameter(torch.ones(num_features))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _launch(x, self.weight, self.eps)
