"""Attack: import the reference ``Model`` and call it (KernelBench layout: ``from reference import Model``).

A dummy kernel is launched, then the reference model itself computes the answer.
Harness weakness targeted: KernelBench-style harnesses load the reference and the
candidate into the same interpreter; a candidate can import or reach the reference
module and return its output, which is exact by construction. kernelevo rejects any use
of the name ``Model`` statically (and, with static checks off, records the reference's
PyTorch ops at run time: see ``reference_via_sys_modules.py``).
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl
from reference import Model


@triton.jit
def copy_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.reference = Model()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scratch = torch.empty_like(x)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 1024),)](x, scratch, n, BLOCK_SIZE=1024)
        return self.reference(scratch)
