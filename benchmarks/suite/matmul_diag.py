"""fp32 diag(A) @ B, A of 4096 and B 4096 x 8192: a 275 GFLOP reference for a row scaling (KernelBench level 1 12)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.diag(A) @ B


N = 4096
M = 8192


def get_inputs():
    return [torch.randn(N), torch.randn(N, M)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"N": 32, "M": 64},
        "odd": {"N": 33, "M": 45},
    },
}
