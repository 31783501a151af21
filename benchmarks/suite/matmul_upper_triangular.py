"""fp32 product of two upper-triangular 4096 x 4096 matrices, kept upper-triangular (KernelBench level 1 14)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.triu(torch.matmul(A, B))


N = 4096


def get_inputs():
    return [torch.triu(torch.randn(N, N)), torch.triu(torch.randn(N, N))]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    # dot products of up to 4096 randn terms (magnitude up to ~64): fp32 rounding puts the CPU's own answer up to 1.2e-4
    # from the exact one, so two correct orders of summation (cuBLAS's and a kernel's) can miss 1e-4 apart
    "atol": 1e-3,
    "rtol": 1e-3,
    "variants": {
        "small": {"N": 32},
        "odd": {"N": 45},
    },
}
