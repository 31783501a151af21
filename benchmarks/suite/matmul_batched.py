"""Batched fp32 matmul: 128 x (512 x 1024) @ (1024 x 2048) (KernelBench level 1 3's size): 275 GFLOP."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.bmm(A, B)


batch_size = 128
m = 512
k = 1024
n = 2048


def get_inputs():
    return [torch.randn(batch_size, m, k), torch.randn(batch_size, k, n)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    # dot products of 1024 randn terms (magnitude ~32): fp32 rounding puts the CPU's own answer up to 1.1e-4
    # from the exact one, so two correct orders of summation (cuBLAS's and a kernel's) can miss 1e-4 apart
    "atol": 1e-3,
    "rtol": 1e-3,
    "variants": {
        "small": {"batch_size": 2, "m": 16, "k": 24, "n": 32},
        "odd": {"batch_size": 3, "m": 15, "k": 21, "n": 33},
    },
}
