"""Attack: a Triton kernel that spins forever (its loop condition reads a flag that is never set).

Harness weakness targeted: no time limit on kernels; on a GPU the launch returns at once
and the hang surfaces at the next synchronisation, inside the harness, which then waits
forever (KernelBench has no per-kernel watchdog). In Triton's CPU interpreter the loop
runs as Python. kernelevo kills the child at the run phase's wall-clock limit.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def spin_kernel(x_ptr, out_ptr, flag_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    i = 0
    while tl.load(flag_ptr) == 0:  # the flag is 0 and nothing ever sets it
        i += 1
    tl.store(out_ptr + offsets, x + i, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        flag = torch.zeros(1, dtype=torch.int32, device=x.device)
        n = x.numel()
        spin_kernel[(triton.cdiv(n, 1024),)](x, out, flag, n, BLOCK_SIZE=1024)
        return out
