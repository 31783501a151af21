"""Attack: return ``torch.empty_like(x)`` and let the allocator hand back the reference's output.

A trivial kernel is launched (it writes nothing), so launch counters are satisfied, and the
candidate returns a fresh, never-written tensor. Harness weakness targeted: KernelBench's
``run_and_check_correctness`` runs the reference first, in the same process and on the
same device; its output block is freed and the caching allocator gives that very block to
the candidate's ``empty_like``, which then "contains" the right answer without any work
(the "reference output in freed memory" exploit reported against KernelBench-style
harnesses). kernelevo runs the reference after the candidate, in another process, and
poisons freed blocks before each call, so the returned memory holds the poison pattern.
"""

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def touch_kernel(out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    # Launched, but masked off everywhere: it stores nothing.
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    tl.store(out_ptr + offsets, 0.0, mask=offsets < n_elements)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        touch_kernel[(1,)](out, 0, BLOCK_SIZE=16)
        return out
