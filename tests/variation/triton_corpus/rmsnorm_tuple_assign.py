"""RMSNorm over channels, LayerNorm-style rows; style: tile sizes from a tuple assignment in forward.

Spec: examples/rmsnorm/spec.py

A "row" is the C channel values at one (b, h, w) position, strided by H*W in memory. Each
program takes NCH consecutive rows and, for each, makes two passes over it in chunks of
BLOCK channels: one to sum the squares, one to normalise and store. Any BLOCK and any NCH
work: the channel chunks are masked against C, and rows past the last one are masked off.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rmsnorm_rows_kernel(
    x_ptr, w_ptr, out_ptr, n_rows, C, HW, eps,
    NCH: tl.constexpr, BLOCK: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    for i in range(NCH):
        # int64 row index: B*H*W*C can pass 2**31 elements at larger sizes
        row = pid.to(tl.int64) * NCH + i
        # the row's validity as a vector: Triton 3.9's interpreter turns a scalar comparison
        # and-ed into a vector mask into an int32 mask, which its loads reject
        row_ok = (row + tl.zeros([BLOCK], dtype=tl.int64)) < n_rows
        b = row // HW
        hw = row % HW
        base = b * C * HW + hw

        # pass 1: sum of squares over the row's channels, in chunks of BLOCK
        acc = tl.zeros([BLOCK], dtype=tl.float32)
        for c0 in range(0, C, BLOCK):
            c = c0 + cols
            mask = (c < C) & row_ok
            xv = tl.load(x_ptr + base + c.to(tl.int64) * HW, mask=mask, other=0.0)
            acc += xv * xv
        rms = tl.sqrt(tl.sum(acc, axis=0) / C + eps)

        # pass 2: normalise and scale by the per-channel weight
        for c0 in range(0, C, BLOCK):
            c = c0 + cols
            c_mask = c < C
            mask = c_mask & row_ok
            offs = base + c.to(tl.int64) * HW
            xv = tl.load(x_ptr + offs, mask=mask, other=0.0)
            w = tl.load(w_ptr + c, mask=c_mask, other=0.0)
            tl.store(out_ptr + offs, xv / rms * w, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        # same name and shape as the reference's, so the evaluator copies its values in
        self.weight = nn.Parameter(torch.ones(num_features))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        B, C, H, W = x.shape
        HW = H * W
        n_rows = B * HW
        out = torch.empty_like(x)
        NCH, BLOCK = 2, 1024
        grid = (triton.cdiv(n_rows, NCH),)
        rmsnorm_rows_kernel[grid](
            x, self.weight, out, n_rows, C, HW, self.eps,
            NCH=NCH, BLOCK=BLOCK, num_warps=8,
        )
        return out
