"""A single-pass RMSNorm over channels: all C channels of a block of positions held in registers.

The first seed walks the channels twice, once to sum the squares and once to normalise,
so x goes through the memory system twice (the second time from L2 if the tile is still
there). Here ``BLOCK_C = next_power_of_2(C)`` covers every channel, so a program loads its
whole (C, BLOCK_HW) tile once, reduces it over the channel axis, and writes the result
from the same registers: the minimum 4 bytes in and 4 out per element, which on an H200
(memory-bound, ~4.3 TB/s) is what the time is made of. Loads stay coalesced: each channel
row of the tile is BLOCK_HW contiguous floats. The price is C * BLOCK_HW live values per
program, 128 x 64 = 32 per thread at the default size with 8 warps; a much larger C
would need a smaller BLOCK_HW (or spill), which is what tuning BLOCK_HW trades.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rmsnorm_single_pass_kernel(
    x_ptr, w_ptr, out_ptr, C, HW, eps,
    BLOCK_C: tl.constexpr, BLOCK_HW: tl.constexpr,
):
    pid_hw = tl.program_id(axis=0)
    b = tl.program_id(axis=1)
    hw = pid_hw * BLOCK_HW + tl.arange(0, BLOCK_HW)
    c = tl.arange(0, BLOCK_C)
    c_mask = c < C
    mask = c_mask[:, None] & (hw < HW)[None, :]
    # int64 base: B*C*H*W can pass 2**31 elements at larger sizes
    offs = b.to(tl.int64) * C * HW + c[:, None] * HW + hw[None, :]

    # the one read of x: every channel of BLOCK_HW positions; padded channels load 0 and add nothing
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    w = tl.load(w_ptr + c, mask=c_mask, other=0.0)
    mean_sq = tl.sum(x * x, axis=0) / C
    # one reciprocal square root per position, then multiplies only
    inv_rms = tl.rsqrt(mean_sq + eps)
    tl.store(out_ptr + offs, x * inv_rms[None, :] * w[:, None], mask=mask)


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
        # the whole channel axis in one tile: 128 at the default size, 16 and 8 for the small ones
        BLOCK_C = triton.next_power_of_2(C)
        grid = lambda meta: (triton.cdiv(HW, meta["BLOCK_HW"]), B)  # noqa: E731
        rmsnorm_single_pass_kernel[grid](
            x, self.weight, out, C, HW, self.eps, BLOCK_C=BLOCK_C, BLOCK_HW=64, num_warps=8
        )
        return out
