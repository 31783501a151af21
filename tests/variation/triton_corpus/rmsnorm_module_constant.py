"""RMSNorm over channels, a looped channel reduction; style: tile size as a module-level constant.

Spec: examples/rmsnorm/spec.py

Each program owns BLOCK_SIZE contiguous (h, w) positions of one image, so every load is
coalesced along H*W; it walks the C channels one at a time, first summing the squares,
then normalising and storing. The positions are masked against H*W, so any BLOCK_SIZE works.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl

BLOCK_SIZE = 512


@triton.jit
def rmsnorm_channel_loop_kernel(x_ptr, w_ptr, out_ptr, C, HW, eps, BLOCK: tl.constexpr):
    pid_hw = tl.program_id(axis=0)
    b = tl.program_id(axis=1)
    hw = pid_hw * BLOCK + tl.arange(0, BLOCK)
    mask = hw < HW
    # int64 base: B*C*H*W can pass 2**31 elements at larger sizes
    base = b.to(tl.int64) * C * HW + hw

    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for c in range(C):
        xv = tl.load(x_ptr + base + c * HW, mask=mask, other=0.0)
        acc += xv * xv
    inv_rms = tl.rsqrt(acc / C + eps)

    for c in range(C):
        offs = base + c * HW
        xv = tl.load(x_ptr + offs, mask=mask, other=0.0)
        w = tl.load(w_ptr + c)
        tl.store(out_ptr + offs, xv * inv_rms * w, mask=mask)


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
        grid = (triton.cdiv(HW, BLOCK_SIZE), B)
        rmsnorm_channel_loop_kernel[grid](
            x, self.weight, out, C, HW, self.eps, BLOCK=BLOCK_SIZE, num_warps=4
        )
        return out
