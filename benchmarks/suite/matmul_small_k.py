"""fp32 matmul with a small K: (16384 x 64) @ (64 x 16384), bound by its 1 GiB output (KernelBench level 1 7)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


M = 16384
N = 16384
K = 64


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, N)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"M": 32, "N": 48, "K": 16},
        "odd": {"M": 33, "N": 45, "K": 7},
    },
}
