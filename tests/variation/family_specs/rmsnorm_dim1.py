"""RMSNorm over the channels (dim 1) of 2 x 20 x 12 x 30 fp32, as KernelBench level 1 36 writes it.

Tests only: sizes the CPU interpreter runs in seconds."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-5):
        super().__init__()
        self.num_features = num_features
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rms = torch.sqrt(torch.mean(x ** 2, dim=1, keepdim=True) + self.eps)
        return x / rms

batch_size = 2
features = 20
dim1 = 12
dim2 = 30


def get_inputs():
    return [torch.randn(batch_size, features, dim1, dim2)]


def get_init_inputs():
    return [features]


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 2, "features": 4, "dim1": 8, "dim2": 16},
        "odd": {"batch_size": 3, "features": 5, "dim1": 7, "dim2": 33}},
}
