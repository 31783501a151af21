"""Min over the last two dims of 5 x 70 x 90 fp32 (6,300 elements per row, two chunks).

Tests only: sizes the CPU interpreter runs in seconds."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.amin(x, dim=(1, 2))


batch_size = 5
dim1 = 70
dim2 = 90


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "atol": 1e-3,
    "rtol": 1e-3,
    "variants": {
        "small": {"batch_size": 2, "dim1": 3, "dim2": 100},
        "odd": {"batch_size": 3, "dim1": 7, "dim2": 257}},
}
