"""Each row of 12 x 5000 fp32 divided by its L1 norm (KernelBench level 1 38's structure).

Tests only: sizes the CPU interpreter runs in seconds."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x / torch.sum(torch.abs(x), dim=1, keepdim=True)

batch_size = 12
dim = 5000


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 8, "dim": 1000},
        "odd": {"batch_size": 5, "dim": 1531}},
}
