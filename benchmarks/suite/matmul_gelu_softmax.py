"""Linear 8192 -> 8192 on 1024 rows, GELU, then Softmax over each row, fp32 (KernelBench level 2 99)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.linear(x)
        x = torch.nn.functional.gelu(x)
        return torch.softmax(x, dim=1)


batch_size = 1024
in_features = 8192
out_features = 8192


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 16, "in_features": 32, "out_features": 64},
        "odd": {"batch_size": 5, "in_features": 35, "out_features": 45},
    },
}
