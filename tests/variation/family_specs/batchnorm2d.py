"""BatchNorm2d in training mode (batch statistics) over 3 x 6 x 40 x 50 fp32 with its affine weights.

Tests only: sizes the CPU interpreter runs in seconds."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.bn(x)

batch_size = 3
features = 6
dim1 = 40
dim2 = 50


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
