"""Mean over the last (contiguous) dim of 4 x 6 x 5000 fp32.

Tests only: sizes the CPU interpreter runs in seconds."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.mean(x, dim=-1)


batch_size = 4
dim1 = 6
dim2 = 5000


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
