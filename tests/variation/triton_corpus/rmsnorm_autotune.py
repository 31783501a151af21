"""RMSNorm over channels, a looped channel reduction; style: tile size and warps from @triton.autotune configs.

Spec: examples/rmsnorm/spec.py

The tensor is read as B images of C rows of n_cols = H*W contiguous positions. A 1-D grid
covers every (image, block of BLOCK positions) pair; each program sums the squares over
the C channels of its positions, then normalises and stores them. The autotuner picks
BLOCK and num_warps per n_cols; the positions are masked, so any BLOCK works.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK": 256}, num_warps=2),
        triton.Config({"BLOCK": 1024}, num_warps=4),
    ],
    # the output is overwritten in full, so the timing runs leave nothing to restore
    key=["n_cols"],
)
@triton.jit
def rmsnorm_autotuned_kernel(x_ptr, w_ptr, out_ptr, C, n_cols, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    blocks_per_image = tl.cdiv(n_cols, BLOCK)
    b = pid // blocks_per_image
    blk = pid % blocks_per_image
    cols = blk * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    # int64 base: B*C*H*W can pass 2**31 elements at larger sizes
    ptrs = x_ptr + b.to(tl.int64) * C * n_cols + cols
    out_ptrs = out_ptr + b.to(tl.int64) * C * n_cols + cols

    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for c in range(C):
        xv = tl.load(ptrs + c * n_cols, mask=mask, other=0.0)
        acc += xv * xv
    rms = tl.sqrt(acc / C + eps)

    for c in range(C):
        xv = tl.load(ptrs + c * n_cols, mask=mask, other=0.0)
        w = tl.load(w_ptr + c)
        tl.store(out_ptrs + c * n_cols, xv / rms * w, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        # same name and shape as the reference's, so the evaluator copies its values in
        self.weight = nn.Parameter(torch.ones(num_features))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        B, C, H, W = x.shape
        n_cols = H * W
        out = torch.empty_like(x)
        # the autotuner passes each config's BLOCK as the meta-parameter the grid reads
        grid = lambda meta: (B * triton.cdiv(n_cols, meta["BLOCK"]),)  # noqa: E731
        rmsnorm_autotuned_kernel[grid](x, self.weight, out, C, n_cols, self.eps)
        return out
