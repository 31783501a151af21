"""Tall-skinny fp32 matmul (16384 x 32) @ (32 x 16384): a 1 GiB output from K = 32 (KernelBench level 1 9)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


M = 16384
N = 32


def get_inputs():
    return [torch.randn(M, N), torch.randn(N, M)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"M": 64, "N": 8},
        "odd": {"M": 45, "N": 7},
    },
}
