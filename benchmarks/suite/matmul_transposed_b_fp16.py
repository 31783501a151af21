"""fp16 A @ B.T, A 2048 x 8192 and B 4096 x 8192 (KernelBench level 1 17's size, in half precision)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B.T)


M = 2048
K = 8192
N = 4096


def get_inputs():
    return [torch.randn(M, K), torch.randn(N, K)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float16",
    "variants": {
        "small": {"M": 64, "K": 80, "N": 48},
        "odd": {"M": 33, "K": 70, "N": 45},
    },
}
