"""GroupNorm, 4 groups of 8 channels, over 2 x 32 x 12 x 20 fp32 with its affine weights.

Tests only: sizes the CPU interpreter runs in seconds."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, num_groups: int, num_features: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.gn(x)

batch_size = 2
features = 32
num_groups = 4
dim1 = 12
dim2 = 20


def get_inputs():
    return [torch.randn(batch_size, features, dim1, dim2)]


def get_init_inputs():
    return [num_groups, features]


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 2, "features": 4, "num_groups": 2, "dim1": 8, "dim2": 16},
                 "odd": {"batch_size": 3, "features": 15, "num_groups": 3, "dim1": 7, "dim2": 9}},
}
