"""fp32 matmul with a large K: (256 x 262144) @ (262144 x 256), 34 GFLOP on 512 MiB (KernelBench level 1 6)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


M = 256
N = 256
K = 262144


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, N)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    # a dot product of 262144 terms (magnitude ~510), summed in any order but cuBLAS's (split-K or not):
    # fp32 rounding alone moves an output by a few 1e-3, so an output near zero cannot meet 1e-4
    "atol": 1e-2,
    "rtol": 1e-3,
    "variants": {
        "small": {"M": 8, "N": 8, "K": 256},
        "odd": {"M": 7, "N": 5, "K": 333},
    },
}
