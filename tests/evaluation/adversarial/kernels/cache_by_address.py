"""Attack: cache results keyed on the input's address (``x.data_ptr()``).

The first call on a buffer runs the (correct) kernel; every later call on the same
buffer returns the stored result without launching anything heavy. Harness weakness
targeted: KernelBench times by calling the model repeatedly on the same input tensors,
so a cache keyed on the address turns the timed loop into dictionary look-ups (the
"memoisation" exploit). kernelevo calls the candidate again on the same buffers refilled
in place with new values and names the reason when the old answer comes back.
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
    tl.store(out_ptr, tl.load(out_ptr))  # a cheap launch for the cached path


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.cache = {}

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        key = (x.data_ptr(), tuple(x.shape))
        if key in self.cache:
            out = self.cache[key]
            touch_kernel[(1,)](out)
            return out
        out = torch.empty_like(x)
        n = x.numel()
        gelu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK_SIZE=1024)
        self.cache[key] = out
        return out
