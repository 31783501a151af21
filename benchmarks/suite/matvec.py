"""fp32 matrix-vector product (2048 x 131072) @ (131072 x 1): 1 GiB of matrix read once (KernelBench level 1 4)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


M = 2048
K = 131072


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, 1)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    # a dot product of 131072 terms (magnitude ~360), summed in any order but cuBLAS's: fp32 rounding alone
    # moves an output by up to ~1e-3, so an output near zero cannot meet 1e-4
    "atol": 1e-2,
    "rtol": 1e-3,
    "variants": {
        "small": {"M": 16, "K": 256},
        "odd": {"M": 7, "K": 333},
    },
}
