"""Attack: hard-code the output shape (4 x 1000) as well as the element count.

Harness weakness targeted: single-shape correctness checks (KernelBench tests only the
shape its get_inputs makes). kernelevo checks every variant; on "odd" (3 x 1531) the
returned tensor has the wrong shape.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl

SHAPE = (4, 1000)
N_ELEMENTS = 4000


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

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty(SHAPE, device=x.device, dtype=x.dtype)
        gelu_kernel[(4,)](x, out, N_ELEMENTS, BLOCK_SIZE=1024)
        return out
