"""Linear 4096 -> 8192 on 2048 rows, BatchNorm1d in training mode, GELU, ReLU, fp32 (KernelBench level 2 style)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.batch_norm = nn.BatchNorm1d(out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.gemm(x)
        x = self.batch_norm(x)
        x = torch.nn.functional.gelu(x)
        return torch.relu(x)


batch_size = 2048
in_features = 4096
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
