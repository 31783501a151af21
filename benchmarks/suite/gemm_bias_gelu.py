"""fp16 Linear 4096 -> 4096 on 4096 rows, then tanh GELU (a GEMM with a fused epilogue)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.gelu(self.linear(x), approximate="tanh")


M = 4096
K = 4096
N = 4096


def get_inputs():
    return [torch.randn(M, K)]


def get_init_inputs():
    return [K, N]


KERNELEVO = {
    "dtype": "float16",
    "variants": {
        "small": {"M": 64, "K": 80, "N": 48},
        "odd": {"M": 33, "K": 70, "N": 45},
    },
}
