"""Static rejection: hide PyTorch compute from the source's AST inside exec of a string.

The string computes F.gelu; a copy kernel is launched for show. Harness weakness
targeted: source-level filters (grep for torch.nn.functional) miss compute built
from strings. kernelevo rejects exec/eval/compile/__import__ statically.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl

_HIDDEN = "import torch.nn.functional as F\nresult = F.gelu(x, approximate='tanh')"


@triton.jit
def copy_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scope = {"x": x}
        exec(_HIDDEN, scope)
        out = torch.empty_like(x)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 1024),)](scope["result"], out, n, BLOCK_SIZE=1024)
        return out
