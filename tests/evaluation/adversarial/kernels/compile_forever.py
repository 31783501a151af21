"""Compile timeout (GPU): a tl.static_range unrolled two million times.

The unroll makes Triton's front end emit millions of operations, so compiling never
ends in practice. Harness weakness targeted: harnesses without a compile time limit
(KernelBench compiles in the evaluating process with no watchdog) stall on such a
kernel. kernelevo announces each compile to the judge, which kills the child at the
compile limit and reports compile_timeout.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr, UNROLL: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    acc = x
    for i in tl.static_range(UNROLL):
        acc = acc * 0.5 + x
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tanh = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
    tl.store(out_ptr + offsets, 0.5 * x * (1.0 + tanh) + 0.0 * acc, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        n = x.numel()
        gelu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK_SIZE=1024, UNROLL=2_000_000)
        return out
