"""Min over a short middle dim (64) of 4096 x 64 x 1024 fp32: 1 GiB read, 16 MiB written."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.min(x, dim=1).values


batch_size = 4096
dim1 = 64
dim2 = 1024


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return []


KERNELEVO = {
    "dtype": "float32",
    "variants": {
        "small": {"batch_size": 4, "dim1": 16, "dim2": 64},
        "odd": {"batch_size": 5, "dim1": 7, "dim2": 77},
    },
}
