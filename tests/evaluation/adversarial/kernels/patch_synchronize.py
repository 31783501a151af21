"""Attack: replace torch.cuda.synchronize with a no-op (and shrink Event.elapsed_time).

Harness weakness targeted: KernelBench-style timing calls torch.cuda.synchronize()
around the timed region and reads Event.elapsed_time; both are Python attributes the
candidate, imported into the same process, can replace, so the "time" becomes launch
overhead or whatever the patch says. The kernel itself is correct. kernelevo rejects
assignments into library namespaces statically and snapshots the identities of the
timing functions at run time.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl

_real_elapsed = torch.cuda.Event.elapsed_time
torch.cuda.synchronize = lambda *args, **kwargs: None
torch.cuda.Event.elapsed_time = lambda self, end: 0.1 * _real_elapsed(self, end)


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
        out = torch.empty_like(x)
        n = x.numel()
        gelu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK_SIZE=1024)
        return out
