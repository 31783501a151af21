"""fp16 Linear 8192 -> 8192 on 1024 rows, times a scalar, then LeakyReLU (KernelBench level 2 12's pattern)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, multiplier: float, negative_slope: float):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.multiplier = multiplier
        self.leaky_relu = nn.LeakyReLU(negative_slope)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.leaky_relu(self.gemm(x) * self.multiplier)


batch_size = 1024
in_features = 8192
out_features = 8192


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, 2.0, 0.1]


KERNELEVO = {
    "dtype": "float16",
    "variants": {
        "small": {"batch_size": 64, "in_features": 80, "out_features": 48},
        "odd": {"batch_size": 33, "in_features": 70, "out_features": 45},
    },
}
