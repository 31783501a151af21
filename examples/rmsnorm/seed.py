"""A first Triton RMSNorm over channels: one program per block of H*W positions of one image.

Positions are contiguous in memory within a channel plane, so a block of them is one
coalesced load per channel; the program walks the C channels (stride H*W) in chunks of
BLOCK_C, first to sum the squares, then again to normalise and store. The second pass
reads x again (from L2 when the tile is still there).
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rmsnorm_kernel(
    x_ptr, w_ptr, out_ptr, C, HW, eps,
    BLOCK_C: tl.constexpr, BLOCK_HW: tl.constexpr,
):
    pid_hw = tl.program_id(axis=0)
    b = tl.program_id(axis=1)
    hw = pid_hw * BLOCK_HW + tl.arange(0, BLOCK_HW)
    hw_mask = hw < HW
    # int64 base: B*C*H*W can pass 2**31 elements at larger sizes
    base = b.to(tl.int64) * C * HW
    chans = tl.arange(0, BLOCK_C)

    # pass 1: sum of squares over all channels, per position, in fp32
    acc = tl.zeros([BLOCK_C, BLOCK_HW], dtype=tl.float32)
    for c0 in range(0, C, BLOCK_C):
        c = c0 + chans
        mask = (c < C)[:, None] & hw_mask[None, :]
        x = tl.load(x_ptr + base + c[:, None] * HW + hw[None, :], mask=mask, other=0.0)
        acc += x * x
    mean_sq = tl.sum(acc, axis=0) / C
    rms = tl.sqrt(mean_sq + eps)

    # pass 2: normalise and scale by the per-channel weight
    for c0 in range(0, C, BLOCK_C):
        c = c0 + chans
        c_mask = c < C
        mask = c_mask[:, None] & hw_mask[None, :]
        offs = base + c[:, None] * HW + hw[None, :]
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        w = tl.load(w_ptr + c, mask=c_mask, other=0.0)
        tl.store(out_ptr + offs, x / rms[None, :] * w[:, None], mask=mask)


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
        grid = lambda meta: (triton.cdiv(HW, meta["BLOCK_HW"]), B)  # noqa: E731
        rmsnorm_kernel[grid](
            x, self.weight, out, C, HW, self.eps, BLOCK_C=8, BLOCK_HW=256, num_warps=4
        )
        return out
