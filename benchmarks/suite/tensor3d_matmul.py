"""fp32 3D tensor times matrix: (16 x 1024 x 2048) @ (2048 x 768), 51 GFLOP (KernelBench level 1 10's size)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


N = 16
M = 1024
K = 2048
L = 768


def get_inputs():
    return [torch.randn(N, M, K), torch.randn(K, L)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    # dot products of 2048 randn terms (magnitude ~45): fp32 rounding puts the CPU's own answer up to 1.2e-4
    # from the exact one, so two correct orders of summation (cuBLAS's and a kernel's) can miss 1e-4 apart
    "atol": 1e-3,
    "rtol": 1e-3,
    "variants": {
        "small": {"N": 2, "M": 8, "K": 16, "L": 24},
        "odd": {"N": 3, "M": 7, "K": 15, "L": 9},
    },
}
