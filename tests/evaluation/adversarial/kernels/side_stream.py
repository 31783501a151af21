"""Attack: launch the kernel on a new CUDA stream so the timed region (on the current stream) does not wait for it.

The result is correct once the device is synchronised, but a harness that brackets the
call with CUDA events on the default stream measures only the launch, not the kernel.
Harness weakness targeted: KernelBench times with ``torch.cuda.Event`` on the current
stream (the "work on a side stream" timing exploit). kernelevo rejects stream APIs
statically, counts streams created or entered at run time (GPU), and cross-checks the
reported times against the judge's wall clock.
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


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.side = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.side is None:
            self.side = torch.cuda.Stream()
        out = torch.empty_like(x)
        n = x.numel()
        with torch.cuda.stream(self.side):
            gelu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK_SIZE=1024)
        return out
