"""Square fp32 matmul C = A @ B with N = 4096 (KernelBench level 1 1's size): 137 GFLOP."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


N = 4096


def get_inputs():
    return [torch.randn(N, N), torch.randn(N, N)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    # dot products of 4096 randn terms (magnitude ~64): fp32 rounding puts the CPU's own answer up to 1.9e-4
    # from the exact one, so two correct orders of summation (cuBLAS's and a kernel's) can miss 1e-4 apart
    "atol": 1e-3,
    "rtol": 1e-3,
    "variants": {
        "small": {"N": 32},
        "odd": {"N": 45},
    },
}
