"""Linear 8192 -> 8192 on 1024 rows, GroupNorm(16), Swish, times a weight, Swish, fp32 (KernelBench level 2 88)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, num_groups: int):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.group_norm = nn.GroupNorm(num_groups, out_features)
        self.multiply_weight = nn.Parameter(torch.randn(out_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.gemm(x)
        x = self.group_norm(x)
        x = x * torch.sigmoid(x)
        x = x * self.multiply_weight
        return x * torch.sigmoid(x)


batch_size = 1024
in_features = 8192
out_features = 8192
num_groups = 16


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, num_groups]


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 16, "in_features": 32, "out_features": 64, "num_groups": 4},
        "odd": {"batch_size": 5, "in_features": 35, "out_features": 45, "num_groups": 3},
    },
}
