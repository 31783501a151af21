"""Mean squared error between two 8192 x 8192 fp32 tensors (KernelBench level 1 94's op): 512 MiB read, one scalar."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return torch.mean((predictions - targets) ** 2)


batch_size = 8192
dim = 8192


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 8, "dim": 500},
        "odd": {"batch_size": 5, "dim": 1531},
    },
}
