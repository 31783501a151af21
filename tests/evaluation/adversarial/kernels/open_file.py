"""Static rejection: open() a file, to read answers stashed on disk or leak the hidden inputs.

The candidate writes every input it sees to a file (so a later candidate, or the
person running the search, could precompute answers) and reads back a stash if one
exists. Harness weakness targeted: harnesses that run candidates with the evaluator's
file-system access, where reference outputs and cached inputs sit next to the
candidate. kernelevo rejects open and file/network modules statically.
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

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        with open("/tmp/kernelevo_seen_inputs.txt", "a") as log:
            log.write(repr(x.shape) + "\n")
        out = torch.empty_like(x)
        n = x.numel()
        gelu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK_SIZE=1024)
        return out
