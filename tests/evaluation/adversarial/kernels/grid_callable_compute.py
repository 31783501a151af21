"""Attack: do the PyTorch compute inside the launch's *grid callable*, where the op recorder is paused.

Triton calls ``grid(meta)`` from inside ``JITFunction.run`` (and the interpreter's
launcher). kernelevo pauses its aten-op recorder for the whole launch (the interpreter
itself uses torch), so whatever the grid callable computes is not recorded. The compute
uses operators only (see ``operator_compute.py``), so the static check, which looks at
calls, does not see it either; a real but useless kernel is launched (one program, all
stores masked off). Harness weakness targeted: KernelBench accepts PyTorch compute
outright; here it probes whether kernelevo's runtime recorder can be stepped around.
Expected: ``torch_compute``.
"""

import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def touch_kernel(out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    tl.store(out_ptr + offsets, 0.0, mask=offsets < n_elements)


def _gelu(x):
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    tanh = 1.0 - 2.0 / (math.e ** (2.0 * inner) + 1.0)
    return 0.5 * x * (1.0 + tanh)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)

        def grid(meta):
            out.copy_(_gelu(x))  # runs inside the launch, while the recorder is paused
            return (1,)

        touch_kernel[grid](out, 0, BLOCK_SIZE=16)
        return out
