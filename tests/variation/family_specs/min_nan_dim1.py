"""Min over the middle dim of 3 x 40 x 24 fp32 with NaNs in a few columns: torch.min propagates NaN, so
the family's columns kernel must too.

Tests only: sizes the CPU interpreter runs in seconds."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.min(x, dim=1).values


batch_size = 3
dim1 = 40
dim2 = 24


def get_inputs():
    x = torch.randn(batch_size, dim1, dim2)
    x[0, dim1 - 1, 0] = float("nan")  # the last element of a column
    x[-1, dim1 // 2, dim2 // 2] = float("nan")
    return [x]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 2, "dim1": 10, "dim2": 16},
        "odd": {"batch_size": 3, "dim1": 19, "dim2": 37}},
}
