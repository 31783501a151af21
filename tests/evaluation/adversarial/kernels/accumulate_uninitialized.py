"""Attack (a bug that passes lax harnesses): accumulate into a torch.empty_like output, i.e. read uninitialised memory.

The kernel does out += gelu(x) on a buffer that was never zeroed. Harness weakness
targeted: when the caching allocator happens to hand back zeroed memory (a fresh
process, or the same freed block of a previous correct result in KernelBench's
reference-first order), the answer is right by accident and the harness accepts a
kernel whose output depends on garbage. kernelevo poisons freed memory before every
call with a huge value (1.2345e30); adding an O(1) GELU value to it leaves it bit-exact,
so the poison check (which runs before closeness, on the very first call) fires.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_accumulate_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    acc = tl.load(out_ptr + offsets, mask=mask)  # never initialised
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tanh = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
    tl.store(out_ptr + offsets, acc + 0.5 * x * (1.0 + tanh), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        n = x.numel()
        gelu_accumulate_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK_SIZE=1024)
        return out
