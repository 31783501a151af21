"""RMSNorm over channels, looped channel reduction; style: tile size as a tl.constexpr default in the kernel signature.

Spec: examples/rmsnorm/spec.py

The launch never names BLOCK, so the kernel's own default decides how many contiguous
(h, w) positions a program owns. The grid is (B, blocks of positions): the program walks
the C channels twice (sum of squares, then normalise and store); the positions are masked
against H*W, so any BLOCK works.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rmsnorm_default_block_kernel(x_ptr, w_ptr, out_ptr, C, HW, n_blocks, eps, BLOCK: tl.constexpr = 256):
    b = tl.program_id(axis=0)
    # a grid-stride loop over the image's blocks of positions: the host launches at most
    # n_blocks programs per image, whatever BLOCK is
    for blk in range(tl.program_id(axis=1), tl.cdiv(HW, BLOCK), n_blocks):
        hw = blk * BLOCK + tl.arange(0, BLOCK)
        mask = hw < HW
        # int64 base: B*C*H*W can pass 2**31 elements at larger sizes
        base = b.to(tl.int64) * C * HW + hw

        sum_sq = tl.zeros([BLOCK], dtype=tl.float32)
        for c in range(C):
            xv = tl.load(x_ptr + base + c * HW, mask=mask, other=0.0)
            sum_sq += xv * xv
        inv_rms = tl.rsqrt(sum_sq / C + eps)

        for c in range(C):
            xv = tl.load(x_ptr + base + c * HW, mask=mask, other=0.0)
            w = tl.load(w_ptr + c)
            tl.store(out_ptr + base + c * HW, xv * inv_rms * w, mask=mask)


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
        out = torch.empty_like(x)
        # the host does not know BLOCK: it launches one program per 64 positions (at
        # least one), and each program strides over the blocks left for its image
        n_blocks = triton.cdiv(HW, 64)
        rmsnorm_default_block_kernel[(B, n_blocks)](x, self.weight, out, C, HW, n_blocks, self.eps, num_warps=4)
        return out
