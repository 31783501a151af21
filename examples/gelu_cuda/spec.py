"""Tanh-approximated GELU over a large fp32 matrix, for CUDA C++ kernels: memory-bound on any GPU.

The problem is ``examples/gelu``'s (same reference, sizes and variants); only the target
language differs: candidates launch their own ``__global__`` kernels, through CuPy
(NVRTC) or KernelBench's ``torch.utils.cpp_extension.load_inline``.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.gelu(x, approximate="tanh")


batch_size = 8192
dim = 16384


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "language": "cuda",
    "variants": {
        "small": {"batch_size": 4, "dim": 1000},
        # 4593 elements: not a multiple of 4, so a float4 kernel needs its scalar tail
        "odd": {"batch_size": 3, "dim": 1531},
    },
    "seeds": ["seed.py", "seed_load_inline.py"],
}
