"""Static rejection: ModelNew with no @triton.jit kernel at all, computing in plain PyTorch.

The formula is written out with tensor operators (no named torch function), the kind of
"optimisation" an LLM produces when asked for a faster kernel. Harness weakness
targeted: KernelBench accepts any ModelNew whose output matches. kernelevo requires
at least one Triton kernel in the source.
"""

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
        return 0.5 * x * (1.0 + inner.tanh())
