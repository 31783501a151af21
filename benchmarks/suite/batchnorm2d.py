"""BatchNorm2d in training mode (batch statistics) over 16 x 64 x 256 x 256 fp32, with its affine weights."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.bn(x)


batch_size = 16
features = 64
dim1 = 256
dim2 = 256


def get_inputs():
    return [torch.randn(batch_size, features, dim1, dim2)]


def get_init_inputs():
    return [features]


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 2, "features": 4, "dim1": 8, "dim2": 16},
        "odd": {"batch_size": 3, "features": 5, "dim1": 7, "dim2": 33},
    },
}
