"""Attack (GPU): a kernel that skips work the operator requires, so its time is under the physical floor.

For ``x * 0`` (specs/scale_by_zero.py) it writes zeros without reading x: half the bytes
the floor counts. Its outputs are right, so every correctness check passes; a harness that
only compares outputs and speeds reports a 2x "speedup" beyond the roofline. kernelevo
rejects a median below 0.8x the floor (bytes / measured copy bandwidth) as
``below_physical_floor``: the same check catches any kernel that skips required work,
whatever trick it uses.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def zeros_kernel(out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    tl.store(out_ptr + offsets, tl.zeros([BLOCK_SIZE], dtype=tl.float32), mask=offsets < n_elements)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        n = out.numel()
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)  # noqa: E731
        zeros_kernel[grid](out, n, BLOCK_SIZE=4096, num_warps=8)
        return out
