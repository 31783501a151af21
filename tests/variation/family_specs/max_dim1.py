"""Max over the middle dim of 3 x 50 x 40 fp32 (its values; KernelBench level 1 49's structure).

Tests only: sizes the CPU interpreter runs in seconds."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.max(x, dim=1).values


batch_size = 3
dim1 = 50
dim2 = 40


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "atol": 1e-3,
    "rtol": 1e-3,
    "variants": {
        "small": {"batch_size": 2, "dim1": 10, "dim2": 24},
        "odd": {"batch_size": 3, "dim1": 57, "dim2": 37}},
}
