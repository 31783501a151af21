"""Attack: compute once and return the same cached tensor on every later call, whatever the input.

Harness weakness targeted: KernelBench checks correctness on a few input sets generated
up front, then times repeated calls on one fixed input; a candidate that is right on the
first call and returns the stored tensor afterwards looks infinitely fast in the timed
loop. kernelevo checks several calls per variant (fresh inputs, the same buffers refilled,
the first inputs again); the second call (same buffers, new values) gets the old answer
back, which the judge recognises as the first call's result: ``cached_output``.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tanh = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
    tl.store(out_ptr + offsets, 0.5 * x * (1.0 + tanh), mask=mask)


@triton.jit
def touch_kernel(out_ptr):
    tl.store(out_ptr, tl.load(out_ptr))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.result = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.result is not None:
            touch_kernel[(1,)](self.result)
            return self.result
        out = torch.empty_like(x)
        n = x.numel()
        gelu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK_SIZE=1024)
        self.result = out
        return out
