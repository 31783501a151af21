"""Each row of 16384 x 8192 fp32 divided by its L1 norm (KernelBench level 1 38)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x / torch.sum(torch.abs(x), dim=1, keepdim=True)


batch_size = 16384
dim = 8192


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 8, "dim": 1000},
        "odd": {"batch_size": 5, "dim": 1531},
    },
}
